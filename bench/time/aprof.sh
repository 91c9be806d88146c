#!/usr/bin/env bash
# Our page with its heatmap beside async-profiler's heatmap (jfr-converter -o heatmap) on
# the same recording: a binary JFR of 1 M CPU samples over one hour (genjfr.py: bench/time's
# stacks and minute-by-minute mix as Java methods). Reports the time to write each page
# (medians of RUNS, interleaved), its size, and first paint in headless Chromium (aprof.mjs).
# Needs java and async-profiler's jfr-converter jar (JFR_CONVERTER_JAR, or
# tools.profiler:jfr-converter in ~/.m2: `mvn dependency:get
# -Dartifact=tools.profiler:jfr-converter:4.1`).
# Usage: bench/time/aprof.sh [BUILD_DIR (build)] [RUNS (5)]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
conv=${JFR_CONVERTER_JAR:-$(ls "$HOME"/.m2/repository/tools/profiler/jfr-converter/*/jfr-converter-*.jar 2>/dev/null | tail -1)}
[ -n "$conv" ] && command -v java > /dev/null || { echo "aprof.sh: needs java and jfr-converter's jar" >&2; exit 77; }
data=$root/bench/data
mkdir -p "$data"
jfr=$data/hour-1m.jfr
[ -s "$jfr" ] || python3 "$root/bench/time/genjfr.py" 1000000 3600 "$jfr"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ours=() theirs=()
for ((r = 0; r < runs; r++)); do
  t0=$EPOCHREALTIME
  "$build/tools/flame-render" "$jfr" -o "$out/ours.html"
  t1=$EPOCHREALTIME
  java -jar "$conv" -o heatmap "$jfr" "$out/theirs.html" > /dev/null
  t2=$EPOCHREALTIME
  ours+=("$(echo "$t1 - $t0" | bc)") theirs+=("$(echo "$t2 - $t1" | bc)")
done
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f s (%.2f-%.2f)", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
echo "write the page: ours $(med "${ours[@]}"), jfr-converter -o heatmap $(med "${theirs[@]}") (JVM start included)"
# the same range both ways first: async-profiler's --from/--to (ms from the start) and --time
java -jar "$conv" -o collapsed --from 600000 --to 1200000 "$jfr" "$out/theirs.folded" > /dev/null
sed 's/_\[j\]//g; s#/#.#g' "$out/theirs.folded" | sort > "$out/a"
"$build/tools/flame-collapse" -q --time 600,1200 "$jfr" | grep -v '^#' | sort > "$out/b"
if cmp -s "$out/a" "$out/b"; then
  echo "range [600 s, 1200 s): the same $(wc -l < "$out/b") stacks and counts as jfr-converter --from/--to"
else
  echo "range [600 s, 1200 s): stacks DIFFER from jfr-converter --from/--to"
fi
node "$root/bench/time/aprof.mjs" "$out/ours.html" "$out/theirs.html" "$runs"
