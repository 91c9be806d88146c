# Output formats and destinations: -o x.folded is folded, stdin as one side, --fail-above
# writes its output before failing, PNG/PDF go through the same renderer.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
flame-diff -o x.folded $d/before.folded $d/after.folded; echo "exit $?"
cat x.folded
cat $d/before.folded | flame-diff --format folded - $d/after.folded | cmp - x.folded && echo "stdin: same"
flame-diff --fail-above 5 -o gate.folded $d/before.folded $d/after.folded 2>/dev/null; echo "exit $?"
cmp gate.folded x.folded && echo "gate wrote its output"
flame-diff -o x.png $d/before.folded $d/after.folded && head -c 8 x.png | od -An -c | tr -s ' '
flame-diff --format pdf $d/before.folded $d/after.folded | head -c 5; echo
flame-diff --title 'T <&>' --negate --diff-mode total $d/before.folded $d/after.folded > x.svg
grep -c 'T &lt;&amp;&gt;' x.svg
xmllint --noout x.svg && echo "valid xml"
# nothing to draw: exit 2 naming the inputs, -o's file not written (an old one kept as it
# was); on stdout flamegraph.pl's error picture, for drop-in users; folded output is just
# empty (exit 0)
: > empty.folded
flame-diff -o e.svg empty.folded empty.folded; echo "exit $?"
ls e.svg 2>&1 | sed 's/.*e.svg.*No such.*/no e.svg/'
echo keep > k.svg
flame-diff -o k.svg empty.folded empty.folded; echo "exit $?, k.svg: $(cat k.svg)"
flame-diff empty.folded empty.folded > s.svg; echo "exit $?"
grep -c 'No valid input' s.svg
flame-diff --format folded empty.folded empty.folded | wc -c
