#!/usr/bin/env bash
# The project's own perf golden files: every FIXTURES/perf/results/CASE-collapse[-OPTS].folded
# must equal `flame-collapse [--OPT...] FIXTURES/perf/CASE.perf.txt`, byte for byte, with one
# and with four threads. OPTS are long options joined by '+', e.g.
# mixed-tracepoint-cpuclock-collapse-event-filter=cpu-clock.folded or edge-cases-collapse-all+tid.folded.
# FLAME_BLESS=1 rewrites the golden files (review the diff before committing).
# Usage: perf-golden.sh FLAME_COLLAPSE FIXTURES_DIR
set -u
bin=$1 dir=$2/perf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for want in "$dir"/results/*-collapse*.folded; do
  base=$(basename "$want" .folded)
  case=${base%%-collapse*}
  rest=${base#"$case"-collapse}
  args=()
  if [ -n "$rest" ]; then
    IFS=+ read -r -a opts <<<"${rest#-}"
    for o in "${opts[@]}"; do args+=("--$o"); done
  fi
  input=$dir/$case.perf.txt
  for j in -j1 -j4; do
    n=$((n + 1))
    if ! "$bin" --format perf -q "$j" "${args[@]}" "$input" >"$tmp/out" 2>"$tmp/err"; then
      echo "FAIL $base $j: exit status $? $(head -c 300 "$tmp/err")"
      fail=$((fail + 1))
      continue
    fi
    if [ "${FLAME_BLESS:-}" = 1 ]; then
      cp "$tmp/out" "$want"
    elif ! cmp -s "$tmp/out" "$want"; then
      echo "FAIL $base $j (${args[*]}):"
      diff "$want" "$tmp/out" | head -8
      fail=$((fail + 1))
    fi
  done
done
echo "$((n - fail)) of $n perf golden checks pass"
[ $fail -eq 0 ] && [ $n -gt 0 ]
