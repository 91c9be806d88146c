# merge(a,b,c) equals flame-collapse of the concatenation; merging merges in any grouping
# or order gives the same bytes (associative and commutative).
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
flame-merge $d/host1.folded $d/host2.folded $d/host3.folded > abc.folded; echo "exit $?"
cat abc.folded
cat $d/host1.folded $d/host2.folded $d/host3.folded | flame-collapse > concat.folded
cmp abc.folded concat.folded && echo "merge(a,b,c) == collapse(a+b+c)"
flame-merge $d/host1.folded $d/host2.folded -o ab.folded
flame-merge ab.folded $d/host3.folded > ab_c.folded
flame-merge $d/host2.folded $d/host3.folded -o bc.folded
flame-merge $d/host1.folded bc.folded > a_bc.folded
flame-merge $d/host3.folded $d/host1.folded $d/host2.folded > cab.folded
flame-merge -j 1 $d/host1.folded $d/host2.folded $d/host3.folded > j1.folded
cmp ab_c.folded a_bc.folded && echo "merge(merge(a,b),c) == merge(a,merge(b,c))"
cmp ab_c.folded abc.folded && echo "== merge(a,b,c)"
cmp cab.folded abc.folded && echo "== merge(c,a,b)"
cmp j1.folded abc.folded && echo "== with one job"
gzip -c $d/host2.folded > h2.folded.gz
cat $d/host1.folded | flame-merge - h2.folded.gz $d/host3.folded | cmp - abc.folded && echo "== with stdin and a gzipped input"
flame-merge $d/host1.folded:2 $d/host2.folded > w.folded
flame-merge $d/host1.folded $d/host1.folded $d/host2.folded | cmp - w.folded && echo "a:2 + b == a + a + b"
