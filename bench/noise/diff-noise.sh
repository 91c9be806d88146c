#!/usr/bin/env bash
# The quality of flame-diff's noise statistics on repeated real runs: tests/diff/
# noise-workload.c (hot() ~60% of the time, warm() 25%, cold() 15%) recorded under perf
# -e cpu-clock, A_RUNS times unchanged and B_RUNS times with hot() 5% slower; then, with
# the gate at --fail-above PCT (0.5% of the before total, and significant at --alpha 0.01):
#  - A/A, 5 runs a side: 100 random splits of 10 of the A runs, how many flag anything;
#  - a 5% slowdown, 5 runs a side: 100 random draws of 5 A and 5 B runs, how many name hot;
#  - one run a side: 100 random A/A pairs (false alarms, at PCT and at 0) and A/B pairs;
#  - the between-run spread of each function's share, and the runs it takes to detect
#    smaller changes (power 95%, two-sided 0.01/m with m the number of tests).
# Usage: bench/noise/diff-noise.sh [BUILD_DIR]; env A_RUNS (20), B_RUNS (10), PCT (0.5),
# FREQ (20000), WORK (4000: per mille of about 0.35 s of CPU, so runs of about 1.4 s), SEED (1)
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
A_RUNS=${A_RUNS:-20} B_RUNS=${B_RUNS:-10} FREQ=${FREQ:-20000} WORK=${WORK:-4000}
data=$here/../data/noise-w$WORK-f$FREQ # recordings kept per workload and rate
mkdir -p "$data"
cc -O1 -fno-omit-frame-pointer -fno-optimize-sibling-calls -falign-functions=64 -falign-loops=64 -o "$data/wl" "$here/../../tests/diff/noise-workload.c"
record() { # NAME HOT_PER_MILLE
	[ -s "$data/$1.folded" ] && return
	perf record -q -e cpu-clock -F "$FREQ" -g -o "$data/$1.data" -- "$data/wl" "$2" "$WORK" >/dev/null 2>&1
	perf script -F comm,pid,tid,time,period,event,ip,sym,dso -i "$data/$1.data" 2>/dev/null |
		"$build/tools/flame-collapse" -o "$data/$1.folded"
	rm -f "$data/$1.data"
}
# interleaved, so that a change in the machine's load over the recordings falls on both sides
for i in $(seq 1 "$A_RUNS"); do
	record a$i 1000
	[ "$i" -le "$B_RUNS" ] && record b$i 1050
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/diff-noise.py" "$build/tools/flame-diff" "$data" "$A_RUNS" "$B_RUNS" "${PCT:-0.5}" "${SEED:-1}"
