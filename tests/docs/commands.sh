#!/usr/bin/env bash
# README.md's "Two commands", read from the file. Command 1 must install only what running
# needs (`.ci/setup run`) and build only what it runs: its ninja step names targets (a bare
# `ninja -C build` builds every test and fuzz replay), each a real target of this build
# that pulls in nothing under tests/, and every build/tools/TOOL it runs is one of them.
# Its run steps are then run as written, with this build's tools and the outputs in a temp
# dir: folded text equal to flame-collapse's, an SVG, a PNG. Command 2 must be
# `bash .ci/test`, which builds everything and runs the tests in the same build dir.
# Usage: commands.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
bad() { echo "FAIL: $*"; fail=1; }
check() { n=$((n + 1)); "$@"; }

# the Nth ```sh block of the "Two commands" section
block() {
	awk -v want="$1" '/^## / {s = ($0 == "## Two commands")} s && /^ *```sh$/ {c++; if (c == want) {p = 1; next}}
		p && /^ *```$/ {exit} p {sub(/^ +/, ""); print}' "$src/README.md"
}
cmd1=$(block 1) cmd2=$(block 2)
[ -n "$cmd1" ] || { echo "FAIL: no first command under '## Two commands' in README.md"; exit 1; }

# command 1, one step a line
printf '%s\n' "$cmd1" | sed 's/ && /\n/g' > "$tmp/steps"
check grep -qx 'bash .ci/setup run' "$tmp/steps" || bad "command 1 does not start with 'bash .ci/setup run'"
check grep -q '"${1:-}" = run' "$src/.ci/setup" || bad ".ci/setup takes no 'run' argument"
ninja_step=$(grep -E '^ninja ' "$tmp/steps")
n=$((n + 1))
[ "$(grep -cE '^ninja ' "$tmp/steps")" = 1 ] || bad "command 1 has $(grep -cE '^ninja ' "$tmp/steps") ninja steps, not one"
read -r -a words <<<"$ninja_step"
targets=()
for ((i = 1; i < ${#words[@]}; i++)); do
	case ${words[i]} in
	-C | -j | -l | -k | -f) i=$((i + 1)) ;;  # an option and its value
	-*) ;;
	*) targets+=("${words[i]}") ;;
	esac
done
n=$((n + 1))
[ ${#targets[@]} -gt 0 ] || bad "command 1's ninja step names no target, so it builds every test: $ninja_step"
for t in "${targets[@]}"; do
	check ninja -C "$build" -t query "$t" >/dev/null 2>&1 || bad "command 1 builds '$t', which is no target of this build"
done
if [ ${#targets[@]} -gt 0 ]; then
	n=$((n + 1))
	ninja -C "$build" -t inputs "${targets[@]}" > "$tmp/inputs" 2>&1 || bad "ninja -t inputs ${targets[*]}: $(head -2 "$tmp/inputs")"
	grep -q '^tests/' "$tmp/inputs" && bad "command 1's targets pull in tests: $(grep '^tests/' "$tmp/inputs" | head -3 | tr '\n' ' ')"
fi
for tool in $(grep -oE 'build/tools/[a-z-]+' "$tmp/steps" | sort -u); do
	n=$((n + 1))
	printf '%s\n' "${targets[@]}" | grep -qx "${tool#build/}" || bad "command 1 runs $tool but does not build it"
done

# its run steps (those after ninja), as written, against this build
sed '1,/^ninja /d' "$tmp/steps" | sed "s|build/tools/|$build/tools/|g; s|build/example|$tmp/example|g" > "$tmp/run.sh"
check grep -q flame-render "$tmp/run.sh" || bad "command 1 runs no flame-render"
(cd "$src" && bash -e "$tmp/run.sh") > "$tmp/log" 2>&1 || bad "command 1's run steps failed: $(head -3 "$tmp/log")"
n=$((n + 1))
"$build/tools/flame-collapse" "$src/fixtures/example/workload.perf.txt" > "$tmp/want.folded"
[ -s "$tmp/want.folded" ] && cmp -s "$tmp/want.folded" "$tmp/example.folded" || bad "example.folded is not flame-collapse's output"
check grep -q '<svg' "$tmp/example.svg" 2>/dev/null || bad "example.svg is no SVG"
n=$((n + 1))
[ "$(head -c 8 "$tmp/example.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || bad "example.png is no PNG"

# command 2: the whole build and every test, in the same build dir
check [ "$cmd2" = 'bash .ci/test' ] || bad "command 2 is '$cmd2', not 'bash .ci/test'"
check grep -qx 'dir=${1:-build}' "$src/.ci/test" || bad ".ci/test's default build dir is not build/, command 1's"
check grep -qx 'ninja -C "$dir"' "$src/.ci/test" || bad ".ci/test does not build every target (ninja -C \"\$dir\")"
check grep -q '^meson test -C "$dir"' "$src/.ci/test" || bad ".ci/test does not run meson test"
[ $fail -eq 0 ] && echo "ok: $n checks of the README's two commands (command 1 builds ${targets[*]})"
exit $fail
