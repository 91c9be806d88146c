# --focus, --drop, --merge and --collapse-recursion (libflame/xform/transform.c): what each
# does to a small profile, applied in the order given, the same in every tool, and a bad
# regex refused before any input is read.
printf 'main;a;b;a;c 5\nmain;lib;x 3\nmain;a;lib;y 2\nother;z 1\nmain;lib 4\n' > in.folded
for o in "--focus ^a$" "--drop lib" "--merge lib" "--collapse-recursion" \
  "--merge ^(?!.*(a|main)) --collapse-recursion" "--collapse-recursion --focus ^b$" "--focus ^b$ --collapse-recursion"; do
  echo "== $o"
  flame-collapse $o in.folded
done
# a stack left with no frame is dropped
echo "== --merge ."; flame-collapse --merge . in.folded | wc -c
# every tool: the same stacks
flame-collapse --focus '^a$' --merge lib in.folded > want.folded
flame-merge --focus '^a$' --merge lib in.folded | cmp - want.folded && echo "flame-merge: the same"
flame-render --minwidth 0 --focus '^a$' --merge lib in.folded > g.svg
flame-collapse g.svg | cmp - want.folded && echo "flame-render: the same"
flame-render --focus '^a$' --merge lib in.folded -o g.html
flame-collapse g.html | cmp - want.folded && echo "flame-render -o x.html: the same"
flame-top -n 0 --output-format csv --focus '^a$' --merge lib in.folded > t.csv
flame-top -n 0 --output-format csv want.folded | cmp - t.csv && echo "flame-top: the same"
flame-diff --format folded --drop lib in.folded in.folded
flame-collapse --focus '(' in.folded; echo "exit $?"
flame-render --drop . in.folded -o none.svg; echo "exit $?"
