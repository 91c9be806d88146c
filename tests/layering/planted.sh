#!/bin/bash
# check.sh must catch what it is there for: a copy of libflame/ and tools/ with an include
# up a layer, one sideways, a tool reaching past flame.h, a core/ function defined in
# xform/ (as the regex wrapper once was) and a call from write/ into xform/ (as the diff
# report's once was) planted in it fails, naming each; the same call in a comment and in a
# string beside it is not one.
# Usage: planted.sh SOURCE_ROOT.
root=${1:?usage: planted.sh SOURCE_ROOT}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp -r "$root/libflame" "$root/tools" "$tmp/" || exit 1
sed -i '1a #include "../request/request.h"' "$tmp/libflame/read/combine.c"
sed -i '1a #include "../parse/parser.h"' "$tmp/libflame/write/folded.c"
sed -i '1a #include "../libflame/core/tree.h"' "$tmp/tools/flame-merge.c"
printf 'int flame__regex_match(flame__regex *re, const char *s,\n                      size_t n)\n{\n\treturn 0;\n}\n' \
	>>"$tmp/libflame/xform/filter.c"
planted_def="libflame/xform/filter.c:$(($(wc -l <"$tmp/libflame/xform/filter.c") - 4)):"
printf '%s\n' '/* flame_diff_report_attribute(r, 0, err) in a comment is no call */' \
	'static int planted(flame_tree *t)' '{' \
	'	const char *s = "flame_diff_report_attribute(r) in a string is none either";' \
	'	(void)s;' '	return flame_diff_report_attribute(NULL, 0, NULL);' '}' \
	>>"$tmp/libflame/write/report.c"
planted_call="libflame/write/report.c:$(($(wc -l <"$tmp/libflame/write/report.c") - 1)): write/ calls flame_diff_report_attribute of xform/diff-report.c"
out=$(bash "$here/check.sh" "$tmp") && { echo "check.sh passed a tree with planted includes"; exit 1; }
fail=0
for want in 'libflame/read/combine.c:2:' 'libflame/write/folded.c:2:' 'tools/flame-merge.c:2:' \
	"$planted_def" "$planted_call"; do
	grep -qF "$want" <<<"$out" || { echo "not named: $want"; fail=1; }
done
[ "$(grep -c ": .*includes" <<<"$out")" -eq 3 ] || { echo "expected exactly 3 include violations:"; echo "$out"; fail=1; }
[ "$(grep -c ": defines " <<<"$out")" -eq 1 ] || { echo "expected exactly 1 misplaced definition:"; echo "$out"; fail=1; }
[ "$(grep -c ": .* calls " <<<"$out")" -eq 1 ] || { echo "expected exactly 1 call up or sideways:"; echo "$out"; fail=1; }
[ $fail -eq 0 ] && echo "the 3 planted includes, the misplaced definition and the call were caught"
exit $fail
