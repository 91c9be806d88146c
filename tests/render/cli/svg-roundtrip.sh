# flame-render's SVG read back by flame-collapse --format svg gives the folded input back:
# exactly at --minwidth 0, and at any --minwidth with each stack cut at its deepest drawn
# frame (hidden frames' weight as that frame's self; hidden top-level frames kept as
# one-frame stacks), for hostile names, fractional and differential counts, --reverse,
# --inverted and --factor. The expected text comes from tests/render/svg-expect.py.
expect=$FIXTURES/../tests/render/svg-expect.py
for f in $FIXTURES/render/{merge,diff,fractional,hostile,java,latin1,chart}.folded \
         $FIXTURES/diff/{before,three-column,frac-after}.folded \
         $CORPUS/perf/expected/c-dwarf-collapsed.folded $CORPUS/jfr/ref-fold/print-ExecutionSample.txt.threads.folded; do
  for mw in 0 0.1 5 10%; do
    for opt in "" --reverse "--inverted --factor 0.3"; do
      flame-render -q --minwidth $mw $opt "$f" > g.svg || echo "render failed: $f $mw $opt"
      flame-collapse -q --format svg g.svg > got.folded
      python3 "$expect" "$f" $mw $([ "$opt" = --reverse ] && echo reverse) > want.folded
      if cmp -s want.folded got.folded; then r=same; else r="DIFFERS: $(diff want.folded got.folded | head -5)"; fi
      [ "$opt" = --reverse ] && [ "$mw" = 5 ] && ! grep -q 'data-reverse="1"' g.svg && r="no data-reverse"
      echo "$(basename "$f") --minwidth $mw $opt: $(wc -l < want.folded) stacks, $r"
    done
  done
done
# the graph's total survives hidden top-level frames (folded text has no root self)
printf 'a;b 100000000\nz;y 1\nq 2\n' > t.folded
flame-render t.folded | flame-collapse --format svg
