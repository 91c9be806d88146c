# Every tool that reads profiles reads bpftrace and DTrace stacks, told by content
# (flame-render, flame-diff, flame-merge, flame-top as flame-collapse does).
bt=$FIXTURES/bpftrace/documented.bt
dt=$FIXTURES/dtrace/edge-cases.dtrace
flame-render "$bt" > bt.svg && grep -c '<title>tcp_recvmsg+808 (7 samples' bt.svg
flame-render --input-format dtrace "$dt" > dt.svg && grep -o '<title>unix`idle ([^)]*)' dt.svg
flame-merge "$bt" "$dt"
flame-top "$dt" | head -4
flame-diff "$bt" "$dt" > diff.svg && grep -o 'Only in BEFORE (removed): [^<]*' diff.svg
