#!/usr/bin/env python3
"""The trials of bench/noise/diff-noise.sh: flame-diff on random splits of the recorded runs.
Usage: diff-noise.py FLAME_DIFF DATA_DIR A_RUNS B_RUNS PCT SEED"""
import math, os, random, statistics, subprocess, sys

fd, data, na, nb, pct, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
A = [os.path.join(data, f"a{i}.folded") for i in range(1, na + 1)]
B = [os.path.join(data, f"b{i}.folded") for i in range(1, nb + 1)]
rng = random.Random(seed)

# the program's own frames: the kernel's (interrupts, context switches) merged into them,
# as --merge's "only your code" does
OWN = ["--merge", "^(?!(hot|warm|cold|main|_start|__libc_start_call_main|__libc_start_main.*|wl)$)"]

def gate(before, after, limit=pct, extra=()):
    args = [fd, "-n", "--fail-above", str(limit), "--format", "folded", "-o", "/dev/null", *extra]
    for p in before: args += ["--before", p]
    for p in after: args += ["--after", p]
    r = subprocess.run(args, capture_output=True, text=True)
    names = [l.split(": ")[2] for l in r.stderr.splitlines() if ": regression: " in l]
    if r.returncode not in (0, 1):
        sys.exit(r.stderr)
    return names

def trials(label, draw, want=None, limit=pct, n=100, extra=()):
    hits, named = 0, 0
    for _ in range(n):
        before, after = draw()
        names = gate(before, after, limit, extra)
        hits += bool(names)
        named += want in names if want else 0
    if want:
        print(f"{label}: hot() named in {named} of {n} (the gate fired in {hits})")
    else:
        print(f"{label}: the gate fired in {hits} of {n}")
    return hits, named

def split5():
    s = rng.sample(A, 10)
    return s[:5], s[5:]
trials(f"A/A, 5 runs a side, --fail-above {pct}", split5)
trials("A/A, 5 runs a side, --fail-above 0", split5, limit=0)
trials(f"hot() 5% slower, 5 runs a side, --fail-above {pct}", lambda: (rng.sample(A, 5), rng.sample(B, 5)), "hot")
trials(f"A/A, 1 run a side, --fail-above {pct}", lambda: tuple([p] for p in rng.sample(A, 2)))
trials("A/A, 1 run a side, --fail-above 0", lambda: tuple([p] for p in rng.sample(A, 2)), limit=0)
trials(f"hot() 5% slower, 1 run a side, --fail-above {pct}", lambda: ([rng.choice(A)], [rng.choice(B)]), "hot")
trials(f"A/A, 1 run a side, --fail-above {pct}, the program's frames", lambda: tuple([p] for p in rng.sample(A, 2)), extra=OWN)
trials("A/A, 1 run a side, --fail-above 0, the program's frames", lambda: tuple([p] for p in rng.sample(A, 2)), limit=0, extra=OWN)
trials(f"hot() 5% slower, 1 run a side, --fail-above {pct}, the program's frames", lambda: ([rng.choice(A)], [rng.choice(B)]), "hot", extra=OWN)

# the spread between runs of each function's total share, and what it takes to see less
def shares(path):
    tot, T = {}, 0
    for line in open(path):
        if line.startswith("#"): continue
        stack, k = line.rsplit(" ", 1); k = int(k); T += k
        for f in set(stack.split(";")): tot[f] = tot.get(f, 0) + k
    return {f: v / T for f, v in tot.items()}, T
sa = [shares(p) for p in A]
samples = statistics.mean(T for _, T in sa)
print(f"\nper run: {samples / 1e9:.3f} s of CPU sampled")
print("function  share   between-run sd  sampling sd  runs a side to detect a change of (points of the total):")
print("                                                 0.25   0.5    1.0")
z = lambda p: statistics.NormalDist().inv_cdf(1 - p)
m = 20  # about the tests of this profile (self and total of its functions)
for f in ("hot", "warm", "cold"):
    v = [s.get(f, 0) for s, _ in sa]
    sd = statistics.stdev(v)
    p = statistics.mean(v)
    w = 1e9 / 20000  # one sample at FREQ 20000 in ns
    samp = math.sqrt(p * (1 - p) * w / samples)
    need = [math.ceil(2 * ((z(0.01 / m / 2) + z(0.05)) * max(sd, samp) / (d / 100)) ** 2) for d in (0.25, 0.5, 1.0)]
    print(f"{f:8s} {100 * p:6.2f}%  {100 * sd:8.3f} pts    {100 * samp:7.3f} pts   " + "  ".join(f"{n:5d}" for n in need))
