#!/usr/bin/env bash
# sample types kept, against go tool pprof: a Go CPU profile rewritten by flame-collapse
# --output-format pprof still answers -sample_index=cpu and -sample_index=samples with
# the original's totals, and keeps its period type and period; a profile from input with no
# period gets its values' type and period 1 (Parca fails on a profile without a period type
# and reads its values as 0 without a period). Exit 77 (skip) without go.
# Usage: keeps-sample-types.sh BUILD_DIR FIXTURES_DIR  (env FLAME_GO_PPROF: tests/lib/go-pprof.sh)
set -u
. "$(dirname "$0")/../../../lib/go-pprof.sh"
T=$1/tools/flame-collapse
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C PPROF_BINARY_PATH=/nonexistent PPROF_TMPDIR=$tmp HOME=$tmp GOFLAGS=
fail=0
orig=$2/units/go-cpu.pb.gz
"$T" --output-format pprof -o "$tmp/w.pb.gz" "$orig" || { echo "FAIL write"; exit 1; }
for idx in cpu samples; do
	for f in "$orig" "$tmp/w.pb.gz"; do
		go_pprof -symbolize=none -sample_index=$idx -top "$f" 2>&1 |
			grep -E '^(Type|Showing nodes accounting)' >"$tmp/$(basename "$f").$idx" || true
	done
	if [ -s "$tmp/w.pb.gz.$idx" ] && cmp -s "$tmp/go-cpu.pb.gz.$idx" "$tmp/w.pb.gz.$idx"; then
		echo "ok   -sample_index=$idx: $(tr '\n' ' ' <"$tmp/w.pb.gz.$idx")"
	else
		echo "FAIL -sample_index=$idx"; diff "$tmp/go-cpu.pb.gz.$idx" "$tmp/w.pb.gz.$idx"; fail=1
	fi
done
go_pprof -raw "$tmp/w.pb.gz" 2>/dev/null | sed -n '/^PeriodType/p; /^Period:/p' >"$tmp/p"
if [ "$(cat "$tmp/p")" = "$(printf 'PeriodType: cpu nanoseconds\nPeriod: 10000000')" ]; then
	echo "ok   period type cpu/nanoseconds, period 10000000"
else
	echo "FAIL period"; cat "$tmp/p"; fail=1
fi
printf 'a;b 3\na;c 4\n' | "$T" --output-format pprof -o "$tmp/f.pb.gz" - || { echo "FAIL write"; exit 1; }
go_pprof -raw "$tmp/f.pb.gz" 2>/dev/null | sed -n '/^PeriodType/p; /^Period:/p' >"$tmp/p"
if [ "$(cat "$tmp/p")" = "$(printf 'PeriodType: samples count\nPeriod: 1')" ]; then
	echo "ok   folded input: period type samples/count, period 1"
else
	echo "FAIL folded input's period"; cat "$tmp/p"; fail=1
fi
exit $fail
