#!/usr/bin/env bash
# The page's labels (issue 25): a labelled pprof profile (bench/pprof-samples.py: 1 M samples
# with endpoint and tenant labels over 20,000 stacks) as flame-render's page with its label
# selector, against the page of the same stacks without labels (the profile through
# flame-collapse's folded text first): the page's size, and in headless Chromium (page.mjs)
# the time to the first painted graph (the selector ready too) and to the graph of a slice.
# Medians of RUNS runs with their range. Usage: bench/labels/run.sh [BUILD_DIR (build)] [RUNS (5)]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
data=$root/bench/data
mkdir -p "$data"
prof=$data/pprof-labels-1m.pb.gz
[ -s "$prof" ] || python3 "$root/bench/pprof-samples.py" "$prof" 1000000 20000
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/tools/flame-render" -q -o "$out/with.html" "$prof"
"$build/tools/flame-collapse" -q "$prof" >"$out/stacks.folded"
"$build/tools/flame-render" -q -o "$out/without.html" "$out/stacks.folded"
a=$(stat -c %s "$out/without.html") b=$(stat -c %s "$out/with.html")
echo "page without labels: $a bytes; with labels: $b bytes ($(python3 -c "print('%.2f' % ($b / $a))")x)"
node "$root/bench/labels/page.mjs" "$out/without.html" "$out/with.html" "$runs"
