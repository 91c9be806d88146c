# --time START,END: seconds from the first sample; perf:START,END on perf's own clock
# (seconds since boot, [START, END] as in 1.0); a range keeping nothing warns with the span
f=$FIXTURES/perf/progs-threads.perf.txt
first=$(grep -m1 -o '[0-9]*\.[0-9]*: ' "$f" | tr -d ': ')
all=$(flame-collapse "$f" | awk '{ s += $NF } END { print s }')
none=$(flame-collapse --time perf:0,1 "$f" | wc -l)
part=$(flame-collapse --time "perf:0,$first" "$f" | awk '{ s += $NF } END { print s + 0 }')
echo "none=$none"
[ "$part" -gt 0 ] && [ "$part" -lt "$all" ] && echo "first sample only: $part"
# relative: the whole recording from 0, the first millisecond only, an open end
whole=$(flame-collapse --time 0,1000 "$f" | awk '{ s += $NF } END { print s }')
[ "$whole" = "$all" ] && echo "0,1000 = all"
open=$(flame-collapse --time 0, "$f" | awk '{ s += $NF } END { print s }')
[ "$open" = "$all" ] && echo "0, = all"
rel=$(flame-collapse --time 0,0.000001 "$f" | awk '{ s += $NF } END { print s + 0 }')
[ "$rel" = "$part" ] && echo "0,0.000001 = the first sample's millisecond"
cp "$f" threads.perf.txt
flame-collapse --time 1000,2000 threads.perf.txt | wc -l
