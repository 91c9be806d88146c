# a folded file with a '#' header is still detected as folded, in
# every tool; the comment lines are skipped with a warning (file:line, once, a count).
cp "$FIXTURES/detect/header-comment.folded" h.folded
cp "$FIXTURES/detect/garbled-line.folded" g.folded
echo "-- collapse"; flame-collapse h.folded
echo "-- merge"; flame-merge h.folded g.folded | wc -l
echo "-- diff"; flame-diff --format folded h.folded g.folded | wc -l
flame-diff h.folded g.folded -o d.svg && grep -c '<title>' d.svg
echo "-- render"; flame-render h.folded | grep -c '<title>'
