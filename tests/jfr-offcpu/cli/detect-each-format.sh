# auto-detection picks the reader from the content; -f output is plain folded
here=$PWD
for f in bcc-rendered-default.txt bcc-example-K-multiline-oldformat.txt libbpf-verbose-v.txt \
         bcc-rendered-folded-f.txt; do
  (cd "$CORPUS/offcputime" && flame-collapse "$f") >out
  grep -v '^# countname=' out | head -1 | cut -c1-80
done
(cd "$CORPUS/jfr" && flame-collapse print-ThreadPark.txt)
(cd "$CORPUS/jfr" && flame-collapse --threads --lines --annotate print-NativeMethodSample.txt) >out
grep -v '^# countname=' out | head -2
