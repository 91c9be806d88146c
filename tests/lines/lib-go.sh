# Sourced by the tests of this area that build Go: sets GO to a go of 1.21 or newer (PGO),
# the one on PATH or /usr/local/go/bin/go, else exits 77 (skip) with a message.
GO=
for g in "$(command -v go 2>/dev/null)" /usr/local/go/bin/go; do
	[ -n "$g" ] && [ -x "$g" ] || continue
	v=$("$g" env GOVERSION 2>/dev/null) || continue
	v=${v#go}
	major=${v%%.*}
	rest=${v#*.}
	minor=${rest%%.*}
	if [ "${major:-0}" -gt 1 ] || { [ "${major:-0}" = 1 ] && [ "${minor:-0}" -ge 21 ]; }; then
		GO=$g
		break
	fi
done
if [ -z "$GO" ]; then
	echo "no go 1.21 or newer (PGO) on PATH or in /usr/local/go: skipped"
	exit 77
fi
export GOFLAGS=-mod=mod GOTOOLCHAIN=local
