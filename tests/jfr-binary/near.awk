# Usage: awk -f near.awk THEIRS.folded OURS.folded
# The same stacks, each weight within 1% of jfr print's (whose text rounds every size
# and duration to ~3 digits, so the sums of many events drift a little either way).
function key(line) { return substr(line, 1, length(line) - length($NF) - 1) }
FNR == NR { w[key($0)] = $NF; nref++; next }
{
	k = key($0)
	if (!(k in w)) { print "not in jfr print's: " k; exit 1 }
	d = w[k] - $NF
	if (d < 0) d = -d
	if (d > w[k] / 100 + 1) { print "weight " $NF " vs " w[k] ": " k; exit 1 }
	seen++
}
END { if (seen != nref) { print seen " stacks of jfr print's " nref; exit 1 } print seen " stacks, each weight within 1%" }
