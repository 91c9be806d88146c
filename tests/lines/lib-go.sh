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

# same_edges FLAME_TOP PROFILE: flame-top --pgo's call edges and weights of PROFILE (all of
# them) are those `go tool preprofile` gives (Go's own reading: cmd/internal/pgo), or it
# says how they differ and returns 1.
same_edges() {
	local top=$1 prof=$2 d
	d=$(mktemp -d)
	"$GO" tool preprofile -i "$prof" -o "$d/pre" || { rm -rf "$d"; return 1; }
	tail -n +2 "$d/pre" | paste - - - |
		awk -F'\t' '{ split($3, a, " "); print a[2] " " $1 ":+" a[1] " -> " $2 }' | sort >"$d/go"
	"$top" --pgo "$prof" -n 0 |
		awk '/^ *[0-9]+ +[0-9.]+% +[0-9.]+%  / { w = $1; sub(/^ *[0-9]+ +[0-9.]+% +[0-9.]+%  /, ""); print w " " $0 }' |
		sort >"$d/ours"
	if ! diff "$d/go" "$d/ours" >"$d/diff"; then
		echo "FAIL: $prof: flame-top --pgo's edges are not go tool preprofile's (< go, > ours):" >&2
		head -20 "$d/diff" >&2
		rm -rf "$d"
		return 1
	fi
	echo "$prof: the $(wc -l <"$d/go") edges and weights of go tool preprofile"
	rm -rf "$d"
}
