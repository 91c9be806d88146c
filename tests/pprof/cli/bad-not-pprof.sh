# text given as pprof is refused as a whole, not with a wire-level error
printf 'main;work 3\n' > stacks.folded
flame-collapse --format pprof stacks.folded
flame-collapse --list-sample-types stacks.folded
