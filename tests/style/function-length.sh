#!/usr/bin/env bash
# No function longer than a screen: every function body in libflame/ and tools/ is at most
# MAX lines (80), from the line of its opening brace at column 0 to its closing one. Prints
# each longer one as FILE:LINE: NAME is N lines, and exits 1 if there is any.
# Usage: function-length.sh SOURCE_DIR [MAX]
set -u
cd "$1" || exit 2
max=${2:-80}
awk -v max="$max" '
FNR == 1 { start = 0 }
/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { sig = $0; sigline = FNR }
/^\{/ { start = FNR; name = sig; sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); name = w[n] }
/^\}/ && start { len = FNR - start - 1
	if (len > max) { printf "%s:%d: %s is %d lines\n", FILENAME, sigline, name, len; bad++ }
	start = 0 }
END { exit bad > 0 }
' $(git ls-files 'libflame/*.c' 'tools/*.c' 2>/dev/null || find libflame tools -name '*.c')
