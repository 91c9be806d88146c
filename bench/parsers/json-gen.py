#!/usr/bin/env python3
"""Large JSON profiles for bench/parsers/json.sh, shaped like the real tools' (node
--cpu-prof's .cpuprofile, py-spy's sampled speedscope file, an evented speedscope file),
of about SIZE MB each, from a fixed seed so every run makes the same bytes.
Usage: json-gen.py OUT_DIR [SIZE_MB (200)]"""
import json, os, random, sys

out, size = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200
target = size * 1024 * 1024
rnd = random.Random(28)
funcs = [f"fn{i}_{rnd.choice(['parse', 'render', 'load', 'emit', 'walk'])}" for i in range(4000)]
files = [f"/srv/app/src/module{i}.js" for i in range(300)]



def cpuprofile(path):
    # a call tree of 20,000 nodes, then samples and timeDeltas (half the bytes each)
    nodes, children = [], {}
    for i in range(1, 20001):
        parent = 0 if i == 1 else rnd.randint(max(1, i - 200), i - 1)
        children.setdefault(parent, []).append(i)
        nodes.append((i, "(root)" if i == 1 else rnd.choice(funcs), rnd.choice(files), rnd.randint(0, 900)))
    parts = []
    for i, fn, url, line in nodes:
        cf = {"functionName": fn, "scriptId": "7", "url": "" if i == 1 else url,
              "lineNumber": -1 if i == 1 else line, "columnNumber": 4}
        node = {"id": i, "callFrame": cf, "hitCount": 0}
        if i in children:
            node["children"] = children[i]
        parts.append(json.dumps(node, separators=(",", ":")))
    leaves = [i for i, *_ in nodes if i not in children]
    n = max(target - sum(map(len, parts)), target // 2) // 11  # ~6 bytes a sample, ~5 a delta
    samples = ",".join(str(rnd.choice(leaves)) for _ in range(n))
    deltas = ",".join(str(rnd.randint(950, 1400)) for _ in range(n))
    with open(path + ".tmp", "w") as f:
        f.write('{"nodes":[' + ",".join(parts) + '],"startTime":1000,"endTime":%d,' % (1000 + 1200 * n))
        f.write('"samples":[' + samples + '],"timeDeltas":[' + deltas + "]}")
    os.rename(path + ".tmp", path)


def speedscope_sampled(path):
    nframes = 5000
    frames = [{"name": rnd.choice(funcs), "file": rnd.choice(files).replace(".js", ".py"),
               "line": rnd.randint(1, 900)} for _ in range(nframes)]
    stacks = []
    for _ in range(3000):
        d = rnd.randint(8, 40)
        base = rnd.randrange(0, nframes - 41)
        stacks.append("[" + ",".join(str(base + k) for k in range(d)) + "]")
    # py-spy's order: the profiles (one per thread) first, the frames last
    per = target // 4
    with open(path + ".tmp", "w") as f:
        f.write('{"$schema":"https://www.speedscope.app/file-format-schema.json","profiles":[')
        for t in range(4):
            ss, n = [], 0
            while n < per:
                s = rnd.choice(stacks)
                ss.append(s)
                n += len(s) + 7
            f.write(("," if t else "") + '{"type":"sampled","name":"Thread %d","unit":"seconds",'
                    '"startValue":0.0,"endValue":%s,"samples":[' % (t, len(ss) * 0.005))
            f.write(",".join(ss) + '],"weights":[' + ",".join(["0.005"] * len(ss)) + "]}")
        f.write('],"shared":{"frames":' + json.dumps(frames, separators=(",", ":")) +
                '},"activeProfileIndex":0,"exporter":"py-spy@0.4.1","name":"bench"}')
    os.rename(path + ".tmp", path)


def speedscope_evented(path):
    nframes = 5000
    frames = json.dumps([{"name": rnd.choice(funcs)} for _ in range(nframes)], separators=(",", ":"))
    state = {"at": 0, "stack": []}

    def body(first):
        out = []
        for _ in range(2000):
            st = state["stack"]
            state["at"] += rnd.randint(1, 5000)
            if st and (len(st) > 10 or rnd.random() < 0.5):
                out.append('{"type":"C","frame":%d,"at":%d}' % (st.pop(), state["at"]))
            else:  # a call graph: each frame calls one of three others
                st.append((st[-1] * 31 + rnd.randrange(3)) % nframes if st else rnd.randrange(8))
                out.append('{"type":"O","frame":%d,"at":%d}' % (st[-1], state["at"]))
        return ("" if first else ",") + ",".join(out)

    def tail():
        closes = []
        while state["stack"]:
            state["at"] += 1
            closes.append(',{"type":"C","frame":%d,"at":%d}' % (state["stack"].pop(), state["at"]))
        return "".join(closes) + '],"startValue":0,"endValue":%d}]}' % state["at"]

    head = ('{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":' +
            frames + '},"profiles":[{"type":"evented","name":"main","unit":"nanoseconds","events":[')
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(head)
        n, first = len(head), True
        while n < target:
            s = body(first)
            first = False
            f.write(s)
            n += len(s)
        f.write(tail())
    os.rename(tmp, path)


os.makedirs(out, exist_ok=True)
for name, fn in [("cpuprofile-%dm.cpuprofile", cpuprofile),
                 ("sampled-%dm.speedscope.json", speedscope_sampled),
                 ("evented-%dm.speedscope.json", speedscope_evented)]:
    p = os.path.join(out, name % size)
    if not os.path.exists(p):
        fn(p)
    print(p)
