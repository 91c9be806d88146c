# pprof out keeps the input's sample type and period type: a Go CPU
# profile comes back samples/count + cpu/nanoseconds (cpu the default), period type
# cpu/nanoseconds every 10 ms; a heap profile keeps its four types, the one chosen
# (--sample-type alloc_space) the default.
# Read back by our own pprof reader (go tool pprof: tests/pprof/cli/go/).
cp "$FIXTURES"/units/go-cpu.pb.gz "$FIXTURES"/units/go-heap.pb.gz "$FIXTURES"/units/cpu-clock.perf.txt .
flame-collapse --list-sample-types go-cpu.pb.gz
echo "--- written back"
flame-collapse --output-format pprof -o w.pb.gz go-cpu.pb.gz
flame-collapse --list-sample-types w.pb.gz
flame-collapse --no-header go-cpu.pb.gz > a.folded
flame-collapse --no-header --sample-type cpu w.pb.gz | cmp - a.folded && echo "cpu: same stacks"
# samples = cpu / period (10 ms), stack by stack
flame-collapse --sample-type samples w.pb.gz | awk '{ print $NF * 10000000 }' > s.txt
awk '{ print $NF }' a.folded | cmp - s.txt && echo "samples: cpu / 10 ms"
echo "--- two Go CPU profiles (one period) keep both"
flame-merge --format pprof -o m.pb.gz go-cpu.pb.gz go-cpu.pb.gz:3
flame-collapse --list-sample-types m.pb.gz
echo "--- with perf cpu-clock samples (no period): cpu/nanoseconds alone"
flame-merge --format pprof -o h.pb.gz go-cpu.pb.gz cpu-clock.perf.txt
flame-collapse --list-sample-types h.pb.gz
echo "--- heap"
flame-collapse --sample-type alloc_space --output-format pprof -o hp.pb.gz go-heap.pb.gz
flame-collapse --list-sample-types hp.pb.gz
echo "--- perf cpu-clock: the weights are nanoseconds of cpu"
flame-collapse --output-format pprof -o p.pb.gz cpu-clock.perf.txt
flame-collapse --list-sample-types p.pb.gz
