#!/usr/bin/env python3
"""Damage a --call-graph dwarf recording's first sample for tests/perfdata/record.sh.
Usage: damage-dwarf.py IN OUT MODE, MODE one of
  regs   the attribute's sample_regs_user claims all 64 registers (more than the sample has)
  dump   the sample's stack dump size runs past the record
  filled the dump says more bytes were filled than it holds
  stack  the dump's bytes zeroed from byte 64 (the unwinding stops there: frames so far)
  stacks as stack, in every sample with a full dump (so also those interrupted by a
         signal, whose registers the signal frame reads from the zeroed part)
Prints the byte offset of the (first) record damaged (the attribute's, for regs)."""
import struct
import sys

src, dst, mode = sys.argv[1:4]
b = bytearray(open(src, 'rb').read())
attrs_off, attrs_size = struct.unpack_from('<QQ', b, 24)
attr_size = struct.unpack_from('<Q', b, 16)[0]
data_off, data_size = struct.unpack_from('<QQ', b, 40)
attr = attrs_off  # the first attribute: perf_event_attr, then its ids' file section
stack_user = struct.unpack_from('<I', b, attr + 88)[0]
sample_type = struct.unpack_from('<Q', b, attr + 24)[0]
tail = 8 * bin(sample_type >> 14).count('1')  # fields after STACK_USER (weight, data_src...)
if mode == 'regs':
    struct.pack_into('<Q', b, attr + 80, (1 << 64) - 1)
    print(attr + 80)
else:
    def full_samples():  # (record offset, dump size offset, dyn_size offset) of each
        off = data_off
        while off < data_off + data_size:
            typ, misc, size = struct.unpack_from('<IHH', b, off)
            if typ == 9 and size > stack_user + 16 + tail:
                end = off + size - tail
                dyn, size_at = end - 8, end - 8 - stack_user - 8
                if struct.unpack_from('<Q', b, size_at)[0] == stack_user:
                    yield off, size_at, dyn
            off += size
    found = list(full_samples())
    if not found:
        sys.exit('no sample with a full stack dump')
    if mode == 'stacks':
        for _, size_at, dyn in found:
            b[size_at + 8 + 64:dyn] = bytes(dyn - size_at - 8 - 64)
    off, size_at, dyn = found[0]
    if mode == 'dump':
        struct.pack_into('<Q', b, size_at, 1 << 40)
    elif mode == 'filled':
        struct.pack_into('<Q', b, dyn, stack_user + 8)
    elif mode == 'stack':
        b[size_at + 8 + 64:dyn] = bytes(dyn - size_at - 8 - 64)
    print(off)
open(dst, 'wb').write(b)
