#!/usr/bin/env python3
"""Large JSON profiles for bench/parsers/json.sh, shaped like the real tools' (node
--cpu-prof's .cpuprofile, py-spy's sampled speedscope file, an evented speedscope file,
Chromium's trace events with V8's sampled stacks),
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


def chrometrace(path):
    # Chrome's trace events as Chromium writes them ("args" first, keys sorted): two
    # renderer processes, each a profile of a 20,000-node tree whose nodes come with the
    # chunks that first sample them, chunks of 100 samples with their timeDeltas and lines,
    # a task event between chunks
    procs = []
    for pid in (4101, 4203):
        parents = [0, 0] + [rnd.randint(max(1, i - 200), i - 1) for i in range(2, 20001)]
        procs.append({"pid": pid, "tid": pid + 30, "parents": parents, "sent": {1}, "ts": 10 ** 9})

    def node(i, par):
        cf = {"codeType": "JS", "columnNumber": 4, "functionName": rnd.choice(funcs),
              "lineNumber": rnd.randint(0, 900), "scriptId": 7, "url": rnd.choice(files)}
        return json.dumps({"callFrame": cf, "id": i, "parent": par}, separators=(",", ":"))

    def chunk(p):
        samples, nodes = [], []
        for _ in range(100):
            leaf = rnd.randint(2, 20000)
            samples.append(leaf)
            path = []
            while leaf not in p["sent"]:
                path.append(leaf)
                leaf = p["parents"][leaf]
            for i in reversed(path):
                p["sent"].add(i)
                nodes.append(node(i, p["parents"][i]))
        deltas = [rnd.randint(100, 1400) for _ in samples]
        p["ts"] += sum(deltas)
        cpu = ('{"nodes":[' + ",".join(nodes) + '],' if nodes else "{") + '"samples":[%s]}' % ",".join(map(str, samples))
        ev = ('{"args":{"data":{"cpuProfile":%s,"lines":[%s],"timeDeltas":[%s]}},'
              '"cat":"disabled-by-default-v8.cpu_profiler","id":"0x1","name":"ProfileChunk",'
              '"ph":"P","pid":%d,"tid":%d,"ts":%d,"tts":%d}' %
              (cpu, ",".join(str(rnd.randint(0, 900)) for _ in samples), ",".join(map(str, deltas)),
               p["pid"], p["tid"], p["ts"], p["ts"] // 3))
        task = ('{"args":{},"cat":"toplevel","dur":%d,"name":"ThreadControllerImpl::RunTask",'
                '"ph":"X","pid":%d,"tid":%d,"ts":%d,"tdur":%d,"tts":%d}' %
                (rnd.randint(5, 900), p["pid"], p["pid"], p["ts"] + 7, rnd.randint(5, 900), p["ts"] // 3))
        return ev + ",\n" + task

    with open(path + ".tmp", "w") as f:
        n = f.write('{"traceEvents":[\n' + ",\n".join(
            '{"args":{"data":{"source":"Internal","startTime":%d}},"cat":"disabled-by-default-v8.cpu_profiler",'
            '"id":"0x1","name":"Profile","ph":"P","pid":%d,"tid":%d,"ts":%d,"tts":1}' %
            (p["ts"], p["pid"], p["pid"], p["ts"]) for p in procs))
        k = 0
        while n < target:
            n += f.write(",\n" + chunk(procs[k % 2]))
            k += 1
        f.write('],\n"metadata":{"command_line":"chromium --headless"}}\n')
    os.rename(path + ".tmp", path)


os.makedirs(out, exist_ok=True)
for name, fn in [("cpuprofile-%dm.cpuprofile", cpuprofile),
                 ("sampled-%dm.speedscope.json", speedscope_sampled),
                 ("evented-%dm.speedscope.json", speedscope_evented),
                 ("chrometrace-%dm.trace.json", chrometrace)]:
    p = os.path.join(out, name % size)
    if not os.path.exists(p):
        fn(p)
    print(p)
