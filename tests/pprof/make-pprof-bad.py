#!/usr/bin/env python3
"""Write the hostile pprof fixtures of fixtures/bad/ (pprof-*.pb*): each breaks one rule
of the wire format or of profile.proto. Run once; the files are committed.
Usage: make-pprof-bad.py OUTDIR"""
import gzip, os, sys

def varint(v):
    out = bytearray()
    v &= (1 << 64) - 1
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)

def key(f, wt): return varint(f << 3 | wt)
def vi(f, v): return key(f, 0) + varint(v)
def ld(f, b): return key(f, 2) + varint(len(b)) + b
def packed(f, vals): return ld(f, b"".join(varint(v) for v in vals))

STR = ["", "samples", "count", "main", "work"]
def strings(tab=STR): return b"".join(ld(6, s.encode()) for s in tab)
def vtype(t, u): return ld(1, vi(1, t) + vi(2, u))
def func(fid, name): return ld(5, vi(1, fid) + vi(2, name))
def loc(lid, fid): return ld(4, vi(1, lid) + ld(4, vi(1, fid)))
def sample(locs, vals): return ld(2, packed(1, locs) + packed(2, vals))

GOOD = vtype(1, 2) + func(1, 3) + func(2, 4) + loc(1, 1) + loc(2, 2) + sample([2, 1], [5]) + strings()

cases = {
    # a valid profile cut short, gzipped whole and then truncated
    "pprof-truncated.pb.gz": gzip.compress(GOOD * 1, mtime=0)[:-12],
    # raw protobuf ending inside a string_table entry
    "pprof-truncated.pb": GOOD[:-3],
    # a varint of 11 bytes (the key of a field is fine, its value is not)
    "pprof-varint-11-bytes.pb": GOOD + key(9, 0) + b"\xff" * 10 + b"\x01",
    # a length that runs past the end of the message
    "pprof-length-past-end.pb": GOOD + key(6, 2) + varint(1000) + b"abc",
    # a function whose name index points past the string table
    "pprof-string-id-out-of-range.pb": vtype(1, 2) + func(1, 99) + loc(1, 1) + sample([1], [1]) + strings(),
    # a sample pointing at a location that does not exist
    "pprof-location-id-out-of-range.pb": vtype(1, 2) + func(1, 3) + loc(1, 1) + sample([7, 1], [1]) + strings(),
    # a line pointing at a function that does not exist
    "pprof-function-id-out-of-range.pb": vtype(1, 2) + func(1, 3) + loc(1, 5) + sample([1], [1]) + strings(),
    # two locations with one id: an id that refers back to an earlier one
    "pprof-location-cycle.pb": vtype(1, 2) + func(1, 3) + loc(1, 1) + loc(2, 1) + loc(1, 1) + sample([1, 2], [1]) + strings(),
    # a sample with an empty value list while the profile has one sample type
    "pprof-empty-values.pb": vtype(1, 2) + func(1, 3) + loc(1, 1) + ld(2, packed(1, [1])) + strings(),
    # counts that overflow 64 bits when summed
    "pprof-absurd-counts.pb": vtype(1, 2) + func(1, 3) + loc(1, 1) + sample([1], [(1 << 63) - 1]) * 3 + strings(),
    # string_table[0] must be ""
    "pprof-string0-not-empty.pb": vtype(1, 2) + func(1, 3) + loc(1, 1) + sample([1], [1]) + strings(["x"] + STR[1:]),
    # a group wire type (3), which profile.proto never uses
    "pprof-wire-type-3.pb": GOOD + key(20, 3),
    # one location of 1000 inlined lines repeated 2000 times: 2 M frames in 8 kB
    "pprof-inline-bomb-deep.pb": vtype(1, 2) + func(1, 3) + ld(4, vi(1, 1) + ld(4, vi(1, 1)) * 1000)
        + sample([1] * 2000, [1]) + strings(),
    # distinct stacks of 1 M frames each from 1 kB apiece: more frames than any real input
    "pprof-inline-bomb-wide.pb": vtype(1, 2) + func(1, 3) + func(2, 4) + ld(4, vi(1, 1) + ld(4, vi(1, 1)) * 1000)
        + b"".join(ld(4, vi(1, 10 + k) + ld(4, vi(1, 2))) for k in range(40))
        + b"".join(sample([10 + k] + [1] * 1000, [1]) for k in range(40)) + strings(),
    # a packed run of location ids whose last varint is cut by the run's end (the byte
    # after it would complete it): an error, never a read past the run
    "pprof-packed-varint-cut.pb": vtype(1, 2) + func(1, 3) + func(2, 4) + loc(1, 1) + loc(2, 2)
        + ld(2, key(1, 2) + varint(2) + b"\x01\x82" + b"\x00" + packed(2, [5])) + strings(),
}
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, data in cases.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print(len(cases), "files")
