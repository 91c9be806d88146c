#!/usr/bin/env bash
# Build Parca (the continuous-profiling server, Apache-2.0) for tests/engine/parca.sh, from
# the Go module proxy: v0.21.0, the newest release the proxy serves here. Needs Go 1.21 or
# newer (Debian 12's 1.19 is too old: put a newer `go` first on PATH, or let GOTOOLCHAIN
# fetch one). Takes several minutes and about 2 GB of module cache, so it is not part of CI.
# Prints the binary's path: ${XDG_CACHE_HOME:-~/.cache}/libflame/parca-v0.21.0/parca.
set -euo pipefail
version=v0.21.0
out=${XDG_CACHE_HOME:-$HOME/.cache}/libflame/parca-$version
[ -x "$out/parca" ] && { echo "$out/parca"; exit 0; }
command -v go >/dev/null || { echo "no go on PATH" >&2; exit 1; }
minor=$(go env GOVERSION | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
[ "${minor:-0}" -ge 21 ] || { echo "Parca needs Go 1.21 or newer; $(go env GOVERSION) found" >&2; exit 1; }
dir=$(cd /tmp && go mod download -json "github.com/parca-dev/parca@$version" |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$dir/." "$work" && chmod -R u+w "$work"
# parquet-go reaches into the runtime with go:linkname, which Go 1.23+ refuses by default
(cd "$work" && GOFLAGS=-mod=mod go build -ldflags=-checklinkname=0 -o "$out/parca" ./cmd/parca)
echo "$out/parca"
