# flame-render's SVG read back gives the same stacks (nothing pruned at --minwidth 0),
# also for a differential graph; flamegraph.pl-style SVGs are read by geometry
cd "$CORPUS/jfr/ref-fold"
flame-render --minwidth 0 print-NativeMethodSample.txt.folded >"$OLDPWD/g.svg"
cd "$OLDPWD"
flame-collapse g.svg
printf 'a;b 5 9\na;c 3 0\nd 1 2\n' >diff.folded
flame-render --minwidth 0 diff.folded >d.svg
flame-collapse d.svg
flame-collapse "$FIXTURES/svg/flamegraph-pl-style.svg"
