# README "Limits": stack depth and frame names of text inputs have no limit of their own
# (a line may be up to 4 GiB): a 200,000-frame stack and a 1 MiB frame name come back
# byte for byte; auto-detection reads the first 64 KiB, so a first line longer than that
# needs --format. (pprof's 2^20 frames per stack: tests/pprof/cli bad-inline-bomb-deep; an SVG
# title's 64 KiB: tests/svg-read/cli-bounds.)
python3 -c "print(';'.join('f%d' % i for i in range(200000)), 5)" > deep.folded
python3 -c "print('x' * (1 << 20) + ';y 3')" > long.folded
for f in deep long; do
  flame-collapse --format folded $f.folded | cmp - $f.folded && echo "$f: same"
done
flame-collapse deep.folded; echo "auto: exit $?"
flame-render --width 200 deep.folded | grep -c '<title>f199999 (5 samples'
# a perf sample 100,000 frames deep
{ echo 'prog 1 1.0: 1 cpu-clock:'; for i in $(seq 100000 -1 1); do printf '\t%x fn%d (/bin/prog)\n' $i $i; done; echo; } > deep.perf
flame-collapse deep.perf | awk '{ n = split($1, f, ";"); print n, f[2], f[n], $2 }'
