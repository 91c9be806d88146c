# a period that does not fit 64 bits at all
printf 'w 5 1.0: 99999999999999999999999 cpu-clock: \n\t1 f (/w)\n' | flame-collapse
