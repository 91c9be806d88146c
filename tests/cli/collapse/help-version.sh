flame-collapse --version | head -2 | sed "s/[0-9][0-9.]*$/VERSION/"
# every option stackcollapse-perf.pl users rely on is listed
for o in --pid --tid --kernel --jit --all --addrs --event-filter; do
  flame-collapse --help | grep -q -- "$o" && echo "listed $o"
done
