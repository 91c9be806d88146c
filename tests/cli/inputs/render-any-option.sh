# flame-render, flame-diff, flame-merge and flame-top read as flame-collapse reads, with the
# same options: --sample-type (it used to be "invalid option" in flame-render), the perf
# options (--pid, --tid, --event-filter, --kernel), --tag. What each draws or sums is the
# stacks flame-collapse gives with those options.
cp "$CORPUS/pprof/go-heap.pb.gz" heap.pb.gz
cp "$FIXTURES/perf/java-netty-pidtid.perf.txt" java.perf.txt
cp "$FIXTURES/perf/mixed-tracepoint-cpuclock.perf.txt" mixed.perf.txt
cp "$FIXTURES/top/fleet.pb.gz" fleet.pb.gz
same() { # same WHAT COMMAND...: the command's folded text equals want.folded
  local what=$1; shift
  "$@" > got.folded 2>/dev/null && [ -s want.folded ] && cmp -s got.folded want.folded &&
    echo "$what: as flame-collapse" || echo "$what: DIFFERS"
}
check() { # check INPUT OPTION...
  local in=$1; shift
  flame-collapse "$@" "$in" > want.folded 2>/dev/null
  flame-render --minwidth 0 "$@" "$in" > g.svg 2>/dev/null; same "flame-render $*" flame-collapse g.svg
  same "flame-merge $*" flame-merge "$@" "$in"
  # a diff of the profile with itself: both columns are its stacks
  flame-diff --format folded "$@" "$in" "$in" 2>/dev/null | awk '{ $NF = ""; sub(/ $/, ""); print }' > got.folded
  cmp -s got.folded want.folded && echo "flame-diff $*: as flame-collapse" || echo "flame-diff $*: DIFFERS"
}
check heap.pb.gz --sample-type alloc_space
flame-render --sample-type alloc_space heap.pb.gz | grep -o '<title>all ([^)]*)'
check java.perf.txt --pid
check java.perf.txt --tid --kernel
check mixed.perf.txt --event-filter sched:sched_switch
check fleet.pb.gz --tag service=api
check fleet.pb.gz --group-by endpoint --tag-ignore version=v1
# flame-top rolls up the same stacks
flame-top --by root -n 3 --tid java.perf.txt | tail -3
flame-collapse --tag service=api fleet.pb.gz | flame-top -n 0 --output-format csv | cut -d, -f1-7 > want.csv
flame-top --tag service=api -n 0 --output-format csv fleet.pb.gz | cut -d, -f1-7 | cmp - want.csv && echo "flame-top --tag: as on flame-collapse's stacks"
