# several pprof inputs are merged (gzipped and raw alike); units must agree
cp "$CORPUS/pprof/go-cpu-labels.pb.gz" "$CORPUS/pprof/go-cpu-labels-uncompressed.pb" "$CORPUS/pprof/go-heap.pb.gz" .
flame-collapse --no-header go-cpu-labels.pb.gz > one.folded
flame-collapse --no-header go-cpu-labels.pb.gz go-cpu-labels-uncompressed.pb > two.folded
# every count doubles
awk '{ $NF = $NF * 2; print }' one.folded | cmp - two.folded && echo "merged: counts doubled"
flame-collapse --format pprof go-cpu-labels.pb.gz go-heap.pb.gz
