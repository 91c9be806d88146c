#!/usr/bin/env bash
# The zsh and fish completions the build made (tools/docs), loaded as those shells load them.
# zsh: compinit over an fpath holding them binds each tool to its _TOOL function, which
# autoloads (parses); run with _arguments replaced by a printer, it hands zsh a spec for
# every option of --help, --format/--colors/... with their values. fish: with the tools on
# PATH and the files on fish_complete_path, `complete -C` offers every long option of
# --help and the values of --format, --input-format, --colors.
# Usage: completion-shells.sh BUILD_DIR (exit 77, skipped, without zsh or fish)
set -u
build=$(cd "$1" && pwd)
docs=$build/tools/docs
for sh in zsh fish; do
	command -v $sh >/dev/null || { echo "SKIP: no $sh (.ci/setup installs it)"; exit 77; }
done
export PATH="$build/tools:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
bad() { echo "FAIL: $*"; fail=1; }

# the long and short options --help lists, one a line, sorted
help_opts() {
	"$1" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' | tr ',' '\n' | tr -d ' ' | sort -u
}

for tool in flame-collapse flame-render flame-diff flame-merge flame-top; do
	help_opts "$tool" > "$tmp/help"
	grep -- '^--' "$tmp/help" > "$tmp/help-long"
	[ -s "$tmp/help-long" ] || bad "$tool --help lists no options"

	# zsh: compinit binds the tool; the function's _arguments specs name every option
	zsh -f -c '
		fpath=("$1" $fpath); autoload -U compinit; compinit -u -d "$2/zcompdump"
		[[ $_comps[$3] == _$3 ]] || { print -u2 "compinit did not bind $3 (got: $_comps[$3])"; exit 1 }
		autoload +X _$3 || exit 1
		_arguments() { print -rl -- "$@" }
		_$3' _ "$docs" "$tmp" "$tool" > "$tmp/zsh-specs" 2> "$tmp/zsh-err"
	n=$((n + 1))
	[ $? -eq 0 ] && [ ! -s "$tmp/zsh-err" ] || bad "zsh: $tool: $(head -3 "$tmp/zsh-err")"
	# (the first word is _arguments' own -s)
	tail -n +2 "$tmp/zsh-specs" | sed -E 's/^\([^)]*\)//; s/[[:space:]]*\[.*//; s/:.*//' | grep -E '^--?[a-zA-Z]' |
		sort -u > "$tmp/zsh-opts"
	n=$((n + 1))
	diff "$tmp/help" "$tmp/zsh-opts" > "$tmp/d" || bad "zsh: $tool: options differ from --help (< help, > zsh):
$(head -10 "$tmp/d")"
	grep -q '^\*:file:_files$' "$tmp/zsh-specs" || bad "zsh: $tool: no file operands"

	# fish: every long option, offered for "TOOL --"
	fish -c 'set -p fish_complete_path $argv[1]; complete -C "$argv[2] --"' "$docs" "$tool" |
		cut -f1 | sort -u > "$tmp/fish-opts" 2> "$tmp/fish-err"
	n=$((n + 1))
	diff "$tmp/help-long" "$tmp/fish-opts" > "$tmp/d" || bad "fish: $tool: options differ from --help (< help, > fish):
$(head -10 "$tmp/d")"
done

# values of the options that take a name from a set
zsh_values() { # TOOL OPTION: the values of OPTION's spec
	zsh -f -c 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -d "$2/zcompdump"
		autoload +X _$3; _arguments() { print -rl -- "$@" }; _$3' _ "$docs" "$tmp" "$1" |
		grep -E "^(\([^)]*\))?$2\[" | sed -E 's/.*:\((.*)\)$/\1/'
}
fish_values() { # TOOL WORDS...: what fish offers for the last word
	local tool=$1; shift
	fish -c 'set -p fish_complete_path $argv[1]; complete -C "$argv[2]"' "$docs" "$tool $*" |
		cut -f1 | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() { # WHAT GOT WANT
	n=$((n + 1))
	[ "$2" = "$3" ] || bad "$1: got '$2', want '$3'"
}
# the input formats this build reads (perfdata only with -Dperfdata), from the tool's own table
inputs=$(flame-collapse --help-table | awk -F'\t' '$3 == "input-format" { sub(/^[^:]*: /, "", $5); gsub(/ \(default\)/, "", $5); gsub(/,/, "", $5); print $5 }')
sorted() { tr ' ' '\n' | grep . | sort | tr '\n' ' ' | sed 's/ $//'; }
expect "zsh flame-collapse --format" "$(zsh_values flame-collapse --format)" "folded pprof speedscope cpuprofile"
expect "zsh flame-collapse --input-format" "$(zsh_values flame-collapse --input-format)" "$inputs"
expect "zsh flame-render --colors has java" "$(zsh_values flame-render --colors | grep -ow java)" "java"
expect "fish flame-collapse --format" "$(fish_values flame-collapse --format '')" "cpuprofile folded pprof speedscope"
expect "fish flame-collapse --input-format" "$(fish_values flame-collapse --input-format '')" "$(echo "$inputs" | sorted)"
expect "fish flame-diff --input-format p" "$(fish_values flame-diff --input-format p)" "$(echo "$inputs" | tr ' ' '\n' | grep '^p' | sorted)"
expect "fish flame-render --colors j" "$(fish_values flame-render --colors j)" "java js"
[ $fail -eq 0 ] && echo "ok: $n checks of the zsh and fish completions"
exit $fail
