# flamegraph.pl SVGs whose top-level frame is as wide as 'all' and comes
# first in the file (hash order), drawn upright and --inverted: the root is 'all', on the
# root row; totals stay those of the stacks
cd "$FIXTURES/svg" && flame-collapse flamegraph-pl-hash-order.svg && flame-collapse flamegraph-pl-inverted.svg
