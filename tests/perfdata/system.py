#!/usr/bin/env python3
"""Write a perf.data (file mode) of what a system-wide recording (perf record -a) holds
that a busy test machine may not record on demand, for tests/perfdata/record.sh, and the
build-id cache's kallsyms of its kernel (a build-id no running kernel has, so perf script
and flame-collapse both read it):
  - idle samples: pid 0 with no COMM (perf script's "swapper"), in the kernel's init text
    past _etext, where the recorded kernel map ends; perf names it once the kernel's
    symbols are read (the first sample's leaf, looked up before, stays [unknown]);
  - a sample of a task on its way out: tid -1 (perf script prints ":-1  4343/-1");
  - a sample in the PLT header of a stripped program (STRIPPED: its path), where perf
    names no symbol, and one in a PLT entry.
Usage: system.py OUT.data HOME STRIPPED"""
import os, struct, sys

out, home, stripped = sys.argv[1], sys.argv[2], sys.argv[3]
KBID = bytes(range(41, 61))
TEXT = 0xffffffff81000000
ETEXT = TEXT + 0x10000
INIT = TEXT + 0x200000
PID = 4343
BASE = 0x555555000000
S_IP, S_TID, S_TIME, S_CALLCHAIN, S_PERIOD = 1, 2, 4, 32, 256
stype = S_IP | S_TID | S_TIME | S_CALLCHAIN | S_PERIOD
CTX_KERNEL, CTX_USER = (1 << 64) - 128, (1 << 64) - 512


def rec(t, misc, body):
    body += b'\0' * (-len(body) % 8)
    return struct.pack('<IHH', t, misc, 8 + len(body)) + body


def cstr(s):
    b = s.encode() + b'\0'
    return b + b'\0' * (-len(b) % 8)


def plt_offset(path):
    """The file offset of the ELF file's .plt section."""
    e = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', e, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', e, 0x3a)
    def sh(i):
        return struct.unpack_from('<IIQQQQ', e, shoff + i * shentsize)
    stroff = sh(shstrndx)[4]
    for i in range(shnum):
        name, _, _, _, off, _ = sh(i)
        if e[stroff + name:stroff + name + 5] == b'.plt\0':
            return off
    sys.exit('system.py: no .plt in ' + path)


plt = plt_offset(stripped)
size = (os.path.getsize(stripped) + 0xfff) & ~0xfff
kfn = {'default_idle': TEXT + 0x1000, 'rest_init': TEXT + 0x2000,
       'start_kernel': INIT + 0x100, 'x86_64_start_kernel': INIT + 0x1000}
recs = [
    rec(1, 1, struct.pack('<IIQQQ', 0xffffffff, 0, TEXT, ETEXT - TEXT, TEXT)
        + cstr('[kernel.kallsyms]_text')),                                     # MMAP kernel
    rec(3, 0, struct.pack('<II', PID, PID) + cstr('stripped')),                # COMM
    rec(10, 2, struct.pack('<IIQQQIIQQII', PID, PID, BASE, size, 0, 0, 0, 0, 0, 5, 2)
        + cstr(stripped)),                                                     # MMAP2 r-x
]
k = [CTX_KERNEL]
chains = [  # (pid, tid, chain leaf first)
    (0, 0, k + [kfn['start_kernel'] + 0x10, kfn['rest_init'] + 0x10,
                kfn['x86_64_start_kernel'] + 0x10]),
    (0, 0, k + [kfn['default_idle'] + 4, kfn['rest_init'] + 8, kfn['start_kernel'] + 0x20,
                kfn['x86_64_start_kernel'] + 0x30]),
    (0, 0, k + [ETEXT + 0x20, kfn['rest_init'] + 8]),
    (PID, 0xffffffff, k + [kfn['default_idle'] + 4, kfn['rest_init'] + 8]),
    (PID, PID, [CTX_USER, BASE + plt + 6, BASE + plt + 16 + 6]),
]
t = 1000000000
for i in range(2 * len(chains)):
    pid, tid, ips = chains[i % len(chains)]
    body = struct.pack('<QIIQQQ', ips[1], pid, tid, t + i * 1000000, 1000000, len(ips))
    body += b''.join(struct.pack('<Q', x) for x in ips)
    recs.append(rec(9, 1 if ips[0] == CTX_KERNEL else 2, body))
data = b''.join(recs)

attr = struct.pack('<IIQQQQQ', 1, 128, 0, 1000, stype, 0, (1 << 8) | (1 << 9))
attr += b'\0' * (128 - len(attr))
bid = struct.pack('<i', -1) + KBID + b'\0' * 4 + cstr('[kernel.kallsyms]')
bidrec = struct.pack('<IHH', 0, 1, 8 + len(bid)) + bid
HDR = 104
attr_entry = attr + struct.pack('<QQ', 0, 0)
data_off = HDR + len(attr_entry)
feat_off = data_off + len(data)
feat_table = struct.pack('<QQ', feat_off + 16, len(bidrec))
features = bytearray(32)
features[0] = 1 << 2                             # HEADER_BUILD_ID
hdr = b'PERFILE2' + struct.pack('<QQ', HDR, len(attr_entry))
hdr += struct.pack('<QQQQQQ', HDR, len(attr_entry), data_off, len(data), 0, 0)
hdr += bytes(features)
with open(out, 'wb') as f:
    f.write(hdr + attr_entry + data + feat_table + bidrec)
d = os.path.join(home, '.debug', '[kernel.kallsyms]', KBID.hex())
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, 'kallsyms'), 'w') as f:
    f.write('%x T _text\n' % TEXT)
    for name in ('default_idle', 'rest_init'):
        f.write('%x T %s\n' % (kfn[name], name))
    f.write('%x T _etext\n' % ETEXT)
    f.write('%x D __start_rodata\n' % (ETEXT + 0x100000))
    f.write('%x T _sinittext\n' % INIT)
    for name in ('start_kernel', 'x86_64_start_kernel'):
        f.write('%x T %s\n' % (kfn[name], name))
    f.write('%x T _einittext\n' % (INIT + 0x2000))
