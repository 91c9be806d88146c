# An old flamegraph.pl SVG (March 2013: onmouseover="s('...')", frames in hash order) of
# 348,427 samples whose top-level frames perf (6) and sshd (7) are narrower than its 0.1 px
# --minwidth: they are not drawn, and their 13 samples are only in all's count. They come
# back as all's own self, so the total is exact (it was 13 short); tiny (14 samples, under
# gc) stays in gc's self as before. The last line is the total read back.
cd "$FIXTURES/svg" && flame-collapse flamegraph-pl-old-pruned-top.svg >"$OLDPWD/got" &&
	cat "$OLDPWD/got" && awk '{ n += $NF } END { print "total " n }' "$OLDPWD/got"
