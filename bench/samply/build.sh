#!/usr/bin/env bash
# Build samply (a sampling profiler that imports perf.data and unwinds --call-graph dwarf
# recordings itself, MIT or Apache-2.0) from crates.io, for `SAMPLY=1 bench/perfdata`:
# 0.13.1, pinned, with its lock file. Needs cargo and rustc 1.77 or newer (rustup's
# stable, or Debian's `cargo` package where it is new enough). Takes several minutes and
# about 1 GB of build directory on 2 cores, so it is not part of CI.
# Prints the binary's path: ${XDG_CACHE_HOME:-~/.cache}/libflame/samply-0.13.1/bin/samply.
set -euo pipefail
version=0.13.1
out=${XDG_CACHE_HOME:-$HOME/.cache}/libflame/samply-$version
[ -x "$out/bin/samply" ] && { echo "$out/bin/samply"; exit 0; }
command -v cargo >/dev/null || { echo "no cargo on PATH (apt-get install cargo, or rustup)" >&2; exit 1; }
minor=$(rustc --version | sed -n 's/^rustc 1\.\([0-9]*\).*/\1/p')
[ "${minor:-0}" -ge 77 ] || { echo "samply $version needs rustc 1.77 or newer; $(rustc --version) found" >&2; exit 1; }
cargo install samply --version "$version" --locked --root "$out" -j "${JOBS:-2}" >&2
echo "$out/bin/samply"
