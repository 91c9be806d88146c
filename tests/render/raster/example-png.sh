# The README's first command: the bundled example recording collapsed and rendered as a
# PNG the size of its SVG, with the same frame count drawn (one colour run per frame).
. "$FIXTURES/../tests/render/raster/lib.bash"
flame-collapse "$FIXTURES/example/workload.perf.txt" -o example.folded || exit 1
flame-render example.folded -o example.svg && flame-render example.folded -o example.png || exit 1
is_png example.png && echo "png signature ok"
[ "$(png_size example.png)" = "$(svg_size example.svg)" ] && echo "png size = svg size"
flame-render example.folded -o example.pdf && head -c 5 example.pdf && echo
