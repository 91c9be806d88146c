# Auto-detection tells bpftrace and DTrace output from each other and from perf script,
# folded and offcputime text: each file collapses by content as with its format named.
same() { # FILE FORMAT: detection agrees with the named format
	a=$(flame-collapse -q "$1" 2>&1) b=$(flame-collapse -q --input-format "$2" "$1" 2>&1)
	[ "$a" = "$b" ] && [ -n "$a" ] && echo "$2 $(basename "$1")" || echo "DIFFERS $2 $1"
}
for f in "$FIXTURES"/bpftrace/*.bt; do same "$f" bpftrace; done
for f in "$FIXTURES"/dtrace/*.dtrace "$FIXTURES"/dtrace/*.txt; do same "$f" dtrace; done
for f in "$FIXTURES"/offcpu/*.txt; do same "$f" offcpu; done
same "$FIXTURES/bpftrace/results/documented.perl.folded" folded
same "$(ls "$CORPUS"/perf/*.perf.txt | head -1)" perf
# forced onto the other's file, each reader says so: no count (DTrace), nothing but
# skipped lines (bpftrace)
cd "$FIXTURES" || exit
flame-collapse --input-format dtrace bpftrace/documented.bt
echo "exit $?"
flame-collapse --input-format bpftrace dtrace/edge-cases.dtrace 2>&1 | head -2
