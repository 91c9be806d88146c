# Errors leave no output file behind: a graph taller than a PNG may be (32767 px), an
# unwritable directory. SVG of the same tall graph still works.
. "$FIXTURES/../tests/render/raster/lib.bash"
awk 'BEGIN { s = "f0"; for (i = 1; i < 2100; i++) s = s ";f" i; print s, 1 }' > tall.folded
flame-render tall.folded -o tall.png; echo "exit $?"
ls
flame-render tall.folded -o tall.svg; echo "svg exit $?"
flame-render --height 12 tall.folded -o short.png; echo "exit $?"; png_size short.png
flame-render tall.folded -o /nonexistent-dir/x.png 2>&1 | sed 's/tmp\.[A-Za-z0-9]*/tmp.X/'; echo "exit ${PIPESTATUS[0]}"
# within the side limit but over 1 GiB of pixels
awk 'BEGIN { s = "f0"; for (i = 1; i < 1000; i++) s = s ";f" i; print s, 1 }' > deep.folded
flame-render --width 30000 deep.folded -o big.png; echo "exit $?"; ls | grep -c "^big"
