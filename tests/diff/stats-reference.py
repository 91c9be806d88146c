#!/usr/bin/env python3
"""flame-diff's statistics against a reference written here with Python's statistics
module: several runs per side of sample counts, each function's share per run, the variance
between runs (never below the binomial sampling variance), Welch's test with
Welch-Satterthwaite's degrees of freedom (Student's t integrated numerically here), the
interval at 1 - alpha, and Benjamini-Hochberg's q-values. Usage: stats-reference.py
FLAME_DIFF WORKDIR"""
import csv, io, math, os, random, statistics, subprocess, sys

flame_diff, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = random.Random(7)
STACKS = {"main;parse": 300, "main;parse;lex": 120, "main;run;hot": 500, "main;run;cold": 40,
          "main;run;io": 200, "main;gc": 90, "main;rare": 2}

def make(path, slow):
    with open(path, "w") as f:
        for s, n in sorted(STACKS.items()):
            k = n * (1.3 if slow and s.endswith("hot") else 1)
            k = max(0, int(rng.gauss(k, math.sqrt(k) * 2.5)))
            if k:
                f.write(f"{s} {k}\n")

runs = {0: [], 1: []}
for side, n in ((0, 5), (1, 4)):
    for i in range(n):
        p = os.path.join(work, f"run{side}-{i}.folded")
        make(p, side == 1)
        runs[side].append(p)

def counts(path):
    self_, total, T = {}, {}, 0
    for line in open(path):
        stack, k = line.rsplit(" ", 1)
        k = int(k); T += k
        frames = stack.split(";")
        for f in set(frames):
            total[f] = total.get(f, 0) + k
        self_[frames[-1]] = self_.get(frames[-1], 0) + k
    return self_, total, T

data = {s: [counts(p) for p in runs[s]] for s in (0, 1)}
names = sorted({f for s in (0, 1) for (_, t, _) in data[s] for f in t})

def t_sf2(t, df):  # P(|T| >= t), by Simpson's rule on the density
    t = abs(t)
    if df == 0:
        return math.erfc(t / math.sqrt(2))
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    pdf = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    n = 2000; h = t / n
    s = pdf(0) + pdf(t) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, n))
    return max(0.0, 1 - 2 * s * h / 3)

QCACHE = {}
def t_q(upper, df):  # the t with P(T > t) = upper, by bisection
    if (upper, df) in QCACHE:
        return QCACHE[upper, df]
    lo, hi = 0.0, 1000.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if t_sf2(mid, df) / 2 > upper: lo = mid
        else: hi = mid
    QCACHE[upper, df] = (lo + hi) / 2
    return QCACHE[upper, df]

ALPHA = 0.01
def side(s, f, k):
    vals, floor, anyc = [], 0.0, False
    for (self_, total, T) in data[s]:
        c = (total if k else self_).get(f, 0)
        anyc |= c > 0
        vals.append(c / T)
        ce = max(c, 1)
        floor += ce * (T - ce) / T ** 3
    n = len(vals)
    floor /= n * n
    m = statistics.mean(vals)
    between = statistics.variance(vals) / n if n > 1 else 0
    return (m, between, n - 1, anyc) if between > floor else (m, floor, 0, anyc)

ref, tests = {}, []
for f in names:
    for k in (0, 1):
        (m0, v0, d0, a0), (m1, v1, d1, a1) = side(0, f, k), side(1, f, k)
        d, var = m1 - m0, v0 + v1
        den = sum(v * v / df for v, df in ((v0, d0), (v1, d1)) if df > 0)
        dof = var * var / den if den > 0 else 0
        se = math.sqrt(var)
        p = 1.0 if (not (a0 or a1) or d == 0) else t_sf2(d / se, dof)
        half = t_q(ALPHA / 2, dof) * se
        ref[f, k] = [100 * d, 100 * (d - half), 100 * (d + half), p, 1.0]
        if a0 or a1:
            tests.append((p, f, k))
tests.sort()
m, run = len(tests), 1.0
for i in range(m - 1, -1, -1):
    p, f, k = tests[i]
    run = min(run, p * m / (i + 1))
    ref[f, k][4] = run

args = [flame_diff, "-n", "--top", "1", "--top-format", "csv"]
for s, opt in ((0, "--before"), (1, "--after")):
    for p in runs[s]:
        args += [opt, p]
out = subprocess.run(args, capture_output=True, text=True)
if out.returncode:
    sys.exit(f"flame-diff failed: {out.stderr}")
rows = list(csv.DictReader(io.StringIO(out.stdout)))
bad, seen = 0, 0
for r in rows:
    f = r["function"]
    for k, kind in ((0, "self"), (1, "total")):
        got = [float(r[f"{kind}_{c}"]) for c in ("change_pct", "low_pct", "high_pct", "p", "q")]
        want = ref[f, k]
        for g, w, what in zip(got, want, ("change", "low", "high", "p", "q")):
            if abs(g - w) > 2e-4 * max(1.0, abs(w)) + 1e-6:
                print(f"{f} {kind} {what}: flame-diff {g}, reference {w}")
                bad += 1
        seen += 1
        sig = int(r[f"{kind}_significant"])
        if sig != (want[4] <= ALPHA):
            print(f"{f} {kind}: significant {sig}, reference q {want[4]}")
            bad += 1
hot = [r for r in rows if r["function"] == "hot"]
if not hot or hot[0]["total_significant"] != "1":
    print("the 30% slower function is not found significant"); bad += 1
print(f"{seen} statistics compared, {bad} differ")
sys.exit(1 if bad or seen < 8 else 0)
