# an -o name whose extension no output format has (x.jpg) is an error
# naming the known ones, in every tool, and leaves no file; '-', names without an
# extension and an explicit format keep working as before
in=$FIXTURES/render/merge.folded
flame-render "$in" -o x.jpg; echo "render x.jpg: exit $?"
flame-diff "$in" "$in" -o d.jpg; echo "diff d.jpg: exit $?"
flame-merge "$in" -o m.jpg; echo "merge m.jpg: exit $?"
flame-collapse "$in" -o c.svg; echo "collapse c.svg: exit $?"
ls
flame-render "$in" -o graph; echo "render graph: exit $?, $(head -c 5 graph | tail -c 4)"
flame-render "$in" -o - | head -c 5 | tail -c 4; echo " (stdout)"
flame-render --format svg "$in" -o x.jpg; echo "render --format svg x.jpg: exit $?"
flame-collapse --output-format pprof "$in" -o c.data; echo "collapse --output-format pprof c.data: exit $?"
flame-diff "$in" "$in" -o d.FOLDED; echo "diff d.FOLDED: exit $?"
