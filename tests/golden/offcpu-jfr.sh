#!/usr/bin/env bash
# Golden tests of the offcputime, JFR text and SVG readers over the shared corpus and
# fixtures/{offcpu,jfr,svg}/, in every mode:
#  - JFR: output must equal the corpus oracle (jfr/ref-fold/X.txt[.threads].folded) byte
#    for byte, by auto-detection and with --format jfr;
#  - offcputime: each multi-line bcc-rendered-* file and its -f twin must collapse to the
#    same stacks;
#  - SVG: flame-render's SVGs of corpus stacks read back to the same stacks (--minwidth 0)
#    or nearly the same total (the default --minwidth prunes);
#  - every case/mode must equal fixtures/<fmt>/results/<case>-<mode>.folded (and .stderr
#    when there are warnings). FLAME_BLESS=1 rewrites those after a deliberate change.
# Usage: offcpu-jfr.sh FLAME_COLLAPSE CORPUS_DIR FIXTURES_DIR [FLAME_RENDER]
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$(cd "$2" && pwd) fixtures=$(cd "$3" && pwd)
render=${4:-}
[ -d "$corpus/offcputime" ] && [ -d "$corpus/jfr" ] || { echo "FAIL: no corpus at $corpus"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# run DIR FILE ARGS... -> $tmp/out, $tmp/err (run in DIR so messages name FILE only)
run() {
  local dir=$1 file=$2
  shift 2
  (cd "$dir" && "$bin" "$@" "$file" >"$tmp/out" 2>"$tmp/err")
}

# golden FMT DIR FILE MODE ARGS...
golden() {
  local fmt=$1 dir=$2 file=$3 mode=$4
  shift 4
  local case=${file%.*}
  local want=$fixtures/$fmt/results/$case-$mode
  n=$((n + 1))
  run "$dir" "$file" "$@"
  local rc=$?
  if [ $rc -ne 0 ]; then
    bad "$file $*: exit $rc $(head -c 300 "$tmp/err")"
    return
  fi
  if [ "${FLAME_BLESS:-}" = 1 ]; then
    mkdir -p "$fixtures/$fmt/results"
    cp "$tmp/out" "$want.folded"
    if [ -s "$tmp/err" ]; then cp "$tmp/err" "$want.stderr"; else rm -f "$want.stderr"; fi
    return
  fi
  if ! cmp -s "$tmp/out" "$want.folded"; then
    bad "$file $*: differs from $(basename "$want").folded"
    diff "$want.folded" "$tmp/out" | head -6
  fi
  local werr=$tmp/empty # not /dev/null: a stray `-o /dev/null` may have replaced it
  : >"$werr"
  [ -f "$want.stderr" ] && werr=$want.stderr
  cmp -s "$tmp/err" "$werr" || bad "$file $*: stderr differs: $(diff "$werr" "$tmp/err" | head -4)"
}

# The oracle drops a trace's '...' and keeps the rest as if it were whole; we keep such a
# trace under a '[truncated]' root frame. Without that frame both must agree.
untrunc() {
  grep -q '\[truncated\]' "$1" || return 0
  sed 's/\[truncated\];//' "$1" |
    awk '{ k = substr($0, 1, length($0) - length($NF) - 1); if (!(k in w)) o[n++] = k; w[k] += $NF }
         END { for (i = 0; i < n; i++) printf "%s %.0f\n", o[i], w[o[i]] }' | LC_ALL=C sort >"$1.u"
  mv "$1.u" "$1"
}

# ---- JFR: the oracle's references
jd=$corpus/jfr
for ref in "$jd"/ref-fold/*.txt.folded "$jd"/ref-fold/*.txt.threads.folded; do
  [ -f "$ref" ] || continue
  b=$(basename "$ref" .folded)
  args=""
  case $b in *.threads) args=--threads; b=${b%.threads};; esac
  for fmt in "" "--format jfr"; do
    n=$((n + 1))
    if ! run "$jd" "$b" $fmt $args; then
      bad "$b $fmt $args: exit status non-zero: $(head -c 300 "$tmp/err")"
    elif ! untrunc "$tmp/out" || ! cmp -s "$tmp/out" "$ref"; then
      bad "$b $fmt $args: differs from ref-fold/$(basename "$ref")"
      diff "$ref" "$tmp/out" | head -6
    fi
  done
done

# ---- JFR: the same stacks as the recording's `jfr print --json` (exact weights there;
# the text rounds each size and duration to ~3 digits: a stack's weight agrees within 5%,
# the total within 0.1%)
for ref in "$jd"/ref-fold/*.json.folded; do
  [ -f "$ref" ] || continue
  b=$(basename "$ref" .json.folded)
  n=$((n + 1))
  run "$jd" "$b.txt" || { bad "$b.txt failed"; continue; }
  untrunc "$tmp/out"
  awk 'FNR == NR { w[substr($0, 1, length($0) - length($NF) - 1)] = $NF; next }
       { k = substr($0, 1, length($0) - length($NF) - 1); if (!(k in w)) exit 1
         d = w[k] - $NF; if (d < 0) d = -d; if (d > w[k] / 20) exit 1
         seen++; tj += w[k]; tt += $NF }
       END { d = tj - tt; if (d < 0) d = -d
             if (seen != length(w) || d > tj / 1000) exit 1 }' "$ref" "$tmp/out" ||
    bad "$b.txt: stacks or weights differ from ref-fold/$(basename "$ref")"
done

# ---- offcputime: multi-line and -f forms of the same run give the same stacks
od=$corpus/offcputime
for pair in "default folded-f" "delimited-d folded-delimited-f-d" \
            "kernel-only-K folded-kernel-only-f-K" "user-only-U folded-user-only-f-U"; do
  set -- $pair
  n=$((n + 1))
  run "$od" "bcc-rendered-$1.txt" && cp "$tmp/out" "$tmp/multi" || { bad "bcc-rendered-$1.txt failed"; continue; }
  run "$od" "bcc-rendered-$2.txt" --format offcpu || { bad "bcc-rendered-$2.txt failed"; continue; }
  [ -s "$tmp/multi" ] || bad "bcc-rendered-$1.txt: no stacks"
  cmp -s "$tmp/multi" "$tmp/out" || { bad "bcc-rendered-$1.txt and -$2.txt collapse differently"; diff "$tmp/multi" "$tmp/out" | head -4; }
done

# ---- golden files: offcputime, every corpus file (the -f twins of bcc-rendered-* are
# held to their multi-line file above) and fixture; --tid on the small ones
for dir in "$od" "$fixtures/offcpu"; do
  for f in "$dir"/*.txt; do
    file=$(basename "$f")
    case $file in *.stderr.txt|bcc-rendered-folded-*) continue;; esac
    golden offcpu "$dir" "$file" collapsed --format offcpu
    [ "$(wc -c <"$f")" -lt 120000 ] || continue
    case $file in *folded*) ;; *) golden offcpu "$dir" "$file" collapsed-tid --format offcpu --tid;; esac
  done
done

# ---- golden files: JFR, every file in every mode; print-all per event type
for dir in "$jd" "$fixtures/jfr"; do
  for f in "$dir"/*.txt; do
    file=$(basename "$f")
    [ "$file" = summary.txt ] && continue
    golden jfr "$dir" "$file" collapsed
    golden jfr "$dir" "$file" collapsed-threads --threads
    case $file in print-all.txt|print-ObjectAllocationSample*) continue;; esac
    golden jfr "$dir" "$file" collapsed-signatures --signatures
    golden jfr "$dir" "$file" collapsed-lines-annotate --lines --annotate
  done
done
for ev in NativeMethodSample ObjectAllocationSample JavaMonitorEnter ThreadPark ThreadSleep \
          FileRead JavaErrorThrow; do
  golden jfr "$jd" print-all.txt "event-$ev" --event jdk.$ev
done
golden jfr "$fixtures/jfr" edge-threads-strings.txt event-ThreadSleep-threads --event jdk.ThreadSleep --threads

# ---- SVG
golden svg "$fixtures/svg" flamegraph-pl-style.svg collapsed
if [ -n "$render" ]; then
  for f in jfr/ref-fold/print-ExecutionSample.txt.folded jfr/ref-fold/print-ThreadPark.txt.folded \
           perf/expected/cpp-fp-collapsed.folded perf/expected/system-wide-collapsed-tid.folded \
           pprof/ref/go-heap.pb.gz.folded-alloc_space.txt; do
    n=$((n + 1))
    "$bin" -q "$corpus/$f" >"$tmp/want" && "$render" --minwidth 0 "$tmp/want" >"$tmp/g.svg" &&
      "$bin" "$tmp/g.svg" >"$tmp/got" 2>"$tmp/err" || { bad "svg round trip of $f failed: $(head -c 200 "$tmp/err")"; continue; }
    cmp -s "$tmp/want" "$tmp/got" || { bad "svg round trip of $f differs"; diff "$tmp/want" "$tmp/got" | head -4; }
    n=$((n + 1))
    "$render" "$tmp/want" >"$tmp/g.svg" && "$bin" "$tmp/g.svg" >"$tmp/got" 2>"$tmp/err" || { bad "svg of $f failed"; continue; }
    # pruned frames count in their parent's self; only pruned top-level stacks (whose
    # parent is the root, which folded text cannot hold) may go: at most 0.1% here
    awk 'FNR == NR { w += $NF; next } { g += $NF } END { exit !(g <= w && g * 1000 >= w * 999) }' \
      "$tmp/want" "$tmp/got" || bad "svg of $f (pruned): totals too far apart"
  done
fi

echo "$((n - fail)) of $n checks pass"
[ $fail -eq 0 ] && [ $n -gt 0 ]
