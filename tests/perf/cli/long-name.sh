# a frame name of 1 MiB survives whole
awk 'BEGIN { printf "w 1 1.0: 2 cpu-clock: \n\t1 "; for (i = 0; i < 1048576; i++) printf "x"; print " (/w)" }' > long.perf
flame-collapse -j2 long.perf | awk '{ print length($1), $2 }'
