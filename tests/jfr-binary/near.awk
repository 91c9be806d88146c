# Usage: awk [-v tol=PCT] [-v extra=W] -f near.awk THEIRS.folded OURS.folded
# The same stacks, each weight within tol% (1 unless told; 0: exactly) of jfr print's:
# its text rounds every size and duration (sizes from 1 KiB up to one decimal of kB/MB,
# so by up to 5%; durations to 3 significant digits, so by up to 0.5%), and a sum of
# rounded values is off by at most the largest relative rounding. `extra` (0 unless
# told): weight ours may have beyond that in all, in stacks of jfr print's or new ones:
# the events our reader found in the chunk before's constants, which jfr print shows
# without a stack trace (the reader's jfr-previous-chunk warning says how much they weigh),
# or, with --threads, under "[unknown thread]": such a stack of jfr print's may be missing
# from ours, its weight then counted in `extra` too.
function key(line) { return substr(line, 1, length(line) - length($NF) - 1) }
BEGIN { if (tol == "") tol = 1; extra += 0 }
FNR == NR { w[key($0)] = $NF; nref++; next }
{
	k = key($0)
	if (!(k in w)) {
		if (extra == 0) { print "not in jfr print's: " k; failed = 1; exit 1 }
		over += $NF
		next
	}
	slack = tol > 0 ? w[k] * tol / 100 + 1 : 0 # (+1: sizes are whole bytes, the text's tenths)
	d = $NF - w[k]
	if (d < -slack || (extra == 0 && d > slack)) { print "weight " $NF " vs " w[k] ": " k; failed = 1; exit 1 }
	if (d > slack) over += d - slack
	seen++
	found[k] = 1
}
END {
	if (failed) exit 1
	for (k in w)
		if (!(k in found) && extra > 0 && index(k, "[unknown thread];") == 1) {
			gone += w[k] # events whose thread jfr print did not find, ours did
			nref--
		}
	if (seen != nref) { print seen " stacks of jfr print's " nref; exit 1 }
	if (gone > extra) { print "jfr print's [unknown thread] stacks weigh " gone ", more than the " extra " read from the chunk before"; exit 1 }
	if (over > extra) { print "weights past jfr print's by " over ", beyond the " extra " read from the chunk before"; exit 1 }
	printf "%d stacks, each weight within %s%%", seen, tol
	if (extra > 0) printf " (past that %d in all, of %d read from the chunk before)", over, extra
	print ""
}
