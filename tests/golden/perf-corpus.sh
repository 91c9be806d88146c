#!/usr/bin/env bash
# Compare flame-collapse with stackcollapse-perf.pl's references in the shared corpus:
# every X.perf.txt under CORPUS/perf with no option and with each of --pid --tid
# --kernel --jit --all --addrs must equal expected/X-collapsed[-OPT].folded byte for
# byte. c-fp-srcline has no reference of its own (the Perl tool misreads srclines): it
# holds the first samples of c-fp-header-ns with srclines, so its output must equal ours
# for those samples of c-fp-header-ns, which itself matches the Perl tool. Files with
# no reference (the Perl tool is wrong or prints nothing) are checked by the project's
# own golden files (perf-golden.sh).
# Usage: perf-corpus.sh FLAME_COLLAPSE CORPUS_DIR [extra flame-collapse args, e.g. -j1]
set -u
bin=$1 corpus=$2/perf
shift 2
[ -d "$corpus/expected" ] || { echo "FAIL: no corpus at $corpus"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for input in "$corpus"/*.perf.txt; do
  name=$(basename "$input" .perf.txt)
  ref=$name
  [ "$name" = c-fp-srcline ] && continue
  for opt in "" pid tid kernel jit all addrs; do
    want="$corpus/expected/$ref-collapsed${opt:+-$opt}.folded"
    [ -f "$want" ] || continue
    n=$((n + 1))
    if ! "$bin" --format perf -q "$@" ${opt:+--$opt} "$input" >"$tmp/out" 2>"$tmp/err"; then
      echo "FAIL $name ${opt:+--$opt}: exit $? $(head -c 300 "$tmp/err")"
      fail=$((fail + 1))
    elif ! cmp -s "$tmp/out" "$want"; then
      echo "FAIL $name ${opt:+--$opt}: differs from $(basename "$want")"
      diff "$want" "$tmp/out" | head -6
      fail=$((fail + 1))
    fi
  done
done
# c-fp-srcline: the same samples as the start of c-fp-header-ns
src=$corpus/c-fp-srcline.perf.txt hdr=$corpus/c-fp-header-ns.perf.txt
if [ -f "$src" ] && [ -f "$hdr" ]; then
  samples=$(grep -c 'cpu-clock: *$' "$src")
  awk -v n="$samples" '/cpu-clock: *$/ { k++ } k <= n' "$hdr" >"$tmp/hdr.txt"
  for opt in "" pid tid kernel jit all addrs; do
    n=$((n + 1))
    "$bin" --format perf -q "$@" ${opt:+--$opt} "$src" >"$tmp/a" 2>&1
    "$bin" --format perf -q "$@" ${opt:+--$opt} "$tmp/hdr.txt" >"$tmp/b" 2>&1
    if ! cmp -s "$tmp/a" "$tmp/b" || [ ! -s "$tmp/a" ]; then
      echo "FAIL c-fp-srcline ${opt:+--$opt}: differs from the first $samples samples of c-fp-header-ns"
      diff "$tmp/b" "$tmp/a" | head -6
      fail=$((fail + 1))
    fi
  done
fi
echo "$((n - fail)) of $n corpus checks pass"
[ $fail -eq 0 ] && [ $n -gt 0 ]
