# Inputs in any format flame-collapse reads: flame-diff of two perf script files (and of a
# gzipped one) equals difffolded.pl on their flame-collapse outputs (without the header line,
# which difffolded.pl would read as a stack).
oracle="$FIXTURES/../tests/diff/difffolded.py"
a=$CORPUS/perf/c-fp-default.perf.txt b=$CORPUS/perf/c-dwarf.perf.txt
flame-collapse --no-header "$a" > a.folded
flame-collapse --no-header "$b" > b.folded
gzip -c "$b" > b.perf.gz
for opts in "" "-n" "-j 2 -n"; do
  flame-diff $opts --no-header --format folded "$a" b.perf.gz > ours
  python3 "$oracle" ${opts#-j 2} a.folded b.folded > ref
  if cmp -s ours ref && [ -s ours ]; then echo "same [$opts]: $(wc -l < ours) lines"; else echo "DIFFERENT [$opts]"; fi
done
