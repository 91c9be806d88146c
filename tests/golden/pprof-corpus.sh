#!/usr/bin/env bash
# pprof equivalence: flame-collapse on every corpus profile against the references
# (ref/*.folded.txt, per sample type where they exist, --addresses), and, when `go` is
# installed, against `go tool pprof -traces -sample_index=TYPE` for EVERY sample type of
# every profile (converted to folded by pprof-traces2folded.awk). Then the round trip
# pprof -> folded -> pprof -> folded, and `go tool pprof -traces` on our written file.
# Usage: pprof-corpus.sh FLAME_COLLAPSE CORPUS_DIR [ref|go]
#   ref (default): sections 1-4, no go needed;  go: sections 5-6, exit 77 (skip) without
#   go unless FLAME_REQUIRE_GO=1.
set -u
T=$1
C=$2/pprof
mode=${3:-ref}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C PPROF_BINARY_PATH=/nonexistent PPROF_TMPDIR=$tmp HOME=$tmp GOFLAGS=
fail=0 n=0
ok() { n=$((n + 1)); echo "ok   $1"; }
ko() { n=$((n + 1)); fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | head -15; }
same() { # name expected-file actual-file
	if cmp -s "$2" "$3"; then ok "$1"; else ko "$1" "$(diff "$2" "$3")"; fi
}
have_go=0
command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1 && have_go=1

if [ $mode = go ] && [ $have_go = 0 ]; then
	echo "go tool pprof is not installed (Debian: golang-go)"
	[ "${FLAME_REQUIRE_GO:-0}" = 1 ] && exit 1
	exit 77
fi

profiles=()
shopt -s nullglob
for f in "$C"/*.pb "$C"/*.pb.gz; do
	case $(basename "$f") in edge-truncated*|edge-concatenated*) continue;; esac
	profiles+=("$f")
done

if [ $mode = ref ]; then
# 1. default sample type against ref/*.folded.txt
for f in "${profiles[@]}"; do
	b=$(basename "$f")
	"$T" "$f" >"$tmp/out" 2>"$tmp/err" || { ko "$b: exit $?" "$(cat "$tmp/err")"; continue; }
	same "$b (default type)" "$C/ref/$b.folded.txt" "$tmp/out"
done
# 2. the other heap sample types, and address naming
for ty in alloc_objects alloc_space inuse_objects; do
	"$T" --sample-type "$ty" "$C/go-heap.pb.gz" >"$tmp/out" 2>&1
	same "go-heap --sample-type $ty" "$C/ref/go-heap.pb.gz.folded-$ty.txt" "$tmp/out"
done
"$T" --addresses "$C/edge-features.pb.gz" >"$tmp/out" 2>&1
same "edge-features --addresses" "$C/ref/edge-features.pb.gz.folded-addr.txt" "$tmp/out"
# 3. rejected files, with the byte offset
"$T" "$C/edge-truncated.pb.gz" >"$tmp/out" 2>"$tmp/err"
code=$?
grep -q "edge-truncated.pb.gz: byte [0-9]*: truncated gzip" "$tmp/err" && [ $code = 1 ] && [ ! -s "$tmp/out" ] \
	&& ok "edge-truncated rejected" || ko "edge-truncated: exit $code" "$(cat "$tmp/err")"
"$T" "$C/edge-concatenated.pb" >"$tmp/out" 2>"$tmp/err"
code=$?
grep -q "edge-concatenated.pb: byte [0-9]*: invalid pprof: concatenated profiles" "$tmp/err" && [ $code = 1 ] \
	&& ok "edge-concatenated rejected" || ko "edge-concatenated: exit $code" "$(cat "$tmp/err")"

# 4. round trip: pprof -> folded -> pprof -> folded is the identity
for f in "${profiles[@]}"; do
	b=$(basename "$f")
	"$T" "$f" >"$tmp/a.folded" 2>/dev/null
	"$T" --output-format pprof -o "$tmp/rt.pb.gz" "$tmp/a.folded" 2>"$tmp/err" &&
		"$T" "$tmp/rt.pb.gz" >"$tmp/b.folded" 2>>"$tmp/err" ||
		{ ko "$b round trip" "$(cat "$tmp/err")"; continue; }
	same "$b round trip" "$tmp/a.folded" "$tmp/b.folded"
	# pprof -> pprof keeps the unit
	"$T" --output-format pprof -o "$tmp/pp.pb.gz" "$f" 2>/dev/null && "$T" "$tmp/pp.pb.gz" >"$tmp/c.folded" 2>&1
	same "$b pprof to pprof" "$tmp/a.folded" "$tmp/c.folded"
done

fi

traces() { # file type unit -> folded, sorted
	local u=
	case $3 in nanoseconds) u=-unit=ns;; bytes) u=-unit=B;; esac
	go tool pprof -symbolize=none -traces -sample_index="$2" $u "$1" 2>/dev/null |
		awk -f "$here/pprof-traces2folded.awk" | sort
}
if [ $mode = go ]; then
	# 5. every sample type of every profile against go tool pprof -traces
	for f in "${profiles[@]}"; do
		b=$(basename "$f")
		"$T" --list-sample-types "$f" | sed 's/ (default)$//' >"$tmp/types"
		while IFS=/ read -r ty unit; do
			traces "$f" "$ty" "$unit" >"$tmp/want"
			"$T" --sample-type "$ty" "$f" >"$tmp/out" 2>/dev/null
			same "$b -sample_index=$ty vs go tool pprof -traces" "$tmp/want" "$tmp/out"
		done <"$tmp/types"
	done
	# 6. go tool pprof reads what we write, with the same stacks and weights
	for f in "${profiles[@]}" "$C/../perf/"*.txt; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		"$T" -q "$f" >"$tmp/a.folded" 2>/dev/null || continue
		"$T" -q --output-format pprof -o "$tmp/w.pb.gz" "$f" || { ko "$b: write failed"; continue; }
		# the value is the last sample type (samples/count may come first, as in Go's)
		st=$(go tool pprof -raw "$tmp/w.pb.gz" 2>/dev/null | sed -n '/^Samples:/{n;p;q}' | sed 's/\[dflt\]//g; s/ *$//')
		st=${st##* }
		traces "$tmp/w.pb.gz" "${st%%/*}" "${st#*/}" >"$tmp/want"
		same "$b written pprof vs go tool pprof -traces" "$tmp/a.folded" "$tmp/want"
	done
fi
echo "$((n - fail)) passed, $fail failed"
[ $n -gt 0 ] || { echo "FAIL: no profile checked in $C"; exit 1; }
[ $fail -eq 0 ]
