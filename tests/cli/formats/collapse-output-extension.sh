# flame-collapse's output format follows -o's extension, as in every tool: .pb.gz, .pb and
# .pprof write pprof (they used to get folded text under a pprof name), .folded .collapsed
# .txt folded text; another extension is refused and no file is written
perf=$FIXTURES/example/workload.perf.txt
flame-collapse "$perf" > ref.folded
for o in x.pb.gz x.pb x.PPROF x.folded x.collapsed x.txt out; do
	flame-collapse "$perf" -o $o; echo "-o $o: exit $?, $(od -An -tx1 -N2 $o | tr -d ' ')"
	flame-collapse $o | cmp - ref.folded && echo "  reads back as the same stacks"
done
flame-collapse "$perf" -o x.svg; echo "-o x.svg: exit $?"
ls x.svg 2>/dev/null
# --output-format (or --format with --input-format) wins over the extension
flame-collapse --output-format folded "$perf" -o y.pb.gz; cmp y.pb.gz ref.folded && echo "--output-format folded -o y.pb.gz: folded"
flame-collapse --input-format perf --format folded "$perf" -o z.pb.gz; cmp z.pb.gz ref.folded && echo "--input-format perf --format folded -o z.pb.gz: folded"
# an old --format naming the input leaves the output to -o
flame-collapse --format pprof x.pb.gz -o back.pb.gz; echo "--format pprof -o back.pb.gz: $(od -An -tx1 -N2 back.pb.gz | tr -d ' ')"
