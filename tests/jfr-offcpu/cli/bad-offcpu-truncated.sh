# bad input: exact message with file:line, exit 1, no output
cd "$FIXTURES/bad" && flame-collapse offcpu-truncated.txt
