#!/usr/bin/env python3
# Print "name fill" for every frame of a flame graph SVG whose fill is not white (in a
# differential graph: red = grew, blue = shrank). A frame is an element with a <title>
# ("name (...)"); its fill is its own (a <rect>) or that of the <rect> beside the title
# in its group, so the check does not depend on which of the two forms the writer uses.
# The panel of frames found only in BEFORE (a data-panel group) is not part of the graph.
import sys
import xml.etree.ElementTree as ET

def local(tag):
    return tag.rsplit('}', 1)[-1]

def graph(el):
    if el.get('data-panel') is not None:
        return
    yield el
    for c in el:
        yield from graph(c)

found = frames = 0
for el in graph(ET.parse(sys.argv[1]).getroot()):
    title = next((c for c in el if local(c.tag) == 'title'), None)
    if title is None or not title.text or ' (' not in title.text:
        continue
    frames += 1
    fill = el.get('fill')
    if fill is None:
        rect = next((c for c in el if local(c.tag) == 'rect'), None)
        fill = rect.get('fill') if rect is not None else None
    if fill is None or fill.lower() in ('#ffffff', '#fff', 'rgb(255,255,255)', 'white'):
        continue
    name = title.text.split(' (', 1)[0]
    if name == 'all':
        continue
    print(name, fill)
    found += 1
# the frame count shows the frames were found at all (so "none coloured" means something)
print('(%d frames, %d coloured)' % (frames, found))
