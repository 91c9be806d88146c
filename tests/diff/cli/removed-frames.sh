# Functions only in BEFORE (old_path -> legacy, and one hex frame) are not lost: the folded
# output keeps them with AFTER = 0, --top lists them as shrunk by 100%, and the picture,
# which gives them no width (widths are AFTER, as in flamegraph.pl), names them in its
# subtitle, callee for caller (after a user's --subtitle); --no-removed leaves it alone.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
flame-diff --format folded $d/before.folded $d/after.folded | grep ' 0$'
flame-diff --top 2 $d/before.folded $d/after.folded | grep -B3 legacy
flame-diff $d/before.folded $d/after.folded > x.svg
grep -o '<text id="subtitle"[^<]*</text>' x.svg
flame-diff --subtitle 'v1 -> v2' $d/before.folded $d/after.folded | grep -o '<text id="subtitle"[^<]*</text>'
flame-diff --no-removed $d/before.folded $d/after.folded | grep -c 'id="subtitle"'
# many removed frames: the three largest, and a count of the rest
printf 'r;a 5\nr;b 4\nr;c 3\nr;d 2\nr;e 1\nr;keep 1\n' > many.folded
printf 'r;keep 1\n' > kept.folded
flame-diff many.folded kept.folded | grep -o '<text id="subtitle"[^<]*</text>'
echo "--- a sliver of removed noise (0.27% of BEFORE, 8 frames deep) is the panel's header line, not a band as tall as the graph"
printf 'main;work;a;b;c 10000\nmain;irq;i1;i2;i3;i4;i5;i6 27\n' > tiny-before.folded
printf 'main;work;a;b;c 10000\n' > tiny-after.folded
flame-diff tiny-before.folded tiny-after.folded -o tiny.svg
sed -n '/data-panel="removed"/,/<\/g>/p' tiny.svg | grep -c '<rect' || true
grep -o 'Only in BEFORE (removed): [^<]*' tiny.svg
grep -o '<svg [^>]*height="[0-9.]*"' tiny.svg | grep -o 'height="[0-9.]*"'
