#!/usr/bin/env python3
"""pprof-samples.py OUT.pb.gz [SAMPLES] [STACKS] [lines] [nolabels]: a synthetic profile.proto (for bench/pprof)
as continuous profilers write them: every event its own sample (SAMPLES, default 1 M)
with labels (endpoint, tenant) over STACKS distinct stacks (default 20 000) of depth
8..47 through 3000 functions. Deterministic. With "lines", functions have a file and a start
line, as Go writes them (what flame-merge keeps as sites). With "nolabels", samples have no
labels (as Go's CPU profiles without pprof.Do)."""
import gzip, random, sys

def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)

def vi(f, v): return varint(f << 3) + varint(v)
def ld(f, b): return varint(f << 3 | 2) + varint(len(b)) + b
def packed(f, vals): return ld(f, b"".join(varint(v) for v in vals))

out, nsamples, nstacks = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000000, \
    int(sys.argv[3]) if len(sys.argv) > 3 else 20000
with_lines = "lines" in sys.argv[4:]
with_labels = "nolabels" not in sys.argv[4:]
rnd = random.Random(11)
strings = ["", "samples", "count", "cpu", "nanoseconds", "endpoint", "tenant"]
def s(x):
    strings.append(x)
    return len(strings) - 1
endpoints = [s("/api/v1/e%d" % i) for i in range(40)]
tenants = [s("tenant-%d" % i) for i in range(200)]
nfunc = 3000
fname = [s("pkg%d.(*T%d).fn%d" % (i % 30, i % 7, i)) for i in range(nfunc)]
files = [s("example.com/pkg%d/file%d.go" % (i, j)) for i in range(30) for j in range(7)] if with_lines else []
parts = []
parts.append(ld(1, vi(1, 1) + vi(2, 2)))
parts.append(ld(1, vi(1, 3) + vi(2, 4)))
for i in range(nfunc):  # function and location ids 1..nfunc
    fields = vi(1, i + 1) + vi(2, fname[i])
    if with_lines:
        fields += vi(4, files[(i % 30) * 7 + i % 7]) + vi(5, 5 + i % 90)
    parts.append(ld(5, fields))
    parts.append(ld(4, vi(1, i + 1) + vi(3, 0x400000 + 16 * i) + ld(4, vi(1, i + 1) + vi(2, 10 + i % 90))))
stacks = []
for k in range(nstacks):
    d = 8 + rnd.randrange(40)
    stacks.append(packed(1, [rnd.randrange(nfunc) + 1 for _ in range(d)]))
labels = [ld(3, vi(1, 5) + vi(2, e)) for e in endpoints]
tlabels = [ld(3, vi(1, 6) + vi(2, t)) for t in tenants]
for i in range(nsamples):
    st = stacks[min(int(rnd.paretovariate(1.2)) - 1, nstacks - 1) if i % 2 else rnd.randrange(nstacks)]
    lab = labels[i % 40] + tlabels[(i * 7) % 200] if with_labels else b""
    parts.append(ld(2, st + packed(2, [1, 10000000]) + lab))
parts.extend(ld(6, x.encode()) for x in strings)
with open(out, "wb") as f:
    f.write(gzip.compress(b"".join(parts), compresslevel=6, mtime=0))
