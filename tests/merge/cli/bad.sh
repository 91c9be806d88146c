# Bad options exit 2; bad inputs exit 1 naming the file; no half-written output.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
flame-merge; echo "exit $?"
flame-merge $d/host1.folded:0; echo "exit $?"
flame-merge $d/host1.folded:-1; echo "exit $?"
flame-merge --format nope $d/host1.folded; echo "exit $?"
flame-merge -j 0 $d/host1.folded; echo "exit $?"
flame-merge - -; echo "exit $?"
flame-merge -o out.folded $d/host1.folded $d/garbage.bin; echo "exit $?"
flame-merge -o out.folded $d/host1.folded missing.folded $d/host2.folded; echo "exit $?"
printf 'a;b 1\na;b 99999999999999999999\n' > big.folded
flame-merge -o out.folded $d/host1.folded big.folded; echo "exit $?"
flame-merge -o out.folded $d/host1.folded:0.0000000001; echo "exit $?"
printf "a 0.000000001\n" > tiny.folded
flame-merge -o out.folded tiny.folded:0.5; echo "exit $?"
ls out.* 2>/dev/null; echo "(no output file left behind)"
