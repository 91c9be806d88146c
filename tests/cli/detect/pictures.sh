# A picture or a document given as input (a flame graph drawn as PNG or PDF, fed back) is
# named for what it is, in every tool, even with a text format forced: "use --input-format"
# cannot help. So are an executable and the other images.
printf 'main;work 3\nmain;idle 1\n' > in.folded
flame-render in.folded -o g.png && flame-render in.folded -o g.pdf
printf '\377\330\377\340\0\020JFIF\0' > p.jpg
printf 'GIF89a\001\0\001\0' > p.gif
printf 'RIFF\030\0\0\0WEBPVP8 ' > p.webp
cp "$BUILD/tools/flame-collapse" prog
for f in g.png g.pdf p.jpg p.gif p.webp prog; do
  flame-collapse $f; echo "exit $?"
done
flame-collapse --input-format folded g.png; echo "exit $?"
flame-render g.png -o x.svg; echo "exit $?"; ls x.svg 2>/dev/null
flame-render < g.pdf > /dev/null; echo "exit $?"
flame-diff g.png in.folded; echo "exit $?"
flame-merge in.folded g.pdf; echo "exit $?"
flame-top g.png; echo "exit $?"
