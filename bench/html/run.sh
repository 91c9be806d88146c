#!/usr/bin/env bash
# The HTML page (issue 13) on the render bench input (bench/render's 37 MB --tid folded file,
# 122 k stacks, 2.27 M tree nodes): the time to write it against the SVG's, interleaved
# round by round, with each round's ratio (goal <= 2x; medians and range of RUNS rounds);
# the page's size (goal <= 25 MB); then in headless Chromium (page.mjs): first paint, JS
# heap and the latency of zoom, search, view switches, sandwich and table, beside speedscope
# on the same folded file (SPEEDSCOPE_DIR: an npm-installed speedscope package, e.g.
# `npm install --prefix /tmp/ss speedscope` then /tmp/ss/node_modules/speedscope; without it
# speedscope is left out; SS_RUNS runs of it, default 1: it takes minutes); and a synthetic
# profile of 1 M distinct stacks; and ten times the render bench input, a profile of 20 M
# frames made by bench/gen/frames.py (kept in bench/data), against the goals: first paint
# within 3 s, at most 500 MB of JS heap, zoom, search, sandwich and table within 100 ms.
# Usage: bench/html/run.sh [BUILD_DIR (build)] [RUNS (5)] [SPEEDSCOPE_DIR]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
ss=${3:--}
tools=$build/tools
data=$root/bench/data
big=$data/big-tid.folded
if [ ! -s "$big" ]; then
  perf=$data/perf-200m.txt
  mkdir -p "$data"
  [ -s "$perf" ] || "$root/bench/gen/perf-big.sh" 200 "$perf"
  "$tools/flame-collapse" --tid "$perf" >"$big.tmp" && mv "$big.tmp" "$big"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

python3 - "$runs" "$tools/flame-render" "$big" "$out" <<'PY'
import os, statistics, sys, time
runs, render, big, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
def run(fmt):
    t = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.execv(render, [render, big, "-o", os.path.join(out, "bench." + fmt)])
    _, status, ru = os.wait4(pid, 0)
    if status:
        sys.exit("flame-render failed")
    return (time.monotonic() - t) * 1000, (ru.ru_utime + ru.ru_stime) * 1000, ru.ru_maxrss / 1024
rows = {"svg": [], "html": []}
for _ in range(runs):  # interleaved: both see the same load
    rows["svg"].append(run("svg"))
    rows["html"].append(run("html"))
rng = lambda v: "%.0f-%.0f" % (min(v), max(v))
for f in ("svg", "html"):
    w = [r[0] for r in rows[f]]; c = [r[1] for r in rows[f]]; m = [r[2] for r in rows[f]]
    print("write %-4s wall %5.0f ms (%s), cpu %5.0f ms (%s), peak RSS %5.1f MB, %6.2f MB" % (
        f, statistics.median(w), rng(w), statistics.median(c), rng(c), statistics.median(m),
        os.path.getsize(os.path.join(out, "bench." + f)) / 1e6))
for k, name in ((0, "wall"), (1, "cpu")):
    r = [h[k] / s[k] for s, h in zip(rows["svg"], rows["html"])]
    print("html / svg %s per round: median %.2fx (%.2f-%.2f), goal <= 2x" % (name, statistics.median(r), min(r), max(r)))
print("page size %.2f MB (goal <= 25 MB)" % (os.path.getsize(os.path.join(out, "bench.html")) / 1e6))
PY

node "$root/bench/html/page.mjs" "$out/bench.html" "$big" "$ss" "$runs"

# 1 M distinct stacks (a million leaf names under 1,000 callers)
syn=$out/million.folded
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "main;mod_%d;fn_%d;leaf_%d %d\n", i % 100, i % 1000, i, 1 + i % 7 }' >"$syn"
"$tools/flame-render" "$syn" -o "$out/million.html"
echo "1 M distinct stacks: page $(awk -v b="$(wc -c <"$out/million.html")" 'BEGIN { printf "%.1f", b / 1e6 }') MB"
node "$root/bench/html/page.mjs" "$out/million.html" "$syn" - 1

# 20 M frames (ten times the render bench input): made once, kept in bench/data
f20=$data/frames-20m.folded.gz
[ -s "$f20" ] || { python3 "$root/bench/gen/frames.py" 20e6 | gzip -1 >"$f20.tmp" && mv "$f20.tmp" "$f20"; }
"$tools/flame-render" "$f20" -o "$out/f20m.html"
echo "20 M frames: page $(awk -v b="$(wc -c <"$out/f20m.html")" 'BEGIN { printf "%.1f", b / 1e6 }') MB"
GOALS=1 node "$root/bench/html/page.mjs" "$out/f20m.html" "$f20" - "$runs"
