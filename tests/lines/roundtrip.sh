#!/usr/bin/env bash
# pprof in, pprof out: flame-collapse --output-format pprof keeps a profile's functions,
# start lines, locations with their lines and inlining, mappings, samples' labels, period
# type, period, time and duration, and every sample type with its values (the default
# the same), so go tool pprof gives the same -top (of every -sample_index), -lines,
# -traces, -tags and -raw header with the sample types on the original and the written
# profile (for profiles with labels, -traces with each sample's labels, samples of one stack
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
# -raw's header: period type, period, time and duration, then the sample types
header() { sed -n '/^Samples:/{n;p;q};p'; }

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
	ntypes=$(go_pprof -raw "$p" 2>/dev/null | sed -n '/^Samples:/{n;p;q}' | wc -w)
	for ((i = 0; i < ntypes; i++)); do
		compare "-sample_index=$i -top" "$p" "$out"
	done
	compare -lines "$p" "$out"
	compare "-lines -top" "$p" "$out"
	if go_pprof -tags "$p" 2>/dev/null | grep -q ':'; then
		unit=ns
		case $p in *heap*) unit=B ;; esac
		compare "-traces -lines -unit=$unit" "$p" "$out" labelled
		compare "-traces -unit=$unit" "$p" "$out" labelled
		compare -tags "$p" "$out" # samples of 0 in the default type kept: other types' values
	else
		compare "-traces -lines" "$p" "$out"
		compare -traces "$p" "$out"
	fi
done
# flame-merge --format pprof keeps every sample type too: two profiles merged answer each
# -sample_index as go tool pprof -proto's merge of them (but Duration: Go sums the inputs',
# where a merge keeps the span they cover)
nodur() { grep -v '^Duration:'; }
for p in "$corpus/pprof/go-heap.pb.gz" "$corpus/pprof/go-block.pb.gz"; do
	b=$(basename "$p" .pb.gz)
	"$build/tools/flame-merge" -q --format pprof -o "$tmp/$b.merged.pb.gz" "$p" "$p"
	go_pprof -proto "$p" "$p" >"$tmp/$b.go-merged.pb.gz" 2>/dev/null
	ntypes=$(go_pprof -raw "$p" 2>/dev/null | sed -n '/^Samples:/{n;p;q}' | wc -w)
	for ((i = 0; i < ntypes; i++)); do
		compare "-sample_index=$i -top" "$tmp/$b.go-merged.pb.gz" "$tmp/$b.merged.pb.gz" nodur
	done
done
exit $fail
