#!/usr/bin/env bash
# CLI case runner. Each case is DIR/NAME.sh, run with bash in a fresh temp directory
# with $BUILD (the build dir), $FIXTURES, $CORPUS (fixtures/corpus) and the tools on
# PATH. Its stdout, stderr and exit code must equal DIR/NAME.stdout, NAME.stderr and
# NAME.exit when those files exist (a missing .exit means 0). FLAME_BLESS=1 rewrites
# them. A DIR with no case fails.
# Usage: cli-run.sh BUILD_DIR CASE_DIR
set -u
shopt -s nullglob
build=$(cd "$1" && pwd)
dir=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
export BUILD=$build FIXTURES=$root/fixtures CORPUS=$root/fixtures/corpus
export PATH="$build/tools:$PATH"
fail=0 n=0
for case in "$dir"/*.sh; do
  name=${case%.sh}
  n=$((n + 1))
  tmp=$(mktemp -d)
  (cd "$tmp" && bash "$case" >"$tmp/.stdout" 2>"$tmp/.stderr")
  code=$?
  if [ "${FLAME_BLESS:-}" = 1 ]; then
    cp "$tmp/.stdout" "$name.stdout"; cp "$tmp/.stderr" "$name.stderr"
    if [ $code -ne 0 ]; then echo $code >"$name.exit"; else rm -f "$name.exit"; fi
  else
    want=0; [ -f "$name.exit" ] && want=$(cat "$name.exit")
    bad=""
    [ "$code" = "$want" ] || bad="exit $code, expected $want"
    for s in stdout stderr; do
      if [ -f "$name.$s" ] && ! cmp -s "$tmp/.$s" "$name.$s"; then
        bad="$bad; $s differs:
$(diff "$name.$s" "$tmp/.$s" | head -20)"
      fi
    done
    if [ -n "$bad" ]; then
      echo "FAIL $(basename "$name"): $bad"
      fail=$((fail + 1))
    else
      echo "ok   $(basename "$name")"
    fi
  fi
  rm -rf "$tmp"
done
echo "$((n - fail)) passed, $fail failed"
[ $n -gt 0 ] || { echo "FAIL: no cases in $dir"; exit 1; }
[ $fail -eq 0 ]
