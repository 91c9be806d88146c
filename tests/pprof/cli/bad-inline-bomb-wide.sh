# inlined locations repeated far beyond any real stack: refused before allocating
cp "$FIXTURES/bad/pprof-inline-bomb-wide.pb" .
flame-collapse -o out.folded pprof-inline-bomb-wide.pb
code=$?
ls
exit $code
