#!/usr/bin/env python3
# frames.py - deterministic generator of folded stacks whose tree has about N frames (tree
# nodes), for the HTML page at sizes past any recording at hand (bench/html: 20 M frames,
# ten times the render bench input's 2.27 M).
#
# Shaped like a large program's profile: 300 processes and threads at the root, 2,000
# module paths of 3 frames under them, then a tail of 10-30 frames drawn from a vocabulary
# of 60,000 function names, so most of each stack's frames are new nodes while names repeat
# as they do in real code (search, sandwich and the table work on 60,000 functions, not on
# millions). Some tails recurse (a run of one name) and a few stacks are 1,000 frames deep.
# Counts are samples (1-50). The same N gives the same bytes (an xorshift PRNG, no hash
# seed).
# Usage: frames.py N > out.folded
import sys


def main():
    target = int(float(sys.argv[1]))
    state = [0x9E3779B97F4A7C15]

    def rnd(n):
        x = state[0]
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        state[0] = x
        return x % n

    procs = ["proc_%d" % k for k in range(300)]
    mods = ["mod_%d;sub_%d;entry_%d" % (k % 97, k % 389, k) for k in range(2000)]
    vocab = ["fn_%d_%s" % (k, ("parse", "alloc", "lock", "eval", "walk", "emit")[k % 6]) for k in range(60000)]
    out = sys.stdout
    frames, lines, buf = 0, 0, []
    while frames < target:
        head = procs[rnd(300)] + ";" + mods[rnd(2000)]
        depth = 10 + rnd(21)
        if rnd(5000) == 0:
            depth = 1000
        tail, k = [], 0
        while k < depth:
            name = vocab[rnd(60000)]
            run = 1 + rnd(4) if rnd(20) == 0 else 1  # recursion
            tail.extend([name] * run)
            k += run
        buf.append("%s;%s %d\n" % (head, ";".join(tail), 1 + rnd(50)))
        frames += len(tail)  # new nodes: about the tail (the head is shared)
        lines += 1
        if len(buf) >= 10000:
            out.write("".join(buf))
            buf = []
    out.write("".join(buf))
    sys.stderr.write("frames.py: %d stacks, about %d frames\n" % (lines, frames))


main()
