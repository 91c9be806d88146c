# Rust legacy symbols that perf printed half-demangled are tidied as
# rustc-demangle (and inferno) would: $LT$ $GT$ $RF$ $BP$ $C$ $SP$ $uNN$ escapes, '..'
# for '::', a leading '_$', and the trailing '::h' hash; --raw-names keeps them as
# perf printed them (stackcollapse-perf.pl's output, byte for byte).
f=$FIXTURES/perf/rust-legacy.perf.txt
flame-collapse "$f" | tr ';' '\n'
echo ---
flame-collapse --raw-names "$f"
flame-collapse --help | grep -A1 -e '--raw-names'
