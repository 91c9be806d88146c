# an event type whose events carry no stack trace (real jdk.GCHeapSummary
# events) draws nothing, and says so, as for an absent event
cd "$FIXTURES/jfr" && flame-collapse --event jdk.GCHeapSummary gc-heap-no-stacks.txt
echo "exit $?"
flame-collapse gc-heap-no-stacks.txt
echo "exit $?"
