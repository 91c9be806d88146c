#!/usr/bin/env bash
# bench/jfr-binary.sh: `flame-collapse FILE.jfr` against `jfr print --events TYPE
# --stack-depth 64 FILE.jfr | flame-collapse` end to end, on a recording of at least SIZE_MB
# (issue 24: goal >= 20x), for two event types: jdk.ExecutionSample (the default; few
# events, so jfr print skips most of the file) and jdk.ObjectAllocationOutsideTLAB (most
# of the file's events); and flame-collapse's peak RSS on it and on a recording a quarter
# as long (memory flat in the recording's size). Beside them, where its Maven Central jar
# is found (JFR_CONVERTER_JAR, or tools.profiler:jfr-converter in ~/.m2), async-profiler's
# converter turning the recording's CPU samples into collapsed stacks
# (java -jar jfr-converter.jar -o collapsed FILE.jfr OUT), in the same rounds.
# The recording: bench/jfr/Busy.java (2 threads allocating at the end of random call paths)
# recorded once for SECS seconds into bench/data/jfr-binary/ (a JDK needed), then its chunks
# repeated up to SIZE_MB (a recording is its chunks one after the other: jfr assemble's
# way; each chunk holds its own metadata and constants, so each copy is read in full).
# Rounds are interleaved; prints medians of wall and CPU time (user + system, children
# included), their spread (min..max) and the median of the per-round ratios.
# Usage: bench/jfr-binary.sh [FLAME_COLLAPSE]  Env: RUNS=3, SECS=20, SIZE_MB=50
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${1:-${FLAME_COLLAPSE:-$root/build/tools/flame-collapse}}
runs=${RUNS:-3}
secs=${SECS:-20}
size_mb=${SIZE_MB:-50}
data=$here/data/jfr-binary
[ -x "$bin" ] || { echo "no flame-collapse at $bin (build first, or pass its path)" >&2; exit 2; }
for t in java javac jfr; do command -v $t >/dev/null || { echo "$t is needed" >&2; exit 2; }; done
mkdir -p "$data"
if [ ! -f "$data/rec.jfr" ]; then
  echo "recording $data/rec.jfr (${secs}s, once)..." >&2
  javac -d "$data" "$here/jfr/Busy.java"
  jfc=$(dirname "$(readlink -f "$(command -v java)")")/../lib/jfr/profile.jfc
  sed -e '/jdk.ExecutionSample"/,/<\/event>/s/<setting name="period"[^>]*>.*</<setting name="period">1 ms</' \
      -e '/jdk.ObjectAllocationOutsideTLAB"/,/<\/event>/s/<setting name="enabled"[^>]*>.*</<setting name="enabled">true</' \
      "$jfc" > "$data/rec.jfc"
  java -XX:StartFlightRecording=filename="$data/rec.jfr",settings="$data/rec.jfc" \
    -XX:FlightRecorderOptions:maxchunksize=1M -cp "$data" Busy $((secs * 1000)) 2 >/dev/null 2>&1
fi
rec_kb=$(( $(stat -c %s "$data/rec.jfr") / 1024 ))
copies=$(( (size_mb * 1024 + rec_kb - 1) / rec_kb ))
if [ ! -f "$data/big-$size_mb.jfr" ]; then
  for ((i = 0; i < copies; i++)); do cat "$data/rec.jfr"; done > "$data/big-$size_mb.jfr"
  for ((i = 0; i < (copies + 3) / 4; i++)); do cat "$data/rec.jfr"; done > "$data/quarter-$size_mb.jfr"
