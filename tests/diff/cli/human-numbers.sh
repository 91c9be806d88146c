# amounts for people in the --top table and the gate's lines:
# nanoseconds as s/ms/us, bytes as KiB/MiB, counts with thousands separators; never
# scientific notation. (Tooltips: human-tooltips.sh.)
cp "$FIXTURES"/units/go-cpu.pb.gz "$FIXTURES"/units/go-heap.pb.gz .
flame-merge --format pprof -o cpu2.pb.gz go-cpu.pb.gz:2
flame-merge --format pprof -o heap3.pb.gz go-heap.pb.gz:3
echo "--- cpu nanoseconds, twice the time after"
flame-diff --top 2 --fail-above 30 -o cpu.svg go-cpu.pb.gz cpu2.pb.gz; echo "exit $?"
echo "--- heap bytes, three times after"
flame-diff --top 2 --format folded -o heap.folded go-heap.pb.gz heap3.pb.gz; echo "exit $?"
echo "--- sample counts with separators"
printf 'main;parse 1234567\nmain;render 25000\n' > a.folded
printf 'main;parse 2345678\nmain;render 1000\n' > b.folded
flame-diff --top 1 --fail-above 10 -o c.svg a.folded b.folded; echo "exit $?"
echo "--- no scientific notation anywhere"
flame-diff --requests 3,7 --top 1 --fail-above 10 -o r.svg go-cpu.pb.gz cpu2.pb.gz 2>&1 | grep -c 'e+0' || true
