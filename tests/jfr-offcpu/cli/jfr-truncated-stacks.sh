# the first 12 events of a real `jfr print` at its default depth of 5:
# the traces that end in '...' go under a '[truncated]' root frame (they lost their root
# side), the others stay as they are; one warning counts them and names the fix
cd "$FIXTURES/jfr" && flame-collapse execution-depth5.txt
