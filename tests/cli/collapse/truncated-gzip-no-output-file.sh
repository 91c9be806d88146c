# a truncated gzip is an error with a byte offset, and -o leaves no file behind
seq 1 20000 | sed 's/^/a;b;c /' | gzip -c | head -c 3000 > cut.gz
flame-collapse --format folded -o out.folded cut.gz
code=$?
ls
exit $code
