#!/usr/bin/env bash
# The bash completions the build made (tools/docs), driven as bash does: source one, set
# COMP_WORDS/COMP_CWORD, call the function `complete -p` names, read COMPREPLY. Every
# option of --help completes, --format/--input-format/--colors/--bgcolors offer their values,
# -o and input operands offer file names. The zsh and fish files are checked for syntax
# when those shells are present.
# Usage: completion.sh BUILD_DIR
set -u
build=$(cd "$1" && pwd) src=$(cd "$(dirname "$0")/../.." && pwd)
fail=0 n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" && touch prof.folded prof.pb.gz other.txt
export PATH="$build/tools:$PATH"

# complete TOOL WORD... : COMPREPLY for the last word, one per line, sorted
complete_words() {
	local tool=$1; shift
	bash -c '
		source "$1"; tool=$2; shift 2
		fn=$(complete -p "$tool" | sed -E "s/.* -F ([^ ]+) .*/\1/")
		COMP_WORDS=("$tool" "$@"); COMP_CWORD=$#; COMP_LINE="$tool $*"; COMP_POINT=${#COMP_LINE}
		"$fn" "$tool" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$build/tools/docs/$tool" "$tool" "$@"
}
expect() { # expect TOOL "WANT (space separated)" WORD...
	local tool=$1 want=$2; shift 2
	n=$((n + 1))
	got=$(complete_words "$tool" "$@" | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || { echo "FAIL: $tool $*<TAB>: got '$got', want '$want'"; fail=1; }
}
expect_has() { # expect_has TOOL WORD-WANTED WORD...
	local tool=$1 want=$2; shift 2
	n=$((n + 1))
	complete_words "$tool" "$@" | grep -qxF -- "$want" || {
		echo "FAIL: $tool $*<TAB> does not offer '$want'"; fail=1; }
}

for tool in flame-collapse flame-render flame-diff flame-merge flame-top; do
	[ -f "$build/tools/docs/$tool" ] || { echo "FAIL: no bash completion for $tool"; fail=1; continue; }
	for o in $("$build/tools/$tool" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' | tr ',' '\n' | tr -d ' '); do
		case $o in --*) expect_has "$tool" "$o" "${o:0:4}" ;; *) expect_has "$tool" "$o" - ;; esac
	done
	expect "$tool" "prof.folded prof.pb.gz" prof
	expect "$tool" "prof.folded prof.pb.gz" -o prof
done
# the format names come from the library's tables: --format is the output format in every
# tool, --input-format the input format
expect flame-collapse "folded" --format fo
expect flame-collapse "cpuprofile folded pprof speedscope" --format ''
expect flame-collapse "cpuprofile folded pprof speedscope" --output-format ''
for f in auto folded perf pprof offcpu jfr svg; do expect_has flame-collapse $f --input-format ''; done
expect flame-render "pprof" --input-format pp
expect flame-render "html pdf png svg" --format ''
expect flame-diff "pprof" --input-format pp
expect flame-diff "folded html pdf png speedscope svg" --format ''
expect flame-merge "pdf png pprof" --format p
expect flame-top "csv json text" --output-format ''
expect flame-top "self total" --sort ''
expect flame-render "java js" --colors j
expect flame-render "blue green grey yellow" --bgcolors ''
expect flame-render "" --width 1
# --sample-type names come from the profile on the line (flame-collapse --list-sample-types)
cp "$src/fixtures/corpus/pprof/go-cpu-labels.pb.gz" cpu.pb.gz
expect flame-collapse "cpu samples" cpu.pb.gz --sample-type ''
expect flame-collapse "" --sample-type ''

expect flame-render "--width" --wid

if command -v zsh >/dev/null; then
	for f in "$build"/tools/docs/_flame-*; do n=$((n + 1)); zsh -n "$f" || { echo "FAIL: zsh -n $f"; fail=1; }; done
fi
if command -v fish >/dev/null; then
	for f in "$build"/tools/docs/*.fish; do n=$((n + 1)); fish -n "$f" || { echo "FAIL: fish -n $f"; fail=1; }; done
fi
[ $fail -eq 0 ] && echo "ok: $n completions"
exit $fail
