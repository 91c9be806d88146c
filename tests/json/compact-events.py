#!/usr/bin/env python3
"""A speedscope file with its events written compactly, keys in the order speedscope and
the tools write them ({"type":"O","frame":0,"at":5}): the evented reader takes that text
in one step (a path of its own), the pretty-printed fixtures token by token, and the golden
test checks both give the same stacks. Usage: compact-events.py IN > OUT"""
import json
import sys

doc = json.load(open(sys.argv[1]))
for p in doc.get('profiles', []):
    if 'events' in p:
        p['events'] = [{'type': e['type'], 'frame': e['frame'], 'at': e['at']}
                       for e in p['events']]
sys.stdout.write(json.dumps(doc, separators=(',', ':')))
