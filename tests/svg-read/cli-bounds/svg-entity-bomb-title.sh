# an entity used 4000 times in a title (4 GB of name from 16 KB): refused at the name
# limit with file:line, under a 1 GB address-space cap (the old reader ran out of memory)
# (ASan reserves terabytes of address space: its build, gcc's or clang's, runs without the
# memory cap)
{ ldd "$BUILD/tools/flame-collapse" | grep -q libasan || grep -q __asan_init "$BUILD/tools/flame-collapse"; } || ulimit -v 1000000
cd "$FIXTURES/bad" && flame-collapse svg-entity-bomb.svg
