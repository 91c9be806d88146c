# --sample-type by name or index; an unknown name is a usage error listing the types
cp "$CORPUS/pprof/edge-features.pb.gz" .
flame-collapse --sample-type samples edge-features.pb.gz
flame-collapse --sample-type 2 edge-features.pb.gz
flame-collapse --sample-type nope edge-features.pb.gz
