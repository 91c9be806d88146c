# --top with a picture (-o diff.svg) wrote the table into diff.svg.
# The picture goes to the file, the table to stdout (stderr when the picture is on
# stdout), the gate's offenders to stderr: --top, --fail-above and -o in one CI run.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
flame-diff --requests 100,200 --top 3 --fail-above 1 -o ci.svg $d/load-before.folded \
	$d/load2x-regressed-after.folded > table.txt 2> gate.txt
echo "exit $?"
head -c 38 ci.svg; echo
grep -c '</svg>' ci.svg
grep -c 'cost, grew most' ci.svg
echo "--- stdout"
cat table.txt
echo "--- stderr"
cat gate.txt
echo "--- the picture on stdout (--format svg): the table on stderr"
flame-diff --top 1 --format svg $d/before.folded $d/after.folded > p.svg 2> t.txt
echo "exit $?"
grep -c '</svg>' p.svg
cat t.txt
echo "--- -o x.folded: folded text to the file, the table on stdout"
flame-diff --top 1 -o x.folded $d/before.folded $d/after.folded | head -3
head -2 x.folded
echo "--- --top alone, or -o top.txt: the table there, as before"
flame-diff --top 1 -o top.txt $d/before.folded $d/after.folded; echo "exit $?"
head -3 top.txt
