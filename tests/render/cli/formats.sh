# output format from -o's extension or --format; --cp writes palette.map; --nameattr
printf 'main;work 3\nmain;idle 1\n' > in.folded
flame-render in.folded -o g.svg && head -c 5 g.svg && echo
flame-render in.folded -o g.png && head -c 4 g.png | tail -c 3 && echo
flame-render in.folded -o g.pdf && head -c 5 g.pdf && echo
flame-render --format png in.folded > g2 && head -c 4 g2 | tail -c 3 && echo
flame-render --cp --palette-file p.map in.folded > /dev/null && cat p.map
printf 'work->rgb(1,2,3)\n' > p2.map
flame-render --cp --palette-file p2.map in.folded | grep -c 'fill="#010203"'
printf 'work\thref=https://example.invalid/w\ttitle=Work <b>\tonclick=alert(1)\tclass=w\n' > attrs.txt
flame-render --nameattr attrs.txt in.folded | grep -o '<a[^>]*><rect[^>]*><title>[^<]*</title>'
flame-render --nameattr attrs.txt in.folded | grep -c onclick
