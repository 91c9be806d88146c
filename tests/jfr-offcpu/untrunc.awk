# Usage: flame-collapse JFR.txt | awk -f untrunc.awk
# The JFR oracle drops a trace's '...' and keeps the rest as if it were whole; flame-collapse
# keeps such a trace under a '[truncated]' root frame. Without that frame both must agree:
# this drops the frame, merges the stacks that then coincide and sorts as the oracle does.
# Folded text with no '[truncated]' frame passes through unchanged.
{ line[NR] = $0; if (index($0, "[truncated]")) cut = 1 }
END {
	if (!cut) { for (i = 1; i <= NR; i++) print line[i]; exit }
	sort = "LC_ALL=C sort"
	for (i = 1; i <= NR; i++) {
		s = line[i]
		sub(/\[truncated\];/, "", s)
		nf = split(s, f, " ")
		k = substr(s, 1, length(s) - length(f[nf]) - 1)
		if (!(k in w)) o[n++] = k
		w[k] += f[nf]
	}
	for (i = 0; i < n; i++) printf "%s %.0f\n", o[i], w[o[i]] | sort
	close(sort)
}
