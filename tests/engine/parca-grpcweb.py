#!/usr/bin/env python3
"""A small gRPC-web client of Parca's profile store and query services, with the few
protobuf messages it needs encoded by hand (no generated code, no grpc package).
Usage: parca-grpcweb.py URL write NAME FILE [LABEL=VALUE...]
       parca-grpcweb.py URL types
       parca-grpcweb.py URL merge QUERY START_S END_S OUT.pb"""
import struct, sys, time, urllib.request


def varint(n):
    n &= (1 << 64) - 1  # negative int64s as protobuf writes them
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, payload):  # length-delimited field
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def vfield(num, n):
    return varint(num << 3) + varint(n)


def fields(buf):
    i = 0
    while i < len(buf):
        key, i = read_varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = read_varint(buf, i)
        elif wt == 2:
            n, i = read_varint(buf, i)
            v, i = buf[i:i + n], i + n
        elif wt == 1:
            v, i = buf[i:i + 8], i + 8
        elif wt == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % wt)
        yield num, v


def read_varint(buf, i):
    n = shift = 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def call(url, method, msg):
    body = b"\0" + struct.pack(">I", len(msg)) + msg
    req = urllib.request.Request(url + "/" + method, data=body, method="POST", headers={
        "Content-Type": "application/grpc-web+proto", "X-Grpc-Web": "1"})
    with urllib.request.urlopen(req, timeout=60) as r:
        data, hdr = r.read(), r.headers
    out, trailers, i = b"", "", 0
    while i + 5 <= len(data):
        flag, n = data[i], struct.unpack(">I", data[i + 1:i + 5])[0]
        part = data[i + 5:i + 5 + n]
        i += 5 + n
        if flag & 0x80:
            trailers += part.decode("utf-8", "replace")
        else:
            out += part
    status = hdr.get("Grpc-Status") or ""
    for line in trailers.split("\r\n"):
        if line.lower().startswith("grpc-status:"):
            status = line.split(":", 1)[1].strip()
        if line.lower().startswith("grpc-message:"):
            message = line.split(":", 1)[1].strip()
    if status not in ("", "0"):
        msg = [l for l in trailers.split("\r\n") if l.lower().startswith("grpc-message")]
        sys.exit("parca: %s: status %s %s" % (method, status, msg or hdr.get("Grpc-Message")))
    return out


def timestamp(secs):
    return vfield(1, int(secs // 1)) + vfield(2, int((secs % 1) * 1e9))


def main():
    url, verb = sys.argv[1], sys.argv[2]
    if verb == "write":
        name, path = sys.argv[3], sys.argv[4]
        labels = [("__name__", name)] + [tuple(a.split("=", 1)) for a in sys.argv[5:]]
        ls = b"".join(field(1, field(1, k.encode()) + field(2, v.encode())) for k, v in labels)
        raw = open(path, "rb").read()
        series = field(1, ls) + field(2, field(1, raw))
        call(url, "parca.profilestore.v1alpha1.ProfileStoreService/WriteRaw", field(2, series))
    elif verb == "types":
        resp = call(url, "parca.query.v1alpha1.QueryService/ProfileTypes", b"")
        for num, t in fields(resp):
            d = {n: v for n, v in fields(t)}
            print(":".join(d.get(k, b"").decode() if k != 6 else ("delta" if d.get(6) else "")
                           for k in (1, 2, 3, 4, 5, 6)))
    elif verb == "merge":
        q, start, end, out = sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
        merge = field(1, q.encode()) + field(2, timestamp(start)) + field(3, timestamp(end))
        req = vfield(1, 2) + field(3, merge) + vfield(5, 1)
        resp = call(url, "parca.query.v1alpha1.QueryService/Query", req)
        pprof = [v for n, v in fields(resp) if n == 6]
        if not pprof:
            sys.exit("parca: the query returned no pprof report")
        open(out, "wb").write(pprof[0])
    else:
        sys.exit(__doc__)


main()
