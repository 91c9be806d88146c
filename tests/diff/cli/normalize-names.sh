# names that differ only by run: --normalize-names' built-in rules and --rename's, applied
# to every run before comparing (folded output: the names as compared)
printf 'java;Foo$$Lambda$123/0x0000000800c0b000.run 10\ngo;main.work.func1.2 5\nrs;app::parse::h0123456789abcdef 3\njit;jitted-4242-17.so 2\npy;/tmp/tmpab12cd34.py 1\ncpp;{lambda(int)#3}::operator() 4\n' > a.folded
printf 'java;Foo$$Lambda$987/0x0000000801f00400.run 11\ngo;main.work.func3 6\nrs;app::parse::hfedcba9876543210 3\njit;jitted-5151-2.so 2\npy;/tmp/tmpzz99yy00.py 1\ncpp;{lambda(int)#7}::operator() 4\n' > b.folded
flame-diff --no-header --format folded --normalize-names a.folded b.folded
echo "--- without: every name differs"
flame-diff --no-header --format folded a.folded b.folded | wc -l
echo "--- --rename on top (\$1 a group), after the built-in rules"
flame-diff --no-header --format folded --normalize-names --rename 'Foo(.*)\.run=Bar$1' --rename '^go$=golang' a.folded b.folded | head -3
echo "--- several runs, the names fixed in each"
flame-diff --no-header --format folded --normalize-names --before a.folded --before a.folded --after b.folded | head -2
echo "--- a bad rule"
flame-diff --rename 'no-equals-sign' a.folded b.folded; echo "exit $?"
flame-diff --rename '(=x' a.folded b.folded; echo "exit $?"
