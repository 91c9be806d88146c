# pprof-truncated.pb must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-truncated.pb" .
flame-collapse -o out.folded pprof-truncated.pb
code=$?
ls
exit $code
