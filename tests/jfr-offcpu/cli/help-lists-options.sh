for o in --event --signatures --threads --lines --annotate offcpu jfr; do
  flame-collapse --help | grep -q -- "$o" && echo "listed $o"
done
