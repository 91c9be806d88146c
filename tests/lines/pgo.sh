#!/usr/bin/env bash
# A fleet profile as Go's PGO input: three CPU profiles of tests/lines/pgo (three runs, as
# three hosts would give) merged by flame-merge into default.pgo must make go build inline
# the same hot call sites as the same profiles merged by `go tool pprof -proto`. main.mix
# costs more than the inliner's budget: without a profile it is not inlined, with one its
# call in the loop is hot. flame-top --pgo reports on the merged profile, and refuses what
# go build refuses, with its reason; its edges and weights are go tool preprofile's (Go's
# own reading) on the profiles, the merged one, and a recursive program's (tests/lines/
# pgo-rec: Go weighs only each sample's last two frames). Skips (77) without go 1.21 or
# newer.
# Usage: pgo.sh BUILD_DIR
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-go.sh"
. "$here/../lib/go-pprof.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/prog"
cp "$here/pgo/main.go" "$here/pgo/go.mod" "$tmp/prog/"
cd "$tmp/prog"
"$GO" build -pgo=off -o "$tmp/hot" .
for h in 1 2 3; do
	"$tmp/hot" -d 1s -cpuprofile "$tmp/host$h.pprof" >/dev/null
done
"$build/tools/flame-merge" -q --format pprof -o "$tmp/flame.pgo" "$tmp"/host{1,2,3}.pprof
go_pprof -proto "$tmp"/host{1,2,3}.pprof >"$tmp/go.pgo" 2>/dev/null

# The hot call sites the compiler inlines with profile $1: a copy of the program whose
# source is new to the build cache (so the compiler runs and prints), -d=pgodebug=1.
hot_sites() {
	local dir=$tmp/build-$2
	mkdir "$dir"
	cp "$here/pgo/main.go" "$here/pgo/go.mod" "$dir/"
	echo "// $2 $$ $RANDOM" >>"$dir/main.go"
	(cd "$dir" && "$GO" build -pgo="$1" -gcflags=-d=pgodebug=1 -o /dev/null . 2>&1) |
		grep -E '^hot-budget check allows inlining' | sort -u
}
none=$(cd "$tmp/prog" && "$GO" build -pgo=off -gcflags=-m=2 -o /dev/null . 2>&1 | grep -c 'cannot inline mix' || true)
if [ "$none" = 0 ]; then
	echo "FAIL: main.mix is inlined without a profile: the test proves nothing" >&2
	exit 1
fi
want=$(hot_sites "$tmp/go.pgo" go)
got=$(hot_sites "$tmp/flame.pgo" flame)
echo "go tool pprof -proto merge:"
echo "$want"
echo "flame-merge merge:"
echo "$got"
case $want in
*"main.mix"*) ;;
*) echo "FAIL: the profiles merged by go tool pprof give no hot main.mix call" >&2; exit 1 ;;
esac
[ "$want" = "$got" ] || { echo "FAIL: the hot call sites differ" >&2; exit 1; }
echo "PASS: the same hot call sites"

# flame-top --pgo says so: the sample type, and main.work's call of main.mix among the edges
top=$("$build/tools/flame-top" --pgo "$tmp/flame.pgo" -n 5)
echo "$top"
grep -q "Go's PGO takes it" <<<"$top" && grep -q '^sample type: samples/count$' <<<"$top" &&
	grep -qE '  main\.work:\+4 -> main\.mix$' <<<"$top" ||
	{ echo "FAIL: flame-top --pgo does not report main.work -> main.mix" >&2; exit 1; }
# a profile without start lines (folded stacks written as pprof): go build refuses it, and
# flame-top --pgo refuses it with go's reason
printf 'main.main;main.work;main.mix 100\n' |
	"$build/tools/flame-collapse" -q --output-format pprof -o "$tmp/nostart.pgo" -
gobuild=$(cd "$tmp/prog" && "$GO" build -pgo="$tmp/nostart.pgo" -o /dev/null . 2>&1) &&
	{ echo "FAIL: go build took a profile without start lines" >&2; exit 1; }
echo "$gobuild"
if ftop=$("$build/tools/flame-top" --pgo "$tmp/nostart.pgo" 2>&1); then
	echo "FAIL: flame-top --pgo took a profile go build refuses" >&2
	exit 1
fi
echo "$ftop"
reason='profile missing Function.start_line data'
grep -qF "$reason" <<<"$gobuild" && grep -qF "$reason" <<<"$ftop" ||
	{ echo "FAIL: flame-top --pgo does not give go build's reason" >&2; exit 1; }
# a heap profile: no CPU sample type, refused by both
cp "$here/../../fixtures/corpus/pprof/go-heap.pb.gz" "$tmp/heap.pgo"
gobuild=$(cd "$tmp/prog" && "$GO" build -pgo="$tmp/heap.pgo" -o /dev/null . 2>&1) &&
	{ echo "FAIL: go build took a heap profile" >&2; exit 1; }
ftop=$("$build/tools/flame-top" --pgo "$tmp/heap.pgo" 2>&1) &&
	{ echo "FAIL: flame-top --pgo took a heap profile" >&2; exit 1; }
echo "$gobuild"
echo "$ftop"
reason='does not contain a sample index with value/type'
grep -qF "$reason" <<<"$gobuild" && grep -qF "$reason" <<<"$ftop" ||
	{ echo "FAIL: flame-top --pgo does not give go build's reason for a heap profile" >&2; exit 1; }
# a profile with no samples, of a type Go does not weigh by: go build takes it (it looks at
# the samples first), and flame-top --pgo says so
cp "$here/../../fixtures/corpus/pprof/go-mutex-empty.pb.gz" "$tmp/empty.pgo"
(cd "$tmp/prog" && "$GO" build -pgo="$tmp/empty.pgo" -o /dev/null .) ||
	{ echo "FAIL: go build refused a profile with no samples" >&2; exit 1; }
ftop=$("$build/tools/flame-top" --pgo "$tmp/empty.pgo") ||
	{ echo "FAIL: flame-top --pgo refused a profile with no samples" >&2; exit 1; }
echo "$ftop"
grep -qF 'Go takes it, but it holds no samples' <<<"$ftop" ||
	{ echo "FAIL: flame-top --pgo on a profile with no samples" >&2; exit 1; }
echo "PASS: flame-top --pgo takes and refuses what go build does"

# the edges Go reads, recursion included: flame-top --pgo against go tool preprofile
mkdir "$tmp/rec"
cp "$here/pgo-rec/main.go" "$here/pgo-rec/go.mod" "$tmp/rec/"
(cd "$tmp/rec" && "$GO" build -o "$tmp/rec/rec" . && "$tmp/rec/rec" -d 1s -cpuprofile "$tmp/rec.pprof" >/dev/null)
for p in "$tmp/host1.pprof" "$tmp/flame.pgo" "$tmp/rec.pprof"; do
	same_edges "$build/tools/flame-top" "$p"
done
echo "PASS: flame-top --pgo's edges are go tool preprofile's"
