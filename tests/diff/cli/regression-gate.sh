# AFTER carries twice the load plus one regressed function (compress): per request, only
# compress is red in the SVG, only compress is listed by --top, and the gate names it.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
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
