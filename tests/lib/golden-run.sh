#!/usr/bin/env bash
# The golden-case runner: every golden test of the suite is a CASES file read by this script.
# A CASES file holds one case a line, `EXPECTED | COMMAND` ('#' lines and blank lines are
# skipped):
#   EXPECTED  the file stdout must equal byte for byte, relative to the CASES file's
#             directory; STEM.stderr and STEM.exit beside it (STEM = EXPECTED without its
#             last extension) hold the expected stderr and exit status when they are not
#             empty and 0;
#   COMMAND   bash with pipefail (a failing stage of a pipe fails the case), run in the
#             CASES file's directory with the built tools on PATH and $ARGS (the variant,
#             below), $SCRATCH (an empty directory of its own) and $TESTS (tests/, whose
#             areas hold the helper scripts) set. Stderr is compared with the build directory's path
#             removed.
# Each VARIANT runs every case once with $ARGS set to it (e.g. -j1 -j4: both thread
# counts against the same expected files); no VARIANT runs each case once with $ARGS empty.
# FLAME_BLESS=1 rewrites the expected files (review the diff before committing), except the
# oracles' references outside the CASES file's directory (EXPECTED starting with ../).
# Prints a line per case and "N passed, N failed"; a CASES file with no case fails.
# Usage: golden-run.sh BUILD_DIR CASES [VARIANT...]
set -u
build=$(cd "$1" && pwd)
dir=$(cd "$(dirname "$2")" && pwd)
cases=$dir/$(basename "$2")
shift 2
[ $# -gt 0 ] || set -- ""
[ -f "$cases" ] || { echo "FAIL: no cases file $cases"; exit 1; }
TESTS=$(cd "$(dirname "$0")/.." && pwd)
export TESTS PATH="$build/tools:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
while IFS= read -r -u 3 line; do
  case "$line" in
  '' | '#'*) continue ;;
  *' | '*) ;;
  *) echo "FAIL not a case (EXPECTED | COMMAND): $line"; n=$((n + 1)) fail=$((fail + 1)); continue ;;
  esac
  want=$(printf '%s' "${line%%|*}" | sed 's/^ *//; s/ *$//')
  cmd=${line#*|}
  stem=$dir/${want%.*}
  for ARGS in "$@"; do
    n=$((n + 1))
    rm -rf "$tmp/scratch" && mkdir "$tmp/scratch"
    (set -o pipefail; cd "$dir" && export ARGS SCRATCH=$tmp/scratch && eval "$cmd") </dev/null >"$tmp/out" 2>"$tmp/err"
    code=$?
    sed -i "s|$build/tools/||g" "$tmp/err"
    label="$want${ARGS:+ ($ARGS)}"
    if [ "${FLAME_BLESS:-}" = 1 ]; then
      case $want in ../*)
        # an oracle's reference (../corpus/...) is not ours to rewrite
        echo "kept $label (a reference, not blessed)"
        continue ;;
      esac
      cp "$tmp/out" "$dir/$want"
      if [ -s "$tmp/err" ]; then cp "$tmp/err" "$stem.stderr"; else rm -f "$stem.stderr"; fi
      if [ $code -ne 0 ]; then echo $code >"$stem.exit"; else rm -f "$stem.exit"; fi
      echo "blessed $label"
      continue
    fi
    wcode=0
    [ -f "$stem.exit" ] && wcode=$(cat "$stem.exit")
    : >"$tmp/empty"
    werr=$tmp/empty
    [ -f "$stem.stderr" ] && werr=$stem.stderr
    bad=""
    [ "$code" = "$wcode" ] || bad="; exit $code, expected $wcode"
    if [ ! -f "$dir/$want" ]; then
      bad="$bad; no expected file (FLAME_BLESS=1 writes it)"
    elif ! cmp -s "$tmp/out" "$dir/$want"; then
      bad="$bad; stdout differs:
$(diff "$dir/$want" "$tmp/out" | head -10 | cut -c1-200)"
    fi
    cmp -s "$tmp/err" "$werr" || bad="$bad; stderr differs:
$(diff "$werr" "$tmp/err" | head -6 | cut -c1-200)"
    if [ -n "$bad" ]; then
      echo "FAIL $label${bad}"
      fail=$((fail + 1))
    else
      echo "ok   $label"
    fi
  done
done 3<"$cases"
echo "$((n - fail)) passed, $fail failed"
[ $n -gt 0 ] || { echo "FAIL: no case in $cases"; exit 1; }
[ $fail -eq 0 ]
