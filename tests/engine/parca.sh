#!/usr/bin/env bash
# A real continuous-profiling engine takes what we write: Parca (bench/parca/build.sh builds
# it; several minutes, so this test is opt-in and skips without it) is started with the
# README's scrape configuration ("Beyond one machine"), scrapes flame-collapse's pprof from a
# local HTTP server, and takes flame-merge's through its write API (parca-grpcweb.py). Each
# is queried back as pprof and read by flame-collapse: every stack must come back with its
# weight times the number of scrapes merged (one for the write), in the same unit.
# Usage: parca.sh BUILD_DIR SOURCE_DIR   (PARCA=/path/to/parca, else the build script's)
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
export PATH="$build/tools:$PATH"
parca=${PARCA:-${XDG_CACHE_HOME:-$HOME/.cache}/libflame/parca-v0.21.0/parca}
if [ ! -x "$parca" ]; then
	echo "SKIP: no Parca at $parca (bench/parca/build.sh builds it, or set PARCA)"
	exit 77
fi
tmp=$(mktemp -d); [ -n "${KEEP:-}" ] && echo "kept in $tmp"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
web=$(port) api=$(port)
client() { python3 "$src/tests/engine/parca-grpcweb.py" "http://127.0.0.1:$api" "$@"; }

# what we send: a perf profile in nanoseconds, and a merge of folded hosts in samples
mkdir srv
flame-collapse "$src/fixtures/perf/progs-threads.perf.txt" -o srv/cpu.pb.gz || exit 1
flame-merge --format pprof "$src"/fixtures/diff/host{1,3}.folded -o world.pb.gz || exit 1

# the README's configuration, with this test's ports
awk '/^## Beyond one machine/ {s = 1} s && /^```yaml$/ {c = 1; next} c && /^```$/ {exit} c' \
	"$src/README.md" | sed "s/localhost:8080/127.0.0.1:$web/" >parca.yaml
grep -q 'pprof_config' parca.yaml || { echo "FAIL: no Parca configuration read from README.md"; exit 1; }
printf 'object_storage:\n  bucket:\n    type: FILESYSTEM\n    config:\n      directory: ./data\n' >>parca.yaml
(cd srv && exec python3 -m http.server "$web" --bind 127.0.0.1) >/dev/null 2>&1 &
pids+=($!)
"$parca" --config-path=parca.yaml --http-address="127.0.0.1:$api" >parca.log 2>&1 &
pids+=($!)

# wait for the scrape and the write to show as profile types
for _ in $(seq 60); do
	client write world world.pb.gz 2>/dev/null && break
	sleep 1
done
for _ in $(seq 60); do
	types=$(client types 2>/dev/null)
	grep -q '^flame_cpu:' <<<"$types" && grep -q '^world:' <<<"$types" && break
	sleep 1
done
grep -q '^flame_cpu:cpu:nanoseconds:' <<<"$types" || { echo "FAIL: no scraped cpu profile in Parca: $types"; tail -5 parca.log; exit 1; }
grep -q '^world:samples:count:' <<<"$types" || { echo "FAIL: no written profile in Parca: $types"; exit 1; }

# back: each merged over the last ten minutes, compared stack by stack
now=$(date +%s) fail=0
check() { # QUERY SENT
	client merge "$1" -1 $((now + 60)) back.pb || { fail=1; return; }
	flame-collapse --no-header "$2" | sort >sent.folded
	flame-collapse --no-header back.pb | sort >back.folded
	python3 - sent.folded back.folded "$1" <<'PY' || fail=1
import sys
def read(p):
    return {l.rsplit(" ", 1)[0]: int(l.rsplit(" ", 1)[1]) for l in open(p) if l.strip()}
sent, back = read(sys.argv[1]), read(sys.argv[2])
k = sum(back.values()) // max(sum(sent.values()), 1)
bad = [s for s in set(sent) | set(back) if back.get(s, 0) != k * sent.get(s, 0)]
if k < 1 or bad:
    sys.exit("FAIL: %s: %d stacks differ (merged %d times), e.g. %s" % (sys.argv[3], len(bad), k, bad[:2]))
print("ok: %s: %d stacks, total %d, merged %d time(s)" % (sys.argv[3], len(sent), sum(back.values()), k))
PY
	head -1 "$2" >/dev/null
}
check 'flame_cpu:cpu:nanoseconds:cpu:nanoseconds{job="flame"}' srv/cpu.pb.gz
check 'world:samples:count:samples:count{}' world.pb.gz
# the unit comes back: cpu nanoseconds stay time
flame-collapse back.pb >/dev/null
client merge 'flame_cpu:cpu:nanoseconds:cpu:nanoseconds{job="flame"}' 0 $((now + 60)) back.pb
head -1 <(flame-collapse back.pb) | grep -q 'countname=nanoseconds type=cpu' || { echo "FAIL: the unit was lost"; fail=1; }
exit $fail
