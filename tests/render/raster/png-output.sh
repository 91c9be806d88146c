# -o x.png writes a PNG of the SVG's size; --format png to stdout gives the same bytes;
# differential input too.
. "$FIXTURES/../tests/render/raster/lib.bash"
printf 'main;a;b 30\nmain;a 60\nmain;c;d 10\nmain;c 25\nx 5\n' > in.folded
flame-render in.folded -o g.svg && flame-render in.folded -o g.png || exit 1
is_png g.png && echo "png signature ok"
[ "$(png_size g.png)" = "$(svg_size g.svg)" ] && echo "png size = svg size: $(png_size g.png)"
flame-render --format png < in.folded > stdout.png
cmp -s g.png stdout.png && echo "stdout bytes = -o bytes"
ls | grep -c tmp
printf 'main;b 10 40\nmain;c 40 10\n' > diff.folded
flame-render --title 'diff <b>' --width 800 diff.folded -o d.svg && flame-render --title 'diff <b>' --width 800 diff.folded -o d.png || exit 1
[ "$(png_size d.png)" = "$(svg_size d.svg)" ] && echo "differential png size = svg size: $(png_size d.png)"
