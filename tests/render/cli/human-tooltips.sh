# numbers for people: a tree counting time or bytes prints its tooltips'
# amounts as "1.10 s", "230 ms", "3.69 MiB" (no "1,100,200,392 nanoseconds"), per-request
# amounts never in scientific notation; sample counts keep flamegraph.pl's exact form. The
# SVG still reads back exactly: data-v holds each frame's counts, data-unit the unit.
titles() { grep -o '<title>[^<]*' "$1" | sed 's/<title>//'; }
# INPUT SVG: the SVG reads back as the stacks and counts of INPUT, and renders to itself
reads_back() {
  flame-collapse --no-header -q "$1" | sort > want.folded
  flame-collapse --no-header -q --format svg "$2" | sort > got.folded
  cmp -s want.folded got.folded && echo "read back: same stacks and counts" || diff want.folded got.folded | head -5
  flame-render -q --minwidth 0 "$2" > again.svg
  cmp -s "$2" again.svg && echo "re-rendered: byte-identical (unit kept)" || echo "re-rendered: DIFFERS"
}

echo "== nanoseconds (perf cpu-clock)"
flame-render -q --minwidth 0 "$FIXTURES/example/workload.perf.txt" > ns.svg
titles ns.svg | sed -n '1,3p'
grep -o 'data-unit="[^"]*"' ns.svg
echo "'nanoseconds,': $(grep -c 'nanoseconds,' ns.svg), 'e+': $(grep -c 'e+' ns.svg)"
echo "frames: $(grep -c '<rect[^>]*><title>' ns.svg), without data-v: $(grep '<rect[^>]*><title>' ns.svg | grep -vc 'data-v=')"
reads_back "$FIXTURES/example/workload.perf.txt" ns.svg

echo "== bytes (Go heap profile)"
flame-render -q --minwidth 0 "$CORPUS/pprof/go-heap.pb.gz" > heap.svg
titles heap.svg | sed -n '1,3p'
grep -o 'data-unit="[^"]*"' heap.svg
reads_back "$CORPUS/pprof/go-heap.pb.gz" heap.svg

echo "== nanoseconds, differential, per request"
flame-diff -q --minwidth 0 --requests 10,20 "$FIXTURES/example/workload.perf.txt" \
  "$FIXTURES/example/workload.perf.txt" > nsdiff.svg
titles nsdiff.svg | sed -n '1,2p'
echo "'e+': $(grep -c 'e+' nsdiff.svg)"
flame-diff -q --requests 10,20 --no-header --format folded "$FIXTURES/example/workload.perf.txt" \
  "$FIXTURES/example/workload.perf.txt" | sort > want.folded
flame-collapse --no-header -q --format svg nsdiff.svg | sort > got.folded
cmp -s want.folded got.folded && echo "read back: same before and after counts" || diff want.folded got.folded | head -5

echo "== sample counts: flamegraph.pl's form, per request without exponents, no data-v"
printf 'main;work 3633000000\nmain 1000\n' > before.folded
printf 'main;work 4000000000\nmain 1000\n' > after.folded
flame-diff -q --requests 1000,1000 before.folded after.folded > counts.svg
titles counts.svg | sed -n '1,3p'
echo "'e+': $(grep -c 'e+' counts.svg)"
echo "data-v or data-unit: $(grep -c 'data-v=\|data-unit=' counts.svg)"
