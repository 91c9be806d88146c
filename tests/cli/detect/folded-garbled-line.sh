# one garbled line (cut short, no count) among good folded lines does
# not hide the format from auto-detection, in every tool; it is skipped with a warning.
cp "$FIXTURES/detect/garbled-line.folded" g.folded
echo "-- collapse"; flame-collapse g.folded
echo "-- merge"; flame-merge g.folded g.folded | head -3
echo "-- diff"; flame-diff --format folded g.folded g.folded | head -3
echo "-- render"; flame-render g.folded | grep -c '<title>'
# a file mostly of bad lines is still not taken for folded
{ echo 'Processed 12 events and lost 3 chunks!'; echo 'Warning: 7 out of order events'; echo 'a;b 1'; } >junk.txt
flame-collapse junk.txt
