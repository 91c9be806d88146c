#!/usr/bin/env python3
# An independent re-statement of FlameGraph's difffolded.pl, used as the oracle for
# flame-diff --format folded: same line regex, -n (int(c1 * T2 / T1), only when the totals
# differ) and -s (0x[0-9a-fA-F]+ -> 0x...); lines sorted bytewise (difffolded.pl prints in
# hash order, so equivalence is "after sorting").
import re, sys
from decimal import Decimal

args = [a for a in sys.argv[1:]]
normalize = any(a in ('-n', '--normalize') for a in args)
strip = any(a in ('-s', '--strip-hex') for a in args)
files = [a for a in args if not a.startswith('-')]
line_re = re.compile(rb'^(.*)\s+?(\d+(?:\.\d*)?)$')
folded = {}
totals = [Decimal(0), Decimal(0)]
for col, path in enumerate(files):
    with open(path, 'rb') as f:
        for line in f:
            line = line.rstrip(b'\n')
            m = line_re.match(line)
            if not m:
                continue
            stack, count = m.group(1), Decimal(m.group(2).decode())
            if strip:
                stack = re.sub(rb'0x[0-9a-fA-F]+', b'0x...', stack)
            folded.setdefault(stack, [Decimal(0), Decimal(0)])[col] += count
            totals[col] += count

def fmt(d):
    d = d.normalize() if d != d.to_integral_value() else d.to_integral_value()
    return format(d, 'f')

out = []
for stack, (c1, c2) in folded.items():
    if normalize and totals[0] != totals[1]:
        c1 = Decimal(int(c1 * totals[1] / totals[0]))
    out.append(stack + b' ' + fmt(c1).encode() + b' ' + fmt(c2).encode() + b'\n')
sys.stdout.buffer.write(b''.join(sorted(out)))
