# --top N keeps the N largest changes per section; --min-delta PCT leaves out changes below
# PCT% of BEFORE's total (99 here: 5% = 4.95, so load_config's -2 and idle's 0 go, render's
# +5 stays); -s merges the hex frames first.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
flame-diff --top 1 $d/before.folded $d/after.folded
echo "--- --min-delta 5 -s"
flame-diff --top 10 --min-delta 5 -s $d/before.folded $d/after.folded
echo "--- the picture: all coloured frames, then with --min-delta 13 (12.87 samples) only parse (+30)"
flame-diff $d/before.folded $d/after.folded > all.svg
python3 "$FIXTURES/../tests/diff/svg-fills.py" all.svg
flame-diff --min-delta 13 $d/before.folded $d/after.folded > some.svg
python3 "$FIXTURES/../tests/diff/svg-fills.py" some.svg
echo "--- fractional counts: BEFORE totals 7.75, so --min-delta 20 is 1.55 (Work.step's +1.5 goes white)"
flame-diff $d/frac-before.folded $d/frac-after.folded > f0.svg
python3 "$FIXTURES/../tests/diff/svg-fills.py" f0.svg
flame-diff --min-delta 20 $d/frac-before.folded $d/frac-after.folded > f20.svg
python3 "$FIXTURES/../tests/diff/svg-fills.py" f20.svg
