# AFTER carries twice the load plus one regressed function (compress): per request, only
# compress is red in the SVG, only compress is listed by --top, and the gate names it. The
# fixtures' tens of samples are scaled to tens of thousands, so the growth is beyond
# sampling noise; at the end, the same growth in the fixtures' own counts is not.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
for f in $d/load-before.folded $d/load2x-after.folded $d/load2x-regressed-after.folded; do
  awk '{ n = $NF; sub(/[0-9]+$/, n * 1000); print }' "$f" > "$f.x" && mv "$f.x" "$f"
done
red() { # frames whose fill is not white (red = grew, blue = shrank), as "name fill"
  python3 "$FIXTURES/../tests/diff/svg-fills.py" "$1"
}
flame-diff --requests 100,200 --fail-above 1 -o regressed.svg $d/load-before.folded $d/load2x-regressed-after.folded
echo "exit $?"
red regressed.svg
flame-diff --requests 100,200 --top 5 $d/load-before.folded $d/load2x-regressed-after.folded
echo "exit $?"
echo "--- without the regression"
flame-diff --requests 100,200 --fail-above 1 -o plain.svg $d/load-before.folded $d/load2x-after.folded
echo "exit $?"
red plain.svg
flame-diff --requests 100,200 --top 5 $d/load-before.folded $d/load2x-after.folded
echo "--- without --requests the doubled load is everywhere (and callers are not repeated)"
flame-diff --top 3 --fail-above 30 -o top.txt $d/load-before.folded $d/load2x-after.folded
echo "exit $?"
echo "--- two trees read at once (-j 2) give the same"
flame-diff -j 2 --requests 100,200 --fail-above 1 -o j2.svg $d/load-before.folded $d/load2x-regressed-after.folded 2>/dev/null
echo "exit $?"
cmp j2.svg regressed.svg && echo "same SVG"
echo "--- tooltips carry before, after, the change and per-request figures"
grep -o '<title>compress[^<]*</title>' regressed.svg
grep -o '<title>template[^<]*</title>' regressed.svg
echo "--- the fixtures' own counts: 25 samples per 100 requests -> 80 per 200 is within noise"
flame-diff --requests 100,200 --fail-above 1 -o small.svg "$FIXTURES"/diff/load-before.folded "$FIXTURES"/diff/load2x-regressed-after.folded
echo "exit $?"
red small.svg
