# Bad options exit 2 with a message, before any input is read (the inputs do not exist).
for args in "--requests 0,5" "--requests 5,0" "--requests 5" "--requests -1,2" "--requests a,b" \
            "--requests ,5" "--normalize-frame (" "-n --requests 1,2" "--top 0" "--fail-above x" \
            "--fail-above -1" "--min-delta nope" "--format nope" "--colors nope" "--width 0" \
            "--no-such-option"; do
  flame-diff $args /nonexistent/before /nonexistent/after; echo "exit $? ($args)"
done
flame-diff only-one.folded; echo "exit $?"
flame-diff - -; echo "exit $?"
