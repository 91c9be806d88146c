#!/usr/bin/env python3
"""Small binary JFR recordings written byte by byte, for what the JDK never writes or
writes only in large files: integers not compressed (the header's flag), every string
encoding (null, empty, a String constant, UTF-8, UTF-16 chars with a surrogate pair,
Latin-1), a field a newer JDK might add (skipped by its declared type), a type in two
checkpoint events of one chunk, hidden and truncated frames, two chunks with their own
ids, a second chunk whose events refer to stack traces only the first one holds, and
damaged files (cut short, a metadata event lying about its size, checkpoint
events linked in a cycle, an event running past its chunk, junk after a chunk).

Usage: mkjfr.py KIND OUT.jfr
  KIND: good, plain (integers not compressed), twochunks, prevpool, cut, meta-lies, cyclic,
        event-past, junk-after, being-written
"""
import struct
import sys


class W:
    def __init__(self, compressed=True):
        self.b = bytearray()
        self.c = compressed

    def u8(self, v):
        self.b.append(v & 0xff)

    def leb(self, v):
        v &= (1 << 64) - 1
        for i in range(8):
            if v < 0x80:
                self.b.append(v)
                return
            self.b.append((v & 0x7f) | 0x80)
            v >>= 7
        self.b.append(v & 0xff)

    def leb_padded(self, v):
        """LEB128 in 4 bytes (a delta that may be rewritten in place)"""
        v &= (1 << 64) - 1
        if v >= 1 << 28:
            self.leb(v)
            return
        for i in range(3):
            self.b.append((v >> (7 * i)) & 0x7f | 0x80)
        self.b.append(v >> 21)

    def num(self, v, width):
        if self.c:
            self.leb(v)
        else:
            self.b += (v & ((1 << (8 * width)) - 1)).to_bytes(width, 'big')

    def int(self, v):
        self.num(v, 4)

    def long(self, v):
        self.num(v, 8)

    def short(self, v):
        self.num(v, 2)

    def string(self, s, enc=3):
        """enc: 0 null, 1 empty, 2 constant (s is the key), 3 UTF-8, 4 chars, 5 Latin-1"""
        self.u8(enc)
        if enc == 2:
            self.long(s)
        elif enc == 3:
            d = s.encode('utf-8')
            self.int(len(d))
            self.b += d
        elif enc == 4:
            units = s.encode('utf-16-be')
            self.int(len(units) // 2)
            for i in range(0, len(units), 2):
                self.short(int.from_bytes(units[i:i + 2], 'big'))
        elif enc == 5:
            d = s.encode('latin-1')
            self.int(len(d))
            self.b += d


# classes: id -> (name, [(field, type id, cp, array)], super)
LONG, INT, BOOL, STRING = 1, 2, 3, 4
THREAD, SYMBOL, CLASS, METHOD, FTYPE, FRAME, TRACE, FUTURE = 20, 21, 22, 23, 24, 25, 26, 27
EXEC, PARK, ALLOC = 101, 102, 103
CLASSES = {
    LONG: ('long', [], None), INT: ('int', [], None), BOOL: ('boolean', [], None),
    STRING: ('java.lang.String', [], None),
    THREAD: ('java.lang.Thread', [('osName', STRING, 0, 0), ('osThreadId', LONG, 0, 0),
                                  ('javaName', STRING, 0, 0), ('javaThreadId', LONG, 0, 0)], None),
    SYMBOL: ('jdk.types.Symbol', [('string', STRING, 0, 0)], None),
    CLASS: ('java.lang.Class', [('name', SYMBOL, 1, 0), ('modifiers', INT, 0, 0)], None),
    METHOD: ('jdk.types.Method', [('type', CLASS, 1, 0), ('name', SYMBOL, 1, 0),
                                  ('descriptor', SYMBOL, 1, 0), ('modifiers', INT, 0, 0),
                                  ('hidden', BOOL, 0, 0)], None),
    FTYPE: ('jdk.types.FrameType', [('description', STRING, 0, 0)], None),
    FRAME: ('jdk.types.StackFrame', [('method', METHOD, 1, 0), ('lineNumber', INT, 0, 0),
                                     ('bytecodeIndex', INT, 0, 0), ('type', FTYPE, 1, 0)], None),
    TRACE: ('jdk.types.StackTrace', [('truncated', BOOL, 0, 0), ('frames', FRAME, 0, 1)], None),
    200: ('jdk.jfr.Description', [('value', STRING, 0, 0)], 'java.lang.annotation.Annotation'),
    202: ('jdk.jfr.DataAmount', [('value', STRING, 0, 0)], 'java.lang.annotation.Annotation'),
    201: ('jdk.jfr.Timespan', [('value', STRING, 0, 0)], 'java.lang.annotation.Annotation'),
    FUTURE: ('jdk.types.Future', [('a', LONG, 0, 0), ('c', STRING, 0, 0)], None),
    EXEC: ('jdk.ExecutionSample', [('startTime', LONG, 0, 0), ('future', FUTURE, 0, 0),
                                   ('sampledThread', THREAD, 1, 0), ('stackTrace', TRACE, 1, 0),
                                   ('state', LONG, 0, 0)], 'jdk.jfr.Event'),
    PARK: ('jdk.ThreadPark', [('startTime', LONG, 0, 0), ('duration', LONG, 0, 0),
                              ('eventThread', THREAD, 1, 0), ('stackTrace', TRACE, 1, 0),
                              ('timeout', LONG, 0, 0)], 'jdk.jfr.Event'),
    ALLOC: ('jdk.ObjectAllocationSample', [('startTime', LONG, 0, 0), ('eventThread', THREAD, 1, 0),
                                           ('stackTrace', TRACE, 1, 0), ('objectClass', CLASS, 1, 0),
                                           ('weight', LONG, 0, 0)], 'jdk.jfr.Event'),
}


def metadata(w, lie=0):
    strs = []

    def s(x):
        if x not in strs:
            strs.append(x)
        return strs.index(x)

    def elem(name, attrs, children):
        return (s(name), [(s(k), s(v)) for k, v in attrs], children)

    classes = []
    for cid, (name, fields, sup) in CLASSES.items():
        attrs = [('id', str(cid)), ('name', name)] + ([('superType', sup)] if sup else [])
        if cid in (SYMBOL, FTYPE):
            attrs.append(('simpleType', 'true'))
        kids = []
        for f, t, cp, arr in fields:
            fa = [('name', f), ('class', str(t))]
            if cp:
                fa.append(('constantPool', 'true'))
            if arr:
                fa.append(('dimension', '1'))
            ann = ([('class', '201'), ('value', 'TICKS')] if f == 'duration' else
                   [('class', '202'), ('value', 'BYTES')] if f == 'weight' else
                   [('class', '200'), ('value', 'x')])
            kids.append(elem('field', fa, [elem('annotation', ann, [])]))
        classes.append(elem('class', attrs, kids))
    root = elem('root', [], [elem('metadata', [], classes), elem('region', [('gmtOffset', '0')], [])])
    body = W(w.c)
    body.long(0)  # type: metadata
    body.long(0)
    body.long(0)
    body.long(1)  # metadata id
    body.int(len(strs))
    for x in strs:
        body.string(x)

    def put(e):
        body.int(e[0])
        body.int(len(e[1]))
        for k, v in e[1]:
            body.int(k)
            body.int(v)
        body.int(len(e[2]))
        for c in e[2]:
            put(c)
    put(root)
    event(w, body, lie)


def event(w, body, lie=0):
    """size (padded to 4 bytes compressed, as the JDK does, or an int) then the body"""
    n = len(body.b) + 4 + lie
    if w.c:
        for i in range(3):
            w.u8((n >> (7 * i)) & 0x7f | 0x80)
        w.u8((n >> 21) & 0x7f)
    else:
        w.b += n.to_bytes(4, 'big')
    w.b += body.b


def checkpoint(w, delta, pools):
    body = W(w.c)
    body.long(1)
    body.long(0)
    body.long(0)
    body.leb_padded(delta) if w.c else body.long(delta)
    body.u8(0)
    body.int(len(pools))
    for cid, entries in pools:
        body.long(cid)
        body.int(len(entries))
        for key, write in entries:
            body.long(key)
            write(body)
    at = len(w.b)
    event(w, body)
    return at


def sym(text, enc=3):
    return lambda b: b.string(text, enc)


def cls(symkey):
    return lambda b: (b.long(symkey), b.int(1))


def meth(c, name, desc, hidden=0):
    return lambda b: (b.long(c), b.long(name), b.long(desc), b.int(9), b.u8(hidden))


def thread(os, ostid, java, jtid, encs=(3, 3)):
    return lambda b: (b.string(os, encs[0]), b.long(ostid), b.string(java, encs[1]), b.long(jtid))


def trace(frames, truncated=0):
    def wr(b):
        b.u8(truncated)
        b.int(len(frames))
        for m, line in frames:
            b.long(m)
            b.int(line & 0xffffffff if not b.c else line)
            b.int(3)
            b.long(1)
    return wr


def chunk(compressed, variant='', shift=0):
    """one chunk; `shift` moves the stack trace keys (each chunk has its own ids)"""
    w = W(compressed)
    w.b += bytes(68)
    meta_at = len(w.b)
    metadata(w, lie=100000 if variant == 'meta-lies' else 0)
    # first checkpoint: symbols and strings
    cp1 = checkpoint(w, 0, [
        (SYMBOL, [(1, sym('app/Main')), (2, sym('main')), (3, sym('([Ljava/lang/String;)V')),
                  (4, sym('app/Work$Inner', 5)), (5, sym('spin')), (6, sym('(I[[JLjava/util/List;Z)J', 4))]),
        (STRING, [(7, sym('pooled-thread'))]),
    ])
    # second checkpoint, linked back to the first: more symbols (a type in two pools)
    k = shift
    cp2 = checkpoint(w, cp1 - len(w.b), [
        (SYMBOL, [(8, sym('java/lang/Thread')), (9, sym('run')), (10, sym('()V')),
                  (11, sym('lambda$0')), (12, sym('h\u00e9llo/\U0001F600', 4))]),
        (CLASS, [(1, cls(1)), (2, cls(4)), (3, cls(8)), (4, cls(12))]),
        (METHOD, [(1, meth(1, 2, 3)), (2, meth(2, 5, 6)), (3, meth(3, 9, 10)),
                  (4, meth(2, 11, 10, hidden=1)), (5, meth(4, 5, 10))]),
        (FTYPE, [(1, lambda b: b.string('Interpreted'))]),
        (THREAD, [(1, thread('os-main', 11, 'main', 1)),
                  (2, thread('os-w\u00e9', 12, 'w\u00e9rker \U0001F600', 2, (3, 4))),
                  (3, thread('gc-thread', 13, None, 0, (5, 0))),
                  (4, thread('x', 14, 7, 3, (3, 2))),
                  (5, thread('', 15, '', 4, (1, 1)))]),
        (TRACE, [(k + 1, trace([(2, 40), (4, 7), (1, 12)])),
                 (k + 2, trace([(5, -1), (2, 41), (3, 100)])),
                 (k + 3, trace([(2, 40)], truncated=1)),
                 (k + 4, trace([(4, 1)])),
                 (k + 5, trace([]))]),
    ])
    events_at = len(w.b)

    def ev(cid, fields):
        body = W(compressed)
        body.long(cid)
        for f in fields:
            f(body)
        event(w, body)

    L = lambda v: (lambda b: b.long(v))
    fut = lambda b: (b.long(5), b.string('x\u00e9', 5))
    for st, th in [(1, 1), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (1, 5), (0, 1)]:
        ev(EXEC, [L(1000), fut, L(th), L(k + st if st else 0), L(1)])
    ev(PARK, [L(1000), L(2500000), L(2), L(k + 2), L(0)])
    ev(PARK, [L(1000), L(0), L(2), L(k + 1), L(0)])  # no duration: weighs nothing
    ev(PARK, [L(1000), L(500), L(1), L(k + 2), L(0)])
    ev(ALLOC, [L(1000), L(1), L(k + 1), L(1), L(123456)])
    ev(ALLOC, [L(1000), L(2), L(k + 1), L(1), L(1000)])
    ev(999, [L(1), L(2)])  # a type the metadata does not declare
    if variant == 'prevpool':
        # keys only the chunk before holds (as the JDK writes a stack trace around the
        # switch to a new chunk), and one no chunk holds
        ev(EXEC, [L(1000), fut, L(2), L(1), L(1)])
        ev(PARK, [L(1000), L(7000000), L(1), L(2), L(0)])
        ev(EXEC, [L(1000), fut, L(1), L(999), L(1)])
    if variant == 'event-past':
        body = W(compressed)
        body.long(EXEC)
        event(w, body, lie=50)
    size = len(w.b)
    h = bytearray(b'FLR\0')
    h += struct.pack('>HHqqqqqqqI', 2, 1, size, cp2, meta_at, 0, 0, 0, 1000000000, 1 if compressed else 0)
    w.b[0:68] = h
    if variant == 'cyclic':
        # re-point: the header names the first checkpoint, whose delta is patched to +N
        # (a link forward), which a reader following links would loop on
        w.b[16:24] = struct.pack('>q', cp1)
        patch_delta(w, cp1, cp2 - cp1)
    return bytes(w.b)


def patch_delta(w, at, delta):
    """rewrite the delta of the checkpoint event at `at` (padded size, type, times: the
    delta is the 4th value after the size) keeping its byte length"""
    r = Rd(w.b, at + 4)
    for _ in range(3):
        r.leb()
    start, old = r.p, r.leb()
    n = r.p - start
    enc = bytearray()
    v = delta & ((1 << 64) - 1)
    for i in range(n):
        last = i == n - 1
        enc.append((v & 0x7f) | (0 if last else 0x80))
        v >>= 7
    assert v == 0, 'delta does not fit'
    w.b[start:start + n] = enc


class Rd:
    def __init__(self, b, p):
        self.b, self.p = b, p

    def leb(self):
        v = 0
        for i in range(9):
            x = self.b[self.p]
            self.p += 1
            if i == 8:
                return v | x << 56
            v |= (x & 0x7f) << (7 * i)
            if x < 0x80:
                return v
        return v


def main():
    kind, out = sys.argv[1], sys.argv[2]
    if kind == 'good':
        data = chunk(True)
    elif kind == 'plain':
        data = chunk(False)
    elif kind == 'twochunks':
        data = chunk(True) + chunk(True, shift=100)
    elif kind == 'prevpool':
        data = chunk(True) + chunk(True, 'prevpool', shift=100)
    elif kind == 'cut':
        data = (chunk(True) + chunk(True, shift=100))
        data = data[:len(data) - 40]
    elif kind == 'being-written':
        c = bytearray(chunk(True))
        c[8:32] = bytes(24)  # size, checkpoint and metadata not written yet
        data = chunk(True) + bytes(c)
    elif kind == 'junk-after':
        data = chunk(True) + b'PK\x03\x04 not a chunk at all' + bytes(60)
    elif kind in ('meta-lies', 'cyclic', 'event-past'):
        data = chunk(True, kind)
    else:
        sys.exit(__doc__)
    with open(out, 'wb') as f:
        f.write(data)


if __name__ == '__main__':
    main()
