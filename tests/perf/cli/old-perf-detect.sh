# perf script text from old perf versions (event lines "comm pid
# event:" with no time or cpu column, frame lines with no indent) is read by
# stackcollapse-perf.pl, so auto-detection must take it as perf, as --format perf does.
f=$FIXTURES/perf/old-perf-noindent.perf.txt
flame-collapse "$f"
flame-collapse --format perf "$f" | cmp - <(flame-collapse "$f") && echo same
# the same samples with tab-indented frames were detected before; still are
sed 's/^\([0-9a-f]\)/\t\1/' "$f" | flame-collapse --kernel
