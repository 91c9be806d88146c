#!/usr/bin/env bash
# Time through the tools, on a program recorded here (aba.c: A for 2 s, B for 1 s, A for
# 1 s, under perf record -e cpu-clock -F 999): the heatmap's columns hold B in second 2
# only (flame-render --heatmap --include), --time 2,3 is B, the diff of [0, 2] and [2, 3]
# has A down and B up, perf's text and perf.data agree on every range, and a range past
# the end warns with the recording's span. Exit 77 when perf cannot record here.
set -u
build=$1
src=$2
export PATH=$build/tools:$PATH
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp
cd "$tmp" || exit 1
if ! perf record -q -e cpu-clock -o probe.data true 2>err; then
	echo "SKIP: perf cannot record here: $(head -c 200 err)"
	exit 77
fi
cc -O1 -g -fno-omit-frame-pointer -o aba "$src/tests/time/aba.c" || { echo "FAIL: cc"; exit 1; }
perf record -q -e cpu-clock -F 999 -g -o aba.data ./aba 2>rec.err || { echo "FAIL: perf record"; cat rec.err; exit 1; }
perf script -F comm,pid,tid,time,period,event,ip,sym,dso -i aba.data > aba.perf.txt 2>/dev/null
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# share NAME FOLDED...: the percentage of the weight in stacks with frame NAME
share() { awk -v f="$1" '!/^#/ { t += $NF; if ($0 ~ ";" f "( |;)") s += $NF } END { printf "%d", t ? 100 * s / t : -1 }'; }

for in in aba.data aba.perf.txt; do
	b=$(flame-collapse -q --time 2,3 "$in" | share spin_b)
	[ "$b" -ge 97 ] && ok "$in --time 2,3: spin_b $b%" || bad "$in --time 2,3: spin_b only $b%"
	a=$(flame-collapse -q --time 0,2 "$in" | share spin_a)
	[ "$a" -ge 97 ] && ok "$in --time 0,2: spin_a $a%" || bad "$in --time 0,2: spin_a only $a%"
done
# (totals: the two name a PLT entry differently, which has nothing to do with time)
total() { awk '!/^#/ { t += $NF } END { print t + 0 }'; }
for r in 1.5,3.2 0.25,0.5 3,; do
	x=$(flame-collapse --time $r aba.data | total) y=$(flame-collapse --time $r aba.perf.txt | total)
	[ "$x" = "$y" ] && [ "$x" -gt 0 ] && ok "--time $r: perf.data and its text agree ($x)" ||
		bad "--time $r: perf.data $x, its text $y"
done

# the heatmap of B alone: columns are seconds; B's cells lie in column 2
flame-render --heatmap --include '^spin_b$' -o b.svg aba.data || bad "flame-render --heatmap"
cols=$(grep -o 'data-cols="[0-9]*"' b.svg | tr -dc 0-9)
[ "$cols" -ge 4 ] && [ "$cols" -le 5 ] && ok "heatmap of ~4 s: $cols columns" || bad "heatmap columns: $cols"
# each cell: data-t (its start in seconds) and data-v (its weight)
awk 'match($0, /data-t="[0-9.]*" data-v="[0-9]*"/) { split(substr($0, RSTART, RLENGTH), f, "\""); c = int(f[2]); w[c] += f[4]; t += f[4] }
     END { printf "%d %d %d %d\n", 100 * w[1] / t, 100 * w[2] / t, 100 * w[3] / t, 100 * w[0] / t }' b.svg > cols.txt
read c1 c2 c3 c0 < cols.txt
[ "$c2" -ge 97 ] && ok "spin_b in second 2: $c2% (1: $c1%, 3: $c3%)" || bad "spin_b by second: 0 $c0% 1 $c1% 2 $c2% 3 $c3%"
flame-render --heatmap --include '^spin_a$' -o a.svg aba.data
grep -c '<rect .*data-t="2\.' a.svg > a2.txt
[ "$(cat a2.txt)" -le 3 ] && ok "spin_a has (almost) no cell in second 2" || bad "spin_a in second 2: $(cat a2.txt) cells"
flame-render --heatmap -o all.png aba.data && file all.png | grep -q PNG && ok "PNG heatmap" || bad "PNG heatmap"

# the diff of two ranges of one recording, read once
flame-diff -q --before-time 0,2 --after-time 2,3 --format folded aba.data > d.folded || bad "flame-diff --before-time"
awk '!/^#/ && /;spin_a( |;)/ { b += $(NF-1); a += $NF } END { exit !(b > 0 && a * 20 < b) }' d.folded &&
	ok "diff: spin_a down" || bad "diff: spin_a not down"
awk '!/^#/ && /;spin_b( |;)/ { b += $(NF-1); a += $NF } END { exit !(a > 0 && b * 20 < a) }' d.folded &&
	ok "diff: spin_b up" || bad "diff: spin_b not up"

# a range past the end keeps nothing and says the span
flame-collapse --time 100,200 aba.data > none.folded 2> none.err
[ ! -s none.folded ] && grep -q 'keeps nothing: the samples span 0 to [34]\.[0-9]* s from the first' none.err &&
	ok "an empty range warns with the span" || { bad "empty range"; cat none.err; }
exit $fail
