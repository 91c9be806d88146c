# pprof-empty-values.pb must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-empty-values.pb" .
flame-collapse -o out.folded pprof-empty-values.pb
code=$?
ls
exit $code
