# --reverse transforms the stacks of the picture only (flame_reverse_stacks before drawing,
# turned back after): the --top table and the gate beside a reversed picture are those of
# the stacks as read, and the picture says it is reversed (data-reverse)
printf 'main;a;x 10\nmain;b;x 5\nmain;b;y 3\n' > before.folded
printf 'main;a;x 30\nmain;b;x 5\nmain;b;y 9\n' > after.folded
flame-diff --top 3 --fail-above 10 -o plain.svg before.folded after.folded > plain.txt 2> plain.err
echo "exit $?"
flame-diff --reverse --top 3 --fail-above 10 -o rev.svg before.folded after.folded > rev.txt 2> rev.err
echo "exit $?"
cmp plain.txt rev.txt && cmp plain.err rev.err && echo "same table and gate"
cat rev.txt rev.err
grep -c 'data-reverse="1"' plain.svg rev.svg
# the reversed picture's roots are the leaves: x and y right under the root
grep -o '<title>[xy] ([^<]*' rev.svg | head -2
