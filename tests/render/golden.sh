#!/usr/bin/env bash
# Golden SVGs: render every case of cases.txt with flame-render and compare the SVG,
# stderr and exit status with fixtures/render/results/NAME.{svg,stderr,exit}.
# FLAME_BLESS=1 rewrites the results (review the diff!). Usage: golden.sh BUILD_DIR
set -u
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fx=$root/fixtures/render
res=$fx/results
mkdir -p "$res"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  name=$(printf '%s' "${line%%|*}" | tr -d ' ')
  args=${line#*|}
  n=$((n + 1))
  (cd "$fx" && eval "\"$build/tools/flame-render\" $args" >"$tmp/out.svg" 2>"$tmp/err")
  code=$?
  sed -i "s|$build/tools/||g" "$tmp/err"
  if [ "${FLAME_BLESS:-}" = 1 ]; then
    cp "$tmp/out.svg" "$res/$name.svg"
    if [ -s "$tmp/err" ]; then cp "$tmp/err" "$res/$name.stderr"; else rm -f "$res/$name.stderr"; fi
    if [ $code -ne 0 ]; then echo $code >"$res/$name.exit"; else rm -f "$res/$name.exit"; fi
    echo "blessed $name"
    continue
  fi
  want=0; [ -f "$res/$name.exit" ] && want=$(cat "$res/$name.exit")
  bad=""
  [ "$code" = "$want" ] || bad="exit $code, expected $want"
  if ! cmp -s "$tmp/out.svg" "$res/$name.svg"; then
    bad="$bad; svg differs:
$(diff "$res/$name.svg" "$tmp/out.svg" | head -10 | cut -c1-200)"
  fi
  wanterr=/dev/null; [ -f "$res/$name.stderr" ] && wanterr=$res/$name.stderr
  if ! cmp -s "$tmp/err" "$wanterr"; then
    bad="$bad; stderr differs:
$(diff "$wanterr" "$tmp/err" | head -5)"
  fi
  if [ -n "$bad" ]; then
    echo "FAIL $name: $bad"
    fail=$((fail + 1))
  else
    echo "ok   $name"
  fi
done <"$here/cases.txt"
echo "$((n - fail)) passed, $fail failed"
[ $n -gt 0 ] || { echo "FAIL: no cases in $here/cases.txt"; exit 1; }
[ $fail -eq 0 ]
