# frame naming options: inlined frames, addresses, lines, system names
cp "$CORPUS/pprof/edge-features.pb.gz" e.pb.gz
echo "# default"; flame-collapse e.pb.gz
echo "# --inline-annotate"; flame-collapse --inline-annotate e.pb.gz
echo "# --addresses"; flame-collapse --addresses e.pb.gz
echo "# --lines"; flame-collapse --lines e.pb.gz
echo "# --system-names"; flame-collapse --system-names e.pb.gz
