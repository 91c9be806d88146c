# bad input: exact message with file:line, exit 1, no output
cd "$FIXTURES/bad" && flame-collapse jfr-truncated-event.txt
