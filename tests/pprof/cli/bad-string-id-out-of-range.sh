# pprof-string-id-out-of-range.pb must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-string-id-out-of-range.pb" .
flame-collapse -o out.folded pprof-string-id-out-of-range.pb
code=$?
ls
exit $code
