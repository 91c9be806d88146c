# --include, --exclude and --skip-after in every tool, on the profile as read (a diff's
# after its normalization): the stacks flame-collapse keeps with them, and a picture of
# nothing left names what emptied it.
cp -r "$FIXTURES/diff" d && chmod -R u+w d
cp "$FIXTURES/example/workload.perf.txt" w.perf.txt
flame-collapse --include 'ping|fib' --exclude io_thread --skip-after start_thread w.perf.txt > want.folded
flame-collapse w.perf.txt | flame-collapse --include 'ping|fib' --exclude io_thread --skip-after start_thread | cmp - want.folded && echo "collapse of collapse: the same"
flame-merge --include 'ping|fib' --exclude io_thread --skip-after start_thread w.perf.txt | cmp - want.folded && echo "flame-merge: the same"
flame-render --minwidth 0 --include 'ping|fib' --exclude io_thread --skip-after start_thread w.perf.txt > g.svg
# (an SVG keeps the unit, not pprof's sample type: compared without the header line)
flame-collapse --no-header g.svg | cmp - <(grep -v '^# countname=' want.folded) && echo "flame-render: the same"
flame-top -n 0 --window 1s --output-format csv --include 'ping|fib' --exclude io_thread --skip-after start_thread w.perf.txt > t.csv
flame-top -n 0 --window 1s --output-format csv want.folded | cmp - t.csv && echo "flame-top: the same, in the same unit"
# flame-diff: filtered after -n, so shares are of the whole profiles
flame-diff -n --format folded d/before.folded d/after.folded | flame-collapse --include parse > want3.folded
flame-diff -n --format folded --include parse d/before.folded d/after.folded | cmp - want3.folded && echo "flame-diff -n --include: the lines of the whole diff through parse"
flame-diff --top 3 --exclude . d/before.folded d/after.folded | head -1
# nothing left to draw
flame-render --include nosuchframe w.perf.txt -o none.svg; echo "exit $?"; ls none.svg 2>/dev/null
flame-merge --format svg --exclude . --skip-after main w.perf.txt -o none.svg; echo "exit $?"
flame-diff --include nosuch --exclude . --skip-after x d/before.folded d/after.folded -o none.svg; echo "exit $?"
# folded text of nothing is not an error
flame-merge --include nosuchframe w.perf.txt | wc -c
