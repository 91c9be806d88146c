# spill files go in $TMPDIR (not always /tmp) and leave nothing there: a TMPDIR that
# does not exist is an error naming it, and a good one stays empty after the run
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "main;f%d;g%d 1\n", i, i }' > big.folded
TMPDIR=missing flame-collapse big.folded > /dev/null
echo "exit $?"
mkdir spill
TMPDIR=spill flame-collapse big.folded | tail -1
echo "exit ${PIPESTATUS[0]}"
ls -A spill
