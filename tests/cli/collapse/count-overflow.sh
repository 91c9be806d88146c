# counts that would overflow 64 bits are an error naming the line, not a wrap
printf 'a;b 18446744073709551615\na;b 1\n' | flame-collapse --format folded
