# inputs whose units differ (CPU nanoseconds, heap bytes, JFR sample
# counts) are an error naming both, not a silent sum; --ignore-units forces it. A unit
# known on one side only (folded text has none) is no conflict, and equal units merge.
cp "$FIXTURES"/units/* . && chmod u+w ./*
printf 'main;work 5\n' > plain.folded
echo "--- cpu + heap"
flame-merge -o m.folded go-cpu.pb.gz go-heap.pb.gz; echo "exit $?"
ls m.folded 2>/dev/null || echo "no m.folded"
echo "--- cpu + jfr samples"
flame-merge go-cpu.pb.gz jfr-execution-samples.txt; echo "exit $?"
echo "--- perf cpu-clock + heap, 3 inputs (read whole), --normalize, -j 1"
flame-merge cpu-clock.perf.txt plain.folded go-heap.pb.gz; echo "exit $?"
flame-merge --normalize go-heap.pb.gz cpu-clock.perf.txt; echo "exit $?"
flame-merge -j 1 --format pprof -o m.pb.gz jfr-execution-samples.txt go-cpu.pb.gz; echo "exit $?"
ls m.pb.gz 2>/dev/null || echo "no m.pb.gz"
echo "--- same unit (nanoseconds: Go cpu and perf cpu-clock), and folded with anything"
flame-merge go-cpu.pb.gz cpu-clock.perf.txt | wc -l
flame-merge plain.folded go-heap.pb.gz | wc -l
echo "--- --ignore-units"
flame-merge --ignore-units go-cpu.pb.gz go-heap.pb.gz | wc -l
flame-merge --ignore-units --normalize go-cpu.pb.gz go-heap.pb.gz | wc -l
echo "--- flame-collapse: the same rule and the same option"
flame-collapse go-cpu.pb.gz jfr-execution-samples.txt; echo "exit $?"
flame-collapse --ignore-units go-cpu.pb.gz jfr-execution-samples.txt | wc -l
