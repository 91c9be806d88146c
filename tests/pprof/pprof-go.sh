#!/usr/bin/env bash
# go tool pprof as the oracle: flame-collapse on every profile of fixtures/corpus/pprof
# against `go tool pprof -traces -sample_index=TYPE` for EVERY sample type (converted to
# folded by pprof-traces2folded.awk), and `go tool pprof -traces` on the pprof files we
# write from every profile and perf input. Exit 77 (skip) without go unless
# FLAME_REQUIRE_GO=1. The references without go are golden cases (fixtures/pprof). Our
# folded text is read without its header line (--no-header): -traces names no unit.
# Usage: pprof-go.sh FLAME_COLLAPSE CORPUS_DIR  (env FLAME_GO_PPROF: tests/lib/go-pprof.sh)
set -u
T=$1
C=$2/pprof
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/go-pprof.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C PPROF_BINARY_PATH=/nonexistent PPROF_TMPDIR=$tmp HOME=$tmp GOFLAGS=
fail=0 n=0
ok() { n=$((n + 1)); echo "ok   $1"; }
ko() { n=$((n + 1)); fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | head -15; }
same() { # name expected-file actual-file
	if cmp -s "$2" "$3"; then ok "$1"; else ko "$1" "$(diff "$2" "$3")"; fi
}
profiles=()
shopt -s nullglob
for f in "$C"/*.pb "$C"/*.pb.gz; do
	case $(basename "$f") in edge-truncated*|edge-concatenated*) continue;; esac
	profiles+=("$f")
done

traces() { # file type unit -> folded, sorted
	local u=
	case $3 in nanoseconds) u=-unit=ns;; bytes) u=-unit=B;; esac
	go_pprof -symbolize=none -traces -sample_index="$2" $u "$1" 2>/dev/null |
		awk -f "$here/pprof-traces2folded.awk" | sort
}
# 1. every sample type of every profile against go tool pprof -traces
for f in "${profiles[@]}"; do
	b=$(basename "$f")
	"$T" --list-sample-types "$f" | sed 's/ (default)$//' >"$tmp/types"
	while IFS=/ read -r ty unit; do
		traces "$f" "$ty" "$unit" >"$tmp/want"
		"$T" --no-header --sample-type "$ty" "$f" >"$tmp/out" 2>/dev/null
		same "$b -sample_index=$ty vs go tool pprof -traces" "$tmp/want" "$tmp/out"
	done <"$tmp/types"
done
# 2. go tool pprof reads what we write, with the same stacks and weights
for f in "${profiles[@]}" "$C/../perf/"*.txt; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	"$T" -q --no-header "$f" >"$tmp/a.folded" 2>/dev/null || continue
	"$T" -q --output-format pprof -o "$tmp/w.pb.gz" "$f" || { ko "$b: write failed"; continue; }
	# the value is the default sample type: the one marked [dflt], else the last (every
	# type of a pprof input is written back, samples/count first in Go's CPU profiles)
	types=$(go_pprof -raw "$tmp/w.pb.gz" 2>/dev/null | sed -n '/^Samples:/{n;p;q}')
	st=$(tr ' ' '\n' <<<"$types" | grep '\[dflt\]' || true)
	[ -n "$st" ] || st=$(tr ' ' '\n' <<<"$types" | grep . | tail -1)
	st=${st%\[dflt\]}
	traces "$tmp/w.pb.gz" "${st%%/*}" "${st#*/}" >"$tmp/want"
	same "$b written pprof vs go tool pprof -traces" "$tmp/a.folded" "$tmp/want"
done
echo "$((n - fail)) passed, $fail failed"
[ $n -gt 0 ] || { echo "FAIL: no profile checked in $C"; exit 1; }
[ $fail -eq 0 ]
