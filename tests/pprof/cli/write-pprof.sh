# --output-format pprof writes gzipped profile.proto that reads back the same, with its unit
cp "$CORPUS/pprof/go-heap.pb.gz" .
flame-collapse --sample-type alloc_space go-heap.pb.gz > a.folded
flame-collapse --sample-type alloc_space --output-format pprof -o out.pb.gz go-heap.pb.gz
head -c 2 out.pb.gz | od -An -tx1
flame-collapse --list-sample-types out.pb.gz
flame-collapse out.pb.gz | cmp - a.folded && echo "same stacks"
# every sample type rides with its stack through transforms: written after --drop and
# --merge, each type reads back as that type read with the same transforms
flame-collapse --drop 'runtime\.malg' --merge 'reflect\.' --output-format pprof -o t.pb.gz go-heap.pb.gz
for ty in alloc_objects alloc_space inuse_objects inuse_space; do
	flame-collapse --sample-type $ty --drop 'runtime\.malg' --merge 'reflect\.' go-heap.pb.gz > want.folded
	flame-collapse --sample-type $ty t.pb.gz | cmp - want.folded && echo "$ty: same stacks after transforms"
done
rm -f t.pb.gz want.folded
printf 'a;b 3\na;c 1.5\n' > frac.folded
flame-collapse --output-format pprof -o x.pb.gz frac.folded
ls
flame-collapse --output-format svg frac.folded
