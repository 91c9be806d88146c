# several inputs, gzip detected by content, fractional counts summed exactly
printf 'x;foo;baz 2\nx;foo 5\n' | gzip -c > a.gz
printf 'x;foo-bar 3\nx;foo 0.25\n' > b.txt
flame-collapse a.gz b.txt
