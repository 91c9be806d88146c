# inputs no reader takes get a message saying what the file looks
# like and what to do (no --format would help), in every tool, and exit 1.
# (perf.data: tests/perfdata/cli-off when built without -Dperfdata; read when built with it;
# workload-head.jfr, the head of a JFR recording: read up to its metadata, which is cut off)
for f in workload-head.jfr utf16.perf.txt sample.perf.txt.zst \
         old-tree.cpuprofile perf-report.txt; do
  cp "$FIXTURES/detect/$f" .
  flame-collapse "$f"; echo "exit $?"
done
# binary kinds are told even when a text format is forced
flame-collapse --format perf workload-head.jfr; echo "exit $?"
flame-diff utf16.perf.txt workload-head.jfr; echo "exit $?"
flame-merge utf16.perf.txt; echo "exit $?"
flame-render workload-head.jfr >/dev/null; echo "exit $?"
# from stdin the command names FILE
flame-collapse < workload-head.jfr; echo "exit $?"
# what no rule knows still gets the generic message
printf 'hello\nworld\n' | flame-collapse; echo "exit $?"
# JSON profiles that are read are told from their content, whatever their name
cp "$FIXTURES/detect/node.cpuprofile" a.json; cp "$FIXTURES/detect/py-spy.speedscope.json" b.json
flame-collapse a.json | head -2; flame-collapse b.json | head -2
# a Chrome trace is read too (its one sample has no time after it: no stack, no error)
cp "$FIXTURES/detect/chrome-trace.json" c.json
flame-collapse c.json; echo "exit $?"
