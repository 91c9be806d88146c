# pprof-packed-varint-cut.pb must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-packed-varint-cut.pb" .
flame-collapse -o out.folded pprof-packed-varint-cut.pb
code=$?
ls
exit $code
