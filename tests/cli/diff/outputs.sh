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
# nothing to draw: flame-render's error image and exit 2; folded output is just empty
: > empty.folded
flame-diff -o e.svg empty.folded empty.folded; echo "exit $?"
grep -c 'No valid input' e.svg
flame-diff --format folded empty.folded empty.folded | wc -c