fi
big=$data/big-$size_mb.jfr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
events=(jdk.ExecutionSample jdk.ObjectAllocationOutsideTLAB)
conv=${JFR_CONVERTER_JAR:-$(ls "$HOME"/.m2/repository/tools/profiler/jfr-converter/*/jfr-converter-*.jar 2>/dev/null | tail -1)}
same=()
for ev in "${events[@]}"; do
  "$bin" -q --event "$ev" "$big" | grep -v '^#' | cut -d' ' -f1 > "$tmp/a"
  jfr print --events "$ev" --stack-depth 64 "$big" | "$bin" -q --input-format jfr --event "$ev" |
    grep -v '^#' | cut -d' ' -f1 > "$tmp/b"
  cmp -s "$tmp/a" "$tmp/b" && same+=("$ev: the same $(wc -l < "$tmp/a") stacks") || same+=("$ev: stacks DIFFER")
done

t() { # "wall cpu" seconds of a shell command (cpu: user + system of it and its children)
  local t0=$EPOCHREALTIME
  /usr/bin/time -f '%U %S' -o "$tmp/cpu" sh -c "$1" > /dev/null 2>&1
  awk -v a="$t0" -v b="$EPOCHREALTIME" '{ printf "%.4f %.4f\n", b - a, $1 + $2 }' "$tmp/cpu"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s..%s", lo, hi }'; }
col() { printf '%s\n' "${@:2}" | awk -v c="$1" '{ print $c }'; }
for ev in "${events[@]}"; do
  declare -a ta=() tb=() tc=() rw=() rc=()
  for ((r = 0; r < runs; r++)); do
    a=$(t "'$bin' -q --event $ev '$big'")
    b=$(t "jfr print --events $ev --stack-depth 64 '$big' | '$bin' -q --input-format jfr --event $ev")
    ta+=("$a") tb+=("$b")
    if [ -f "$conv" ] && [ "$ev" = jdk.ExecutionSample ]; then
      tc+=("$(t "java -jar '$conv' -o collapsed '$big' '$tmp/conv.collapsed'")")
    fi
    rw+=("$(awk -v a="${a% *}" -v b="${b% *}" 'BEGIN { printf "%.1f", b / a }')")
    rc+=("$(awk -v a="${a#* }" -v b="${b#* }" 'BEGIN { printf "%.1f", b / (a > 0 ? a : 0.01) }')")
  done
  echo "== $ev"
  for w in 1 2; do
    what=$([ $w = 1 ] && echo wall || echo cpu)
    printf '%-38s %s median %8.3fs  spread %s s\n' "flame-collapse FILE.jfr" "$what" \
      "$(col $w "${ta[@]}" | median)" "$(col $w "${ta[@]}" | range)"
    printf '%-38s %s median %8.3fs  spread %s s\n' "jfr print | flame-collapse" "$what" \
      "$(col $w "${tb[@]}" | median)" "$(col $w "${tb[@]}" | range)"
    [ ${#tc[@]} -eq 0 ] || printf '%-38s %s median %8.3fs  spread %s s\n' \
      "async-profiler's jfr-converter" "$what" "$(col $w "${tc[@]}" | median)" "$(col $w "${tc[@]}" | range)"
  done
  printf 'ratio per round, jfr print / direct: wall median %sx (spread %sx), cpu median %sx (spread %sx)  (goal >= 20x)\n' \
    "$(printf '%s\n' "${rw[@]}" | median)" "$(printf '%s\n' "${rw[@]}" | range)" \
    "$(printf '%s\n' "${rc[@]}" | median)" "$(printf '%s\n' "${rc[@]}" | range)"
done
rss() { /usr/bin/time -f %M "$@" 2>&1 > /dev/null | tail -1; }
rss_big=$(for i in 1 2 3; do rss "$bin" -q --event jdk.ObjectAllocationOutsideTLAB "$big"; done | median)
rss_q=$(for i in 1 2 3; do rss "$bin" -q --event jdk.ObjectAllocationOutsideTLAB "$data/quarter-$size_mb.jfr"; done | median)
printf 'recording: %s MB (%d copies of a %d KB recording of %s chunks), %s\n' \
  "$(stat -c %s "$big" | awk '{ printf "%.1f", $1 / 1048576 }')" "$copies" "$rec_kb" \
  "$(jfr summary "$data/rec.jfr" | awk '$1 == "Chunks:" { print $2 }')" "$(IFS=';'; echo "${same[*]}")"
printf '%d interleaved runs, %d cores, load average %s (a shared machine)\n' "$runs" "$(nproc)" \
  "$(cut -d' ' -f1 /proc/loadavg)"
printf 'peak RSS of flame-collapse FILE.jfr: %.1f MiB on the recording, %.1f MiB on one a quarter as long\n' \
  "$(awk -v k="$rss_big" 'BEGIN { print k / 1024 }')" "$(awk -v k="$rss_q" 'BEGIN { print k / 1024 }')"
