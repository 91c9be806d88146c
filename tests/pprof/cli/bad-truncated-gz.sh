# pprof-truncated.pb.gz must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-truncated.pb.gz" .
flame-collapse -o out.folded pprof-truncated.pb.gz
code=$?
ls
exit $code
