# What the counts measure survives a pipe from one tool to the next: folded output starts
# with `# countname=UNIT type=TYPE duration=NS` when the counts are not plain samples, and
# every tool reading folded text takes it back. `perf script | flame-collapse |
# flame-render` drew "all (N samples)" for cpu-clock periods in nanoseconds, and flame-top
# could give no cores on that folded text. --no-header gives stackcollapse-perf.pl's bytes.
cp "$FIXTURES/units/cpu-clock.perf.txt" cpu.perf.txt
cp "$FIXTURES/units/go-cpu.pb.gz" "$FIXTURES/units/go-heap.pb.gz" .
flame-collapse cpu.perf.txt > cpu.folded
head -1 cpu.folded
echo "render, perf text: $(flame-render cpu.perf.txt | grep -o '<title>all ([^)]*)')"
echo "render, folded:    $(flame-render cpu.folded | grep -o '<title>all ([^)]*)')"
flame-collapse cpu.perf.txt | flame-render | grep -o '<title>all ([^)]*)'
flame-top --window 10s -n 2 cpu.folded | head -1
flame-top --window 10s -n 2 cpu.folded | cmp - <(flame-top --window 10s -n 2 cpu.perf.txt) && echo "flame-top: the same on perf text and its folded text"
# pprof: the sample type and the duration too (cores without --window)
flame-collapse go-cpu.pb.gz | head -1
flame-collapse go-cpu.pb.gz | flame-top -n 3 | cmp - <(flame-top -n 3 go-cpu.pb.gz) && echo "flame-top: the same on a pprof profile and its folded text"
flame-collapse --sample-type alloc_space go-heap.pb.gz > heap.folded
head -1 heap.folded
flame-render heap.folded | grep -o '<title>all ([^)]*)'
# through flame-merge and flame-diff (folded text, streamed or read whole) and back
flame-merge cpu.folded cpu.folded | head -1
flame-merge -j1 cpu.folded cpu.folded cpu.folded | head -1
flame-diff --format folded cpu.folded cpu.folded | head -1
flame-diff cpu.folded cpu.folded | grep -o '<title>all ([^;]*;' | head -1
flame-collapse cpu.folded | cmp - cpu.folded && echo "folded read back: the same bytes"
# the units rule holds for folded text too
flame-merge cpu.folded heap.folded; echo "exit $?"
flame-merge --ignore-units cpu.folded heap.folded | head -1
# without the header: stackcollapse-perf.pl's bytes, and nanoseconds drawn as samples
flame-collapse --no-header cpu.perf.txt | cmp - <(tail -n +2 cpu.folded) && echo "--no-header: the same stacks, no first line"
flame-collapse --no-header cpu.perf.txt | flame-render | grep -o '<title>all ([^)]*)'
flame-merge --no-header cpu.folded | head -1 | cut -c1-30
flame-diff --no-header --format folded cpu.folded cpu.folded | head -1 | cut -c1-30
# a header alone (an empty profile) is folded text of no stacks, not "cannot tell"
printf '# countname=nanoseconds type=cpu\n' | flame-collapse | wc -c
