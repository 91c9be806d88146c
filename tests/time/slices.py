#!/usr/bin/env python3
"""Write N small pprof profiles, a continuous profiler's 10-second slices of one day: file i
starts at START + i * 10 s (time_nanos) and lasts 10 s (duration_nanos); its samples are
`main;work` and, in slice `odd` only, `main;spike`, with an `endpoint` label whose value is
hostile text. Usage: slices.py DIR N START_UNIX_SECONDS SPIKE_SLICE"""
import gzip
import os
import sys


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(num, wire, payload):
    key = varint(num << 3 | wire)
    if wire == 0:
        return key + varint(payload)
    return key + varint(len(payload)) + payload


def profile(t_ns, spike):
    strings = ["", "cpu", "nanoseconds", "main", "work", "spike", "endpoint",
               "</script><img src=x onerror=alert(1)>\u202e;\"'"]
    s = {v: i for i, v in enumerate(strings)}
    out = field(1, 2, field(1, 0, s["cpu"]) + field(2, 0, s["nanoseconds"]))
    stacks = [([2, 1], 10_000_000)]  # leaf first: work, main
    if spike:
        stacks.append(([3, 1], 50_000_000))
    for locs, v in stacks:
        label = field(3, 2, field(1, 0, s["endpoint"]) + field(2, 0, s[strings[7]]))
        out += field(2, 2, field(1, 2, b"".join(varint(x) for x in locs)) + field(2, 2, varint(v)) + label)
    for fid, name in ((1, "main"), (2, "work"), (3, "spike")):
        out += field(4, 2, field(1, 0, fid) + field(4, 2, field(1, 0, fid)))
        out += field(5, 2, field(1, 0, fid) + field(2, 0, s[name]))
    for v in strings:
        out += field(6, 2, v.encode())
    out += field(9, 0, t_ns) + field(10, 0, 10_000_000_000)
    out += field(11, 2, field(1, 0, s["cpu"]) + field(2, 0, s["nanoseconds"])) + field(12, 0, 10_000_000)
    return out


def main():
    d, n, start, spike = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    for i in range(n):
        with open(os.path.join(d, "slice-%04d.pb.gz" % i), "wb") as f:
            f.write(gzip.compress(profile((start + 10 * i) * 1_000_000_000, i == spike), mtime=0))


main()
