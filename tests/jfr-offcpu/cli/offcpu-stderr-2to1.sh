# a `2>&1` capture of libbpf-tools offcputime (its real stdout and
# stderr of libbpf-stack-storage-16, interleaved as the unbuffered stderr lands at each
# 4096-byte flush of stdout: lines cut in two, runs of missed-stack markers, messages)
# collapses to the same stacks as its stdout alone, with warnings naming file:line
cd "$FIXTURES/offcpu" && flame-collapse libbpf-stack-storage-16-2to1.txt > "$OLDPWD/got.folded"
echo "exit $?"
cmp "$OLDPWD/got.folded" results/libbpf-stack-storage-16-collapsed.folded && echo "same stacks as stdout alone"
