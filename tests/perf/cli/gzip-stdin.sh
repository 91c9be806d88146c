# gzip'd perf text on stdin is detected and inflated
f=$FIXTURES/perf/progs-threads.perf.txt
gzip -c "$f" | flame-collapse > gz.folded
flame-collapse "$f" > plain.folded
cmp gz.folded plain.folded && echo same
