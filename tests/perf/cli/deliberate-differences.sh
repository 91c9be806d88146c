# the differences from stackcollapse-perf.pl that the README lists as
# deliberate, pinned: a last sample with no blank line after it is counted, an address
# with no symbol reads [module], a one-character comm stays the root as it is.
printf 'w 5 1.0: 3 cpu-clock: \n\t1 f (/w)\n' | flame-collapse
printf 'w 5 1.0: 3 cpu-clock: \n\t            143f (/tmp/pt/workload)\n\n' | flame-collapse
printf 'X 5 1.0: 3 cpu-clock: \n\t1 f (/w)\n\n' | flame-collapse
