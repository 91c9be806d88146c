# mixed events: a sampling event is kept before a tracepoint, with one warning and a count; --event-filter picks another
cp "$FIXTURES/perf/mixed-tracepoint-cpuclock.perf.txt" mixed.perf; f=mixed.perf
flame-collapse "$f" | awk '{ s += $NF } END { print NR, s }'
flame-collapse --event-filter cpu-clock "$f" | awk '{ s += $NF } END { print NR, s }'
flame-collapse --event-filter no-such-event "$f" | wc -l
