# built without -Dperfdata: a perf.data recording is named for what it is, with the
# command that reads it, in every tool and whatever --format says
cp "$FIXTURES/detect/gcc.perf.data" .
flame-collapse gcc.perf.data; echo "exit $?"
flame-collapse --format perf gcc.perf.data; echo "exit $?"
flame-diff gcc.perf.data gcc.perf.data; echo "exit $?"
flame-collapse < gcc.perf.data; echo "exit $?"
flame-collapse --format perfdata gcc.perf.data; echo "exit $?"
