# One rule for an empty profile in every tool: folded text (or a table) of nothing is not
# an error: an empty output, exit 0. A picture of nothing is: exit 2 and
# "TOOL: FILE: no stacks to draw", -o's FILE not written (an old one stays as it was); on
# stdout flamegraph.pl's error picture still comes, for drop-in users.
: > empty.txt
printf '\n\n' > blank.txt
echo "-- folded and tables: exit 0"
flame-collapse empty.txt | wc -c; echo "collapse exit ${PIPESTATUS[0]}"
flame-collapse blank.txt - < empty.txt | wc -c
flame-merge empty.txt blank.txt | wc -c; echo "merge exit ${PIPESTATUS[0]}"
flame-diff --format folded empty.txt blank.txt | wc -c; echo "diff exit ${PIPESTATUS[0]}"
flame-top empty.txt; echo "top exit $?"
echo "-- pictures to -o: exit 2, nothing written"
echo old > keep.svg
flame-render empty.txt -o e.svg; echo "render exit $?"
flame-render blank.txt -o keep.svg; echo "render exit $?, keep.svg: $(cat keep.svg)"
flame-render empty.txt -o e.png; echo "render png exit $?"
flame-merge --format svg empty.txt blank.txt -o e.svg; echo "merge exit $?"
flame-diff empty.txt blank.txt -o e.html; echo "diff exit $?"
ls e.* 2>/dev/null
echo "-- pictures to stdout: flamegraph.pl's error picture, exit 2"
flame-render empty.txt > s.svg; echo "render exit $?, $(grep -c 'ERROR: No valid input provided' s.svg) error picture"
flame-render < empty.txt > s.svg; echo "render stdin exit $?, $(grep -c 'ERROR: No valid input provided' s.svg) error picture"
flame-render empty.txt -o - > s.svg; echo "render -o - exit $?, $(grep -c 'ERROR: No valid input provided' s.svg) error picture"
flame-merge --format svg empty.txt > s.svg; echo "merge exit $?, $(grep -c 'ERROR: No valid input provided' s.svg) error picture"
flame-diff empty.txt blank.txt > s.svg; echo "diff exit $?, $(grep -c 'ERROR: No valid input provided' s.svg) error picture"
