#!/usr/bin/env bash
# What --version and --help tell: every tool's --version names the tool's and the loaded
# library's version (meson's project version) and what the library is built with; every
# --help says where output goes and what the exit codes mean; flame-collapse's description
# names every input format its --format takes.
# Usage: help.sh BUILD_DIR VERSION
set -u
build=$1 version=$2
fail=0 n=0
check() { # check DESCRIPTION COMMAND...
	local what=$1; shift
	n=$((n + 1))
	"$@" || { echo "FAIL: $what"; fail=1; }
}
for tool in flame-collapse flame-render flame-diff flame-merge flame-top; do
	v=$("$build/tools/$tool" --version)
	check "$tool --version line 1: $(sed -n 1p <<<"$v")" [ "$(sed -n 1p <<<"$v")" = "$tool $version" ]
	check "$tool --version line 2: $(sed -n 2p <<<"$v")" [ "$(sed -n 2p <<<"$v")" = "libflame $version" ]
	check "$tool --version names cairo, libxml2, pcre2, zlib" \
		grep -qE '^built with: cairo [0-9.]+ .*libxml2 [0-9.]+ .*pcre2 [0-9.]+ .*zlib [0-9.]+' <<<"$v"
	h=$("$build/tools/$tool" --help)
	check "$tool --help says where output goes" grep -q '^Output:$' <<<"$h"
	check "$tool --help says what the exit codes mean" \
		grep -A3 '^Exit status:$' <<<"$h" | tr '\n' ' ' | grep -q '0 success; 1 .* 2 a usage error'
done
# the description is the paragraph before "Options:"
desc=$("$build/tools/flame-collapse" --help | sed -n '3,/^Options:/p')
for f in perf pprof folded offcpu jfr svg; do
	case $f in offcpu) word=offcputime ;; svg) word=SVG ;; *) word=$f ;; esac
	check "flame-collapse's description names the $f input ($word)" grep -q "$word" <<<"$desc"
done
[ $fail -eq 0 ] && echo "ok: $n checks of --version and --help"
exit $fail
