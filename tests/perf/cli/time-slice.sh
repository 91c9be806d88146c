# --time START,END keeps the samples whose timestamp is in [START, END]
f=$FIXTURES/perf/progs-threads.perf.txt
first=$(grep -m1 -o '[0-9]*\.[0-9]*: ' "$f" | tr -d ': ')
all=$(flame-collapse "$f" | awk '{ s += $NF } END { print s }')
none=$(flame-collapse --time 0,1 "$f" | wc -l)
part=$(flame-collapse --time "0,$first" "$f" | awk '{ s += $NF } END { print s + 0 }')
echo "none=$none"
[ "$part" -gt 0 ] && [ "$part" -lt "$all" ] && echo "first sample only: $part"
