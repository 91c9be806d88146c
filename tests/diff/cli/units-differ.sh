# BEFORE and AFTER in different units are refused naming both (it was
# drawn with bytes labelled "nanoseconds"); -j 1 and the --top table say the same;
# --ignore-units forces it. Same-unit diffs keep their unit.
cp "$FIXTURES"/units/* . && chmod u+w ./*
flame-diff -o d.svg go-cpu.pb.gz go-heap.pb.gz; echo "exit $?"
ls d.svg 2>/dev/null || echo "no d.svg"
flame-diff -j 1 --top 3 go-heap.pb.gz go-cpu.pb.gz; echo "exit $?"
flame-diff --format folded jfr-execution-samples.txt cpu-clock.perf.txt; echo "exit $?"
echo "--- --ignore-units"
flame-diff --ignore-units --format folded go-cpu.pb.gz go-heap.pb.gz | wc -l
echo "--- heap against heap: bytes, never nanoseconds"
flame-diff go-heap.pb.gz go-heap.pb.gz > h.svg
sed '/<script/,/<\/script>/d' h.svg | grep -c nanoseconds # (the script knows every unit)
flame-diff --top 1 go-heap.pb.gz go-heap.pb.gz | head -1
