# README "Limits": flame-merge takes any number of inputs, opened 16 at a time: 40 inputs
# merge under a limit of 24 open files, as text (sorted folded files) and through a tree
for i in $(seq 1 40); do printf 's%02d;x %d\n' $i $i > in$i.folded; done
ulimit -n 24
flame-merge in*.folded | awk '{ n++; s += $2 } END { print n, s }'
flame-merge --normalize in*.folded | awk '{ n++ } END { print n }'
flame-merge --format pprof -o all.pb.gz in*.folded && flame-collapse all.pb.gz | awk '{ s += $2 } END { print s }'
