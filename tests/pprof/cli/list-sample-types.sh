# sample types with units; the default is the one go tool pprof picks
cp "$CORPUS/pprof/go-heap.pb.gz" "$CORPUS/pprof/edge-features.pb.gz" .
flame-collapse --list-sample-types go-heap.pb.gz
flame-collapse --list-sample-types go-heap.pb.gz edge-features.pb.gz
