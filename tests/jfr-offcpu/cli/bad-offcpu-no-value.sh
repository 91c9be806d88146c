# bad input: a block without its value line is dropped with a warning (file:line)
cd "$FIXTURES/bad" && flame-collapse offcpu-no-value.txt
