#!/bin/bash
# perf-big.sh - deterministic generator of a LARGE, realistic `perf script` text file.
#
# It re-emits real samples taken from fixtures/corpus/perf/*.perf.txt (default `perf script`
# field layout: "comm tid [cpu] time: period event:" + tab-indented frames), in a
# pseudo-random order driven by a fixed-seed xorshift PRNG, with perturbations so that the
# output is not just N copies of the same stacks:
#   * timestamps rewritten to be strictly increasing;
#   * tids/pids remapped per "epoch" (every 5000 samples) -> many threads;
#   * ~1/6 of user-space frames get a deterministic suffix "_vN" (N < 97) on the
#     symbol, so the number of distinct stacks/functions grows like a large program;
#   * ~1/20 of samples lose their leaf frame, ~1/20 get a recursion frame duplicated.
# Same inputs + same SIZE + same SEED => byte-identical output (no dependence on
# Python's hash seed or random module).
#
# Usage: bench/gen/perf-big.sh [SIZE_MB=200] [OUT=perf-big.perf.txt|-] [SEED=1]
#   bench/gen/perf-big.sh 200 /tmp/perf-200m.txt        # ~200 MB
#   bench/gen/perf-big.sh 1024 /tmp/perf-1g.txt         # ~1 GB
#   bench/gen/perf-big.sh 50 - | ./libflame-collapse    # stream to stdout
# Throughput: roughly 40-80 MB/s with python3 on one core.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SIZE_MB=${1:-200}
OUT=${2:-perf-big.perf.txt}
SEED=${3:-1}
exec python3 - "$HERE/../../fixtures/corpus/perf" "$SIZE_MB" "$OUT" "$SEED" <<'PYEOF'
import sys, os, re
src_dir, size_mb, out, seed = sys.argv[1], float(sys.argv[2]), sys.argv[3], int(sys.argv[4])
# only single-event (cpu-clock) inputs, so reference collapsers keep every sample
INPUTS = ["c-fp-default", "c-dwarf", "system-wide", "java-perfmap", "cpp-fp",
          "python-dwarf", "python-fp"]
# header: comm (may contain spaces) SP+ tid [SP [cpu]] SP+ secs.frac: rest
HDR = re.compile(r'^(.*?\S)\s+(\d+)(?:/(\d+))?\s+(?:(\[\d+\])\s+)?(\d+)\.(\d+):(.*)$')
FRAME = re.compile(r'^(\s+)([0-9a-f]+) (.*) \((.*)\)$')

samples = []
for name in INPUTS:
    path = os.path.join(src_dir, name + ".perf.txt")
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        cur = None
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line.strip():
                if cur and len(cur[1]) > 0:
                    samples.append(cur)
                cur = None
                continue
            if cur is None:
                m = HDR.match(line)
                if not m:
                    continue
                comm, a, b, cpu, sec, frac, rest = m.groups()
                tid = int(b if b else a)
                cur = (comm, [], tid, cpu, rest, len(frac))
            else:
                fm = FRAME.match(line)
                if fm:
                    ind, addr, sym, dso = fm.groups()
                    kern = dso.startswith("[") or addr.startswith("ffffffff")
                    cur[1].append((ind, addr, sym, dso, kern))
                else:
                    cur[1].append((None, line, None, None, True))  # keep verbatim
        if cur and len(cur[1]) > 0:
            samples.append(cur)
if not samples:
    sys.exit("perf-big: no samples parsed from " + src_dir)

state = (seed * 0x9E3779B97F4A7C15 + 0x1234567) & 0xFFFFFFFFFFFFFFFF or 1
def rnd():
    global state
    x = state
    x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 7
    x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
    state = x
    return x

target = int(size_mb * 1024 * 1024)
fo = sys.stdout if out == "-" else open(out, "w", encoding="utf-8", errors="surrogateescape", newline="\n")
written = 0
t_us = 1000 * 1000000
n = 0
buf = []
nsamp = len(samples)
while written < target:
    comm, frames, tid, cpu, rest, fraclen = samples[rnd() % nsamp]
    epoch = n // 5000
    ntid = tid + (epoch % 64) * 100000 if tid != 0 else 0
    t_us += 1 + rnd() % 4000
    ts = "%d.%06d" % (t_us // 1000000, t_us % 1000000)
    if fraclen == 9:
        ts += "%03d" % (rnd() % 1000)
    hdr = "%s %5d " % (comm, ntid) + (cpu + " " if cpu else "") + ts + ":" + rest
    lines = [hdr]
    r = rnd()
    fl = frames
    if r % 20 == 0 and len(fl) > 2:
        fl = fl[1:]                          # drop leaf frame
    elif r % 20 == 1 and len(fl) > 3:
        k = 1 + (r >> 8) % (len(fl) - 2)
        fl = fl[:k] + [fl[k]] + fl[k:]       # duplicate a frame (deeper recursion)
    for (ind, addr, sym, dso, kern) in fl:
        if ind is None:
            lines.append(addr)
            continue
        if not kern and sym != "[unknown]":
            h = rnd()
            if h % 6 == 0:
                base, plus, off = sym.partition("+0x")
                sym = "%s_v%d%s%s" % (base, (h >> 16) % 97, plus, off)
        lines.append("%s%s %s (%s)" % (ind, addr, sym, dso))
    lines.append("")
    s = "\n".join(lines) + "\n"
    buf.append(s)
    written += len(s.encode("utf-8", "surrogateescape")) if not s.isascii() else len(s)
    n += 1
    if len(buf) >= 4096:
        fo.write("".join(buf)); buf.clear()
fo.write("".join(buf))
if fo is not sys.stdout:
    fo.close()
sys.stderr.write("perf-big: %d samples, %d bytes (from %d real samples)\n" % (n, written, nsamp))
PYEOF
