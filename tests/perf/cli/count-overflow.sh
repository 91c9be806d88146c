# periods that add up past 64 bits are an error naming the line, not a wrap
printf 'w 5 1.0: 18446744073709551615 cpu-clock: \n\t1 f (/w)\n\nw 5 1.1: 1 cpu-clock: \n\t1 f (/w)\n' |
  flame-collapse --format perf -
