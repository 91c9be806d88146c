# README "Limits": flame-collapse holds 4 MiB of unique stacks in memory, then spills
# sorted runs to an unnamed file in $TMPDIR; the output is the same, and a TMPDIR that
# cannot take the file is an error naming it (exit 1, no output file)
python3 -c "
for i in range(300000): print('main;mod%d;fn%d;leaf%d %d' % (i % 97, i % 1013, i, i % 7 + 1))" > big.folded
mkdir tmp
TMPDIR=$PWD/tmp flame-collapse -o spilled.folded big.folded
LC_ALL=C sort big.folded | cmp - spilled.folded && echo "spilled: same as sorted input"
ls tmp | wc -l
TMPDIR=$PWD/missing flame-collapse -o out.folded big.folded 2>&1 | sed "s|$PWD/||"
echo "exit ${PIPESTATUS[0]}"; [ -e out.folded ] && echo "out.folded left behind"; true
