# the same entity 4000 times in a <text> label (4 GB of text, read and dropped): stopped
# at the expansion bound in well under the old 4 s, never reaching the frames after it
ulimit -t 5
# (ASan reserves terabytes of address space: its build, gcc's or clang's, runs without the
# memory cap)
{ ldd "$BUILD/tools/flame-collapse" | grep -q libasan || grep -q __asan_init "$BUILD/tools/flame-collapse"; } || ulimit -v 1000000
cd "$FIXTURES/bad" && flame-collapse svg-entity-bomb-text.svg
