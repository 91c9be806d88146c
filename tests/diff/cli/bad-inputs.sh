# Unusable inputs exit 1 naming the file (and line); -o never leaves a half-written file.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
flame-diff -o out.svg $d/three-column.folded $d/after.folded; echo "exit $?"
flame-diff -o out.svg $d/before.folded $d/three-column.folded; echo "exit $?"
flame-diff -o out.svg $d/garbage.bin $d/after.folded; echo "exit $?"
flame-diff -o out.svg $d/before.folded missing.folded; echo "exit $?"
flame-diff -o out.svg $d/before.folded .; echo "exit $?"
flame-diff -o out.svg --normalize-frame 'no_such_frame' $d/before.folded $d/after.folded; echo "exit $?"
flame-diff -o out.folded --normalize-frame 'handle$' $d/before.folded $d/garbage.bin; echo "exit $?"
ls out.* 2>/dev/null; echo "(no output file left behind)"
# the same with two trees read at once (-j 2)
flame-diff -j 2 -o out.svg $d/three-column.folded $d/after.folded; echo "exit $?"
flame-diff -j 2 -o out.svg $d/before.folded $d/three-column.folded; echo "exit $?"
flame-diff -j 2 -o out.svg $d/garbage.bin $d/after.folded; echo "exit $?"
ls out.* 2>/dev/null; echo "(no output file left behind)"
# a fractional BEFORE is not a 3-column one, read either way
printf 'a;b 1.5\na;c 2\n' > frac.folded
printf 'a;b 1\na;d 3\n' > plain.folded
flame-diff -j 1 --format folded frac.folded plain.folded; echo "exit $?"
flame-diff --format folded frac.folded plain.folded; echo "exit $?"
