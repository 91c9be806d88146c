# pprof-absurd-counts.pb must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-absurd-counts.pb" .
flame-collapse -o out.folded pprof-absurd-counts.pb
code=$?
ls
exit $code
