#!/usr/bin/env bash
# bench/compare-builds.sh: the same jobs run by two builds of the tools, in interleaved
# rounds of one run (old, new, old, new...), so a refactor can quote "before and after" as
# a ratio measured under the same machine load. For each job: median wall time of each
# build, the spread (min-max over the rounds), new/old as a ratio of medians, the same for
# CPU time (user + system, summed over threads: steadier than wall time when the machine is
# shared, since it does not count the time waiting for a core), and the median peak RSS
# of each.
# Usage: bench/compare-builds.sh OLD_TOOLS_DIR NEW_TOOLS_DIR [RUNS (7)]
#   e.g. bench/compare-builds.sh /tmp/before/tools build/tools
# Inputs are made once in bench/data/ (git-ignored) from the in-repo generator; a job whose
# input cannot be made is reported as skipped. Env: ONLY=REGEX runs the matching jobs;
# INSTR=1 adds, per job, the instructions each build executes (one run of each under
# valgrind's callgrind, all threads counted): a ratio a shared machine's noise cannot move,
# beside the times it can (minutes: each run is 50-100 times slower under valgrind).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=$(cd "${1:?old tools dir}" && pwd)
new=$(cd "${2:?new tools dir}" && pwd)
runs=${3:-7}
only=${ONLY:-.}
data=$root/bench/data
mkdir -p "$data"
for d in "$old" "$new"; do
  for t in flame-collapse flame-render flame-diff flame-merge; do
    [ -x "$d/$t" ] || { echo "no $d/$t" >&2; exit 2; }
  done
done

gen=$root/bench/gen/perf-big.sh
[ -x "$gen" ] || gen=$root/../shared/corpus/gen/perf-big.sh
perf=$data/perf-200m.txt
big=$data/big-tid.folded
pert=$data/big-tid-perturbed.folded
[ -s "$perf" ] || "$gen" 200 "$perf"
[ -s "$big" ] || { "$old/flame-collapse" --tid "$perf" >"$big.tmp" && mv "$big.tmp" "$big"; }
[ -s "$pert" ] || { awk '{ n = $NF; if (NR % 10 != 0) n = int(n * (100 + (NR * 7) % 9 - 4) / 100); $NF = n; print }' \
  "$big" >"$pert.tmp" && mv "$pert.tmp" "$pert"; }
parts=()
for i in 0 1 2 3 4 5 6 7 8 9; do
  p=$data/merge-part$i.folded
  [ -s "$p" ] || { awk -v i=$i '(NR + i) % 2 == 0 { n = $NF; n = int(n * (100 + (NR + i) % 7) / 100); $NF = n; print }' \
    "$big" >"$p.tmp" && mv "$p.tmp" "$p"; }
  parts+=("$p")
done
synth=$data/pprof-synth-300000.pb.gz
if [ ! -s "$synth" ]; then
  awk 'BEGIN { srand(7); for (i = 0; i < 300000; i++) { d = 8 + int(rand() * 40)
      s = "main;serve;handle" (i % 50)
      for (k = 3; k < d; k++) s = s ";pkg" int(rand() * 30) ".fn" int(rand() * 100)
      printf "%s;leaf%d %d\n", s, i, 1 + int(rand() * 1000) } }' |
    "$old/flame-collapse" -q --output-format pprof -o "$synth" -
fi

instr=${INSTR:-0}
[ "$instr" = 0 ] || command -v valgrind >/dev/null || { echo "INSTR=1 needs valgrind" >&2; exit 2; }
python3 - "$old" "$new" "$runs" "$only" "$instr" "$data" "$perf" "$big" "$pert" "$synth" "${parts[@]}" <<'PY'
import os, re, statistics, sys, time
old, new, runs, only, instr, data, perf, big, pert, synth = sys.argv[1:11]
parts = sys.argv[11:]
instr = instr != "0"
runs = int(runs)
def opt(path):  # a job on an input that may not exist (made by bench/parsers)
    return path if os.path.exists(path) else None
jobs = [
    ("collapse -j1 (perf 200 MB)", perf, ["flame-collapse", "-j1", perf]),
    ("collapse (perf 200 MB)", perf, ["flame-collapse", perf]),
    ("render SVG (37 MB folded)", big, ["flame-render", big]),
    ("diff folded, sorted text", big, ["flame-diff", "--format", "folded", big, pert]),
    ("diff folded, tree -j1", big, ["flame-diff", "-j", "1", "--format", "folded", big, pert]),
    ("diff SVG", big, ["flame-diff", big, pert]),
    ("merge of ten (185 MB)", big, ["flame-merge"] + parts),
    ("pprof 300k distinct stacks", synth, ["flame-collapse", "-q", synth]),
    ("offcputime 100 MB", opt(data + "/offcpu-100m.txt"), ["flame-collapse", "-q", data + "/offcpu-100m.txt"]),
    ("jfr text 100 MB", opt(data + "/jfr-all-100m.txt"), ["flame-collapse", "-q", data + "/jfr-all-100m.txt"]),
    ("svg in 100 MB", opt(data + "/svg-100m.svg"), ["flame-collapse", "-q", data + "/svg-100m.svg"]),
]
def run(cmd):
    t = time.monotonic()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1); os.dup2(fd, 2)
        os.execv(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        sys.exit("failed: " + " ".join(cmd))
    return (time.monotonic() - t) * 1000, ru.ru_maxrss / 1024, (ru.ru_utime + ru.ru_stime) * 1000
def instructions(cmd):  # callgrind's count of instructions executed, all threads
    import subprocess
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r"Collected : (\d+)", p.stderr)
    if p.returncode != 0 or not m:
        sys.exit("failed under valgrind: " + " ".join(cmd))
    return int(m.group(1))
print(f"{'job':30} {'old ms':>8} {'spread':>13} {'new ms':>8} {'spread':>13} {'new/old':>7}"
      f" {'old cpu':>8} {'spread':>13} {'new cpu':>8} {'spread':>13} {'new/old':>7} {'old MiB':>8} {'new MiB':>8}"
      + (f" {'old Minstr':>10} {'new Minstr':>10} {'new/old':>7}" if instr else ""))
for name, inp, cmd in jobs:
    if not re.search(only, name):
        continue
    if inp is None:
        print(f"{name:30} skipped (input not made: run bench/parsers/offcpu-jfr.sh once)")
        continue
    with open(inp, "rb") as f:
        while f.read(1 << 22):
            pass
    res = {old: [], new: []}
    for r in range(runs):
        for d in ((old, new) if r % 2 == 0 else (new, old)):
            res[d].append(run([os.path.join(d, cmd[0])] + cmd[1:]))
    def s(d, i):
        w = sorted(x[i] for x in res[d])
        return statistics.median(w), w[0], w[-1]
    def cols(i):
        mo, lo_o, hi_o = s(old, i)
        mn, lo_n, hi_n = s(new, i)
        return f"{mo:8.0f} {lo_o:6.0f}-{hi_o:<6.0f} {mn:8.0f} {lo_n:6.0f}-{hi_n:<6.0f} {mn / mo:7.3f}"
    ro, rn = (statistics.median(x[1] for x in res[d]) for d in (old, new))
    ins = ""
    if instr:
        io, inn = (instructions([os.path.join(d, cmd[0])] + cmd[1:]) for d in (old, new))
        ins = f" {io / 1e6:10.1f} {inn / 1e6:10.1f} {inn / io:7.3f}"
    print(f"{name:30} {cols(0)} {cols(2)} {ro:8.1f} {rn:8.1f}{ins}", flush=True)
PY
