#!/usr/bin/env bash
# Re-record the fixtures made from these programs (Linux perf needed; recordings are not
# bit-reproducible, so the committed files are the reference):
#   fixtures/perf/progs-recurse.perf.txt   frame pointers, deep + mutual recursion
#   fixtures/perf/progs-threads.perf.txt   DWARF unwinding: named threads, inlined frames
# then re-bless the golden files: FLAME_BLESS=1 meson test -C build perf-golden
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../../fixtures/perf}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -g -fno-omit-frame-pointer -o "$tmp/recurse" "$here/recurse.c"
cc -O2 -g -pthread -o "$tmp/threads" "$here/threads.c"
cd "$tmp"
perf record -q -e cpu-clock -F 499 -g -o r.data ./recurse 3000 >/dev/null
perf script -i r.data > "$out/progs-recurse.perf.txt"
perf record -q -e cpu-clock -F 99 --call-graph dwarf,16384 -o t.data ./threads 1500 >/dev/null
perf script -i t.data > "$out/progs-threads.perf.txt"
ls -l "$out"/progs-*.perf.txt
