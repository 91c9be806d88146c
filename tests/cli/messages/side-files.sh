# side files are read as inputs are (core/input + core/lines): a bad line is named
# file:line, gzip is accepted (and a bad line in it named the same way): --cp's palette
# file, --nameattr and flame-top's --owners
printf 'main;work 3\nmain;idle 1\n' > in.folded
printf 'main->rgb(1,2,3)\nwork rgb(4,5,6)\n' > bad.map
flame-render --cp --palette-file bad.map in.folded > /dev/null; echo "exit $?"
printf 'work\ttitle=Work\nidle title=Idle\n' > bad.attrs
flame-render --nameattr bad.attrs in.folded > /dev/null; echo "exit $?"
printf 'main\tcore\nno tab here\n' > bad.owners
flame-top --by owner --owners bad.owners in.folded; echo "exit $?"
gzip bad.map bad.attrs bad.owners
flame-render --cp --palette-file bad.map.gz in.folded > /dev/null; echo "exit $?"
flame-render --nameattr bad.attrs.gz in.folded > /dev/null; echo "exit $?"
flame-top --by owner --owners bad.owners.gz in.folded; echo "exit $?"
# gzipped and good: the colour, the title and the team are used
printf 'work->rgb(1,2,3)\n' | gzip > p.map.gz
flame-render --cp --palette-file p.map.gz in.folded | grep -c 'fill="#010203"'
printf 'work\ttitle=Work item\n' | gzip > attrs.gz
flame-render --nameattr attrs.gz in.folded | grep -o '<title>Work item</title>'
printf 'work\tbuilders\nidle\tsleepers\n' | gzip > owners.gz
flame-top --by owner --owners owners.gz --output-format csv in.folded | cut -d, -f2,3 | tail -n +2
