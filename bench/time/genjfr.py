#!/usr/bin/env python3
"""A binary JFR recording of N CPU samples over S seconds (bench/time/aprof.sh): the stacks
and the minute-by-minute mix of gen.py, as Java methods, in one chunk written as the JDK
writes one (metadata, one checkpoint with the pools, jdk.ExecutionSample events whose
fields come in the JDK's order, which async-profiler's reader assumes).
Usage: genjfr.py N SECONDS OUT.jfr"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '../../tests/jfr-binary'))
import mkjfr  # noqa: E402  (the byte writer, metadata and checkpoints)
from mkjfr import W, LONG, INT, BOOL, STRING, THREAD, SYMBOL, CLASS, METHOD, FTYPE, FRAME, TRACE  # noqa: E402

EXEC = 101
STATE = 30
C = {k: v for k, v in mkjfr.CLASSES.items() if (k < 100 or k >= 200) and k != mkjfr.FUTURE}
# java.lang.Class as the JDK declares it (async-profiler's reader assumes its field order)
C[CLASS] = ('java.lang.Class', [('classLoader', LONG, 0, 0), ('name', SYMBOL, 1, 0), ('package', LONG, 0, 0),
                                ('modifiers', INT, 0, 0), ('hidden', BOOL, 0, 0)], None)
C[STATE] = ('jdk.types.ThreadState', [('name', STRING, 0, 0)], None)
C[EXEC] = ('jdk.ExecutionSample', [('startTime', LONG, 0, 0), ('sampledThread', THREAD, 1, 0),
                                   ('stackTrace', TRACE, 1, 0), ('state', STATE, 1, 0)], 'jdk.jfr.Event')
mkjfr.CLASSES = C


def jdk_class(symkey):
    return lambda b: (b.long(0), b.long(symkey), b.long(0), b.int(1), b.u8(0))


def stacks(rnd):
    handlers = ['handle_%s' % w for w in ('cart', 'search', 'login', 'checkout', 'feed', 'profile', 'ads', 'img')]
    paths = []
    for h in handlers:
        for p in range(60):
            mids = ['mod%d.step%d' % (rnd.randrange(40), rnd.randrange(12)) for _ in range(rnd.randrange(3, 9))]
            for leaf in range(8):
                paths.append((h, ['app.Main.main', 'app.Server.serve', 'app.Server.dispatch', 'app.Handlers.' + h] +
                              ['app.' + m for m in mids] + ['app.Leaf%d.leaf%d' % (p, leaf)]))
    return handlers, paths


def main():
    n, secs, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    rnd = random.Random(7)
    handlers, paths = stacks(rnd)
    syms, methods, classes = {}, {}, {}

    def sym(s):
        return syms.setdefault(s, len(syms) + 1)

    def method(full):
        cname, mname = full.rsplit('.', 1)
        ck = classes.setdefault(cname, len(classes) + 1)
        sym(cname.replace('.', '/'))
        return methods.setdefault(full, (len(methods) + 1, ck, sym(cname.replace('.', '/')), sym(mname)))[0]

    traces = [[method(f) for f in reversed(fr)] for _, fr in paths]
    w = W(True)
    w.b += bytes(68)
    meta_at = len(w.b)
    mkjfr.metadata(w)
    desc = sym('()V')
    cls_entries = {}
    for full, (mk, ck, csym, msym) in methods.items():
        cls_entries[ck] = csym
    pools = [
        (SYMBOL, [(k, mkjfr.sym(s)) for s, k in syms.items()]),
        (CLASS, [(ck, jdk_class(cs)) for ck, cs in cls_entries.items()]),
        (METHOD, [(mk, mkjfr.meth(ck, ms, desc)) for mk, ck, _, ms in methods.values()]),
        (FTYPE, [(1, lambda b: b.string('JIT compiled'))]),
        (STATE, [(1, lambda b: b.string('STATE_RUNNABLE'))]),
        (THREAD, [(t, mkjfr.thread('worker-%d' % t, 100 + t, 'worker-%d' % t, t)) for t in range(1, 9)]),
        (TRACE, [(i + 1, mkjfr.trace([(m, 10) for m in tr])) for i, tr in enumerate(traces)]),
    ]
    cp = mkjfr.checkpoint(w, 0, pools)
    per = len(paths) // len(handlers)
    tick = secs * 1e9 / n
    for i in range(n):
        t = i * secs / n
        minute = int(t // 60)
        if rnd.random() < 0.3:
            k = rnd.randrange(per) + (minute % len(handlers)) * per
        else:
            k = rnd.randrange(len(paths))
        body = W(True)
        body.long(EXEC)
        body.long(int(i * tick))
        body.long(1 + i % 8)
        body.long(k + 1)
        body.long(1)
        mkjfr.event(w, body)
    size = len(w.b)
    start = 1_790_000_000 * 10**9
    h = bytearray(b'FLR\0')
    h += struct.pack('>HHqqqqqqqI', 2, 1, size, cp, meta_at, start, int(secs * 1e9), 0, 10**9, 1)
    w.b[0:68] = h
    with open(out, 'wb') as f:
        f.write(w.b)


if __name__ == '__main__':
    main()
