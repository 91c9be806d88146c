# Frames only in BEFORE (main;old_path;legacy) are not lost: the folded output keeps them
# with AFTER = 0, --top lists them as shrunk by 100%, and the SVG shows them.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
flame-diff --format folded $d/before.folded $d/after.folded | grep legacy
flame-diff --top 2 $d/before.folded $d/after.folded | grep -B3 legacy
flame-diff $d/before.folded $d/after.folded > x.svg
grep -o '<title>legacy[^<]*</title>' x.svg || echo "legacy: not in the SVG"
