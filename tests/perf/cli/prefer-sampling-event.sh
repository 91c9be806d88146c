# with several events and no --event-filter, a sampling event
# (cpu-clock, cycles, ...) is kept rather than a tracepoint seen before it, still with
# one warning and a count. Real `perf record -e cpu-clock -e sched:sched_switch -g`.
cp "$FIXTURES/perf/mixed-tracepoint-cpuclock.perf.txt" mixed.perf; f=mixed.perf
flame-collapse "$f" | awk '{ s += $NF } END { print NR, s }'
flame-collapse -q "$f" | cmp - <(flame-collapse -q --event-filter cpu-clock "$f") && echo same as --event-filter cpu-clock
flame-collapse -q -j4 "$f" | cmp - <(flame-collapse -q -j1 "$f") && echo same with -j4
# tracepoints only: the first one is kept, as before
grep -c 'sched:sched_switch' "$f"
awk '/cpu-clock: *$/ { skip = 1 } /sched:sched_switch/ { skip = 0 } !skip' "$f" >tp.perf
flame-collapse tp.perf | awk '{ s += $NF } END { print NR, s }'
# a tracepoint after a sampling event is skipped
awk 'NR > 4' "$f" | flame-collapse 2>&1 >/dev/null | sed 's/^.*: skipped/skipped/'
# a tracepoint is kept for good once 8 MiB of its stacks wait for a sampling event
# (memory stays bounded): then a later cpu-clock sample is the one skipped
awk 'BEGIN { for (i = 0; i < 60000; i++) { printf "w 5 [000] 1.%06d: sched:sched_switch: prev_comm=w\n", i;
  for (d = 0; d < 30; d++) printf "\t%x f%d+0x1 (/w)\n", d, d; print "" }
  print "w 5 2.000000: 1000 cpu-clock: "; print "\t1 g (/w)"; print "" }' >big.perf
flame-collapse big.perf
# the kept event's unit: cpu-clock periods are nanoseconds of CPU, though the dropped
# tracepoint samples before them had no period (they made it "samples")
flame-render -q "$f" | grep -o '<title>all ([^)]*)'
