# --time's forms and their errors: relative seconds, an open end, perf's clock, dates, and
# the ranges of flame-diff
printf 'p 1 100.000000: 1 cpu-clock:\n\t1 a (/x)\n\np 1 101.500000: 1 cpu-clock:\n\t1 b (/x)\n\n' > two.perf.txt
flame-collapse --time 1,2 two.perf.txt
flame-collapse --time ,1 two.perf.txt
flame-collapse --time perf:100,100.5 two.perf.txt
flame-collapse --time 2026-11-28T00:00:00Z,2026-11-29T00:00:00Z two.perf.txt; echo "exit $?"
flame-collapse --time 2,1 two.perf.txt; echo "exit $?"
flame-collapse --time 1 two.perf.txt; echo "exit $?"
flame-collapse --time perf:2026-11-28T00:00:00Z,2026-11-29T00:00:00Z two.perf.txt; echo "exit $?"
flame-collapse --time 1,2026-11-29T00:00:00Z two.perf.txt; echo "exit $?"
printf 'a 1\n' > one.folded
flame-collapse --time 0,1 one.folded; echo "exit $?"
flame-diff --before-time 0,1 --after-time 1,2 --format folded two.perf.txt
flame-diff --before-time 0,1 --after-time 1,2 --format folded one.folded; echo "exit $?"
flame-diff --before-time 0,1 --before-tag a=b two.perf.txt; echo "exit $?"
# jfr print's text: startTime is the time of day (to the millisecond)
flame-collapse -q --time 0,0.01 "$FIXTURES/jfr/execution-depth5.txt" | wc -l
flame-collapse -q --time 0, "$FIXTURES/jfr/execution-depth5.txt" | cmp - <(flame-collapse -q "$FIXTURES/jfr/execution-depth5.txt") && echo "jfr: 0, is all"
