#!/usr/bin/env bash
# flame-render speed, memory and output size on the ~40 MB `--tid` folded file (the 200 MB
# perf-big.sh file collapsed with flame-collapse --tid; ~120 k unique stacks), medians of
# RUNS runs, against `cat` and `wc -l` of the same bytes in the same run.
# Targets (issue 3): SVG in <= 0.15 s (>= 250 MB/s), peak RSS <= the input size, SVG no
# bigger than flamegraph.pl's at the same minwidth (~2.4 MB). Inputs are cached in
# bench/data/ (git-ignored). Usage: bench/render/render.sh [BUILD_DIR (build)] [RUNS (5)]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
tools=$build/tools
data=$root/bench/data
for t in flame-collapse flame-render; do
  [ -x "$tools/$t" ] || { echo "no $tools/$t: build first (meson setup build && ninja -C build)"; exit 2; }
done
mkdir -p "$data"
perf=$data/perf-200m.txt
big=$data/big-tid.folded
if [ ! -s "$big" ]; then
  [ -s "$perf" ] || "$root/bench/gen/perf-big.sh" 200 "$perf"
  "$tools/flame-collapse" --tid "$perf" >"$big.tmp" && mv "$big.tmp" "$big"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# med OUT CMD...: RUNS runs, stdout to OUT; prints "wall_ms cpu_ms maxrss_kb" medians
med() {
  python3 - "$runs" "$@" <<'PY'
import os, sys, time, statistics
runs, outp, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
wall, cpu, rss = [], [], []
for _ in range(runs):
    t = time.monotonic()
    pid = os.fork()
    if pid == 0:
        fd = os.open(outp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        nul = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1); os.dup2(nul, 2)
        os.execvp(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    wall.append((time.monotonic() - t) * 1000)
    cpu.append((ru.ru_utime + ru.ru_stime) * 1000)
    rss.append(ru.ru_maxrss)
    if status != 0:
        sys.exit("command failed: %s" % " ".join(cmd))
print("%d %d %d" % (statistics.median(wall), statistics.median(cpu), statistics.median(rss)))
PY
}

mb=$(awk -v b="$(wc -c <"$big")" 'BEGIN { printf "%.1f", b / 1048576 }')
cat "$big" >/dev/null # warm the page cache
read -r cw _ _ <<<"$(med /dev/null cat "$big")"
read -r ww _ _ <<<"$(med /dev/null wc -l "$big")"
echo "input: $big ($mb MB, $(wc -l <"$big") lines); cat $cw ms, wc -l $ww ms"
printf '%-34s %7s %7s %7s %6s %6s %6s %6s %9s\n' run wall_ms cpu_ms rss_MB rss/in x_cat x_wc MB/s out_KB
row() { # name wall cpu rss outfile
  awk -v n="$1" -v w="$2" -v c="$3" -v r="$4" -v mb="$mb" -v cat="$cw" -v wc="$ww" -v o="$(wc -c <"$5")" 'BEGIN {
    printf "%-34s %7d %7d %7.1f %6.2f %6.1f %6.1f %6.0f %9.0f\n", n, w, c, r / 1024, r / 1024 / mb,
      w / (cat > 0 ? cat : 1), w / (wc > 0 ? wc : 1), mb / ((w > 0 ? w : 1) / 1000), o / 1024 }'
}
svg_ms=0 svg_rss=0 svg_kb=0
for args in "" "--minwidth 0.5" "--sort weight" "--flamechart" "--reverse" "--colors java --hash" "-o OUT.png" "-o OUT.pdf"; do
  o=$out/out.svg
  a=${args//OUT/$out/out}
  case "$args" in *OUT*) o=/dev/null ;; esac
  read -r w c r <<<"$(med "$o" "$tools/flame-render" $a "$big")"
  f=$o; case "$args" in *OUT.png*) f=$out/out.png ;; *OUT.pdf*) f=$out/out.pdf ;; esac
  row "render ${args:-(svg, defaults)}" "$w" "$c" "$r" "$f"
  if [ -z "$args" ]; then svg_ms=$w svg_rss=$r svg_kb=$(( $(wc -c <"$f") / 1024 )); fi
done
awk -v w="$svg_ms" -v r="$svg_rss" -v mb="$mb" -v kb="$svg_kb" 'BEGIN {
  printf "targets: svg %d ms (<= 150: %s), peak RSS %.1f MB (<= input %.1f MB: %s), svg %d KB (<= ~2400 KB of flamegraph.pl: %s)\n",
    w, w <= 150 ? "met" : "MISSED", r / 1024, mb, r / 1024 <= mb ? "met" : "MISSED", kb, kb <= 2400 ? "met" : "MISSED" }'
