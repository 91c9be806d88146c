# flame-render's "Ignored N lines with invalid format" (flamegraph.pl's
# words) also names the first of them, file:line
printf 'a;b 1\nnot a stack\nc 2\nxx\n' > in.folded
flame-render in.folded > /dev/null
printf 'a 1\n\nbad\n' | flame-render > /dev/null
flame-render -q in.folded > /dev/null
