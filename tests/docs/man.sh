#!/usr/bin/env bash
# The man pages the build made (tools/docs): each renders with `groff -man -ww -z` with no
# warning, each tool's page names every option its --help lists (long and short), its
# exit status and its examples; libflame(3) names every FLAME_EXPORT function of flame.h.
# Usage: man.sh BUILD_DIR FLAME_H
set -u
build=$1 header=$2
fail=0 n=0
command -v groff >/dev/null || { echo "FAIL: groff not found (.ci/setup installs groff-base)"; exit 1; }
for page in "$build"/tools/docs/*.1 "$build"/tools/docs/libflame.3; do
	[ -f "$page" ] || { echo "FAIL: $page not built"; fail=1; continue; }
	warn=$(groff -man -ww -z "$page" 2>&1)
	if [ $? -ne 0 ] || [ -n "$warn" ]; then
		echo "FAIL: groff warns on $(basename "$page"):"; echo "$warn" | head; fail=1
	fi
	n=$((n + 1))
done
for tool in flame-collapse flame-render flame-diff flame-merge flame-top; do
	page=$build/tools/docs/$tool.1
	[ -f "$page" ] || continue
	opts=$("$build/tools/$tool" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' | tr ',' '\n' | tr -d ' ')
	[ -n "$opts" ] || { echo "FAIL: no options read from $tool --help"; fail=1; }
	for o in $opts; do
		n=$((n + 1))
		# as the OPTIONS list writes it: \fB\-\-name\fR, \fB\-o\fR
		grep -qF -- "\fB${o//-/\\-}\fR" "$page" || { echo "FAIL: $tool.1 does not name $o"; fail=1; }
	done
	for section in SYNOPSIS OPTIONS 'EXIT STATUS' OUTPUT EXAMPLES COMPATIBILITY; do
		n=$((n + 1))
		grep -q "^\.SH $section\$" "$page" || { echo "FAIL: $tool.1 has no $section"; fail=1; }
	done
done
for f in $(grep -oE '^FLAME_EXPORT[^(]*\(' "$header" | grep -oE 'flame_[a-z0-9_]+\($' | tr -d '('); do
	n=$((n + 1))
	grep -q "$f" "$build/tools/docs/libflame.3" || { echo "FAIL: libflame.3 does not name $f"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: $n checks of the man pages"
exit $fail
