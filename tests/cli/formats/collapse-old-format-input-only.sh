# flame-collapse --format NAME, NAME a format only read (perf, offcpu, jfr, svg, auto), keeps
# its old meaning: the input format, as --input-format NAME; the output stays folded text
flame-render "$FIXTURES/diff/before.folded" > g.svg
for case in "perf $FIXTURES/example/workload.perf.txt" \
            "offcpu $CORPUS/offcputime/bcc-rendered-folded-f.txt" \
            "jfr $CORPUS/jfr/print-ExecutionSample.txt" "svg g.svg" \
            "auto $FIXTURES/example/workload.perf.txt"; do
	set -- $case
	flame-collapse -q --format "$1" "$2" > old.folded; echo "--format $1: exit $?"
	flame-collapse -q --input-format "$1" "$2" > new.folded
	cmp old.folded new.folded && echo "  same as --input-format $1, $(wc -l < old.folded) folded lines"
done
# the svg read back is the folded file it was drawn from
flame-collapse --format svg g.svg | cmp - <(flame-collapse "$FIXTURES/diff/before.folded") && echo "svg: round trip"
