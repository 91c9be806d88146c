# binary data inside perf text: an error naming file and line, exit 1, no output file
{ printf 'w 5 1.0: 3 cpu-clock: \n\t1 f (/w)\n\n'; printf '\x00\x01\x02\xff\xfe\x00\x07\n'; } > bin.perf
flame-collapse --format perf -o out.folded bin.perf
code=$?
ls
exit $code
