# Bad input is an error naming the file and the line, never a crash: an entry cut short,
# an entry with no count, a count too large, binary data, and a huge line (read whole).
printf '@[\n    f+1\n    g+2\n' > truncated.bt
printf 'Attaching 1 probe...\n@[\n    f+1\n]\n' > no-count.bt
printf '@[\n    f+1\n@[\n    g+2\n]: 1\n' > new-entry.bt
printf '@[\n    f+1\n]: 99999999999999999999\n' > overflow.bt
printf '@[\n    f\0+1\n]: 1\n' > binary.bt
printf '              unix`a+0x1\n              unix`b+0x2\n' > truncated.dtrace
printf '              unix`a+0x1\n               99999999999999999999\n' > overflow.dtrace
printf '              unix`a\0+0x1\n               3\n' > binary.dtrace
for f in truncated.bt no-count.bt new-entry.bt overflow.bt binary.bt; do
	flame-collapse --input-format bpftrace "$f"; echo "exit $?"
done
for f in truncated.dtrace overflow.dtrace binary.dtrace; do
	flame-collapse --input-format dtrace "$f"; echo "exit $?"
done
# a 4 MB frame is read whole (detection sees the first 64 KiB: a bpftrace entry opens
# on a line of its own, a DTrace frame line must end within them)
{ printf '@[\n    '; head -c 4000000 /dev/zero | tr '\0' x; printf '+1\n, sh]: 2\n'; } > huge.bt
flame-collapse huge.bt | awk '{ print length($0) }'
{ printf '              '; head -c 4000000 /dev/zero | tr '\0' y; printf '\n              3\n'; } > huge.dtrace
flame-collapse --input-format dtrace huge.dtrace | awk '{ print length($0) }'
# random bytes: refused, by detection or by the reader forced on them
head -c 3000 "$FIXTURES/diff/garbage.bin" > junk.bin
flame-collapse junk.bin; echo "exit $?"
flame-collapse --input-format bpftrace junk.bin > /dev/null; echo "exit $?"
flame-collapse --input-format dtrace junk.bin > /dev/null; echo "exit $?"
