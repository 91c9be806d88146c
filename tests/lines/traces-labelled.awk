# `go tool pprof -traces` output as "LABELS | FRAMES VALUE" lines: each sample's labels
# (the lines before its value, as pprof prints them) and its frames leaf first, equal keys
# summed (a profile written back holds one sample per stack and label set, the original
# may hold several), zero sums left out (flame-collapse keeps no empty stack). The header
# lines (File, Type, Time, Duration) are kept as they are. Unsorted.
function flush(   k) {
	if (n > 0) {
		k = lab " |" fr
		sum[k] += val
		unit[k] = u
	}
	n = 0; inblock = 0; lab = ""; fr = ""
}
/^-----------\+/ { flush(); inblock = 1; seen = 0; next }
!inblock { if (!done) print; next }
{
	done = 1
	line = $0
	if (!seen) {
		if (match(line, /^ *-?[0-9][0-9.]*[A-Za-z]*   /)) {
			v = substr(line, 1, RLENGTH); sub(/^ +/, "", v); sub(/ +$/, "", v)
			u = v; sub(/^-?[0-9.]+/, "", u)
			sub(/[A-Za-z]+$/, "", v)
			val = v + 0
			name = substr(line, RLENGTH + 1)
			seen = 1
		} else {
			sub(/^ +/, "", line)
			lab = lab " " line
			next
		}
	} else {
		name = line
		sub(/^ +/, "", name)
	}
	fr = fr " " name
	n++
}
END {
	flush()
	for (k in sum) if (sum[k] != 0) printf "%s %s%s\n", k, sum[k], unit[k]
}
