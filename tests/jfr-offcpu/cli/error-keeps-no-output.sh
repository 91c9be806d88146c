# an error leaves no (half-written) output file behind
flame-collapse -o out.folded "$FIXTURES/bad/jfr-truncated-stack.txt" 2>/dev/null
echo "exit $?"
ls
flame-collapse -o out.folded "$FIXTURES/bad/offcpu-truncated.txt" 2>/dev/null
echo "exit $?"
ls
