# -o on a device or /dev/stdout writes in place: renaming a temp file over it would
# replace the device or the link; -o through a symlink keeps the link
printf 'a;b 1\n' | flame-collapse -o /dev/null
test -c /dev/null && echo "/dev/null is still a device"
printf 'a;b 2\n' | flame-collapse -o /dev/stdout
test -L /dev/stdout && echo "/dev/stdout is still a link"
printf 'old\n' > target.folded
ln -s target.folded link.folded
printf 'a;b 3\n' | flame-collapse -o link.folded
test -L link.folded && echo "link kept"
cat target.folded
