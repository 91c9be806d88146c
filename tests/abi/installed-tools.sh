#!/usr/bin/env bash
# The tools link libflame.so: check they run from an installed tree. `meson install
# --destdir` into a temp dir (nothing is built), then each installed tool, with no
# LD_LIBRARY_PATH, must find the installed libflame.so.1 of that tree (its $ORIGIN rpath),
# not the build directory's, and collapse a stack.
# Usage: installed-tools.sh BUILD_DIR
set -u
build=$1
meson=${MESON:-meson}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$meson" install -C "$build" --destdir "$tmp/root" --no-rebuild --quiet >"$tmp/log" 2>&1; then
	echo "FAIL: meson install --destdir"; cat "$tmp/log"; exit 1
fi
fail=0 n=0
for tool in flame-collapse flame-render flame-diff flame-merge flame-top; do
	exe=$(find "$tmp/root" -path "*/bin/$tool" -type f | head -1)
	if [ -z "$exe" ]; then echo "FAIL: $tool not installed"; fail=1; continue; fi
	n=$((n + 1))
	lib=$(env -u LD_LIBRARY_PATH ldd "$exe" | awk '$1 == "libflame.so.1" {print $3 == "not" ? "(not found)" : $3}')
	case $lib in
	"$tmp/root"/*) ;;
	*) echo "FAIL: installed $tool loads libflame.so.1 from '${lib:-nowhere}'"; fail=1 ;;
	esac
	if ! env -u LD_LIBRARY_PATH "$exe" --version >"$tmp/out" 2>&1; then
		echo "FAIL: installed $tool --version:"; cat "$tmp/out"; fail=1
	fi
done
out=$(printf 'a;b 2\na;b 1\n' | env -u LD_LIBRARY_PATH "$(find "$tmp/root" -path '*/bin/flame-collapse' | head -1)")
[ "$out" = "a;b 3" ] || { echo "FAIL: installed flame-collapse printed '$out'"; fail=1; }
[ $fail -eq 0 ] && echo "ok: $n installed tools run on the installed libflame.so.1"
exit $fail
