# a sample whose callchain is empty (the event line, then the blank
# line) is CPU time spent: it counts as the process frame alone, as stackcollapse-perf.pl
# counts it, comm-PID or comm-PID/TID under --pid / --tid. Real `perf record -g
# --kernel-callchains` of gcc: 77 of its 111 samples ran in user space (no kernel chain).
f=$FIXTURES/perf/empty-callchain.perf.txt
flame-collapse "$f"
flame-collapse --pid "$f" | grep -v ';'
flame-collapse --tid "$f" | grep -v ';'
# every sample is counted: 111 x 200000
flame-collapse "$f" | awk '{ s += $NF } END { print s }'
