# pprof-location-cycle.pb must fail with a clear error naming the byte offset, exit 1, and leave no output file
cp "$FIXTURES/bad/pprof-location-cycle.pb" .
flame-collapse -o out.folded pprof-location-cycle.pb
code=$?
ls
exit $code
