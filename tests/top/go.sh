#!/usr/bin/env bash
# flame-top against go tool pprof -top: records a fresh Go CPU profile with pprof.Do labels
# (tests/top/fleet.go: service, endpoint, version; main.hashOrder slower in v2), then checks
# that flame-top's self and total of every function equal pprof's flat and cum, with no
# filter and with -tagfocus as --tag, and runs tests/top/top.sh on the profile. Exit 77
# (skip) without go unless FLAME_REQUIRE_GO=1; top.sh on the committed fixture runs without.
# Usage: go.sh BUILD_DIR  (env FLAME_GO_PPROF: tests/lib/go-pprof.sh)
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$1/tools
. "$here/../lib/go-pprof.sh"
command -v go >/dev/null 2>&1 || { echo "FAIL no go to build fleet.go"; exit 1; }
# fleet.go is built with the user's build cache: in a fresh one Go 1.20 and later compile
# the standard library first (they ship none compiled), a minute or more on a busy machine
GOCACHE=$(go env GOCACHE)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C HOME=$tmp GOCACHE GOFLAGS= GO111MODULE=off PPROF_TMPDIR=$tmp \
	PPROF_BINARY_PATH=/nonexistent
(cd "$here" && go build -o "$tmp/fleet" fleet.go) || { echo "FAIL go build fleet.go"; exit 1; }
"$tmp/fleet" "$tmp/fleet.pb.gz" "$tmp/requests" 3 2>/dev/null || { echo "FAIL fleet run"; exit 1; }
fail=0 n=0
for focus in "" version=v1 version=v2 service=api endpoint=orders 'endpoint=^/(users|invoice)$'; do
	# pprof -top in nanoseconds, every node: "flat cum name" (inlined marks dropped)
	go_pprof -top -unit=ns -nodecount=1000000 -nodefraction=0 -edgefraction=0 \
		${focus:+-tagfocus="$focus"} "$tmp/fleet.pb.gz" 2>/dev/null |
		awk 'f { name = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", name); sub(/ \(inline\)$/, "", name)
		     fl = $1; cu = $4; sub(/ns$/, "", fl); sub(/ns$/, "", cu); printf "%s\t%.0f\t%.0f\n", name, fl + 0, cu + 0 }
		     /^ *flat  *flat%/ { f = 1 }' | sort >"$tmp/want"
	"$B/flame-top" -n 0 --output-format csv ${focus:+--tag "$focus"} "$tmp/fleet.pb.gz" |
		python3 -c '
import csv, sys
for r in list(csv.reader(sys.stdin))[1:]:
    print("%s\t%s\t%s" % (r[1], r[2], r[5]))' | sort >"$tmp/got"
	n=$((n + 1))
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok   flame-top ${focus:+--tag $focus }= go tool pprof -top ${focus:+-tagfocus=$focus} ($(wc -l <"$tmp/got") functions)"
	else
		fail=$((fail + 1))
		echo "FAIL flame-top ${focus:+--tag $focus} vs go tool pprof -top"
		diff "$tmp/want" "$tmp/got" | head -10
	fi
done
echo "$n checks against go tool pprof, $fail failed"
bash "$here/top.sh" "$1" "$tmp/fleet.pb.gz" "$tmp/requests" || fail=$((fail + 1))
[ $fail = 0 ]
