# --format is the output format and --input-format the input format in flame-render,
# flame-diff and flame-merge, with the names of the library's tables; an input format's
# name given to --format says where it belongs
cp -r "$FIXTURES/diff" d
flame-render --format perf d/before.folded; echo "render --format perf: exit $?"
flame-diff --format pprof d/before.folded d/after.folded; echo "diff --format pprof: exit $?"
flame-merge --format jfr d/host1.folded; echo "merge --format jfr: exit $?"
flame-merge --format gif d/host1.folded; echo "merge --format gif: exit $?"
# flame-render takes --input-format now: the folded reader forced, or a format named
flame-render --input-format folded d/before.folded | cmp - <(flame-render d/before.folded) && echo "render --input-format folded: same"
flame-render --input-format pprof d/before.folded > /dev/null; echo "render --input-format pprof on folded text: exit $?"
flame-render --input-format nope d/before.folded 2>&1 | sed 's/, perfdata//'; echo "exit ${PIPESTATUS[0]}"
flame-collapse --output-format pprof -o b.pb.gz d/before.folded
flame-render --input-format pprof b.pb.gz | grep -c '<title>'
flame-render b.pb.gz | grep -c '<title>'
# every output format each tool names is written
for f in svg png pdf; do flame-render --format $f d/before.folded | head -c 4 | od -An -c | tr -d ' '; done
for f in folded svg png pdf; do flame-diff --format $f d/before.folded d/after.folded | head -c 4 | od -An -c | tr -d ' '; done
for f in folded pprof svg png pdf; do flame-merge --format $f d/host1.folded | head -c 4 | od -An -tx1 | tr -d ' '; done
