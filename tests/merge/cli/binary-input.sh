# binary data given as folded to flame-merge, flame-diff and flame-render: an error naming
# file and line, exit 1, no output file. b.bin is sorted and every line parses as
# `stack count`, so flame-merge takes its text merge of sorted files
printf 'main;a 1\n' > a.folded
printf 'main;a 1\nmain;\000\001\002 2\n' > b.bin
flame-merge --input-format folded -o out.folded a.folded b.bin; echo "merge exit $?"
flame-merge --input-format folded -o out.svg a.folded b.bin; echo "merge svg exit $?"
flame-diff --input-format folded -o out.svg a.folded b.bin; echo "diff exit $?"
flame-render -o out.svg b.bin; echo "render exit $?"
ls
