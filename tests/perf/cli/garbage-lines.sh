# lines that fit no perf grammar are skipped: one warning per kind (file:line), a count
printf 'Warning: lost 3 chunks\nw 5 1.0: 3 cpu-clock: \n\t1 f (/w)\nJUNK\n\t%s\n\nw 5 1.1: 3 cpu-clock: \n\t1 f (/w)\nmore junk\n' '!!!' > g.perf
flame-collapse g.perf
