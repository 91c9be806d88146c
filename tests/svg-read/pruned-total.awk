# Usage: awk -f pruned-total.awk WANT.folded GOT.folded
# GOT (stacks read back from an SVG drawn with the default --minwidth) may miss only pruned
# top-level stacks: its total is at most WANT's and at least 99.9% of it.
FNR == NR { w += $NF; next }
{ g += $NF }
END {
	if (g <= w && g * 1000 >= w * 999) print "total read back: at most the drawn total, within 0.1% of it"
	else { print "total " g " vs " w; exit 1 }
}
