#!/usr/bin/env bash
# pprof in, pprof out: flame-collapse --output-format pprof keeps a profile's functions,
# start lines, locations with their lines and inlining, mappings, samples' labels, period
# type, period, time and duration, so go tool pprof gives the same -top, -lines, -traces,
# -tags and -raw header on the original and the written profile (for profiles with labels, -traces with each sample's labels, samples of one stack
# and label set summed: the written profile holds one sample for them). The corpus's Go
# profiles and a fresh Go CPU profile of tests/lines/pgo. Skips (77) without go tool pprof.
# Usage: roundtrip.sh BUILD_DIR CORPUS_DIR
set -euo pipefail
build=$1
corpus=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/go-pprof.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
collapse=$build/tools/flame-collapse
fail=0

# compare VIEW ORIGINAL WRITTEN [FILTER]: go tool pprof's VIEW of both
compare() {
	local view=$1 a=$2 b=$3 filter=${4:-cat}
	go_pprof $view "$a" 2>/dev/null | $filter >"$tmp/a.txt"
	go_pprof $view "$b" 2>/dev/null | $filter >"$tmp/b.txt"
	if [ ! -s "$tmp/a.txt" ]; then
		echo "FAIL: go tool pprof $view $(basename "$a") printed nothing"
		fail=1
	elif ! diff -u "$tmp/a.txt" "$tmp/b.txt" >"$tmp/d.txt"; then
		echo "FAIL: go tool pprof $view differs on $(basename "$a") written back:"
		head -20 "$tmp/d.txt"
		fail=1
	else
		echo "ok: $(basename "$a") $view"
	fi
}
# -traces as (labels, stack) keys, equal ones summed
labelled() { awk -f "$here/traces-labelled.awk" | LC_ALL=C sort; }
# -tags without the values of no weight (samples whose value is 0 are not stacks)
weighed() { grep -v '^ *0 ( *0%):'; }
# -raw's header: period type, period, time and duration (the sample types follow it)
header() { sed -n '/^Samples:/q;p'; }

profiles=("$corpus/pprof/go-block.pb.gz" "$corpus/pprof/go-goroutine.pb.gz"
          "$corpus/pprof/go-cpu-labels.pb.gz" "$corpus/pprof/go-heap.pb.gz")
# a fresh Go CPU profile, with go when there is one of 1.21 or newer
if (. "$here/lib-go.sh" >/dev/null && mkdir "$tmp/prog" && cp "$here"/pgo/* "$tmp/prog/" &&
    cd "$tmp/prog" && "$GO" build -pgo=off -o "$tmp/hot" . && "$tmp/hot" -d 1s \
    -cpuprofile "$tmp/fresh-cpu.pprof" >/dev/null); then
	profiles+=("$tmp/fresh-cpu.pprof")
fi
for p in "${profiles[@]}"; do
	out=$tmp/$(basename "$p").out.pb.gz
	"$collapse" -q --output-format pprof -o "$out" "$p"
	compare -top "$p" "$out"
	compare -raw "$p" "$out" header
	compare -lines "$p" "$out"
	compare "-lines -top" "$p" "$out"
	if go_pprof -tags "$p" 2>/dev/null | grep -q ':'; then
		unit=ns
		case $p in *heap*) unit=B ;; esac
		compare "-traces -lines -unit=$unit" "$p" "$out" labelled
		compare "-traces -unit=$unit" "$p" "$out" labelled
		compare -tags "$p" "$out" weighed
	else
		compare "-traces -lines" "$p" "$out"
		compare -traces "$p" "$out"
	fi
done
exit $fail
