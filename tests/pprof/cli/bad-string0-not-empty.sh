# pprof-string0-not-empty.pb must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-string0-not-empty.pb" .
flame-collapse -o out.folded pprof-string0-not-empty.pb
code=$?
ls
exit $code
