#!/usr/bin/env bash
# Throughput and memory of the JSON readers (.cpuprofile, speedscope sampled and evented,
# Chrome trace events, the Firefox Profiler's files)
# on ~SIZE MB inputs shaped like the real tools' (bench/parsers/json-gen.py, and
# bench/parsers/firefox-gen.py for samply's files, cached in bench/data/), beside json-c's parse of the same file (bench/parsers/jsonc-parse.c: the
# document built and freed, nothing done with it) and speedscope 1.25's own import of it
# (tests/browser/speedscope-import.mjs, headless Chromium, when tests/browser has its
# node_modules). For each: medians of RUNS runs of wall and CPU (user+sys) time with their
# spread (min-max), MB/s of CPU time (what other load does not inflate), and the median
# peak RSS. json-c runs JSONC_RUNS times (1: it is 30 times slower), speedscope imports
# inputs of SPEEDSCOPE_MB (2) MB made the same way (its import of 200 MB takes minutes), once.
# Target: >= 200 MB/s, memory flat in the samples where the format streams.
# ONLY=REGEX measures the inputs whose names match.
# Usage: bench/parsers/json.sh [BUILD_DIR (build)] [RUNS (5)] [SIZE_MB (200)]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
size=${3:-200}
bin=$build/tools/flame-collapse
data=$root/bench/data
[ -x "$bin" ] || { echo "no $bin: build first (meson setup build && ninja -C build)"; exit 2; }
mkdir -p "$data"
ss_mb=${SPEEDSCOPE_MB:-2}
python3 "$root/bench/parsers/json-gen.py" "$data" "$size" >/dev/null
[ -f "$data/firefox-${size}m.json" ] ||
  python3 "$root/bench/parsers/firefox-gen.py" "$data/firefox-${size}m.json" "$size"
jsonc=""
if pkg-config --exists json-c 2>/dev/null; then
  jsonc=$data/jsonc-parse
  cc -O2 -o "$jsonc" "$root/bench/parsers/jsonc-parse.c" $(pkg-config --cflags --libs json-c)
fi
speedscope=""
if [ -d "$root/tests/browser/node_modules/speedscope" ] && [ -x /usr/bin/chromium ]; then
  speedscope=$root/tests/browser/speedscope-import.mjs
  python3 "$root/bench/parsers/json-gen.py" "$data" "$ss_mb" >/dev/null
fi

# stats CMD...: RUNS runs; prints "wall_med wall_min wall_max cpu_med cpu_min cpu_max rss_med"
# (ms, ms, KB)
stats() {
  local out=$data/.time.$$ r n=$runs
  [ "$1" = -n ] && { n=$2; shift 2; }
  : >"$out"
  for _ in $(seq "$n"); do
    /usr/bin/time -f '%e %U %S %M' -o "$out.1" "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; rm -f "$out"*; return 1; }
    cat "$out.1" >>"$out"
  done
  awk -v n="$n" '
    { w[NR] = $1 * 1000; c[NR] = ($2 + $3) * 1000; m[NR] = $4 }
    function med(a,   i, j, t, k) { for (i = 1; i <= n; i++) k[i] = a[i]
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (k[j] < k[i]) { t = k[i]; k[i] = k[j]; k[j] = t }
      lo = k[1]; hi = k[n]; return k[int((n + 1) / 2)] }
    END { mw = med(w); wl = lo; wh = hi; mc = med(c); cl = lo; ch = hi; mm = med(m)
      printf "%d %d %d %d %d %d %d\n", mw, wl, wh, mc, cl, ch, mm }' "$out"
  rm -f "$out" "$out.1"
}

row() { # NAME MB stats...
  awk -v name="$1" -v mb="$2" -v s="$3" 'BEGIN { split(s, a, " ")
    printf "%-34s %6.1f %6d (%d-%d) %6d (%d-%d) %8.0f %8d\n", name, mb, a[1], a[2], a[3], a[4], a[5], a[6],
      mb / ((a[4] > 0 ? a[4] : 1) / 1000), a[7] / 1024 }'
}

printf '%-34s %6s %18s %18s %8s %8s\n' "reader / input" MB "wall ms (min-max)" "cpu ms (min-max)" cpuMB/s RSS_MB
for spec in "cpuprofile-${size}m.cpuprofile cpuprofile" "sampled-${size}m.speedscope.json speedscope" \
            "evented-${size}m.speedscope.json speedscope" "chrometrace-${size}m.trace.json chrometrace" \
            "firefox-${size}m.json firefox"; do
  set -- $spec
  [[ $1 =~ ${ONLY:-.} ]] || continue
  f=$data/$1
  mb=$(awk -v b="$(wc -c <"$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
  cat "$f" >/dev/null # warm the page cache
  row "flame-collapse $1" "$mb" "$(stats "$bin" -q --input-format "$2" "$f")"
  [ -n "$jsonc" ] && row "json-c parse $1" "$mb" "$(stats -n "${JSONC_RUNS:-1}" "$jsonc" "$f")"
  if [ -n "$speedscope" ] && [ "$2" != firefox ]; then # (speedscope takes no processed profile)
    # speedscope's own import of the small input: the import's time as the page measures it
    small=$data/${1/-${size}m/-${ss_mb}m}
    smb=$(awk -v b="$(wc -c <"$small")" 'BEGIN { printf "%.1f", b / 1048576 }')
    row "flame-collapse ${small##*/}" "$smb" "$(stats "$bin" -q --input-format "$2" "$small")"
    node "$speedscope" "$small" 2>/dev/null | awk -F'\t' -v n="${small##*/}" -v mb="$smb" '
      { if ($5 > ms) ms = $5 } END { if (ms > 0) printf "%-34s %6.1f %18s %6.0f (import)   %8.1f\n", "speedscope import " n, mb, "", ms, mb / (ms / 1000) }' || true
  fi
done
echo "target: >= 200 MB/s. cpuMB/s uses the median user+sys time, which other load on the machine does not inflate; RSS is the median peak resident set."
