#!/usr/bin/env bash
# flame-top and flame-diff --before-tag/--after-tag on a Go CPU profile with service,
# endpoint and version labels (tests/top/fleet.go; fixtures/top/fleet.pb.gz is one such,
# tests/top/go.sh records a fresh one): every table against one worked out here from
# flame-collapse's folded stacks (which golden-pprof-go checks against go tool pprof), owners
# files with overlapping and unmatched patterns, hostile label values through text, CSV and
# JSON (parsed), the threshold, and diffs of label slices against two flame-collapse --tag
# runs and a diff. Usage: top.sh BUILD_DIR PROFILE REQUESTS_FILE
set -u
B=$1/tools
P=$2
REQ=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
fail=0 n=0
ok() { n=$((n + 1)); echo "ok   $1"; }
ko() { n=$((n + 1)); fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | head -20; }
same() { # name expected-file actual-file
	if cmp -s "$2" "$3"; then ok "$1"; else ko "$1" "$(diff "$2" "$3")"; fi
}
csv_rows() { # flame-top CSV -> "name self total" lines, sorted (python: names may hold commas)
	python3 -c '
import csv, sys
r = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8", errors="surrogateescape")))
for row in r[1:]:
    print("%s\t%s\t%s" % (row[1], row[2], row[5]))' "$1" | sort
}
# CSV and JSON print invalid UTF-8 as U+FFFD, as this does
utf8() { python3 -c 'import sys; sys.stdout.write(sys.stdin.buffer.read().decode("utf-8", "replace"))'; }
# self and total per leaf/frame of folded lines, recursion once per stack (awk's own count)
per_function='{ c = $NF; s = $0; sub(/ [^ ]*$/, "", s); k = split(s, f, ";"); delete seen
	for (i = 1; i <= k; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; tot[f[i]] += c }
	self[f[k]] += c; all[f[k]] = 1; for (i = 1; i <= k; i++) all[f[i]] = 1 }
	END { for (x in all) printf "%s\t%.0f\t%.0f\n", x, self[x], tot[x] }'

"$B/flame-collapse" --no-header "$P" >"$tmp/all.folded" || { ko "flame-collapse reads $P"; exit 1; }
total=$(awk '{ t += $NF } END { printf "%.0f\n", t }' "$tmp/all.folded")

# 1. functions: self and total as counted from the stacks; -n 0 lists them all
awk "$per_function" "$tmp/all.folded" | sort >"$tmp/want"
"$B/flame-top" -n 0 --output-format csv "$P" >"$tmp/f.csv"
csv_rows "$tmp/f.csv" >"$tmp/got"
same "functions: self and total (recursion once per stack)" "$tmp/want" "$tmp/got"
# sorted by self (then total, then name), sum% is the running sum of self%
python3 - "$tmp/f.csv" "$total" >"$tmp/out" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
keys = [(-int(r["self"]), -int(r["total"]), r["name"].encode()) for r in rows]
assert keys == sorted(keys), "not sorted by self"
run = 0.0
for r in rows:
    run += 100.0 * int(r["self"]) / int(sys.argv[2])
    assert abs(run - float(r["sum_pct"])) < 0.01, (run, r)
print("ok")
EOF
if [ "$(cat "$tmp/out")" = ok ]; then ok "functions: order and sum%"; else ko "functions: order and sum%" "$(cat "$tmp/out")"; fi
"$B/flame-top" -n 0 --sort total --output-format csv "$P" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
k = [(-int(r["total"]), -int(r["self"]), r["name"]) for r in rows]
print("ok" if k == sorted(k) and len(rows) > 3 else "bad")' >"$tmp/out"
if [ "$(cat "$tmp/out")" = ok ]; then ok "--sort total"; else ko "--sort total"; fi
"$B/flame-top" -n 3 --output-format csv "$P" | wc -l >"$tmp/out"
if [ "$(cat "$tmp/out")" = 4 ]; then ok "-n 3: a header and 3 rows"; else ko "-n 3" "$(cat "$tmp/out")"; fi

