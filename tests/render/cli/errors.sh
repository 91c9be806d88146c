# flame-render usage and input errors: messages, exit codes, no output file left behind
flame-render --width 0 /dev/null; echo "exit $?"
flame-render --colors nope /dev/null; echo "exit $?"
flame-render --bgcolors pink /dev/null; echo "exit $?"
flame-render --minwidth abc /dev/null; echo "exit $?"
flame-render --sort size /dev/null; echo "exit $?"
flame-render --diff-mode both /dev/null; echo "exit $?"
flame-render --format gif /dev/null; echo "exit $?"
flame-render /nonexistent.folded -o out.svg; echo "exit $?"
ls out.svg 2>/dev/null
printf 'a;b 1\n' > in.folded
printf 'bad\n' > attrs.txt
flame-render --nameattr attrs.txt in.folded -o out.svg; echo "exit $?"
ls out.svg 2>/dev/null
printf 'main;x 1\nmain;y two\n\nno count\n' | flame-render -o ok.svg; echo "exit $?"
grep -c '<title>' ok.svg
flame-render /dev/null > empty.svg; echo "exit $?"
grep -o 'ERROR: No valid input provided' empty.svg
