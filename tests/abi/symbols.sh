#!/usr/bin/env bash
# The ABI check: the dynamic symbols libflame.so exports are exactly the FLAME_EXPORT
# declarations of flame.h, and both are exactly the symbols libflame.map lists, each with
# a LIBFLAME_ version. A function declared but not listed (so hidden), listed but not
# declared, or exported by accident fails here, named.
# Usage: symbols.sh flame.h libflame.map libflame.so
set -u
header=$1 map=$2 lib=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# declarations: a line starting with FLAME_EXPORT, joined with the next ones up to its '(';
# the name is the last word before the '('
awk '/^FLAME_EXPORT[ \t]/ {
	d = $0
	while (d !~ /\(/ && (getline l) > 0)
		d = d " " l
	sub(/\(.*/, "", d)
	n = split(d, w, /[^A-Za-z0-9_]+/)
	while (n > 0 && w[n] == "")
		n--
	print w[n]
}' "$header" | sort >"$tmp/header"
# the map: names ending in ';' inside global: sections (local: * ends them)
awk '/^[ \t]*global:/ {g = 1; next} /^[ \t]*local:/ {g = 0; next}
	g && /^[ \t]*[A-Za-z_][A-Za-z0-9_]*;/ {gsub(/[ \t;]/, ""); print}' "$map" | sort >"$tmp/map"
# the library: defined dynamic symbols, not the version nodes themselves (type A)
nm -D --defined-only "$lib" | awk '$2 != "A" {print $3}' >"$tmp/nm-raw"
sed 's/@.*//' "$tmp/nm-raw" | sort >"$tmp/lib"

fail=0
check() { # NAME_A FILE_A NAME_B FILE_B
	local only
	only=$(comm -23 "$2" "$4")
	if [ -n "$only" ]; then
		echo "FAIL: in $1, not in $3:"
		echo "$only" | sed 's/^/  /'
		fail=1
	fi
}
n=$(wc -l <"$tmp/header")
if [ "$n" -lt 50 ]; then
	echo "FAIL: only $n FLAME_EXPORT declarations found in $header: the parse is broken"
	exit 1
fi
check "flame.h (FLAME_EXPORT)" "$tmp/header" "libflame.map (add it to its version node)" "$tmp/map"
check "libflame.map" "$tmp/map" "flame.h (FLAME_EXPORT)" "$tmp/header"
check "flame.h (FLAME_EXPORT)" "$tmp/header" "the shared library's exports" "$tmp/lib"
check "the shared library's exports" "$tmp/lib" "flame.h (FLAME_EXPORT)" "$tmp/header"
# every export carries a version of libflame.map (the map was applied)
unversioned=$(grep -v '@LIBFLAME_' "$tmp/nm-raw" || true)
if [ -n "$unversioned" ]; then
	echo "FAIL: exported without a LIBFLAME_ version (is libflame.map applied?):"
	echo "$unversioned" | head -5 | sed 's/^/  /'
	fail=1
fi
[ $fail -eq 0 ] && echo "ok: $n symbols, declared, listed and exported alike"
exit $fail
