# inlined locations repeated far beyond any real stack: refused before allocating
cp "$FIXTURES/bad/pprof-inline-bomb-deep.pb" .
flame-collapse -o out.folded pprof-inline-bomb-deep.pb
code=$?
ls
exit $code
