# binary data read as folded (a NUL is in no text): a clear error naming file and line,
# exit 1, no output file; real text (tabs, Latin-1, UTF-8, control bytes in names) is not
# a NUL on a line that parses as `stack count` (an executable's header)
printf 'main;a 1\n\177ELF\002\001\001\000\000\000\000 7\n' > a.out
flame-collapse --format folded -o out.folded a.out; echo "exit $?"
# a NUL on a line with no count (most binary lines)
printf 'main;a 1\nmain;b 2\n\000\001\002\377\376\n' > garbage.bin
flame-collapse --format folded -o out.folded garbage.bin; echo "exit $?"
# a NUL in a frame after the prefix shared with the line before
printf 'main;a;b 1\nmain;a;b\000x 2\n' > shared.folded
flame-collapse --format folded -o out.folded shared.folded; echo "exit $?"
printf 'main;caf\351\tx 1\nmain;caf\303\251 2\nmain;ctl\001\033[31m\177 3\n' > text.folded
flame-collapse --format folded text.folded | od -c | sed 's/  */ /g'; echo "exit ${PIPESTATUS[0]}"
ls
