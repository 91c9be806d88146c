# binary garbage fits no format: a clear error, exit 1, no output file
printf '\x00\x01\x02\xff\xfe\x00\x00\x07' > garbage.bin
flame-collapse -o out.folded garbage.bin
code=$?
ls
exit $code
