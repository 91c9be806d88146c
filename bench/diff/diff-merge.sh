#!/usr/bin/env bash
# flame-diff and flame-merge speed and memory on large folded inputs, against `cat` and
# `wc -l` of the same bytes in the same run (medians of RUNS runs; wall ms, CPU ms, peak RSS).
#  - diff: the ~40 MB `--tid` folded file of the render benchmark (perf-big.sh 200 collapsed)
#    against a perturbed copy (counts scaled by -4%..+4% on 9 lines in 10). Targets: <= 0.1 s,
#    peak RSS <= half of the two inputs.
#  - merge: ten ~20 MB folded files (halves of the big file, counts perturbed per file).
# Both inputs are sorted (as collapsed files are), so the folded-text rows of diff and merge
# take the text merge (a checking pass, then a merge of the lines); -j 1 diffs through one
# tree, as every non-sorted input would; the picture, --top and the gate read both sides at
# once into a tree (in blocks, merged as they come). All diff rows write the 40 MB pair's
# diff: folded text (the case of the target), the SVG picture, --top, the gate.
# Inputs are cached in bench/data/ (git-ignored).
# Usage: bench/diff/diff-merge.sh [BUILD_DIR (build)] [RUNS (5)]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
tools=$build/tools
data=$root/bench/data
for t in flame-collapse flame-diff flame-merge; do
  [ -x "$tools/$t" ] || { echo "no $tools/$t: build first (meson setup build && ninja -C build)"; exit 2; }
done
mkdir -p "$data"

perf=$data/perf-200m.txt
big=$data/big-tid.folded
pert=$data/big-tid-perturbed.folded
if [ ! -s "$big" ]; then
  [ -s "$perf" ] || "$root/bench/gen/perf-big.sh" 200 "$perf"
  "$tools/flame-collapse" --tid "$perf" >"$big.tmp" && mv "$big.tmp" "$big"
fi
if [ ! -s "$pert" ]; then
  awk '{ n = $NF; if (NR % 10 != 0) n = int(n * (100 + (NR * 7) % 9 - 4) / 100); $NF = n; print }' \
    "$big" >"$pert.tmp" && mv "$pert.tmp" "$pert"
fi
parts=()
for i in 0 1 2 3 4 5 6 7 8 9; do
  p=$data/merge-part$i.folded
  if [ ! -s "$p" ]; then
    awk -v i=$i '(NR + i) % 2 == 0 { n = $NF; n = int(n * (100 + (NR + i) % 7) / 100); $NF = n; print }' \
      "$big" >"$p.tmp" && mv "$p.tmp" "$p"
  fi
  parts+=("$p")
done

# med CMD...: RUNS runs; prints "wall_ms cpu_ms maxrss_kb" medians (rusage of the child)
med() {
  python3 - "$runs" "$@" <<'PY'
import os, sys, time, statistics
runs, cmd = int(sys.argv[1]), sys.argv[2:]
wall, cpu, rss = [], [], []
for _ in range(runs):
    t = time.monotonic()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1); os.dup2(fd, 2)
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

mb() { awk -v b="$(cat "$@" | wc -c)" 'BEGIN { printf "%.1f", b / 1048576 }'; }
row() { # name MB wall cpu rss cat_ms wc_ms
  awk -v n="$1" -v mb="$2" -v w="$3" -v c="$4" -v r="$5" -v cat="$6" -v wc="$7" 'BEGIN {
    printf "%-28s %6s %7d %7d %7.1f %7.2f %6.1f %6.1f %6.0f\n", n, mb, w, c, r / 1024,
      r / 1024 / mb, w / (cat > 0 ? cat : 1), w / (wc > 0 ? wc : 1), mb / ((w > 0 ? w : 1) / 1000) }'
}

cat "$big" "$pert" "${parts[@]}" >/dev/null # warm the page cache
printf '%-28s %6s %7s %7s %7s %7s %6s %6s %6s\n' run in_MB wall_ms cpu_ms rss_MB rss/in x_cat x_wc MB/s
dmb=$(mb "$big" "$pert")
read -r cw _ _ <<<"$(med cat "$big" "$pert")"
read -r ww _ _ <<<"$(med wc -l "$big" "$pert")"
echo "  (cat of both: $cw ms, wc -l of both: $ww ms)"
for args in "--format folded" "--format folded -j 1" "-n --format folded" "" "--top 20" "--fail-above 50"; do
  read -r w c r <<<"$(med "$tools/flame-diff" $args "$big" "$pert")"
  row "diff ${args:-(svg)}" "$dmb" "$w" "$c" "$r" "$cw" "$ww"
done
mmb=$(mb "${parts[@]}")
read -r cw _ _ <<<"$(med cat "${parts[@]}")"
read -r ww _ _ <<<"$(med wc -l "${parts[@]}")"
echo "  (cat of the ten: $cw ms, wc -l of the ten: $ww ms)"
for args in "" "-j 1" "--normalize"; do
  read -r w c r <<<"$(med "$tools/flame-merge" $args "${parts[@]}")"
  row "merge x10 ${args}" "$mmb" "$w" "$c" "$r" "$cw" "$ww"
done
