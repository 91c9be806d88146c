#!/usr/bin/env bash
# Throughput of the offcputime, JFR text, SVG, bpftrace and DTrace readers: flame-collapse
# on >= 100 MB inputs built by repeating corpus files, against `wc -l` on the same bytes (the
# floor: reading and finding line ends). Prints MB/s and time ratios, medians of RUNS runs
# each. Targets: >= 500 MB/s for offcputime and JFR, >= 100 MB/s for SVG, >= 200 MB/s for
# bpftrace and DTrace. The SVG is
# flame-render's drawing (--minwidth 0) of the corpus' folded references, repeated under
# distinct roots. Inputs are cached in bench/data/ (git-ignored).
# Usage: bench/parsers/offcpu-jfr.sh [BUILD_DIR (build)] [RUNS (5)]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
bin=$build/tools/flame-collapse
corpus=$root/fixtures/corpus
data=$root/bench/data
[ -x "$bin" ] || { echo "no $bin: build first (meson setup build && ninja -C build)"; exit 2; }
mkdir -p "$data"

# make NAME FILES...: repeat the files (whole, so every block stays intact) to >= 100 MB
make_input() {
  local out=$data/$1
  shift
  [ -s "$out" ] && return
  local one=$data/.one.$$ size
  cat "$@" >"$one"
  size=$(wc -c <"$one")
  : >"$out.tmp"
  for _ in $(seq $(( (100 * 1024 * 1024 + size - 1) / size ))); do cat "$one" >>"$out.tmp"; done
  rm -f "$one"
  mv "$out.tmp" "$out"
}

o=$corpus/offcputime j=$corpus/jfr
make_input offcpu-100m.txt "$o"/libbpf-default.txt "$o"/libbpf-verbose-v.txt \
  "$o"/libbpf-user-threads-u.txt "$o"/bcc-rendered-default.txt "$o"/bcc-rendered-delimited-d.txt \
  "$o"/bcc-example-K-multiline-oldformat.txt
make_input jfr-exec-100m.txt "$j"/print-ExecutionSample.txt
make_input jfr-all-100m.txt "$j"/print-all.txt
make_input bpftrace-100m.bt "$root"/fixtures/bpftrace/*.bt
make_input dtrace-100m.txt "$root"/fixtures/dtrace/example-dtrace-stacks.txt
if [ ! -s "$data/svg-100m.svg" ]; then
  cat "$corpus"/perf/expected/*-collapsed.folded "$corpus"/jfr/ref-fold/*.txt.folded >"$data/.base.$$"
  for i in $(seq 120); do awk -v i="$i" '{ print "copy-" i ";" $0 }' "$data/.base.$$"; done |
    "$build/tools/flame-render" --minwidth 0 >"$data/svg-100m.svg.tmp"
  rm -f "$data/.base.$$"
  mv "$data/svg-100m.svg.tmp" "$data/svg-100m.svg"
fi

# med CMD...: run RUNS times; print the median wall and median CPU (user+sys) ms
med() {
  local wall=() cpu=() r
  for _ in $(seq "$runs"); do
    r=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 | tail -1)
    wall+=($(awk -v r="$r" 'BEGIN { split(r, a, " "); printf "%d", a[1] * 1000 }'))
    cpu+=($(awk -v r="$r" 'BEGIN { split(r, a, " "); printf "%d", (a[2] + a[3]) * 1000 }'))
  done
  local mid=$(( (runs + 1) / 2 ))
  echo "$(printf '%s\n' "${wall[@]}" | sort -n | sed -n "${mid}p") $(printf '%s\n' "${cpu[@]}" | sort -n | sed -n "${mid}p")"
}

printf '%-20s %6s %7s %7s %8s %8s %8s %9s\n' input MB wc_ms ms cpu_ms MB/s cpuMB/s ratio_wc
for spec in "offcpu-100m.txt offcpu" "jfr-exec-100m.txt jfr" "jfr-all-100m.txt jfr" \
            "svg-100m.svg svg" "bpftrace-100m.bt bpftrace" "dtrace-100m.txt dtrace"; do
  set -- $spec
  f=$data/$1
  mb=$(awk -v b="$(wc -c <"$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
  cat "$f" >/dev/null # warm the page cache
  read -r w _ <<<"$(med wc -l "$f")"
  read -r p c <<<"$(med "$bin" -q --format "$2" "$f")"
  awk -v n="$1" -v mb="$mb" -v w="$w" -v p="$p" -v c="$c" 'BEGIN {
    printf "%-20s %6s %7d %7d %8d %8.0f %8.0f %9.2f\n", n, mb, w, p, c, mb / ((p > 0 ? p : 1) / 1000),
      mb / ((c > 0 ? c : 1) / 1000), p / (w > 0 ? w : 1) }'
done
echo "targets: >= 500 MB/s (offcpu, jfr), >= 100 MB/s (svg), >= 200 MB/s (bpftrace, dtrace). ratio_wc = flame-collapse wall time / wc -l wall time."
echo "MB/s is wall clock (medians of $runs runs); cpuMB/s uses user+sys time, which other load on the machine does not inflate."
