# flame-diff --format folded equals difffolded.pl (re-stated in tests/diff/difffolded.py)
# after sorting, for every fixture pair and -n / -s combination.
oracle="$FIXTURES/../tests/diff/difffolded.py"
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
for pair in before:after load-before:load2x-regressed-after load-before:load2x-after \
            frac-before:frac-after after:before; do
  b=$d/${pair%%:*}.folded a=$d/${pair##*:}.folded
  for opts in "" "-n" "-s" "-n -s" "--normalize --strip-hex" "-j 2 -n -s" "-j 2"; do
    flame-diff $opts --format folded "$b" "$a" > ours || echo "exit $? for $pair $opts"
    python3 "$oracle" ${opts#-j [12]} "$b" "$a" > ref
    if cmp -s ours ref && [ -s ours ]; then echo "same: $pair [$opts]"; else echo "DIFFERENT: $pair [$opts]"; diff ref ours; fi
  done
done
# the 3-column output itself, for one pair (bytewise order: handle-x before handle;...)
flame-diff -n -s --format folded "$d/before.folded" "$d/after.folded"
