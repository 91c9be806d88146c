# -j N gives the output and warnings of -j 1 (the fixture spans several blocks when doubled)
f=$FIXTURES/perf/progs-recurse.perf.txt
for i in 1 2 3 4 5 6; do cat "$f"; echo 'junk between copies'; done > big.perf
flame-collapse -j1 big.perf > one.folded 2> one.err
for j in 2 3 8; do
  flame-collapse -j$j big.perf > many.folded 2> many.err
  cmp one.folded many.folded && cmp one.err many.err && echo "-j$j same as -j1"
done
cat one.err
