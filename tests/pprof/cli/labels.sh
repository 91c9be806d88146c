# --tag (string regex, numeric range, no key), --tag-ignore and --group-by
cp "$CORPUS/pprof/edge-features.pb.gz" e.pb.gz
echo "# --tag endpoint=/api/"; flame-collapse --tag endpoint=/api/ e.pb.gz
echo "# --tag bytes=500:1000"; flame-collapse --tag bytes=500:1000 e.pb.gz
echo "# --tag size=4096"; flame-collapse --tag size=4096 e.pb.gz
echo "# --tag :100 (any numeric label <= 100)"; flame-collapse --tag :100 e.pb.gz
echo "# --tag 'thread:worker'"; flame-collapse --tag 'thread:worker' e.pb.gz
echo "# --tag-ignore endpoint=b --tag-ignore latency=10:"; flame-collapse --tag-ignore endpoint=b --tag-ignore latency=10: e.pb.gz
echo "# --group-by endpoint"; flame-collapse --group-by endpoint e.pb.gz
echo "# --group-by bytes --tag endpoint=."; flame-collapse --group-by bytes --tag endpoint=. e.pb.gz
echo "# bad regex"; flame-collapse --tag 'endpoint=(' e.pb.gz
