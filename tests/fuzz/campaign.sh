#!/bin/sh
# A fuzz campaign (not run in CI): builds the libFuzzer targets (-Dfuzzing=enabled, clang,
# ASan+UBSan) in their own build directory, runs each target for MINUTES on one core, one
# target at a time, over its committed corpus (tests/fuzz/corpus/TARGET) plus a scratch
# directory, replaces the committed corpus with the smallest set of inputs (-merge=1) that
# reaches every edge the old corpus and the new inputs reach (keeping the named regress-* and
# seed-* inputs as they are), then prints a table per target.
# Findings (crash-, leak-, timeout-, oom- files) are left in the scratch directory.
# Usage: tests/fuzz/campaign.sh MINUTES [TARGET...]   (MINUTES may be fractional: 0.2)
# Environment: BUILD (default build-fuzz), WORK (default BUILD/campaign).
set -eu
usage() { echo "usage: $0 MINUTES [TARGET...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
minutes=$1; shift
secs=$(awk -v m="$minutes" 'BEGIN { s = int(m * 60 + 0.5); if (m !~ /^[0-9.]+$/ || s < 1) exit 1; print s }') || usage
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${BUILD:-$src/build-fuzz}
work=${WORK:-$build/campaign}
# absolute, since each target runs in its own directory below
mkdir -p "$work" && work=$(cd "$work" && pwd)
targets=${*:-perf folded pprof offcpu jfr jfr-binary frame-region svg html auto writers diffmerge bpftrace cpuprofile speedscope chrometrace firefox perfdata perfdata-read perfdata-sym
	perfdata-elf perfdata-zstd perfdata-unwind}

if [ ! -f "$build/build.ninja" ]; then
	CC=${CC:-clang} meson setup "$build" "$src" -Dfuzzing=enabled -Dbrowser_tests=disabled \
		-Dgolang_tests=disabled -Db_lundef=false >/dev/null
fi
nice ninja -C "$build" $(for t in $targets; do printf 'tests/fuzz/fuzz-%s ' "$t"; done) >/dev/null

# the format dictionaries each target's inputs are written in (none for perfdata-sym,
# whose inputs are operations, not a format)
dicts() {
	case $1 in
	perf | pprof | offcpu | jfr | jfr-binary | svg | html | folded | bpftrace | perfdata | perfdata-elf) echo "$1" ;;
	perfdata-read | perfdata-zstd) echo perfdata ;;
	cpuprofile | speedscope) echo json ;;
	chrometrace) echo json chrometrace ;;
	firefox) echo json firefox ;;
	frame-region) echo offcpu jfr ;;
	perfdata-sym | perfdata-unwind) ;;
	writers | diffmerge) echo folded ;;
	auto) echo perf folded pprof offcpu jfr svg ;;
	*) echo "$0: no target '$1'" >&2; exit 2 ;;
	esac
}

# fontconfig under cairo (the writers' layout) holds memory LeakSanitizer reports
lsan="print_suppressions=0:suppressions=$src/tests/lib/lsan.supp"
rows=""
status=0
for t in $targets; do
	dir=$work/$t
	rm -rf "$dir" && mkdir -p "$dir/new" "$dir/findings"
	for d in $(dicts "$t"); do cat "$here/dict/$d.dict"; done >"$dir/dict"
	# libFuzzer refuses an empty dictionary
	dict=-dict=$dir/dict
	[ -s "$dir/dict" ] || dict=
	corpus=$here/corpus/$t
	before=$(ls "$corpus" | wc -l)
	# -jobs=1 runs the fuzzer in a child that logs to fuzz-0.log in the working directory
	(cd "$dir" && LSAN_OPTIONS=$lsan "$build/tests/fuzz/fuzz-$t" -max_total_time="$secs" \
		-timeout=10 -rss_limit_mb=2048 -max_len=8192 ${dict:+"$dict"} -jobs=1 \
		-print_final_stats=1 -artifact_prefix="$dir/findings/" "$dir/new" "$corpus" \
		>"$dir/run.log" 2>&1) || true
	log=$dir/fuzz-0.log
	[ -f "$log" ] || log=$dir/run.log
	if ! grep -q '^stat::number_of_executed_units' "$log"; then
		echo "$0: $t: the fuzzer did not run to its end; see $log" >&2
		status=1
	fi
	# the smallest set of inputs reaching every edge the old corpus and the new inputs reach
	# replaces the committed corpus (edges, not hit counts: -use_counters=0 keeps it to
	# about a third), so it stays small from one campaign to the next
	mkdir "$dir/merged"
	if (cd "$dir" && LSAN_OPTIONS=$lsan "$build/tests/fuzz/fuzz-$t" -merge=1 -use_counters=0 -timeout=10 \
		-rss_limit_mb=2048 "$dir/merged" "$corpus" "$dir/new" >"$dir/merge.log" 2>&1) &&
		[ -n "$(ls "$dir/merged")" ]; then
		# the named inputs (regress-*: a finding's input, which its test replays; seed-*)
		# stay under their names whatever the merge keeps
		mkdir -p "$dir/named"
		for f in "$corpus"/regress-* "$corpus"/seed-*; do
			if [ -e "$f" ]; then cp "$f" "$dir/named"/; fi
		done
		rm -f "$corpus"/* && cp "$dir/merged"/* "$corpus"/
		for f in "$dir/named"/*; do
			if [ -e "$f" ]; then cp "$f" "$corpus"/; fi
		done
	else
		echo "$0: $t: merge failed, corpus left as it was; see $dir/merge.log" >&2
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	after=$(ls "$corpus" | wc -l)
	size=$(($(cat "$corpus"/* | wc -c) / 1024))
	found=$(ls "$dir/findings" | grep -c -E '^(crash|leak|timeout|oom|slow-unit)-' || true)
	rows="$rows$t ${execs:-?} ${rate:-?} ${cov:-?} $before->$after ${size}K $found
"
done
printf '%s' "$rows" | awk -v s="$secs" 'BEGIN {
		printf "%-13s %10s %8s %6s %10s %7s %8s\n", "target", "execs", "exec/s", "cov",
			"corpus", "size", "findings"
	}
	{ printf "%-13s %10s %8s %6s %10s %7s %8s\n", $1, $2, $3, $4, $5, $6, $7; n += $2 }
	END { printf "%d s per target, %d execs in all\n", s, n }'
echo "findings, logs and new inputs: $work/TARGET/{findings,fuzz-0.log,new}"
exit $status
