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