# 2. roll-ups: by root, by label (flame-collapse --group-by's root frame)
awk '{ s = $0; sub(/;.*/, "", s); sub(/ [^ ]*$/, "", s); t[s] += $NF } END { for (x in t) printf "%s\t%.0f\t%.0f\n", x, t[x], t[x] }' \
	"$tmp/all.folded" | sort >"$tmp/want"
"$B/flame-top" -n 0 --by root --output-format csv "$P" >"$tmp/r.csv"
csv_rows "$tmp/r.csv" >"$tmp/got"
same "--by root" "$tmp/want" "$tmp/got"
for key in service endpoint version; do
	"$B/flame-collapse" --no-header --group-by $key "$P" |
		awk '{ s = $0; sub(/;.*/, "", s); t[s] += $NF } END { for (x in t) printf "%s\t%.0f\t%.0f\n", x, t[x], t[x] }' |
		utf8 | sort >"$tmp/want"
	"$B/flame-top" -n 0 --by label:$key --output-format csv "$P" >"$tmp/l.csv"
	csv_rows "$tmp/l.csv" >"$tmp/got"
	same "--by label:$key" "$tmp/want" "$tmp/got"
done
"$B/flame-top" --by label:nosuchkey "$P" | grep -q '<no nosuchkey>$' &&
	ok "--by label: samples without the label are <no KEY>" || ko "--by label: <no KEY>"

