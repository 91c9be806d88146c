#!/usr/bin/env bash
# A set of 10-second pprof profiles with time_nanos (slices.py: 60 of them, 10 minutes from
# 2026-11-28T14:00:00Z, a spike in slice 30) read as one timeline: the heatmap spans the ten
# minutes with the spike's second lit, dates cut the slice out, flame-diff compares the
# spike's range with the rest, and the hostile label values stay text.
set -u
build=$1
src=$2
export PATH=$build/tools:$PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
python3 "$src/tests/time/slices.py" . 60 1795874400 30 || { echo "FAIL: slices.py"; exit 1; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
flame-render --heatmap -o day.svg slice-*.pb.gz || bad "flame-render --heatmap"
grep -q 'data-kind="heatmap" data-cols="600"' day.svg && ok "one heatmap of 600 seconds" ||
	bad "heatmap: $(grep -o 'data-kind="[a-z]*" data-cols="[0-9]*"' day.svg)"
# slice 30 starts 300 s in: its weight (spike 50 ms) spread over its ten seconds
flame-render --heatmap --include '^spike$' -o spike.svg slice-*.pb.gz
secs=$(grep -o 'data-t="[0-9]*' spike.svg | cut -d'"' -f2 | sort -un | tr '\n' ' ')
[ "$secs" = "300 301 302 303 304 305 306 307 308 309 " ] && ok "the spike in seconds 300-309" ||
	bad "the spike's seconds: $secs"
flame-collapse -q --time 2026-11-28T14:05:00Z,2026-11-28T14:05:10Z slice-*.pb.gz > at.folded
grep -q '^main;spike 50000000$' at.folded && grep -q '^main;work 10000000$' at.folded &&
	[ "$(grep -vc '^#' at.folded)" = 2 ] && ok "dates cut slice 30" || { bad "dates"; cat at.folded; }
flame-collapse -q --time 2026-11-28T15:05:00+01:00,2026-11-28T15:05:10+01:00 slice-*.pb.gz | cmp -s - at.folded &&
	ok "a date with an offset" || bad "a date with +01:00"
flame-merge --format folded slice-*.pb.gz | grep -q '^main;work 600000000$' && ok "merged: 60 slices" || bad "merge"
flame-diff -q --before-time 2026-11-28T14:00:00Z,2026-11-28T14:05:00Z \
	--after-time 2026-11-28T14:05:00Z,2026-11-28T14:05:10Z --format folded slice-*.pb.gz > d.folded
grep -q '^main;spike 0 50000000$' d.folded && ok "diff of two ranges: spike new" || { bad "diff"; cat d.folded; }
# hostile label values stay data: --group-by puts one in a frame, escaped in the SVG
flame-render --heatmap --group-by endpoint -o g.svg slice-*.pb.gz && ! grep -q '<img' g.svg &&
	ok "labels in the heatmap's input stay text" || bad "hostile label"
flame-render --group-by endpoint -o g2.svg slice-*.pb.gz && ! grep -q '<img' g2.svg &&
	grep -q '&lt;/script&gt;&lt;img' g2.svg && ok "the label as a frame, escaped" || bad "hostile label frame"
# the page of the merged slices carries their timeline (and its heatmap's script)
flame-merge -o day.html slice-*.pb.gz && grep -q 'var FGTime' day.html && ok "flame-merge's page has the heatmap" ||
	bad "flame-merge -o day.html: no heatmap"
exit $fail
