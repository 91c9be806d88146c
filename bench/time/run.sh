#!/usr/bin/env bash
# Time kept in the page (issue 25): a recording of 1 M samples over one hour (gen.py: perf
# script text, 3,840 distinct stacks whose mix changes by the minute), written as a page
# with time (flame-render -o, which keeps it) and without (the same stacks as folded text);
# page.mjs then measures both in headless Chromium: size, first paint, and in the page with
# time a range selected and two ranges diffed.
# Usage: bench/time/run.sh [BUILD_DIR (build)] [RUNS (5)]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
data=$root/bench/data
mkdir -p "$data"
perf=$data/hour-1m.perf.txt
[ -s "$perf" ] || python3 "$root/bench/time/gen.py" 1000000 3600 >"$perf"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
t0=$(date +%s.%N)
"$build/tools/flame-render" "$perf" -o "$out/with.html"
t1=$(date +%s.%N)
"$build/tools/flame-collapse" "$perf" >"$out/hour.folded"
t2=$(date +%s.%N)
"$build/tools/flame-render" "$perf" --input-format perf -o "$out/plain.svg"
t3=$(date +%s.%N)
"$build/tools/flame-render" "$out/hour.folded" -o "$out/without.html"
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN { printf "write the page with time: %.2f s; the SVG of the same input (no time kept): %.2f s\n", b - a, d - c }'
node "$root/bench/time/page.mjs" "$out/with.html" "$out/without.html" "$runs"
