# pprof-wire-type-3.pb must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-wire-type-3.pb" .
flame-collapse -o out.folded pprof-wire-type-3.pb
code=$?
ls
exit $code
