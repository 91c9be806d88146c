#!/usr/bin/env python3
"""A Firefox Profiler file shaped as samply 0.13 writes it (processed version 49, fixed seed),
of about SIZE MB, for bench/parsers/firefox.sh: THREADS threads, each with its own tables
(4,000 functions named by address in two libraries, 40,000 stacks 5-60 deep built as a
tree) and samples of stack, time (ms with 6 decimals), weight 1 and threadCPUDelta, the
tables after the samples as samply writes them. Usage: firefox-gen.py OUT SIZE_MB [THREADS]"""
import json, random, sys

out, size_mb = sys.argv[1], float(sys.argv[2])
threads = int(sys.argv[3]) if len(sys.argv) > 3 else 4
rnd = random.Random(28)
nfunc, nstack = 4000, 40000
per_sample = 27  # bytes a sample takes in the four columns, about
nsamples = int(size_mb * 1e6 / per_sample / threads)


def cols(name, values):
    return '"%s":[%s]' % (name, ','.join(values))


def thread(f, t):
    strings = ['libxul.so', 'app'] + ['0x%x' % (0x1000 + 16 * i) for i in range(nfunc)]
    prefix, frame, depth = [], [], []
    for i in range(nstack):
        if i < 8:
            p = None
        else:
            p = rnd.randrange(i)
            while depth[p] >= 60:
                p = prefix[p]
        prefix.append(p)
        depth.append(1 if p is None else depth[p] + 1)
        frame.append(rnd.randrange(nfunc))
    leaves = [i for i in range(nstack) if depth[i] >= 5]
    f.write('{"frameTable":{"length":%d,' % nfunc)
    f.write(cols('address', [str(0x1000 + 16 * i) for i in range(nfunc)]) + ',')
    f.write(cols('inlineDepth', ['0'] * nfunc) + ',' + cols('category', ['2'] * nfunc) + ',')
    f.write(cols('func', [str(i) for i in range(nfunc)]) + ',')
    f.write(cols('nativeSymbol', ['null'] * nfunc) + ',' + cols('line', ['null'] * nfunc) + '},')
    f.write('"funcTable":{"length":%d,' % nfunc)
    f.write(cols('name', [str(i + 2) for i in range(nfunc)]) + ',')
    f.write(cols('isJS', ['false'] * nfunc) + ',')
    f.write(cols('resource', [str(i % 2) for i in range(nfunc)]) + ',')
    f.write(cols('fileName', ['null'] * nfunc) + '},')
    f.write('"markers":{"length":0,"category":[],"data":[],"endTime":[],"name":[],"phase":[],"startTime":[]},')
    f.write('"name":"worker-%d","pid":"100","tid":"%d","processName":"app",' % (t, 100 + t))
    f.write('"resourceTable":{"length":2,"lib":[0,1],"name":[0,1],"host":[null,null],"type":[1,1]},')
    f.write('"samples":{"length":%d,"weightType":"samples",' % nsamples)
    hot = [rnd.choice(leaves) for _ in range(3000)]
    st = [str(rnd.choice(hot)) for _ in range(nsamples)]
    f.write(cols('stack', st) + ',')
    tm, ms = [], 0.0
    for _ in range(nsamples):
        ms += 1.0 + rnd.random() * 0.01
        tm.append('%.6f' % ms)
    f.write(cols('time', tm) + ',')
    f.write(cols('weight', ['1'] * nsamples) + ',')
    f.write(cols('threadCPUDelta', ['1001'] * nsamples) + '},')
    f.write('"stackTable":{"length":%d,' % nstack)
    f.write(cols('prefix', ['null' if p is None else str(p) for p in prefix]) + ',')
    f.write(cols('frame', [str(x) for x in frame]) + ',')
    f.write(cols('category', ['2'] * nstack) + ',' + cols('subcategory', ['0'] * nstack) + '},')
    f.write('"stringArray":' + json.dumps(strings) + '}')


with open(out, 'w') as f:
    f.write('{"meta":{"interval":1.0,"preprocessedProfileVersion":49,"product":"bench",'
            '"startTime":1795885380762.864,"version":24},')
    f.write('"libs":[{"name":"libxul.so","path":"/nonexistent/libxul.so","debugPath":"/nonexistent/libxul.so",'
            '"codeId":null},{"name":"app","path":"/nonexistent/app","debugPath":"/nonexistent/app","codeId":null}],')
    f.write('"threads":[')
    for t in range(threads):
        if t:
            f.write(',')
        thread(f, t)
    f.write('],"pages":[],"profilerOverhead":[],"counters":[]}')
