# FILE:W multiplies an input exactly (0.5 gives halves), --normalize brings every input to
# the largest total first; differential inputs sum column by column.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
flame-merge $d/host1.folded:2 $d/host3.folded:0.5
echo "--- normalize (host1 20, host3 21: host1 scaled by 21/20)"
flame-merge --normalize $d/host1.folded $d/host3.folded
echo "--- 3-column inputs"
flame-merge $d/three-column.folded $d/three-column.folded:3
echo "--- a file whose name has a colon is a file"
cp $d/host1.folded 'odd:2'
flame-merge 'odd:2' | head -2
flame-merge --format svg -o m.svg $d/host1.folded $d/host2.folded && xmllint --noout m.svg && echo "svg ok"
flame-merge -o m.png $d/host1.folded && head -c 4 m.png | od -An -c | tr -s ' '
echo "--- pprof out and back in: inputs of any format merge"
flame-merge -o m.pb.gz $d/host1.folded $d/host3.folded && flame-collapse m.pb.gz
flame-merge m.pb.gz $d/host2.folded | cmp - <(flame-merge $d/host1.folded $d/host2.folded $d/host3.folded) && echo "pprof + folded == all folded"
