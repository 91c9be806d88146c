# --list-sample-types in every tool: the pprof sample types of each input, then exit 0
cp "$CORPUS/pprof/go-heap.pb.gz" heap.pb.gz
cp "$CORPUS/pprof/go-cpu-labels.pb.gz" cpu.pb.gz
flame-collapse --list-sample-types heap.pb.gz cpu.pb.gz > want.txt
cat want.txt
flame-render --list-sample-types heap.pb.gz cpu.pb.gz | cmp - want.txt && echo "flame-render: the same"
flame-diff --list-sample-types heap.pb.gz cpu.pb.gz | cmp - want.txt && echo "flame-diff: the same"
flame-merge --list-sample-types heap.pb.gz:2 cpu.pb.gz | cmp - want.txt && echo "flame-merge (FILE:W): the same"
flame-top --list-sample-types heap.pb.gz cpu.pb.gz | cmp - want.txt && echo "flame-top: the same"
