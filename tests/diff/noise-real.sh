#!/usr/bin/env bash
# flame-diff's noise statistics on real profiles made here: a small C program
# (noise-workload.c) recorded under perf -e cpu-clock, 5 runs unchanged on each side (A/A:
# nothing may be flagged), then 5 runs with hot() 5% slower (its share grows by about 1.2
# points: the interval must hold that, and the estimate be positive) and 5 with hot() four times
# as slow (the gate must fire, naming hot, and only functions on its path). One run a side
# has only sampling noise to go by: an interrupt that lands in one run and not the other is
# a real difference, so that A/A case is gated at 1% of the total.
# Five runs a side, as --help advises: with three, Welch's test has so few degrees of freedom
# that hot() four times as slow (+27 points of the total, its 99% interval far from 0) missed
# q <= 0.01 after the correction over this profile's ~150 functions in about half the runs.
# Usage: noise-real.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O1 -fno-omit-frame-pointer -fno-optimize-sibling-calls -falign-functions=64 -falign-loops=64 -o "$tmp/wl" "$src/tests/diff/noise-workload.c" || exit 1
record() { # NAME HOT_PER_MILLE
	perf record -q -e cpu-clock -F 20000 -g -o "$tmp/$1.data" -- "$tmp/wl" "$2" 800 \
		>/dev/null 2>"$tmp/perf.err" || { echo "SKIP: perf record failed: $(head -1 "$tmp/perf.err")"; exit 77; }
	# perf.data read directly when the build can, else through perf script
	"$build/tools/flame-collapse" -q "$tmp/$1.data" -o "$tmp/$1.folded" 2>/dev/null ||
		perf script -F comm,pid,tid,time,period,event,ip,sym,dso -i "$tmp/$1.data" 2>/dev/null |
		"$build/tools/flame-collapse" -o "$tmp/$1.folded" || exit 1
}
for i in 1 2 3 4 5; do
	record a$i 1000; record b$i 1000; record s$i 1050; record f$i 4000
done
runs() { for f in "$@"; do printf -- '--%s %s ' "${f%%=*}" "$tmp/${f#*=}.folded"; done; }
fd=$build/tools/flame-diff
fail=0
# A/A: nothing beyond noise, whatever the threshold
$fd -n --fail-above 0 --format folded -o /dev/null $(runs before=a{1..5} after=b{1..5}) 2>"$tmp/aa.err"
rc=$?
if [ $rc != 0 ]; then echo "FAIL: A/A flagged: $(cat "$tmp/aa.err")"; fail=1; else echo "ok: A/A flags nothing"; fi
# one run per side: sampling noise alone
$fd -n --fail-above 1 --format folded -o /dev/null "$tmp/a1.folded" "$tmp/b1.folded" 2>"$tmp/aa1.err"
if [ $? != 0 ]; then echo "FAIL: A/A, one run each, flagged: $(cat "$tmp/aa1.err")"; fail=1; else echo "ok: A/A with one run each flags nothing"; fi
# 5% slower: hot's total change is positive and its interval holds the expected +1.2 points
$fd -n --top 1 --top-format csv $(runs before=a{1..5} after=s{1..5}) >"$tmp/s.csv" || { echo "FAIL: flame-diff"; exit 1; }
python3 - "$tmp/s.csv" <<'PY' || fail=1
import csv, sys
rows = {r["function"]: r for r in csv.DictReader(open(sys.argv[1]))}
h = rows.get("hot")
want = 100 * (0.6 * 1.05 / (0.6 * 1.05 + 0.4) - 0.6)  # +1.17 points of the total
if not h:
    sys.exit("FAIL: hot() is not in the report")
c, lo, hi = (float(h["total_" + k]) for k in ("change_pct", "low_pct", "high_pct"))
print(f"hot() 5% slower: {c:+.2f}% [{lo:+.2f}%, {hi:+.2f}%] q={h['total_q']} (expected {want:+.2f}%)")
if not (c > 0 and lo - 0.5 <= want <= hi + 0.5):
    sys.exit("FAIL: the interval misses the slowdown")
print("ok: the 5% slowdown lies in its interval")
PY
# four times as slow: the gate fires and names hot()
$fd -n --fail-above 2 --format folded -o /dev/null $(runs before=a{1..5} after=f{1..5}) 2>"$tmp/f.err"
rc=$?
if [ $rc != 1 ] || ! grep -q 'regression: hot: ' "$tmp/f.err"; then
	echo "FAIL: hot() four times as slow is not flagged (exit $rc): $(cat "$tmp/f.err")"; fail=1
elif grep 'regression: ' "$tmp/f.err" | grep -qv -e ' hot: '; then
	echo "FAIL: a function off hot()'s path flagged: $(cat "$tmp/f.err")"; fail=1
else
	echo "ok: hot() four times as slow is flagged: $(grep -c 'regression: ' "$tmp/f.err") line(s)"
fi
exit $fail
