"""Reads back the profile an HTML page of flame-render carries (libflame/write/html.c):
the base64 of the gzip of the "FLP1" stream, into the header, the name table with each
name's colour, and the nodes in depth-first order with their depth and counts (and the
label and time sections, checked against them). Used by
tests/html/encoder.py; also a small tool: decode.py PAGE prints the page's stacks as
folded text."""
import base64
import gzip
import re
import sys

DATA_RE = re.compile(rb'<script type="application/octet-stream" id="flame-data">([^<]*)</script>')
# a large page's preview: the same stream, of the nodes its first screen can show
PREVIEW_RE = re.compile(rb'<script type="application/octet-stream" id="flame-preview">([^<]*)</script>')


class Reader:
    def __init__(self, b):
        self.b, self.p = b, 0

    def varint(self):
        x = shift = 0
        while True:
            c = self.b[self.p]
            self.p += 1
            x |= (c & 127) << shift
            shift += 7
            if not c & 128:
                return x

    def bytes(self, n):
        s = self.b[self.p:self.p + n]
        self.p += n
        return s

    def string(self):
        return self.bytes(self.varint())


def data_of(page, block=DATA_RE):
    """The base64 text of the page's data block (the page must hold exactly one), or of
    its preview (block=PREVIEW_RE)."""
    found = block.findall(page)
    if len(found) != 1:
        raise ValueError("expected one data block, found %d" % len(found))
    return found[0]


def decode(page, block=DATA_RE):
    raw = gzip.decompress(base64.b64decode(data_of(page, block), validate=True))
    r = Reader(raw)
    if r.bytes(4) != b"FLP1":
        raise ValueError("bad magic")
    meta = {}
    while True:
        k = r.string()
        if not k:
            break
        meta[k.decode()] = r.string()
    names = [r.string() for _ in range(r.varint())]
    colors = [tuple(r.bytes(3)) for _ in names]
    n = r.varint()
    up = [r.varint() for _ in range(n)]
    name = [r.varint() for _ in range(n)]
    self0 = [r.varint() for _ in range(n)]
    diff = meta["differential"] == b"1"
    self1 = [r.varint() for _ in range(n)] if diff else None
    labels = None
    if raw[r.p:r.p + 4] == b"LAB1":  # the stacks had labels: per leaf node, per label set
        r.p += 4
        end = r.varint() + r.p
        sets = []
        for _ in range(r.varint()):
            sets.append([(r.string(), r.string()) for _ in range(r.varint())])
        u = r.varint()
        node, lset, weight = [r.varint() for _ in range(u)], [r.varint() for _ in range(u)], [r.varint() for _ in range(u)]
        for i in range(1, u):
            node[i] += node[i - 1]
        if r.p != end:
            raise ValueError("the label section's length is wrong")
        per = {}
        for k, w in zip(node, weight):
            per[k] = per.get(k, 0) + w
        if any(self0[k] != w for k, w in per.items()):
            raise ValueError("the label units do not sum to their nodes' self counts")
        labels = {"sets": sets, "units": list(zip(node, lset, weight))}
    time = None
    if raw[r.p:r.p + 4] == b"TIM1":  # the profile kept time: per leaf node (unit), per cell
        r.p += 4
        time = {"cell": r.varint(), "span": r.varint()}
        e = r.varint()
        node, cell, weight = [r.varint() for _ in range(e)], [r.varint() for _ in range(e)], [r.varint() for _ in range(e)]
        for i in range(1, e):
            same = node[i] != 0
            node[i] += node[i - 1]
            if same:
                cell[i] += cell[i - 1]
        time["heat"] = r.varint()
        time["totals"] = [r.varint() for _ in range(r.varint())]
        if labels:  # entries name units: their nodes
            node = [labels["units"][k][0] for k in node]
        per = {}
        for k, w in zip(node, weight):
            per[k] = per.get(k, 0) + w
        # a leaf's time sums to its self count (all of it when every sample had a time),
        # and the heatmap's cells to the time entries
        if any(self0[k] < w for k, w in per.items()):
            raise ValueError("the time entries pass the nodes' self counts")
        if sum(time["totals"]) != sum(per.values()):
            raise ValueError("the heatmap's cells do not sum to the time entries")
        time["entries"] = list(zip(node, cell, weight))
    if r.p != len(raw):
        raise ValueError("%d bytes after the last column" % (len(raw) - r.p))
    depth, d = [], 0
    for i, u in enumerate(up):
        d = 0 if i == 0 else d + 1 - u
        depth.append(d)
    return {"time": time, "labels": labels, "meta": meta, "names": names, "colors": colors, "depth": depth, "name": name,
            "self0": self0, "self1": self1}


def fmt_count(v, scale):
    if not scale:
        return str(v)
    ip, fp = divmod(v, 10 ** scale)
    return str(ip) + (("." + str(fp).rjust(scale, "0")).rstrip("0") if fp else "")


def stacks(d):
    """The stacks of the decoded tree as sorted folded lines (bytes), as flame-merge and
    flame-diff --format folded print them."""
    scale = int(d["meta"]["scale"])
    path, out = [], []
    for i, dep in enumerate(d["depth"]):
        del path[dep:]
        path.append(d["names"][d["name"][i]])
        s0 = d["self0"][i]
        s1 = d["self1"][i] if d["self1"] else 0
        if i and (s0 or s1):
            counts = fmt_count(s0, scale).encode()
            if d["self1"] is not None:
                counts += b" " + fmt_count(s1, scale).encode()
            out.append(b";".join(path[1:]) + b" " + counts)
    return sorted(out)


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        for line in stacks(decode(f.read())):
            sys.stdout.buffer.write(line + b"\n")
