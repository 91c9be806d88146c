# pprof-varint-11-bytes.pb must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-varint-11-bytes.pb" .
flame-collapse -o out.folded pprof-varint-11-bytes.pb
code=$?
ls
exit $code
