# pprof-length-past-end.pb must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-length-past-end.pb" .
flame-collapse -o out.folded pprof-length-past-end.pb
code=$?
ls
exit $code
