# -o keeps an existing file's mode (a 0600 profile stays private) and gives a new file
# 0666 & ~umask; through a symlink it writes what `>` would: the link's target, created
# when the link dangles (relative to the link's directory), and the link stays a link
umask 022
printf 'old\n' > private.folded
chmod 600 private.folded
printf 'a;b 1\n' | flame-collapse -o private.folded
stat -c '%a %n' private.folded
cat private.folded
printf 'a;b 2\n' | flame-collapse -o new.folded
stat -c '%a %n' new.folded
(umask 077 && printf 'a;b 3\n' | flame-collapse -o new077.folded)
stat -c '%a %n' new077.folded
mkdir sub out
ln -s ../out/made.folded sub/dangling.folded
ln -s sub/dangling.folded chain.folded
printf 'a;b 4\n' | flame-collapse -o chain.folded
test -L chain.folded && test -L sub/dangling.folded && echo "links kept"
cat out/made.folded
chmod 640 out/made.folded
printf 'a;b 5\n' | flame-collapse -o sub/dangling.folded
stat -c '%a %n' out/made.folded
cat out/made.folded
ln -s self.folded self.folded
printf 'a;b 6\n' | flame-collapse -o self.folded
echo "exit $?"
ln -s nodir/x.folded nowhere.folded
printf 'a;b 7\n' | flame-collapse -o nowhere.folded
echo "exit $?"
ls
