#!/usr/bin/env python3
"""A processed profile (version 49, samply's layout) whose N stacks are chained one on the
next, each used by a sample: naming every used stack from its root costs N^2/2 frames, which
the reader bounds by the input's size (parse/firefox.c, FRAMES_PER_BYTE).
Usage: deep-chain.py N > out.json"""
import json
import sys

n = int(sys.argv[1])
frame = {"length": 1, "func": [0], "address": [-1], "inlineDepth": [0], "category": [None],
         "subcategory": [None], "nativeSymbol": [None], "innerWindowID": [None],
         "implementation": [None], "line": [None], "column": [None]}
func = {"length": 1, "name": [0], "isJS": [False], "relevantForJS": [False], "resource": [-1],
        "fileName": [None], "lineNumber": [None], "columnNumber": [None]}
thread = {"name": "t", "processType": "default", "stringArray": ["f"], "frameTable": frame,
          "funcTable": func,
          "stackTable": {"length": n, "prefix": [None] + list(range(n - 1)), "frame": [0] * n,
                         "category": [0] * n, "subcategory": [0] * n},
          "samples": {"length": n, "stack": list(range(n)), "time": list(range(n)),
                      "weight": None, "weightType": "samples"},
          "resourceTable": {"length": 0, "lib": [], "name": [], "host": [], "type": []}}
json.dump({"meta": {"version": 24, "preprocessedProfileVersion": 49, "startTime": 0,
                    "interval": 1, "product": "x"}, "libs": [], "threads": [thread]}, sys.stdout)
