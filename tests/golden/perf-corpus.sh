#!/usr/bin/env bash
# Compare flame-collapse with stackcollapse-perf.pl's references in the shared corpus:
# every X.perf.txt under CORPUS/perf with no option and with each of --pid --tid
# --kernel --jit --all --addrs must equal expected/X-collapsed[-OPT].folded byte for
# byte. c-fp-srcline (the Perl tool misreads srclines) is held to c-fp-header-ns's
# references, which are the same samples printed without srclines. Files with no
# reference (the Perl tool is wrong or prints nothing) are checked by the project's
# own golden files (perf-golden.sh).
# Usage: perf-corpus.sh FLAME_COLLAPSE CORPUS_DIR [extra flame-collapse args, e.g. -j1]
set -u
bin=$1 corpus=$2/perf
shift 2
[ -d "$corpus/expected" ] || { echo "SKIP: no corpus at $corpus"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for input in "$corpus"/*.perf.txt; do
  name=$(basename "$input" .perf.txt)
  ref=$name
  [ "$name" = c-fp-srcline ] && ref=c-fp-header-ns
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
echo "$((n - fail)) of $n corpus references match"
[ $fail -eq 0 ] && [ $n -gt 0 ]
