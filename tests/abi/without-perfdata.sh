#!/usr/bin/env bash
# A build without perf.data support (-Dperfdata=disabled) names every input format right:
# unit-formats' checks of the format table (perfdata keeps its name for messages, is in no
# list, and no format after it is named "?"), flame-collapse --help's list of input formats,
# and a perf.data refused with the "use perf script" message (tests/perfdata/cli-off's case).
# Usage: without-perfdata.sh SOURCE_DIR
set -u
src=$(cd "$1" && pwd)
meson=${MESON:-meson}
if [ "${FLAME_SANITIZE:-none}" != none ]; then
	echo "skipped under sanitizers: the release suite builds it"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/build
"$meson" setup "$b" "$src" -Dperfdata=disabled -Dbrowser_tests=disabled -Dgolang_tests=disabled \
	>"$tmp/log" 2>&1 || { echo "FAIL: meson setup"; cat "$tmp/log"; exit 1; }
grep -q "FLAME_HAVE_PERFDATA" "$b/build.ninja" && { echo "FAIL: perfdata still on"; exit 1; }
ninja -C "$b" tests/cli/test-formats tools/flame-collapse tools/flame-render tools/flame-diff \
	tools/flame-merge tools/flame-top >"$tmp/log" 2>&1 ||
	{ echo "FAIL: build"; tail -30 "$tmp/log"; exit 1; }
fail=0
"$b/tests/cli/test-formats" >"$tmp/unit" 2>&1 || { echo "FAIL: unit-formats"; cat "$tmp/unit"; fail=1; }
help=$("$b/tools/flame-collapse" --help)
formats=$(printf '%s\n' "$help" | grep -iE -m1 'input-format')
case "$help" in
	*perfdata*) echo "FAIL: --help names perfdata in a build that cannot read it"; fail=1 ;;
esac
case "$help" in
	*'?'*) echo "FAIL: --help names a format '?'"; fail=1 ;;
esac
bash "$src/tests/lib/cli-run.sh" "$b" "$src/tests/perfdata/cli-off" || fail=1
[ $fail = 0 ] && echo "ok: without -Dperfdata: $formats"
exit $fail
