#!/usr/bin/env bash
# What --version and --help tell: every tool's --version names the tool's and the loaded
# library's version (meson's project version) and what the library is built with; every
# --help says where output goes and what the exit codes mean, and lists the formats the
# tool reads and writes.
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
# every tool lists the input formats it reads and the output formats it writes, each with
# its description and extensions (from the library's tables), and its --format and
# --input-format name them
section() { # section TOOL HEADING-START: the lines of that list
	"$build/tools/$1" --help | sed -n "/^$2/,/^\$/p" | sed -n 's/^  \([a-z]*\) .*\[\(.*\)\]$/\1 [\2]/p'
}
for tool in flame-collapse flame-render flame-diff flame-merge flame-top; do
	for f in perf pprof folded offcpu jfr svg; do
		check "$tool --help lists the $f input with its extensions" \
			grep -qE "^$f \[\.[a-z]" <<<"$(section $tool 'Input formats')"
	done
	check "$tool --input-format lists auto and the inputs" \
		grep -qE -- '--input-format FMT .*auto \(default\), folded, perf, pprof, offcpu, jfr, svg' \
		<<<"$("$build/tools/$tool" --help)"
done
outputs() { section "$1" 'Output formats' | cut -d' ' -f1 | tr '\n' ' '; }
check "flame-collapse writes folded, pprof, speedscope, cpuprofile: $(outputs flame-collapse)" [ "$(outputs flame-collapse)" = "folded pprof speedscope cpuprofile " ]
check "flame-render writes pictures: $(outputs flame-render)" [ "$(outputs flame-render)" = "svg png pdf html " ]
check "flame-diff writes diffs: $(outputs flame-diff)" [ "$(outputs flame-diff)" = "folded svg png pdf html speedscope " ]
check "flame-merge writes all: $(outputs flame-merge)" [ "$(outputs flame-merge)" = "folded pprof svg png pdf html speedscope cpuprofile " ]
check "flame-collapse --help says what an old --format means" \
	grep -q -- '--format FMT .*output format: folded (default), pprof, speedscope, cpuprofile\. As before, a name that is also an input format means --input-format' \
	<<<"$("$build/tools/flame-collapse" --help)"
[ $fail -eq 0 ] && echo "ok: $n checks of --version and --help"
exit $fail
