#!/usr/bin/env bash
# One perf.data read two ways gives the same stacks: directly (parse/perfdata.c) and as the
# Firefox Profiler file samply makes of it (`samply import`, read by parse/firefox.c, which
# names samply's address frames from the same ELF files). Counts are compared as samples:
# perf.data weighs each sample by its period, samply counts it once, so every stack's
# perf.data weight must be its sample count times the one fixed period.
#   fixture mode: fixtures/firefox/static.json.gz against fixtures/perfdata/static.data,
#                 both symbolized from fixtures/perfdata/home's build-id cache;
#   live mode:    a program built here, recorded by perf (cpu-clock, kernel frames too where
#                 perf_event_paranoid lets them in) and imported by samply 0.13.1 when it is
#                 built (bench/samply/build.sh; $SAMPLY or ~/.cache/libflame/samply-0.13.1),
#                 else skipped (77).
# Usage: compare-perfdata.sh BUILD_DIR FIXTURES_DIR [live]
set -eu
build=$(cd "$1" && pwd)
fixtures=$(cd "$2" && pwd)
collapse=$build/tools/flame-collapse
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# compare A B: A weighs samples by a fixed period, B counts them
compare() {
	python3 - "$1" "$2" <<'PY'
import sys
def read(p):
    d = {}
    for line in open(p):
        if line.startswith('#') or not line.strip():
            continue
        stack, w = line.rstrip('\n').rsplit(' ', 1)
        d[stack] = int(w)
    return d
a, b = read(sys.argv[1]), read(sys.argv[2])
if set(a) != set(b):
    for s in sorted(set(a) ^ set(b)):
        print(('perf.data only: ' if s in a else 'samply only:    ') + s)
    sys.exit('FAIL: the stacks differ')
period = {a[s] // b[s] for s in a if a[s] % b[s] == 0}
if len(period) != 1 or any(a[s] % b[s] for s in a):
    sys.exit('FAIL: the weights are not the sample counts times one period: %r' %
             sorted((s, a[s], b[s]) for s in a)[:5])
print('ok: %d stacks, %d samples, period %d' % (len(a), sum(b.values()), period.pop()))
PY
}

if [ "${3:-}" != live ]; then
	HOME=$fixtures/perfdata/home "$collapse" "$fixtures/perfdata/static.data" > "$tmp/perfdata.folded"
	HOME=$fixtures/perfdata/home "$collapse" "$fixtures/firefox/static.json.gz" > "$tmp/samply.folded"
	grep -q '_start;top;leaf' "$tmp/samply.folded" || { echo "FAIL: pd-static's frames are not named"; exit 1; }
	compare "$tmp/perfdata.folded" "$tmp/samply.folded"
	exit
fi

samply=${SAMPLY:-$HOME/.cache/libflame/samply-0.13.1/bin/samply}
[ -x "$samply" ] || { echo "SKIP: samply is not built (bench/samply/build.sh builds it; or set SAMPLY)"; exit 77; }
command -v perf > /dev/null || { echo "SKIP: no perf"; exit 77; }
command -v cc > /dev/null || { echo "SKIP: no C compiler"; exit 77; }
cat > "$tmp/work.c" <<'C'
#include <stdio.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void leaf(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) static void alpha(void) { leaf(20000000); sink++; }
__attribute__((noinline)) static void beta(void) { leaf(8000000); alpha(); sink++; }
int main(void) { for (int r = 0; r < 3; r++) { alpha(); beta(); } printf("%lu\n", sink); return 0; }
C
cc -O1 -g -fno-omit-frame-pointer -o "$tmp/work" "$tmp/work.c"
cd "$tmp"
if ! perf record -q -e cpu-clock -c 1000000 -g -o perf.data ./work > /dev/null 2> perf.err; then
	echo "SKIP: perf record failed: $(tail -1 perf.err)"
	exit 77
fi
"$samply" import --save-only -o work.json.gz perf.data > samply.log 2>&1 || { cat samply.log; echo "FAIL: samply import"; exit 1; }
"$collapse" perf.data > perfdata.folded
"$collapse" work.json.gz > samply.folded
grep -q 'main;beta;.*leaf' samply.folded || { cat samply.folded; echo "FAIL: the program's frames are not named"; exit 1; }
compare perfdata.folded samply.folded
