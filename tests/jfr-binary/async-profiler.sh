#!/bin/bash
# A recording async-profiler writes (its agent from the Maven Central jar
# tools.profiler:async-profiler, found in ~/.m2 or named by ASYNC_PROFILER_JAR; skipped,
# exit 77, without it or a JDK): CPU (itimer), allocation and lock events read as jfr print's
# text of them reads, as record.sh checks the JDK's own recordings.
#   mvn dependency:get -Dartifact=tools.profiler:async-profiler:4.1 -Dtransitive=false
# Usage: async-profiler.sh BUILD_DIR
set -u
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
for t in java javac jfr unzip; do
	command -v $t >/dev/null || { echo "skipped: no $t"; exit 77; }
done
jar=${ASYNC_PROFILER_JAR:-$(ls "$HOME"/.m2/repository/tools/profiler/async-profiler/*/async-profiler-*.jar 2>/dev/null | tail -1)}
[ -f "$jar" ] || { echo "skipped: no async-profiler jar (ASYNC_PROFILER_JAR, or mvn dependency:get -Dartifact=tools.profiler:async-profiler:4.1)"; exit 77; }
fc=$build/tools/flame-collapse
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unzip -qo "$jar" linux-x64/libasyncProfiler.so || { echo "skipped: no linux-x64 agent in $jar"; exit 77; }
javac -d . "$here/Hot.java" || exit 1
java -agentpath:"$PWD/linux-x64/libasyncProfiler.so=start,event=itimer,alloc,lock,file=ap.jfr,jfr" \
	-cp . Hot 1000 all >/dev/null 2>&1 || { echo "FAIL: java with the agent"; exit 1; }
fail=0
for ev in jdk.ExecutionSample jdk.ObjectAllocationInNewTLAB jdk.ObjectAllocationOutsideTLAB \
	jdk.JavaMonitorEnter; do
	jfr print --stack-depth 1024 --events "$ev" ap.jfr >text || { echo "FAIL jfr print $ev"; fail=1; continue; }
	for opts in "" "--threads" "--signatures" "--lines --annotate"; do
		# shellcheck disable=SC2086
		"$fc" -q --event "$ev" $opts ap.jfr | grep -v '^#' >ours
		# shellcheck disable=SC2086
		"$fc" -q --input-format jfr --event "$ev" $opts text | grep -v '^#' >theirs
		if [ ! -s theirs ] && [ ! -s ours ]; then
			continue
		elif cmp -s ours theirs; then
			echo "ok   $ev $opts: $(wc -l <ours) stacks, the same"
		elif r=$(awk -f "$here/near.awk" theirs ours); then
			echo "ok   $ev $opts: $r"
		else
			echo "FAIL $ev $opts"; diff ours theirs | head -10; fail=1
		fi
	done
done
"$fc" ap.jfr | grep -q 'Hot.fib' || { echo "FAIL: no Hot.fib frame among the CPU samples"; fail=1; }
exit $fail
