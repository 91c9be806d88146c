#!/usr/bin/env python3
"""A Chrome trace's sampled stacks as .cpuprofile files, the way DevTools assembles them
(its SamplesHandler): the Profile and ProfileChunk events of one process and profile id
are one profile, its chunks' nodes, samples and timeDeltas concatenated in file order,
startTime from the Profile event, endTime from a chunk that has one. Writes OUTDIR/N.cpuprofile
per profile with samples, so that flame-collapse reads them with the .cpuprofile reader
and the golden test compares that with the trace reader's output byte for byte.
Usage: to-cpuprofile.py TRACE OUTDIR"""
import gzip
import json
import sys


def main(path, outdir):
    with open(path, 'rb') as f:
        raw = f.read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    doc = json.loads(raw)
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    profiles = {}
    for e in events:
        if not isinstance(e, dict) or e.get('name') not in ('Profile', 'ProfileChunk'):
            continue
        p = profiles.setdefault((e['pid'], e['id']),
                                {'nodes': [], 'samples': [], 'timeDeltas': []})
        data = e.get('args', {}).get('data', {})
        if 'startTime' in data:
            p['startTime'] = int(data['startTime'])
        if e['name'] == 'Profile':
            continue
        if 'endTime' in data:
            p['endTime'] = int(data['endTime'])
        cpu = data.get('cpuProfile', {})
        p['nodes'] += cpu.get('nodes', [])
        p['samples'] += cpu.get('samples', [])
        p['timeDeltas'] += data.get('timeDeltas', cpu.get('timeDeltas', []))
    n = 0
    for p in profiles.values():
        if p['samples']:
            n += 1
            with open('%s/%d.cpuprofile' % (outdir, n), 'w') as f:
                json.dump(p, f)
    print('%d profiles' % n, file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
