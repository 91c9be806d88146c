# --jit also marks frames of jitdump modules (jitted-PID-N.so, from
# `perf inject --jit`), not only /tmp/perf-PID.map; --kernel also marks versioned kernel
# images (vmlinux-5.4.14-...) and module files (.ko, .ko.xz). Look-alikes
# (jitted-helpers.so, libfoo.ko.so) are not marked.
f=$FIXTURES/perf/jit-kernel-modules.perf.txt
flame-collapse --jit "$f" | tr ';' '\n'
echo ---
flame-collapse --kernel "$f" | tr ';' '\n'
