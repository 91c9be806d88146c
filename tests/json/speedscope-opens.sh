#!/usr/bin/env bash
# What we write as speedscope JSON is what speedscope 1.25 (its npm package's own importer,
# in headless Chromium: tests/browser/speedscope-import.mjs) opens: for each input, every
# profile's total and every frame's self and total weight (recursion counted once) equal
# those of our folded output of the same input, within the rounding of speedscope's
# floating-point sums; a differential tree is two profiles, before and after. Inputs: the
# bundled perf example (nanoseconds), node's .cpuprofile (microseconds), py-spy's
# speedscope file (seconds with decimals), fractional folded counts, hostile names
# (quotes, backslashes, control bytes, UTF-8), and a diff. The .cpuprofile we write
# (microseconds) opens with the same total, to the microsecond.
# Skips (77) without chromium, node or tests/browser/node_modules (npm ci there).
# Usage: speedscope-opens.sh BUILD_DIR auto|required
set -u
build=$(cd "$1" && pwd)
mode=${2:-auto}
src=$(cd "$(dirname "$0")/../.." && pwd)
browser=$src/tests/browser
missing=""
[ -x /usr/bin/chromium ] || missing="$missing /usr/bin/chromium"
command -v node >/dev/null 2>&1 || missing="$missing node"
[ -d "$browser/node_modules/speedscope" ] || missing="$missing $browser/node_modules/speedscope (npm ci in tests/browser)"
[ -d "$browser/node_modules/playwright-core" ] || missing="$missing $browser/node_modules/playwright-core"
if [ -n "$missing" ]; then
  echo "speedscope test: missing$missing"
  [ "$mode" = required ] && exit 1
  exit 77
fi
set -e
export PATH="$build/tools:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fx=$src/fixtures
printf 'main;parse 1.25\nmain;parse;lex 0.5\nmain;eval 3\n' > frac.folded
printf 'm\\"q"a;b\\\\c;t\x01u 5\n\xc3\xa9t\xc3\xa9;caf\xe9;x 7\nr;r;r 2\n' > hostile.folded
i=0
for input in "$fx/example/workload.perf.txt" "$fx/json/node.cpuprofile" \
             "$fx/json/py-spy.speedscope.json" frac.folded hostile.folded; do
  i=$((i + 1))
  flame-collapse "$input" -o "$i.speedscope.json"
  flame-collapse --no-header "$input" > "$i.folded"
done
flame-diff --format speedscope -o diff.speedscope.json "$fx/diff/before.folded" "$fx/diff/after.folded"
flame-diff --format folded --no-header "$fx/diff/before.folded" "$fx/diff/after.folded" > diff.folded
flame-collapse "$fx/example/workload.perf.txt" -o perf.cpuprofile
flame-collapse "$fx/json/node.cpuprofile" -o node.cpuprofile
files=$(ls ./*.speedscope.json ./*.cpuprofile)
node "$browser/speedscope-import.mjs" --frames $files > imported.tsv
python3 - imported.tsv <<'PY'
import json, sys
from collections import defaultdict

def ours(folded, col):
    """Total, and each frame's self and total (recursion once), of column col."""
    total, self_, tot = 0.0, defaultdict(float), defaultdict(float)
    for line in open(folded, 'rb').read().decode('utf-8', 'replace').split('\n'):
        if not line:
            continue
        parts = line.rsplit(' ', 1 if col is None else 2)
        stack, w = parts[0], float(parts[1 + (col or 0)])
        if w == 0:
            continue
        names = stack.split(';')
        total += w
        self_[names[-1]] += w
        for n in set(names):
            tot[n] += w
    return total, self_, tot

def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))

got = defaultdict(lambda: {'frames': {}})
for row in open(sys.argv[1], encoding='utf-8').read().split('\n'):
    if not row:
        continue
    f = row.split('\t')
    key = (f[0], f[1])
    if f[2] == 'frame':
        got[key]['frames'][json.loads(f[3])] = (float(f[4]), float(f[5]))
    else:
        got[key]['unit'], got[key]['total'] = f[2], float(f[3])
fails = checks = 0
cpu = {'./perf.cpuprofile': 1100200.392, './node.cpuprofile': 158235}  # our totals, in us
for (file, profile), g in sorted(got.items()):
    if file in cpu:
        ok = abs(g['total'] - cpu[file]) <= 1 and g['unit'] == 'microseconds'
        checks += 1
        fails += not ok
        print(f"{'ok  ' if ok else 'FAIL:'} {file}: {g['unit']}, total {g['total']} (ours {cpu[file]})")
        continue
    base = file[2:].replace('.speedscope.json', '.folded')
    col = {'profile': None, 'before': 0, 'after': 1}[profile]
    total, self_, tot = ours(base, col)
    bad = []
    if not close(total, g['total']):
        bad.append(f"total {g['total']} != {total}")
    if set(g['frames']) != set(tot):
        bad.append(f"frames differ: {sorted(set(g['frames']) ^ set(tot))[:5]}")
    for n, (s, t) in g['frames'].items():
        if not close(s, self_.get(n, 0)) or not close(t, tot.get(n, 0)):
            bad.append(f"frame {n!r}: {s}/{t} != {self_.get(n, 0)}/{tot.get(n, 0)}")
    checks += 1
    print(f"{'ok  ' if not bad else 'FAIL:'} {file} {profile}: {g['unit']}, total {g['total']}, "
          f"{len(g['frames'])} frames" + ''.join('\n    ' + b for b in bad[:5]))
    fails += bool(bad)
if checks != 9:
    print(f"FAIL: {checks} profiles imported, 9 expected")
    fails += 1
sys.exit(1 if fails else 0)
PY