# 3. owners: overlapping lines (the first match wins), a line matching nothing, unowned code
printf '# team lines: the first match wins\n^main\\.(hash|parse)\tcheckout\nhashOrder\tpayments\n\nwalk|billing\tplatform\nnothing-matches-this\tghosts\n' >"$tmp/owners"
awk -F'\t' -v O="$tmp/owners" '
	BEGIN { while ((getline l < O) > 0) { if (l == "" || l ~ /^#/) continue; split(l, p, "\t"); re[++nr] = p[1]; tm[nr] = p[2] } }
	function team(fn,   i) { for (i = 1; i <= nr; i++) if (fn ~ re[i]) return tm[i]; return "(no owner)" }
	{ c = $0; sub(/.* /, "", c); s = $0; sub(/ [^ ]*$/, "", s); k = split(s, f, ";"); delete seen
	  for (i = 1; i <= k; i++) { t = team(f[i]); if (!(t in seen)) { seen[t] = 1; tot[t] += c } }
	  self[team(f[k])] += c }
	END { for (x in tot) printf "%s\t%.0f\t%.0f\n", x, self[x], tot[x] }' "$tmp/all.folded" | sort >"$tmp/want"
"$B/flame-top" -n 0 --owners "$tmp/owners" --output-format csv "$P" >"$tmp/o.csv"
csv_rows "$tmp/o.csv" >"$tmp/got"
same "--owners: first match, self once per sample, (no owner)" "$tmp/want" "$tmp/got"
awk -F'\t' '{ s += $2 } END { printf "%.0f\n", s }' "$tmp/got" >"$tmp/out"
[ "$(cat "$tmp/out")" = "$total" ] && ok "--owners: self sums to the total" || ko "--owners: self sum" "$(cat "$tmp/out") != $total"
grep -q ghosts "$tmp/got" && ko "--owners: a team owning nothing sampled is listed" || ok "--owners: a team owning nothing is left out"
printf 'main\tcheckout\nno tab here\n' >"$tmp/bad-owners"
"$B/flame-top" --owners "$tmp/bad-owners" "$P" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "bad-owners:2: expected REGEX<TAB>TEAM" "$tmp/err" && ok "owners: a bad line is named (file:line), exit 1" ||
	ko "owners: bad line" "rc=$rc $(cat "$tmp/err")"
printf 'ma(in\tcheckout\n' >"$tmp/bad-re"
"$B/flame-top" --owners "$tmp/bad-re" "$P" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "bad-re:1" "$tmp/err" && ok "owners: a bad regex is named, exit 2" || ko "owners: bad regex" "rc=$rc $(cat "$tmp/err")"
"$B/flame-top" --by owner "$P" >/dev/null 2>&1
[ $? = 2 ] && ok "--by owner without --owners: usage error" || ko "--by owner without --owners"

# 4. hostile label values: text escapes control bytes; CSV and JSON parse and keep the name
"$B/flame-top" -n 0 --by label:endpoint --output-format json "$P" >"$tmp/l.json"
"$B/flame-top" -n 0 --by label:endpoint --output-format csv "$P" >"$tmp/l.csv"
python3 - "$tmp/l.json" "$tmp/l.csv" >"$tmp/out" 2>&1 <<'EOF'
import csv, json, sys
j = json.load(open(sys.argv[1], encoding="utf-8"))
rows = list(csv.reader(open(sys.argv[2], newline="", encoding="utf-8", errors="surrogateescape")))
cols = ["rank", "name", "self", "self_pct", "sum_pct", "total", "total_pct", "unit", "self_seconds",
        "total_seconds", "self_cores", "total_cores", "self_cost_per_year", "total_cost_per_year"]
assert rows[0] == cols, rows[0]
assert all(list(r.keys()) == cols for r in j["rows"])
# fleet.go's value "/x;y\n\"<b>\x01\xff,=": --group-by turns ; into : and the newline into a space
want = '/x:y "<b>\x01\ufffd,='
assert want in [r["name"] for r in j["rows"]], [r["name"] for r in j["rows"]]
assert sum(1 for r in rows[1:] if r[1].startswith('/x:y "<b>\x01')) == 1
assert j["by"] == "endpoint" and j["unit"] == "nanoseconds" and j["groups"] == len(j["rows"])
assert sum(int(r["self"]) for r in j["rows"]) == j["total"]
print("ok")
EOF
if [ "$(cat "$tmp/out")" = ok ]; then ok "hostile label value: CSV and JSON well formed, name kept"; else ko "hostile CSV/JSON" "$(cat "$tmp/out")"; fi
"$B/flame-top" -n 0 --by label:endpoint "$P" >"$tmp/l.txt"
if grep -q '/x:y "<b>\\x01' "$tmp/l.txt" && ! LC_ALL=C grep -q $'\x01' "$tmp/l.txt"; then
	ok "hostile label value: text shows control bytes as \\xNN"
else
	ko "hostile text" "$(cat -v "$tmp/l.txt")"
fi

# a pprof profile whose sample unit and function name hold terminal escapes
python3 - "$tmp/evil.pb" <<'EOF'
import sys
def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)
def ld(f, b): return varint(f << 3 | 2) + varint(len(b)) + b
def vi(f, v): return varint(f << 3) + varint(v)
strings = [b"", b"evil", b"beeps\x1b]0;owned\x07", b"main.\x1b[2Jclear"]
msg = ld(1, vi(1, 1) + vi(2, 2))                   # sample_type evil / beeps...
msg += ld(2, ld(1, varint(1)) + ld(2, varint(5)))  # a sample: location 1, value 5
msg += ld(4, vi(1, 1) + ld(4, vi(1, 1)))           # location 1: function 1
msg += ld(5, vi(1, 1) + vi(2, 3))                  # function 1: strings[3]
for x in strings:
    msg += ld(6, x)
open(sys.argv[1], "wb").write(msg)
EOF
"$B/flame-top" "$tmp/evil.pb" >"$tmp/evil.txt" 2>&1
if grep -qF 'Total: 5 beeps\x1b]0;owned\x07' "$tmp/evil.txt" && grep -qF 'main.\x1b[2Jclear' "$tmp/evil.txt" &&
	! LC_ALL=C grep -q $'\x1b' "$tmp/evil.txt"; then
	ok "hostile unit and function name: no escape reaches the terminal"
else
	ko "hostile unit/name in text" "$(cat -v "$tmp/evil.txt")"
fi

# a name longer than a text line can hold is cut with "..." (CSV keeps it whole)
long=$(printf 'x%.0s' $(seq 3000))
printf 'a;%s 5\n' "$long" | "$B/flame-top" >"$tmp/long.txt"
printf 'a;%s 5\n' "$long" | "$B/flame-top" --output-format csv | grep -c "$long" >"$tmp/out"
if grep -q 'xxx\.\.\.$' "$tmp/long.txt" && [ "$(wc -L <"$tmp/long.txt")" -lt 1100 ] && [ "$(cat "$tmp/out")" = 1 ]; then
	ok "a long name: cut with ... in text, whole in CSV"
else
	ko "long name" "$(wc -L <"$tmp/long.txt") $(cat "$tmp/out")"
fi

# 5. cores and cost: the profile's duration is the default window; --window and
# --core-price; --frequency makes sample counts CPU time; memory never gets cores
"$B/flame-top" -n 1 --core-price 0.5 --window 2s --output-format json "$P" >"$tmp/c.json"
python3 - "$tmp/c.json" "$total" >"$tmp/out" 2>&1 <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
t = int(sys.argv[2])
r = j["rows"][0]
assert abs(j["window_seconds"] - 2) < 1e-9
assert abs(j["total_seconds"] - t / 1e9) < 1e-6
assert abs(j["total_cores"] - t / 1e9 / 2) < 1e-6
assert abs(j["total_cost_per_year"] - t / 1e9 / 2 * 0.5 * 8766) < 0.01
assert abs(r["self_cores"] - int(r["self"]) / 1e9 / 2) < 1e-6
assert abs(r["self_cost_per_year"] - r["self_cores"] * 0.5 * 8766) < 0.01
print("ok")
EOF
if [ "$(cat "$tmp/out")" = ok ]; then ok "--window, --core-price: cores and cost per year"; else ko "cores/cost" "$(cat "$tmp/out")"; fi
"$B/flame-top" -n 1 "$P" | head -1 | grep -q '^Total: .* of CPU time over [0-9.]* s: .* cores$' &&
	ok "the window defaults to the pprof profile's duration" || ko "window from duration" "$("$B/flame-top" -n 1 "$P")"
awk '{ c = $NF; sub(/ [^ ]*$/, ""); print $0 " " c / 2500000 }' "$tmp/all.folded" >"$tmp/samples.folded"
"$B/flame-top" -n 1 --frequency 400 --window 10 --output-format json "$tmp/samples.folded" |
	python3 -c 'import json,sys; j=json.load(sys.stdin); n=j["total"]; print("ok" if abs(j["total_cores"] - n/400/10) < 1e-6 and j["unit"] is None else j)' >"$tmp/out"
[ "$(cat "$tmp/out")" = ok ] && ok "--frequency: sample counts are CPU time" || ko "--frequency" "$(cat "$tmp/out")"
"$B/flame-top" -n 1 --window 10 --output-format json "$tmp/samples.folded" |
	python3 -c 'import json,sys; j=json.load(sys.stdin); print("ok" if j["total_cores"] is None and j["rows"][0]["self_cores"] is None else j)' >"$tmp/out"
[ "$(cat "$tmp/out")" = ok ] && ok "samples without --frequency: no cores" || ko "no cores without frequency" "$(cat "$tmp/out")"

# the other formats: perf's cpu-clock periods are CPU time; heap bytes never get cores, even
# with --frequency; JFR execution samples are samples (CPU time at --frequency)
U=$(cd "$(dirname "$0")/../../fixtures/units" && pwd)
cores_of() { "$B/flame-top" -n 1 --window 10 --output-format json "$@" | python3 -c '
import json, sys
j = json.load(sys.stdin)
print(j["unit"], j["total"], "none" if j["total_cores"] is None else "%.6f" % j["total_cores"])'; }
read -r u t c <<<"$(cores_of "$U/cpu-clock.perf.txt")"
[ "$u" = nanoseconds ] && [ "$c" = "$(awk -v t="$t" 'BEGIN { printf "%.6f", t / 1e9 / 10 }')" ] &&
	ok "perf cpu-clock periods: cores" || ko "perf cpu-clock cores" "$u $t $c"
read -r u t c <<<"$(cores_of --frequency 99 "$U/go-heap.pb.gz")"
[ "$u" = bytes ] && [ "$c" = none ] && ok "heap bytes: no cores, even with --frequency" || ko "heap cores" "$u $t $c"
read -r u t c <<<"$(cores_of --frequency 50 "$U/jfr-execution-samples.txt")"
[ "$u" = samples ] && [ "$c" = "$(awk -v t="$t" 'BEGIN { printf "%.6f", t / 50 / 10 }')" ] &&
	ok "JFR execution samples at --frequency 50: cores" || ko "jfr cores" "$u $t $c"
printf 'a;b 5\n' | "$B/flame-top" --frequency 99 --window 10 --output-format csv - >/dev/null &&
	ok "stdin" || ko "stdin"

# 6. several inputs are summed (as flame-merge does)
"$B/flame-merge" --format pprof -o "$tmp/twice.pb.gz" "$P" "$P"
"$B/flame-top" -n 0 --output-format csv "$tmp/twice.pb.gz" | csv_rows /dev/stdin >"$tmp/want"
"$B/flame-top" -n 0 --output-format csv "$P" "$P" | csv_rows /dev/stdin >"$tmp/got"
same "several inputs: summed as flame-merge sums them" "$tmp/want" "$tmp/got"

# 7. --fail-above-share: exit 1 naming the function, after the report
top1=$(sed -n 2p "$tmp/f.csv" | python3 -c 'import csv,sys; r=next(csv.reader(sys.stdin)); print(r[1], r[3])')
name=${top1% *} share=${top1##* }
below=$(awk -v s="$share" 'BEGIN { printf "%.2f", s - 0.5 }')
"$B/flame-top" -n 2 --fail-above-share "$below" "$P" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q "above the share: $name: self" "$tmp/err" && grep -q "$name" "$tmp/out"; then
	ok "--fail-above-share: exit 1 naming $name"
else
	ko "--fail-above-share" "rc=$rc $(cat "$tmp/err")"
fi
"$B/flame-top" -n 2 --fail-above-share 99.9 "$P" >/dev/null 2>&1 && ok "--fail-above-share: 0 below the line" ||
	ko "--fail-above-share below"

# 8. flame-diff --before-tag/--after-tag: the same bytes as two flame-collapse --tag runs and a diff
read -r _ r1 <<<"$(grep '^v1 ' "$REQ")"
read -r _ r2 <<<"$(grep '^v2 ' "$REQ")"
"$B/flame-collapse" --output-format pprof -o "$tmp/v1.pb.gz" --tag service=api --tag version=v1 "$P"
"$B/flame-collapse" --output-format pprof -o "$tmp/v2.pb.gz" --tag service=api --tag version=v2 "$P"
# (the pprof written loses the duration: folded text without its header line)
for opts in "--no-header --format folded" "-n --no-header --format folded" "--requests $r1,$r2 --no-header --format folded" \
	"--normalize-frame main\\.handle --no-header --format folded" "-n --top 5" "--requests $r1,$r2 --top 3 --min-delta 1" \
	"--fail-above 5 --top 2" "-n --format svg"; do
	# shellcheck disable=SC2086
	"$B/flame-diff" $opts "$tmp/v1.pb.gz" "$tmp/v2.pb.gz" >"$tmp/want" 2>"$tmp/want.err"
	rw=$?
	# shellcheck disable=SC2086
	"$B/flame-diff" $opts --tag service=api --before-tag version=v1 --after-tag version=v2 "$P" \
		>"$tmp/got" 2>"$tmp/got.err"
	rg=$?
	if [ $rw = $rg ] && cmp -s "$tmp/want" "$tmp/want" && cmp -s "$tmp/want" "$tmp/got" &&
		cmp -s "$tmp/want.err" "$tmp/got.err"; then
		ok "diff by tags = two --tag runs and a diff: $opts (exit $rg)"
	else
		ko "diff by tags: $opts" "exit $rw/$rg $(diff "$tmp/want" "$tmp/got" | head -5; diff "$tmp/want.err" "$tmp/got.err")"
	fi
done
# --tag in a diff of two inputs filters both
"$B/flame-collapse" --output-format pprof -o "$tmp/api.pb.gz" --tag service=api "$P"
"$B/flame-collapse" --output-format pprof -o "$tmp/bill.pb.gz" --tag service=billing "$P"
"$B/flame-diff" --no-header --format folded "$tmp/api.pb.gz" "$tmp/api.pb.gz" >"$tmp/want"
"$B/flame-diff" --no-header --format folded --tag service=api "$P" "$P" >"$tmp/got"
same "--tag filters both inputs of a two-input diff" "$tmp/want" "$tmp/got"
"$B/flame-diff" --no-header --format folded "$tmp/bill.pb.gz" "$tmp/bill.pb.gz" >"$tmp/want"
"$B/flame-diff" --no-header --format folded --tag service=billing "$P" "$P" >"$tmp/got"
same "--tag filters both inputs of a two-input diff (billing)" "$tmp/want" "$tmp/got"
# several inputs are summed first; a version=v regex takes both sides' samples
"$B/flame-collapse" --output-format pprof -o "$tmp/all2.pb.gz" --tag version=v2 "$P" "$P"
"$B/flame-collapse" --output-format pprof -o "$tmp/all1.pb.gz" --tag endpoint=orders "$P" "$P"
"$B/flame-diff" --no-header --format folded "$tmp/all1.pb.gz" "$tmp/all2.pb.gz" >"$tmp/want"
"$B/flame-diff" --no-header --format folded --before-tag endpoint=orders --after-tag version=v2 "$P" "$P" >"$tmp/got"
same "diff by tags: several inputs summed, overlapping slices" "$tmp/want" "$tmp/got"
# v2 made main.hashOrder slower per request (4x the work): its self grows by more than 2x
# (not "the top growth": a fresh recording's small leaves can grow more by chance)
"$B/flame-diff" --requests "$r1,$r2" --tag service=api --before-tag version=v1 --after-tag version=v2 \
	--format folded "$P" |
	awk '{ n = split($1, f, ";"); if (f[n] ~ /^main\./) { b[f[n]] += $(NF-1); a[f[n]] += $NF } }
	END { for (x in a) printf "%s %.3f\n", x, b[x] ? a[x] / b[x] : 99 }' | sort -k2 -g -r >"$tmp/ratio"
if awk '$1 == "main.hashOrder" && $2 > 2 { ok = 1 } END { exit !ok }' "$tmp/ratio"; then
	ok "v2's main.hashOrder costs more per request ($(grep '^main.hashOrder ' "$tmp/ratio"))"
else
	ko "v2 regression not found" "$(cat "$tmp/ratio")"
fi
"$B/flame-diff" --fail-above 1 --requests "$r1,$r2" --tag service=api --before-tag version=v1 \
	--after-tag version=v2 --format folded "$P" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q 'regression: main.hashOrder' "$tmp/err" && ok "diff by tags: the gate names main.hashOrder" ||
	ko "diff by tags: gate" "rc=$rc $(cat "$tmp/err")"
# usage and bad input
"$B/flame-diff" --before-tag x=1 "$tmp/all.folded" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "not pprof profiles" "$tmp/err" && ok "--before-tag on folded input: exit 1, said" || ko "--before-tag folded" "rc=$rc $(cat "$tmp/err")"
"$B/flame-diff" --before-tag 'version=(' "$P" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q -- "--before-tag" "$tmp/err" && ok "--before-tag bad regex: exit 2 naming it" || ko "--before-tag bad regex" "rc=$rc $(cat "$tmp/err")"
"$B/flame-diff" --after-tag version=v2 >/dev/null 2>&1
[ $? = 2 ] && ok "--after-tag without inputs: usage error" || ko "--after-tag without inputs"

echo "$n checks, $fail failed"
[ $n -gt 0 ] && [ $fail = 0 ]
