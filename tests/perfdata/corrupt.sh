#!/usr/bin/env bash
# Write a damaged copy of a perf.data file, for the bad-input cases of
# fixtures/perfdata/golden.cases. Usage: corrupt.sh KIND IN OUT, KIND one of:
#   magic          the magic is not PERFILE2
#   truncated      the file cut in the middle of its data section
#   data-past-end  the header's data section runs past the end of the file
#   attrs-past-end the header's attribute section runs past the end of the file
#   size-zero      the first record's size field is 0
#   size-lies      the first record's size field is larger than the data left
#   unknown-type   the first record has a type no perf knows (skipped, as perf does)
#   compressed     the first record is a compressed one (perf record -z)
#   sample-type    the attribute's sample_type gains ADDR, which the samples do not carry
#   dwarf          the attribute's sample_type gains STACK_USER (--call-graph dwarf)
#   zstd-frame     the first COMPRESSED2 record's data is not a zstd frame (perf record -z)
#   zstd-size-lies the first COMPRESSED2 record says it holds more data than it does
set -eu
kind=$1 in=$2 out=$3
cp "$in" "$out"
chmod u+w "$out"
u64() { od -An -t u8 -j "$1" -N 8 "$out" | tr -d ' '; }
patch() { # patch OFFSET BYTES-AS-PRINTF-ESCAPES
	printf "$2" | dd of="$out" bs=1 seek="$1" conv=notrunc status=none
}
data=$(u64 40) attrs=$(u64 24)
first_rec() { # the offset of the first record of type $1 in the data section
	local at=$data end=$((data + $(u64 48))) t
	while [ $at -lt $end ]; do
		t=$(od -An -t u4 -j $at -N 4 "$out" | tr -d ' ')
		[ "$t" = "$1" ] && { echo $at; return; }
		at=$((at + $(od -An -t u2 -j $((at + 6)) -N 2 "$out" | tr -d ' ')))
	done
	echo "corrupt.sh: no record of type $1" >&2
	exit 2
}
case $kind in
magic) patch 0 'PERFILE3' ;;
truncated) head -c $((data + $(u64 48) / 2)) "$in" > "$out" ;;
data-past-end) patch 48 '\x00\x00\x00\x00\x00\x00\x01\x00' ;;
attrs-past-end) patch 32 '\x00\x00\x00\x00\x00\x01\x00\x00' ;;
size-zero) patch $((data + 6)) '\x00\x00' ;;
size-lies) patch $((data + 6)) '\xf8\xff' ;;
unknown-type) patch "$data" '\x39\x05\x00\x00' ;;
compressed) patch "$data" '\x51\x00\x00\x00' ;;
sample-type) patch $((attrs + 24)) "$(printf '\\x%02x' $(( $(od -An -t u1 -j $((attrs + 24)) -N 1 "$out") | 8 )))" ;;
dwarf) patch $((attrs + 25)) "$(printf '\\x%02x' $(( $(od -An -t u1 -j $((attrs + 25)) -N 1 "$out") | 0x20 )))" ;;
zstd-frame) patch $(($(first_rec 83) + 16)) '\xde\xad\xbe\xef' ;;
zstd-size-lies) patch $(($(first_rec 83) + 8)) '\xff\xff\x00\x00' ;;
*) echo "corrupt.sh: unknown kind $kind" >&2; exit 2 ;;
esac
