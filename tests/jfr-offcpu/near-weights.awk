# Usage: awk -f near-weights.awk REFERENCE.folded ACTUAL.folded
# The same stacks as REFERENCE, each weight within 5% and the total within 0.1% (JFR text
# rounds sizes and durations to ~3 digits; the reference comes from exact values).
# Prints the number of stacks when they agree, what differs otherwise (exit 1).
function key(line) { return substr(line, 1, length(line) - length($NF) - 1) }
FNR == NR { w[key($0)] = $NF; nref++; next }
{
	k = key($0)
	if (!(k in w)) { print "not in the reference: " k; bad = 1; exit 1 }
	d = w[k] - $NF
	if (d < 0) d = -d
	if (d > w[k] / 20) { print "weight " $NF " vs " w[k] ": " k; bad = 1; exit 1 }
	seen++; tref += w[k]; tgot += $NF
}
END {
	if (bad) exit 1
	d = tref - tgot
	if (d < 0) d = -d
	if (seen != nref) { print seen " stacks of the reference's " nref; exit 1 }
	if (d > tref / 1000) { print "total " tgot " vs " tref; exit 1 }
	print seen " stacks, each weight within 5%, the total within 0.1%"
}
