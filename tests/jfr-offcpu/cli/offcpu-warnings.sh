# the tool's own warnings and stderr noise in a 2>&1 capture are reported once per kind
cd "$FIXTURES/offcpu" && flame-collapse --tid libbpf-stderr-merged.txt | cut -d';' -f1 | sort | uniq -c
