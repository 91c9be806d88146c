#!/usr/bin/env python3
"""Rewrite a perf record -z recording (file mode) for tests/perfdata/record.sh: each run of
compressed records (one zstd stream) is cut again into COMPRESSED2 records (type 83, as
perf 6.15 and later write them: a data size, padded to 8 bytes) of CHUNK bytes of
compressed data, so the stream's blocks, and the records they hold, straddle records at
other places than perf's. The stream's bytes are not changed, only where they are cut.
Usage: recompress.py IN OUT [CHUNK]"""
import struct, sys

src, dst = sys.argv[1], sys.argv[2]
chunk = int(sys.argv[3]) if len(sys.argv) > 3 else 777
d = open(src, 'rb').read()
off, size = struct.unpack_from('<QQ', d, 40)
out, run = [], []


def flush():
    data = b''.join(run)
    for i in range(0, len(data), chunk):
        part = data[i:i + chunk]
        total = 16 + len(part)
        pad = -total % 8
        out.append(struct.pack('<IHHQ', 83, 0, total + pad, len(part)) + part + b'\0' * pad)
    run.clear()


i = off
while i < off + size:
    t, _, n = struct.unpack_from('<IHH', d, i)
    if t == 81:
        run.append(d[i + 8:i + n])
    elif t == 83:
        run.append(d[i + 16:i + 16 + struct.unpack_from('<Q', d, i + 8)[0]])
    else:
        flush()
        out.append(d[i:i + n])
    i += n
flush()
data = b''.join(out)
delta = len(data) - size
hdr = bytearray(d[:off])
struct.pack_into('<Q', hdr, 48, len(data))
# the feature sections follow the data: their table's offsets move with it
bits = int.from_bytes(d[72:104], 'little')
table = bytearray(d[off + size:off + size + 16 * bin(bits).count('1')])
for k in range(0, len(table), 16):
    o, = struct.unpack_from('<Q', table, k)
    struct.pack_into('<Q', table, k, o + delta)
with open(dst, 'wb') as f:
    f.write(bytes(hdr) + data + bytes(table) + d[off + size + len(table):])
