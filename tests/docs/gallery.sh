#!/usr/bin/env bash
# The README's gallery (fixtures/gallery/*.png) is what this build draws from the bundled
# fixtures (tools/docs/meson.build): byte for byte, so a change to the drawing shows up
# here. FLAME_BLESS=1 copies the build's pictures over the committed ones.
# Usage: gallery.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
fail=0 n=0
for f in flame icicle diff; do
	made=$build/tools/docs/$f.png kept=$src/fixtures/gallery/$f.png
	[ -s "$made" ] || { echo "FAIL: the build made no $f.png"; fail=1; continue; }
	if [ "${FLAME_BLESS:-}" = 1 ]; then cp "$made" "$kept"; fi
	n=$((n + 1))
	cmp -s "$made" "$kept" || { echo "FAIL: fixtures/gallery/$f.png differs from the build's (FLAME_BLESS=1 to update)"; fail=1; }
	grep -q "(fixtures/gallery/$f.png)" "$src/README.md" || { echo "FAIL: README.md does not show $f.png"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: $n gallery pictures match the build and are in README.md"
exit $fail
