# Sourced by the tests that take go tool pprof as their oracle. Defines go_pprof, which runs
# pprof: the binary in FLAME_GO_PPROF (tests/meson.build builds cmd/pprof once per build
# directory, before the tests start), else `go tool pprof`. Without go it exits 77 (skip),
# or 1 when FLAME_REQUIRE_GO=1.
# Why a binary of our own: Go 1.25 and later ship no pprof binary. `go tool pprof` builds it
# into the go build cache on first use (minutes on a cold cache: longer than a test's
# timeout, and these tests point HOME, hence the default cache, at a temporary directory)
# and checks that it is up to date on every call (a second each, hundreds of calls).
if [ -n "${FLAME_GO_PPROF:-}" ] && [ -x "$FLAME_GO_PPROF" ]; then
	go_pprof() { "$FLAME_GO_PPROF" "$@"; }
elif command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
	# the user's build cache stays where it is when the test moves HOME (source this first)
	GOCACHE=$(go env GOCACHE)
	export GOCACHE
	go_pprof() { go tool pprof "$@"; }
else
	echo "go tool pprof is not installed (Debian: golang-go)"
	[ "${FLAME_REQUIRE_GO:-0}" = 1 ] && exit 1
	exit 77
fi
