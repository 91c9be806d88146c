#!/bin/bash
# Recordings made here with the JDK (skipped, exit 77, without java, javac and jfr): the
# folded stacks read from the .jfr equal those of `jfr print --stack-depth 1024 --events
# TYPE FILE | flame-collapse --input-format jfr` for every event type and option of the
# text reader: counts exactly, sizes and durations within the rounding of jfr print's text
# (near.awk: up to 5% for sizes, 0.5% for durations). Beyond that, only the weight of the
# events whose stack trace or thread the reader found in the chunk before (its
# jfr-previous-chunk warning says how much), which jfr print mostly shows without one.
# Recordings: CPU, allocation (TLAB and sampled), monitor contention and parking in
# several threads, in chunks (Hot.java starts a second chunk midway); deep recursion at
# stackdepth=256; both files as one (jfr assemble's way: chunks one after the other).
# Usage: record.sh BUILD_DIR
set -u
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
for t in java javac jfr; do
	command -v $t >/dev/null || { echo "skipped: no $t (a JDK 11+ is needed to record)"; exit 77; }
done
fc=$build/tools/flame-collapse
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
javac -d . "$here/Hot.java" || exit 1
# the profile settings with more of the events that carry stacks, and sooner
jfc=$(dirname "$(readlink -f "$(command -v java)")")/../lib/jfr/profile.jfc
sed -e '/jdk.ExecutionSample"/,/<\/event>/s/<setting name="period"[^>]*>.*</<setting name="period">1 ms</' \
    -e '/jdk.NativeMethodSample"/,/<\/event>/s/<setting name="period"[^>]*>.*</<setting name="period">2 ms</' \
    -e '/jdk.ObjectAllocation\(InNew\|Outside\)TLAB"/,/<\/event>/s/<setting name="enabled"[^>]*>.*</<setting name="enabled">true</' \
    -e '/jdk.\(JavaMonitorEnter\|ThreadPark\)"/,/<\/event>/s/<setting name="threshold"[^>]*>.*</<setting name="threshold">1 ms</' \
    "$jfc" >rec.jfc || exit 1
java -XX:StartFlightRecording=filename=all.jfr,settings=rec.jfc -cp . Hot 1000 all >/dev/null 2>&1 &&
java -XX:StartFlightRecording=filename=deep.jfr,settings=rec.jfc \
	-XX:FlightRecorderOptions:stackdepth=256 -cp . Hot 800 deep >/dev/null 2>&1 || {
	echo "java could not record"; exit 1; }
fail=0
cat all.jfr deep.jfr >two.jfr
# (jfr print is not the reference for two.jfr: it reads a chunk with the constants of the
# chunk before, which another JVM numbered otherwise)
chunks=$(jfr summary all.jfr | awk '$1 == "Chunks:" { print $2 }')
if [ "${chunks:-0}" -ge 2 ]; then
	echo "ok   all.jfr: $chunks chunks"
else
	echo "FAIL all.jfr: ${chunks:-no} chunks"; fail=1
fi

compare() { # FILE EVENT
	local f=$1 ev=$2 tol=0 extra
	case $ev in *Allocation*) tol=5 ;; *MonitorEnter | *ThreadPark) tol=0.5 ;; esac
	jfr print --stack-depth 1024 --events "$ev" "$f" >text || { echo "FAIL jfr print $f $ev"; fail=1; return; }
	for opts in "" "--threads" "--signatures" "--lines --annotate"; do
		# shellcheck disable=SC2086
		"$fc" --event "$ev" $opts "$f" 2>warn | grep -v '^#' >ours
		# shellcheck disable=SC2086
		"$fc" -q --input-format jfr --event "$ev" $opts text | grep -v '^#' >theirs
		# the jfr-previous-chunk warning: "N of the M 'TYPE' events (W UNIT) refer to ..."
		extra=$(sed -n 's/.* events (\([0-9]*\) [a-z]*) refer to stack traces or threads that the chunk before.*/\1/p' warn)
		if [ ! -s theirs ]; then
			continue # no such event in this recording
		elif r=$(awk -v tol=$tol -v extra="${extra:-0}" -f "$here/near.awk" theirs ours); then
			echo "ok   $f $ev $opts: $r"
		else
			echo "FAIL $f $ev $opts: $r"; cat warn; diff ours theirs | head -20; fail=1
		fi
	done
}
for ev in jdk.ExecutionSample jdk.NativeMethodSample jdk.ObjectAllocationSample \
	jdk.ObjectAllocationInNewTLAB jdk.ObjectAllocationOutsideTLAB jdk.JavaMonitorEnter \
	jdk.ThreadPark; do
	compare all.jfr "$ev"
done
compare deep.jfr jdk.ExecutionSample
# deep stacks come whole: more than the 64 frames of the recorder's default, no [truncated]
deepest=$("$fc" deep.jfr | awk '{ n = split($0, a, ";"); if (n > m) m = n } END { print m + 0 }')
if [ "$deepest" -gt 64 ] && ! "$fc" deep.jfr | grep -q '^\[truncated\]'; then
	echo "ok   deep.jfr: stacks of up to $deepest frames, none truncated"
else
	echo "FAIL deep.jfr: deepest stack $deepest frames"; fail=1
fi
# the chunks of two.jfr read as the two files do (each chunk with its own ids)
if "$fc" -q all.jfr deep.jfr | cmp -s - <("$fc" -q two.jfr); then
	echo "ok   two chunks read as their two files"
else
	echo "FAIL two.jfr differs from all.jfr and deep.jfr merged"; fail=1
fi
exit $fail
