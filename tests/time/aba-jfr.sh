#!/usr/bin/env bash
# Time from JFR recordings, binary and jfr print text: tests/time/Aba.java (spinA for 2 s,
# spinB for 1 s, spinA for 1 s) recorded with JDK Flight Recorder. The ranges keep a quarter
# second from the phase changes: JFR's sampler thread, woken every 10 ms, may take its first
# sample that late on a loaded machine, which moves every time taken from the first sample.
# --time 2.25,2.75 is spinB and --time 0.25,1.75 spinA in the .jfr as in its text, the two
# agree on every range to a sample or two (the text gives the time of day to the
# millisecond, the file to the tick), the heatmap holds spinB in second 2, and the diff of
# the two ranges has spinA down and spinB up. Exit 77 without java, javac and jfr.
set -u
build=$1
src=$2
export PATH=$build/tools:$PATH
for t in java javac jfr; do
	command -v $t >/dev/null || { echo "SKIP: no $t (openjdk-17-jdk-headless)"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp
cd "$tmp" || exit 1
javac -d . "$src/tests/time/Aba.java" || { echo "FAIL: javac"; exit 1; }
java -cp . Aba aba.jfr >rec.out 2>&1 ||
	{ echo "FAIL: java could not record: $(head -c 300 rec.out)"; exit 1; }
jfr print --events jdk.ExecutionSample --stack-depth 64 aba.jfr >aba.txt || { echo "FAIL: jfr print"; exit 1; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# share NAME: the percentage of the weight in stacks with frame NAME
share() { awk -v f="$1" '!/^#/ { t += $NF; if ($0 ~ ";" f "( |;)") s += $NF } END { printf "%d", t ? 100 * s / t : -1 }'; }
total() { awk '!/^#/ { t += $NF } END { print t + 0 }'; }
for in in aba.jfr aba.txt; do
	b=$(flame-collapse -q --time 2.25,2.75 "$in" | share Aba.spinB)
	[ "$b" -ge 95 ] && ok "$in --time 2.25,2.75: spinB $b%" || bad "$in --time 2.25,2.75: spinB only $b%"
	a=$(flame-collapse -q --time 0.25,1.75 "$in" | share Aba.spinA)
	[ "$a" -ge 95 ] && ok "$in --time 0.25,1.75: spinA $a%" || bad "$in --time 0.25,1.75: spinA only $a%"
done
n=$(flame-collapse aba.jfr | total)
[ "$n" -ge 40 ] && ok "$n samples" || bad "only $n samples"
for r in 0.5,1.5 1.5,3.2 3, ,2.5; do
	x=$(flame-collapse -q --time $r aba.jfr | total) y=$(flame-collapse -q --time $r aba.txt | total)
	[ "$x" -gt 0 ] && [ $((x - y)) -le 2 ] && [ $((y - x)) -le 2 ] &&
		ok "--time $r: the .jfr and its text agree ($x, $y)" || bad "--time $r: the .jfr $x, its text $y"
done
# the heatmap of spinB alone: its cells lie in second 2
flame-render --heatmap --include '^Aba.spinB$' -o b.svg aba.jfr || bad "flame-render --heatmap"
awk 'match($0, /data-t="[0-9.]*" data-v="[0-9]*"/) { split(substr($0, RSTART, RLENGTH), f, "\""); c = int(f[2]); w[c] += f[4]; t += f[4] }
     END { printf "%d %d %d\n", 100 * w[1] / t, 100 * w[2] / t, 100 * w[3] / t }' b.svg >cols.txt
read c1 c2 c3 <cols.txt
[ "$c2" -ge 70 ] && ok "spinB in second 2: $c2% (1: $c1%, 3: $c3%)" || bad "spinB by second: 1 $c1% 2 $c2% 3 $c3%"
# the diff of two ranges, read once
flame-diff -q --before-time 0.25,1.75 --after-time 2.25,2.75 --format folded aba.jfr >d.folded || bad "flame-diff --before-time"
awk '!/^#/ && /;Aba.spinA( |;)/ { b += $(NF-1); a += $NF } END { exit !(b > 0 && a * 10 < b) }' d.folded &&
	ok "diff: spinA down" || bad "diff: spinA not down"
awk '!/^#/ && /;Aba.spinB( |;)/ { b += $(NF-1); a += $NF } END { exit !(a > 0 && b * 10 < a) }' d.folded &&
	ok "diff: spinB up" || bad "diff: spinB not up"
exit $fail
