# flame-top on perf samples with no --window: the window is the recording's span (said on
# stderr), and the idle loop (swapper, do_idle, pv_native_safe_halt) is reported apart,
# not as busy cores; --with-idle counts it as before
printf 'swapper 0 [000] 10.000000: 1000000 cpu-clock:\n\tffff pv_native_safe_halt ([kernel.kallsyms])\n\tffff do_idle ([kernel.kallsyms])\n\n' > idle.perf.txt
printf 'swapper 0 [001] 11.000000: 1000000 cpu-clock:\n\tffff default_idle_call ([kernel.kallsyms])\n\tffff cpu_startup_entry ([kernel.kallsyms])\n\n' >> idle.perf.txt
printf 'app 5 [000] 10.500000: 1000000 cpu-clock:\n\t1 work (/app)\n\t2 main (/app)\n\n' >> idle.perf.txt
flame-top idle.perf.txt
flame-top --with-idle --window 2s idle.perf.txt
flame-top -q idle.perf.txt | head -1
