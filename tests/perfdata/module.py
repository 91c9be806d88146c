#!/usr/bin/env python3
"""Write a perf.data (file mode) whose kernel samples fall in a kernel module, and the
build-id cache's kallsyms that names the kernel's and the module's symbols, for
tests/perfdata/record.sh: the machines here have no modules to record. The recorded kernel
has a build-id no running kernel has, so perf script and flame-collapse both read the
cache's kallsyms. Samples: in two module functions, in the module where no symbol is,
past the module (no map); with KFIRST=1 a kernel-only sample comes first (perf script
names a module's first symbol only when the kernel's symbols were loaded before the
module was first looked up). Usage: module.py OUT.data HOME"""
import os, struct, sys

out, home = sys.argv[1], sys.argv[2]
KBID = bytes(range(1, 21))          # the recorded kernel's build-id (no running kernel has it)
TEXT = 0xffffffff81000000           # _text
MOD = 0xffffffffc0200000            # the module's base
PID, TID = 4242, 4242
S_IP, S_TID, S_TIME, S_CALLCHAIN, S_PERIOD = 1, 2, 4, 32, 256
stype = S_IP | S_TID | S_TIME | S_CALLCHAIN | S_PERIOD
CTX_KERNEL, CTX_USER = (1 << 64) - 128, (1 << 64) - 512

def rec(t, misc, body):
    body += b'\0' * (-len(body) % 8)
    return struct.pack('<IHH', t, misc, 8 + len(body)) + body

def cstr(s):
    b = s.encode() + b'\0'
    return b + b'\0' * (-len(b) % 8)

recs = []
recs.append(rec(3, 0, struct.pack('<II', PID, TID) + cstr('modload')))               # COMM
recs.append(rec(1, 1, struct.pack('<IIQQQ', 0xffffffff, 0, TEXT, 0x1000000, TEXT)
                + cstr('[kernel.kallsyms]_text')))                                  # MMAP kernel
recs.append(rec(1, 1, struct.pack('<IIQQQ', 0xffffffff, 0, MOD, 0x10000, 0)
                + cstr('/lib/modules/6.1.0-fake/kernel/fs/fakefs/fakefs.ko')))      # MMAP module
t = 1000000000
chains = ([[TEXT + 0x2010, TEXT + 0x1010]] if os.environ.get('KFIRST') else []) + [
    [MOD + 0x110, MOD + 0x2010, TEXT + 0x1010],   # mod_leaf <- mod_mid <- kernel entry
    [MOD + 0x2020, TEXT + 0x1010],                # mod_mid <- kernel entry
    [MOD + 0x8000, TEXT + 0x1010],                # in the module, no symbol there
    [MOD + 0x20000, TEXT + 0x1010],               # past the module: no map
]
for i in range(2 * len(chains)):
    ch = chains[i % len(chains)]
    ips = [CTX_KERNEL] + ch
    body = struct.pack('<QIIQQQ', ch[0], PID, TID, t + i * 1000000, 1000000, len(ips))
    body += b''.join(struct.pack('<Q', x) for x in ips)
    recs.append(rec(9, 1, body))
data = b''.join(recs)

attr = struct.pack('<IIQQQQQ', 1, 128, 0, 1000, stype, 0, (1 << 8) | (1 << 9))
attr += b'\0' * (128 - len(attr))
# build-id feature: the kernel's
bid = struct.pack('<i', -1) + KBID + b'\0' * 4 + cstr('[kernel.kallsyms]')
bidrec = struct.pack('<IHH', 0, 1, 8 + len(bid)) + bid
HDR = 104
attrs_off = HDR
attr_entry = attr + struct.pack('<QQ', 0, 0)
data_off = attrs_off + len(attr_entry)
feat_off = data_off + len(data)
feat_table = struct.pack('<QQ', feat_off + 16, len(bidrec))
features = bytearray(32)
features[0] = 1 << 2                             # HEADER_BUILD_ID
hdr = b'PERFILE2' + struct.pack('<QQ', HDR, len(attr_entry))
hdr += struct.pack('<QQQQQQ', attrs_off, len(attr_entry), data_off, len(data), 0, 0)
hdr += bytes(features)
assert len(hdr) == HDR
with open(out, 'wb') as f:
    f.write(hdr + attr_entry + data + feat_table + bidrec)
d = os.path.join(home, '.debug', '[kernel.kallsyms]', KBID.hex())
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, 'kallsyms'), 'w') as f:
    f.write('%x T _text\n' % TEXT)
    f.write('%x T entry_fn\n' % (TEXT + 0x1000))
    f.write('%x T other_fn\n' % (TEXT + 0x2000))
    f.write('%x t mod_leaf\t[fakefs]\n' % (MOD + 0x100))
    f.write('%x T mod_mid\t[fakefs]\n' % (MOD + 0x2000))
    f.write('%x t mod_last\t[fakefs]\n' % (MOD + 0x3000))
