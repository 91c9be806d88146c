#!/usr/bin/env bash
# Re-make the committed perf.data fixtures (Linux perf and x86-64 needed; recordings are
# not bit-reproducible, so the committed files are the reference):
#   fixtures/perfdata/static.data        perf record -g of tests/perfdata/progs/pd-static.c (file)
#   fixtures/perfdata/static-pipe.data   the same as `perf record -o -` writes it
#   fixtures/perfdata/static-z.data      a perf record -z recording of it (COMPRESSED records)
#   fixtures/perfdata/static-z2.data     its stream cut into COMPRESSED2 records of 101 bytes
#   fixtures/perfdata/home/.debug/       a build-id cache holding the program's ELF, so
#                                        the recordings symbolize anywhere with
#                                        HOME=fixtures/perfdata/home (perf script too)
#   fixtures/perfdata/*.folded           perf script | flame-collapse of each (checked
#                                        equal to flame-collapse FILE here)
# Usage: make-fixtures.sh BUILD_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
fc=$(cd "$1" && pwd)/tools/flame-collapse
out=$root/fixtures/perfdata
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cc -O1 -g0 -fno-omit-frame-pointer -nostdlib -static -no-pie -fno-pie -o pd-static \
  "$root/tests/perfdata/progs/pd-static.c"
export HOME=$tmp
perf record -q -e cpu-clock:u -F 499 -g -o static.data ./pd-static
perf record -q -e cpu-clock:u -F 499 -g -o - ./pd-static > static-pipe.data
perf record -q -z -e cpu-clock:u -F 499 -g -o static-z.data ./pd-static
python3 "$root/tests/perfdata/recompress.py" static-z.data static-z2.data 101
id=$(readelf -n pd-static | sed -n 's/.*Build ID: //p')
rm -rf "$out/buildid" "$out/home"
mkdir -p "$out/home/.debug/.build-id/${id:0:2}/${id:2}"
cp pd-static "$out/home/.debug/.build-id/${id:0:2}/${id:2}/elf"
rm pd-static # only the fixture's cache names the program now
export HOME=$out/home
for f in static.data static-pipe.data static-z.data; do
  cp "$f" "$out/$f"
  perf script -i "$f" | "$fc" > "$out/${f%.data}.folded"
  "$fc" "$f" | cmp - "$out/${f%.data}.folded"
done
cp static-z2.data "$out/"
"$fc" static-z2.data | cmp - "$out/static-z.folded" # perf 6.1 reads no COMPRESSED2
ls -l "$out"
