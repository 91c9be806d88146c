#!/usr/bin/env python3
"""perf script text of N samples over S seconds (bench/time): one process, a service's
stacks (handlers, each with a few call paths and leaves), whose mix changes with the
minute (one handler busy in some minutes), so the heatmap has something to show.
Usage: gen.py N SECONDS > out.perf.txt"""
import random
import sys

n, secs = int(sys.argv[1]), float(sys.argv[2])
rnd = random.Random(7)
handlers = ["handle_%s" % w for w in ("cart", "search", "login", "checkout", "feed", "profile", "ads", "img")]
paths = []
for h in handlers:
    for p in range(60):
        mids = ["mod%d::step%d" % (rnd.randrange(40), rnd.randrange(12)) for _ in range(rnd.randrange(3, 9))]
        for leaf in range(8):
            paths.append((h, ["main", "serve", "dispatch", h] + mids + ["leaf_%d_%d" % (p, leaf)]))
out = sys.stdout
period = int(secs * 1e9 / n)
for i in range(n):
    t = 1000.0 + i * secs / n
    minute = int((t - 1000) // 60)
    if rnd.random() < 0.3:  # the minute's busy handler
        h = handlers[minute % len(handlers)]
        k = rnd.randrange(len(paths) // len(handlers)) + handlers.index(h) * (len(paths) // len(handlers))
    else:
        k = rnd.randrange(len(paths))
    frames = paths[k][1]
    out.write("svc 4242 [%03d] %.6f: %d cpu-clock:\n" % (i % 8, t, period))
    for j, f in enumerate(reversed(frames)):
        out.write("\t%x %s (/srv/svc)\n" % (0x400000 + j, f))
    out.write("\n")
