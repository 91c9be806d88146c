#!/usr/bin/env bash
# flame-collapse reads flame-render's HTML page back (parse/html.c): for every recorded
# input of the corpus and the example, the page's stacks are the input's, byte for byte
# (the header line with the unit and sample type included); a differential page gives
# flame-diff's folded text; decimals survive; and pages that are not ours, or are damaged,
# get a clear error naming the file, never a crash.
# Usage: readback.sh BUILD_DIR FIXTURES_DIR
set -u
b=$1/tools
fx=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
check() { # check NAME WANT GOT
	n=$((n + 1))
	cmp -s "$2" "$3" || { echo "FAIL: $1"; diff "$2" "$3" | head -5; fail=1; }
}
for f in "$fx"/example/*.txt "$fx"/corpus/*/*; do
	[ -f "$f" ] || continue
	"$b/flame-collapse" -q "$f" > "$tmp/want" 2>/dev/null || continue
	[ -s "$tmp/want" ] || continue
	"$b/flame-render" -q "$f" -o "$tmp/p.html" 2>/dev/null || { echo "FAIL: render $f"; fail=1; continue; }
	"$b/flame-collapse" "$tmp/p.html" > "$tmp/got" 2>"$tmp/err" || { echo "FAIL: read back $f: $(cat "$tmp/err")"; fail=1; continue; }
	check "$(basename "$f") read back from its page" "$tmp/want" "$tmp/got"
done
[ $n -ge 20 ] || { echo "FAIL: only $n inputs checked"; fail=1; }

# a differential page, and counts with decimals
printf 'a;b 1.5\na;c 2\nd 0.25\n' > "$tmp/x.folded"
printf 'a;b 3\na;c 1.125\ne 7\n' > "$tmp/y.folded"
"$b/flame-diff" --format folded "$tmp/x.folded" "$tmp/y.folded" > "$tmp/want"
"$b/flame-diff" "$tmp/x.folded" "$tmp/y.folded" -o "$tmp/d.html"
"$b/flame-collapse" --input-format html "$tmp/d.html" > "$tmp/got"
check "a differential page read back" "$tmp/want" "$tmp/got"
"$b/flame-collapse" "$tmp/x.folded" > "$tmp/want"
"$b/flame-render" "$tmp/x.folded" -o "$tmp/x.html"
"$b/flame-collapse" - < "$tmp/x.html" > "$tmp/got"
check "decimals read back from stdin" "$tmp/want" "$tmp/got"
# every tool reads a page
"$b/flame-render" "$tmp/x.html" > "$tmp/a.svg" && "$b/flame-render" "$tmp/x.folded" > "$tmp/b.svg"
check "flame-render draws a page as its stacks" "$tmp/b.svg" "$tmp/a.svg"

# errors: a page that is not ours, a damaged data block, a truncated page
bad() { # bad NAME FILE PATTERN
	n=$((n + 1))
	if "$b/flame-collapse" "$2" > /dev/null 2> "$tmp/err"; then
		echo "FAIL: $1: read without an error"; fail=1
	elif ! grep -q -- "$3" "$tmp/err" || ! grep -q "$(basename "$2")" "$tmp/err"; then
		echo "FAIL: $1: message: $(cat "$tmp/err")"; fail=1
	fi
}
printf '<!DOCTYPE html>\n<html><body>hello</body></html>\n' > "$tmp/other.html"
bad "another tool's page" "$tmp/other.html" "HTML page other than flame-render's"
sed 's/id="flame-data">H4s/id="flame-data">H4!/' "$tmp/x.html" > "$tmp/b64.html"
bad "not base64" "$tmp/b64.html" "not base64"
at=$(grep -bo 'id="flame-data">' "$tmp/x.html" | cut -d: -f1)
head -c $((at + 40)) "$tmp/x.html" > "$tmp/cut.html"
bad "a truncated page" "$tmp/cut.html" "data block has no end"
python3 - "$tmp/x.html" "$tmp/junk.html" <<'PY'
import base64, gzip, re, sys
page = open(sys.argv[1], "rb").read()
m = re.search(rb'(id="flame-data">)([^<]*)', page)
raw = gzip.decompress(base64.b64decode(m.group(2)))
junk = base64.b64encode(gzip.compress(raw[:-3]))  # the last column cut short
open(sys.argv[2], "wb").write(page[:m.start(2)] + junk + page[m.end(2):])
PY
bad "a stream cut short" "$tmp/junk.html" "inflated stream"
[ $fail = 0 ] && echo "ok: $n checks"
exit $fail
