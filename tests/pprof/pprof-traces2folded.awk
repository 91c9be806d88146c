# Convert `go tool pprof -traces -unit=U` output to folded stacks (root first, ';' in
# names as ':', " (inline)" marks dropped), summing equal stacks; zero and negative
# sums are left out, as flame-collapse leaves them out. Unsorted.
function flush(   i, s) {
	if (n > 0) {
		s = fr[n]
		for (i = n - 1; i >= 1; i--) s = s ";" fr[i]
		sum[s] += val
	}
	n = 0; inblock = 0
}
/^-----------\+/ { flush(); inblock = 1; seen = 0; next }
!inblock { next }
{
	line = $0
	if (!seen) {
		# the value line: "   <num><unit>   leaf"; lines before it are labels
		if (match(line, /^ *-?[0-9][0-9.]*[A-Za-z]*   /)) {
			v = substr(line, 1, RLENGTH); sub(/^ +/, "", v); sub(/ +$/, "", v)
			sub(/[A-Za-z]+$/, "", v)
			val = v + 0
			name = substr(line, RLENGTH + 1)
			seen = 1
		} else next
	} else {
		name = line
		sub(/^ +/, "", name)
	}
	sub(/ \(inline\)$/, "", name)
	gsub(/;/, ":", name)
	fr[++n] = name
}
END {
	flush()
	for (s in sum) if (sum[s] > 0) printf "%s %.0f\n", s, sum[s]
}
