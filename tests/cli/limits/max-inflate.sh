# --max-inflate SIZE in every tool that reads gzip input (flame_input_set_limit);
# the limit's error names the file, the byte (of the stored file) and the option
yes 'main;work 1' | head -c 3000000 | gzip -9 > big.folded.gz      # 3 MB inflated, 6 KB stored
ls -l big.folded.gz | awk '{print ($5 < 20000) ? "small" : "large"}'
flame-collapse --max-inflate 1M big.folded.gz; echo "collapse 1M: exit $?"
flame-collapse --max-inflate 3M big.folded.gz; echo "collapse 3M: exit $?"
flame-render --max-inflate 1M big.folded.gz > /dev/null; echo "render 1M: exit $?"
flame-render --max-inflate 4M big.folded.gz | grep -c '<title>work'
flame-diff --max-inflate 2K --format folded big.folded.gz big.folded.gz; echo "diff 2K: exit $?"
flame-diff --max-inflate 3M --format folded big.folded.gz big.folded.gz; echo "diff 3M: exit $?"
flame-merge --max-inflate 1M big.folded.gz big.folded.gz; echo "merge 1M: exit $?"
flame-merge --max-inflate 1M -j 1 big.folded.gz; echo "merge -j1 1M: exit $?"
flame-merge --max-inflate 3145728 big.folded.gz big.folded.gz; echo "merge 3145728: exit $?"
# a pprof profile is read whole: the limit counts its bytes, gzipped or not
cp "$CORPUS/pprof/go-cpu-labels.pb.gz" cpu.pb.gz
flame-collapse --max-inflate 1K cpu.pb.gz; echo "pprof 1K: exit $?"
flame-collapse --max-inflate 64M cpu.pb.gz | wc -l
flame-top --max-inflate 1K cpu.pb.gz; echo "top 1K: exit $?"
flame-top --max-inflate 64M -n 1 cpu.pb.gz > /dev/null; echo "top 64M: exit $?"
flame-diff --max-inflate 1K --before-tag a=b --after-tag a=c cpu.pb.gz; echo "diff --before-tag 1K: exit $?"
gzip -dc cpu.pb.gz > cpu.pb
flame-collapse --max-inflate 1K cpu.pb; echo "plain pprof 1K: exit $?"
# sizes: K M G T (powers of 1024), KiB / KB spellings; anything else is a usage error
for s in 0 abc 5X -1 1.5 99999999T ''; do flame-collapse --max-inflate "$s" /dev/null; echo "'$s': exit $?"; done
for s in 1K 2KiB 1.5M 4G 1t; do flame-collapse --max-inflate "$s" /dev/null && echo "'$s': ok"; done
