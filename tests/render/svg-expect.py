#!/usr/bin/env python3
# The folded text flame-collapse must read back from flame-render's SVG of FOLDED drawn at
# --minwidth MW (px, or N%; default width 1200), computed here independently of the C code:
# each stack cut to its deepest drawn prefix (a frame is drawn when its total, AFTER for 3
# columns, is >= the minimum; the weight of the hidden frames lands on that prefix), hidden
# top-level frames kept as one-frame stacks; `reverse` for --reverse pictures.
# Usage: svg-expect.py FOLDED MW [reverse]
import sys
from decimal import Decimal
from collections import defaultdict
folded, mw = sys.argv[1], sys.argv[2]
rev = 'reverse' in sys.argv[3:]
width = 1200
stacks = defaultdict(lambda: [Decimal(0), Decimal(0)])
diff = False
for line in open(folded, 'rb'):
    line = line.rstrip(b'\n')
    if not line.strip(): continue
    parts = line.rsplit(b' ', 2)
    try:
        if len(parts) == 3 and parts[1].replace(b'.', b'').isdigit():
            s, a, b = parts[0], Decimal(parts[1].decode()), Decimal(parts[2].decode()); diff = True
        else:
            s, c = line.rsplit(b' ', 1); a = b = Decimal(c.decode())
    except Exception: continue
    fr = s.split(b';')
    if rev: fr = fr[::-1]
    k = tuple(fr); stacks[k][0] += a; stacks[k][1] += b
col = 1 if diff else 0
tot = defaultdict(Decimal)
for fr, w in stacks.items():
    for i in range(1, len(fr)+1): tot[fr[:i]] += w[col]
T = sum(w[col] for w in stacks.values())
mint = T*Decimal(mw[:-1])/100 if mw.endswith('%') else Decimal(mw)/Decimal(width-20)*T
out = defaultdict(lambda: [Decimal(0), Decimal(0)])
for fr, w in stacks.items():
    k = 0
    while k < len(fr) and tot[fr[:k+1]] >= mint: k += 1
    key = fr[:max(k, 1)]
    if rev: key = key[::-1]
    out[b';'.join(key)][0] += w[0]; out[b';'.join(key)][1] += w[1]
def fmt(d):
    return str(int(d)) if d == d.to_integral() else format(d.normalize(), 'f')
res = []
for k in sorted(out):
    a, b = out[k]
    if diff:
        if a or b: res.append(k + b' ' + fmt(a).encode() + b' ' + fmt(b).encode())
    elif a: res.append(k + b' ' + fmt(a).encode())
sys.stdout.buffer.write(b''.join(r + b'\n' for r in res))
