# flame-render reads every format flame-collapse reads (it said "Ignored
# N lines with invalid format" and exited 2 on perf or pprof input): the picture holds the
# stacks flame-collapse reads, in the input's unit; input no reader takes is still folded
# text with invalid lines, as in flamegraph.pl (counted, the error picture, exit 2)
for f in example/workload.perf.txt render/go-cpu.pb.gz; do
  flame-render --minwidth 0 "$FIXTURES/$f" > g.svg
  echo "$f: exit $?, $(grep -o '<title>all ([^,]*' g.svg) $(grep -o 'data-unit="[a-z]*"' g.svg)"
  flame-collapse --no-header "$FIXTURES/$f" > want.folded
  flame-collapse --no-header g.svg | cmp - want.folded && echo "$f: the stacks flame-collapse reads"
done
printf 'not a stack\nnor this one\n' | flame-render > bad.svg
echo "garbage: exit $?, $(grep -c 'ERROR: No valid input provided' bad.svg) error picture"
