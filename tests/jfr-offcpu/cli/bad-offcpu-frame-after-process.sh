# bad input: a stray line after the process line is skipped with a warning (file:line)
cd "$FIXTURES/bad" && flame-collapse offcpu-frame-after-process.txt
