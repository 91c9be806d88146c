#!/usr/bin/env bash
# The library path end to end, as README.md's "Using the library" tells it: `meson install
# --destdir` into a temp dir, then the README's example (extracted from README.md, so the
# README shows the tested source) built with nothing but pkg-config pointed into that tree,
# shared and static (`pkg-config --static`, cc -static), each run on the bundled example
# recording and compared with flame-collapse's output; the man pages and completions are
# installed too.
# Usage: library.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
meson=${MESON:-meson} cc=${CC:-cc}
# a sanitizer build's library needs the sanitizer runtime in the program (FLAME_SANITIZE is
# meson's b_sanitize); that runtime does not link -static, so the static case is skipped
sanitize=${FLAME_SANITIZE:-none}
[ "$sanitize" = none ] || cc="$cc -fsanitize=$sanitize"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
stage=$tmp/stage
if ! "$meson" install -C "$build" --destdir "$stage" --no-rebuild --quiet >"$tmp/log" 2>&1; then
	echo "FAIL: meson install --destdir"; cat "$tmp/log"; exit 1
fi
pc=$(find "$stage" -name libflame.pc | head -1)
[ -n "$pc" ] || { echo "FAIL: libflame.pc not installed"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")
# the first C block under "## Using the library"
awk '/^## Using the library/ {s = 1} s && /^```c$/ {c = 1; next} c && /^```$/ {exit} c' \
	"$src/README.md" >"$tmp/demo.c"
grep -q 'int main' "$tmp/demo.c" || { echo "FAIL: no example read from README.md"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$stage
fixture=$src/fixtures/example/workload.perf.txt
"$build/tools/flame-collapse" "$fixture" >"$tmp/want"
[ -s "$tmp/want" ] || { echo "FAIL: flame-collapse printed nothing"; exit 1; }

# what a program using the library gets: flame.h's include directory and -lflame, none of
# the dependencies' include paths (flame.h includes none of their headers: pkg-config
# added cairo's and glib's through Requires.private) nor, linked shared, their libraries
n=$((n + 1))
cflags=$(pkg-config --cflags libflame) libs=$(pkg-config --libs libflame)
for f in $cflags; do
	case $f in -I"$stage"/*) ;; *) echo "FAIL: pkg-config --cflags libflame has '$f': $cflags"; fail=1 ;; esac
done
echo "$cflags $libs" | grep -Eq 'cairo|glib|pixman|freetype|libpng|libxml|pcre' &&
	{ echo "FAIL: pkg-config --cflags --libs libflame names a dependency: $cflags $libs"; fail=1; }
n=$((n + 1))
[ "$(echo $libs | tr ' ' '\n' | grep -c '^-l')" = 1 ] || { echo "FAIL: pkg-config --libs libflame: $libs"; fail=1; }
# ...and, linked static, every library it needs
n=$((n + 1))
static=$(pkg-config --static --libs libflame)
for l in -lflame -lcairo -lxml2 -lpcre2-8 -lz; do
	echo " $static " | grep -q -- " $l " || { echo "FAIL: pkg-config --static --libs libflame lacks $l: $static"; fail=1; }
done

# shared: it must load the staged libflame.so.1, not another one
n=$((n + 1))
if ! (cd "$tmp" && $cc demo.c -o demo $(pkg-config --cflags --libs libflame)) 2>"$tmp/err"; then
	echo "FAIL: cc demo.c \$(pkg-config --cflags --libs libflame):"; cat "$tmp/err"; fail=1
else
	lib=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/demo" | awk '$1 == "libflame.so.1" {print $3}')
	case $lib in "$stage"/*) ;; *) echo "FAIL: demo loads libflame.so.1 from '$lib'"; fail=1 ;; esac
	LD_LIBRARY_PATH=$libdir "$tmp/demo" "$fixture" >"$tmp/got" 2>"$tmp/err"
	cmp -s "$tmp/got" "$tmp/want" || { echo "FAIL: shared demo output differs:"; diff "$tmp/want" "$tmp/got" | head; cat "$tmp/err"; fail=1; }
fi

# static: everything in one executable. (-lstdc++: Debian's static libxml2 pulls in ICU,
# written in C++, which libxml-2.0.pc does not list.)
if [ "$sanitize" != none ]; then
	echo "(static link skipped: the library is built with -fsanitize=$sanitize)"
elif ! n=$((n + 1)) || ! (cd "$tmp" && $cc -static demo.c -o demo-static $(pkg-config --static --cflags --libs libflame) -lstdc++) >"$tmp/err" 2>&1; then
	echo "FAIL: cc -static demo.c \$(pkg-config --static --cflags --libs libflame) -lstdc++:"; grep -v 'warning' "$tmp/err" | head; fail=1
else
	ldd "$tmp/demo-static" 2>&1 | grep -q 'not a dynamic executable' || { echo "FAIL: demo-static is dynamic"; fail=1; }
	"$tmp/demo-static" <"$fixture" >"$tmp/got" 2>"$tmp/err"
	cmp -s "$tmp/got" "$tmp/want" || { echo "FAIL: static demo output differs:"; diff "$tmp/want" "$tmp/got" | head; cat "$tmp/err"; fail=1; }
fi

# what meson install puts beside the library and the tools
for f in man1/flame-collapse.1 man1/flame-render.1 man1/flame-diff.1 man1/flame-merge.1 man1/flame-top.1 \
	man3/libflame.3 bash-completion/completions/flame-collapse zsh/site-functions/_flame-diff \
	fish/vendor_completions.d/flame-merge.fish bash-completion/completions/flame-top; do
	n=$((n + 1))
	[ -n "$(find "$stage" -path "*/$f" -type f)" ] || { echo "FAIL: $f not installed"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: $n checks of the installed library (shared and static) and files"
exit $fail
