# bad input: a stray line is skipped with a warning; the input then ends inside a stack (exit 1)
cd "$FIXTURES/bad" && flame-collapse offcpu-bad-indent.txt
