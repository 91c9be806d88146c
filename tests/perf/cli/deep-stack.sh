# a stack of 100,000 frames: one line with the comm and 100,000 frames
awk 'BEGIN { print "deep 1 1.0: 7 cpu-clock: "; for (i = 0; i < 100000; i++) printf "\t%x f%d (/w)\n", i, i % 5 }' > deep.perf
flame-collapse deep.perf | awk -F';' '{ print NF, $1, $2, $100001 }'
