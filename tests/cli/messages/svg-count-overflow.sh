# a title's count past 64 bits said "the root frame's title has no
# count"; it is an overflow error naming file:line, on the root or any other frame, and
# in flame-render's own SVGs too (their frame lines are read by the fast path)
svg() { # ROOT-COUNT FRAME-COUNT
  printf '<?xml version="1.0"?>\n<svg version="1.1" width="1200" height="100" xmlns="http://www.w3.org/2000/svg">\n'
  printf '<g><title>all (%s samples, 100%%)</title><rect x="10" y="50" width="1180" height="15"/></g>\n' "$1"
  printf '<g><title>foo (%s samples, 100%%)</title><rect x="10" y="34" width="1180" height="15"/></g>\n</svg>\n' "$2"
}
svg 100000000000000000000000 100000000000000000000000 > root.svg
flame-collapse root.svg
svg 10 18446744073709551616 > frame.svg
flame-collapse frame.svg
svg 18446744073709551615 18446744073709551615 > max.svg
flame-collapse max.svg
printf 'a;b 5\na;c 7\n' | flame-render > ours.svg
sed 's/<title>b (5 samples/<title>b (99999999999999999999 samples/' ours.svg > ours-big.svg
grep -c '99999999999999999999' ours-big.svg
flame-collapse ours-big.svg
