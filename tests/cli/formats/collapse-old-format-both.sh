# folded and pprof name an input and an output format. Without --input-format, flame-collapse
# --format keeps its old meaning, the input format, so a script's command line writes what
# it always wrote: --format pprof reads pprof and writes folded text
p=$CORPUS/pprof/go-cpu-labels.pb.gz
flame-collapse --no-header --format pprof "$p" > a.folded; echo "--format pprof: exit $?"
flame-collapse --no-header --input-format pprof "$p" | cmp - a.folded && echo "  = --input-format pprof, folded text:"
head -c 40 a.folded; echo
# --format folded forces the folded reader, as before: perf script text read as folded
# stacks is not what auto-detection makes of it
perf=$FIXTURES/example/workload.perf.txt
flame-collapse -q --format folded "$perf" > b.folded; echo "--format folded: exit $?"
flame-collapse -q --input-format folded "$perf" | cmp - b.folded && echo "  = --input-format folded"
flame-collapse -q "$perf" | cmp -s - b.folded || echo "  (not what auto-detection reads)"
# with --input-format given, --format is only the output format
flame-collapse --input-format pprof --format pprof "$p" -o c.pb.gz; echo "--input-format pprof --format pprof: exit $?"
od -An -tx1 -N2 c.pb.gz
flame-collapse --no-header c.pb.gz | cmp - a.folded && echo "  reads back as the same stacks"
flame-collapse --no-header --input-format auto --format folded "$p" | cmp - a.folded && echo "--input-format auto --format folded: folded"
# a name no output of flame-collapse has is refused as an output format once --input-format is given
flame-collapse --input-format auto --format svg "$p"; echo "exit $?"
flame-collapse --input-format auto --format perf "$p"; echo "exit $?"
flame-collapse --input-format auto --format pprof --output-format folded "$p"; echo "exit $?"
flame-collapse --format nope "$p"; echo "exit $?"
# (perfdata is listed too when built with -Dperfdata: taken out)
flame-collapse --input-format nope "$p" 2>&1 | sed 's/, perfdata//'; echo "exit ${PIPESTATUS[0]}"
