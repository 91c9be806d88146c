# empty input: empty output, exit 0
: | flame-collapse --format perf
printf '' > empty.perf
flame-collapse -o out.folded empty.perf && wc -c < out.folded
