# The Perl tools take any unique abbreviation of their options (Getopt::Long): --ti for
# flamegraph.pl's --title. The input options every tool now has share some of them
# (--time, --tid; --raw-names; --event, --exclude): such an abbreviation still means the
# Perl tool's option, in the tools that have its options. One that is ambiguous in Perl too
# stays an error.
printf 'main;a 1\n' > in.folded
flame-render --ti 'T1' in.folded | grep -o '>T1<'
flame-render --ti=T2 in.folded | grep -o '>T2<'
flame-merge --format svg --ti 'T3' in.folded | grep -o '>T3<'
flame-render --en ISO-8859-1 in.folded | head -1
flame-render --ra --seed 1 in.folded | grep -c '<title>'
flame-collapse --k in.folded
flame-render --f 2 in.folded; echo "exit $?"
flame-render --ti; echo "exit $?"
