#!/usr/bin/env bash
# flame-collapse reading perf.data against perf script's text of the same file.
# Records tests/perfdata/progs/pd-prog.c (frame pointers, a shared library, two named threads, a
# kernel loop, a JIT map file on x86-64) at test time, so the binaries and the build-id
# cache are this run's own ($HOME is a temporary directory), then for each recording and
# option compares `flame-collapse OPTS FILE` with
# `perf script -F comm,pid,tid,time,period,event,ip,sym,dso -i FILE | flame-collapse OPTS`
# byte for byte (and with plain `perf script` where the pid plays no part). Recordings: -g,
# two events (the first of the recording kept by default), no callchain, pipe mode (-o -),
# Rust symbol names (tests/perfdata/progs/pd-rust.c), kernel modules (a recording
# tests/perfdata/module.py writes), what a system-wide recording holds (one that
# tests/perfdata/system.py writes, and perf record -a where perf can), a killed perf record,
# perf record -z (COMPRESSED and, rewritten, COMPRESSED2 records), --call-graph dwarf
# (tests/perfdata/progs/pd-dwarf.c and xz, with and without inline frames; refused when
# built without -Ddwarf); then the binary
# changed on disk (read through the build-id cache) and missing ([unknown], as perf does).
# Exit 77 (skipped) with the reason when perf cannot record here.
set -u
build=$1
src=$2
fc=$build/tools/flame-collapse
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
tmp=$(mktemp -d)
jitmaps=()
jitmap() { # the JIT map file pd-prog wrote in the recording $1
	local pid
	pid=$("$fc" --pid "$1" 2>/dev/null | grep -o '^pd-prog-[0-9]*' | head -1)
	[ -z "$pid" ] || jitmaps+=("/tmp/perf-${pid#pd-prog-}.map")
}
trap 'rm -rf "$tmp"; rm -f "${jitmaps[@]}"' EXIT
export HOME=$tmp  # perf record's build-id cache (~/.debug) is this test's
unset PERF_BUILDID_DIR
cd "$tmp" || exit 1
if ! perf record -q -e cpu-clock -o probe.data true 2>err; then
	echo "SKIP: perf cannot record here: $(head -c 200 err)"
	exit 77
fi
fail=0
checks=0
cflags="-O2 -g -fno-omit-frame-pointer"
build_prog() {
	cc $cflags -fPIC -shared -o libpd.so "$src/tests/perfdata/progs/pd-lib.c" "$@" &&
	cc $cflags -pthread -o pd-prog "$src/tests/perfdata/progs/pd-prog.c" -L. -lpd -Wl,-rpath,'$ORIGIN' "$@"
}
build_prog || { echo "FAIL: cannot build tests/perfdata/progs/pd-prog.c"; exit 1; }
rec() { # rec OUT PERF-RECORD-OPTIONS...
	local out=$1; shift
	perf record -q "$@" -o "$out" ./pd-prog 300 2>"$out.err" >/dev/null ||
		{ echo "FAIL: perf record $* failed: $(head -c 300 "$out.err")"; fail=1; }
}
fields=comm,pid,tid,time,period,event,ip,sym,dso
same() { # same FILE SCRIPT-ARGS -- COLLAPSE-OPTIONS...
	local f=$1 sargs=$2; shift 2
	"$fc" "$@" "$f" > got 2>got.err
	local rc=$?
	perf script $sargs -i "$f" 2>/dev/null | "$fc" "$@" > want 2>/dev/null
	# perf 6.1 names a lazy PLT stub after the .rela.plt entry of the same index, which
	# is wrong where IRELATIVE entries sit at the table's end (libc.so.6): it says "@plt"
	# for __tunable_get_val@plt, where objdump and we follow the GOT slot the stub jumps
	# through (an IRELATIVE entry's stub is then the bare "@plt" in ours). Where either
	# side has such a bare "@plt", PLT stubs are compared unnamed.
	if grep -Eq '(^|;)@plt( |;)' want got; then
		local x
		for x in want got; do # stacks that became the same are summed again
			sed -E 's/(^|;)[^;]*@plt( |;)/\1@plt\2/g' $x | "$fc" > $x.plt && mv $x.plt $x
		done
	fi
	checks=$((checks + 1))
	if [ $rc -ne 0 ] || ! cmp -s got want; then
		echo "FAIL: $f, perf script $sargs, options '$*': exit $rc; $(head -c 300 got.err)"
		diff want got | head -8
		fail=1
	elif [ ! -s got ]; then
		echo "FAIL: $f, options '$*': no stacks at all"
		fail=1
	fi
}
has() { # has FILE OPTIONS PATTERN: the collapsed output has a frame matching PATTERN
	local f=$1 o=$2 p=$3
	checks=$((checks + 1))
	"$fc" $o "$f" | grep -Eq -- "$p" || { echo "FAIL: $f ($o): no stack matches '$p'"; fail=1; }
}

rec fp.data -e cpu-clock -F 999 -g
rec two.data -e cpu-clock -e task-clock -F 999 -g
rec nog.data -e cpu-clock -F 999
# a fixed period (-c): the samples carry none, perf script prints the attr's
rec fixed.data -e cpu-clock -c 500000 -g
perf record -q -e cpu-clock -F 999 -g -o - ./pd-prog 300 > pipe.data 2>pipe.err ||
	{ echo "FAIL: perf record -o - failed"; fail=1; }
for f in fp.data two.data pipe.data; do
	jitmap "$f"
done

t0=$(perf script -F time -i fp.data | head -1 | tr -d ' :')
t1=$(awk -v t="$t0" 'BEGIN { printf "%.6f", t + 0.1 }')
for o in "" --pid --tid --kernel --jit --all --addrs --keep-templates --raw-names -j1 \
         "--time perf:$t0,$t1" "--time 0,0.1" "--event-filter cpu-clock" "--include pd_lib_spin"; do
	same fp.data "-F $fields" $o
done
same fp.data "" # perf script's own default fields
same fp.data "" --kernel --jit
# perf.data names its events in order: with no --event-filter the first (cpu-clock) is
# kept, where perf script's text keeps the first seen
for o in "" --tid --all; do
	same two.data "-F $fields" --event-filter cpu-clock $o
	"$fc" $o two.data > got 2>/dev/null
	checks=$((checks + 1))
	cmp -s got want || { echo "FAIL: two.data ($o): not the first event of the recording"; fail=1; }
done
for o in "--event-filter task-clock" "--event-filter cpu-clock"; do
	same two.data "-F $fields" $o
done
# page-faults, whose first sample comes before cpu-clock's first tick: perf.data keeps
# cpu-clock all the same, with a warning that says why
rec pf.data -e cpu-clock -e page-faults -F 999 -g
jitmap pf.data
same pf.data "-F $fields" --event-filter cpu-clock
# (against our own --event-filter output: `same` may have rewritten `want`'s PLT names)
"$fc" --event-filter cpu-clock pf.data > want 2>/dev/null
"$fc" pf.data > got 2>got.err
checks=$((checks + 1))
if ! cmp -s got want || [ "$(head -1 got)" != "# countname=nanoseconds type=cpu" ] ||
   ! grep -q "skipped a sample of event 'page-faults': only 'cpu-clock', the first sampling event of the recording" got.err; then
	echo "FAIL: -e cpu-clock -e page-faults: not cpu-clock by default: $(head -2 got.err)"
	fail=1
fi
for o in "" --all --addrs --tid; do
	same nog.data "-F $fields" $o
done
for o in "" --tid; do
	same fixed.data "-F $fields" $o
done
for o in "" --all --tid; do
	same pipe.data "-F $fields" $o
done
# a pipe, as `perf record -o - | flame-collapse` gives it
checks=$((checks + 1))
"$fc" - < pipe.data > got && "$fc" pipe.data > want && cmp -s got want ||
	{ echo "FAIL: pipe mode read from stdin differs from the file"; fail=1; }

# the unit survives the README's pipeline: `perf script | flame-collapse | flame-render`
# draws seconds of CPU as flame-render does on perf.data (the folded text's first line
# says nanoseconds of cpu), and flame-top on that folded text gives cores
fr=$build/tools/flame-render ft=$build/tools/flame-top
checks=$((checks + 1))
perf script -i fp.data 2>/dev/null | "$fc" > piped.folded
want=$("$fr" fp.data | grep -o '<title>all ([^)]*)')
got=$("$fr" piped.folded | grep -o '<title>all ([^)]*)')
if [ "$(head -1 piped.folded)" != "# countname=nanoseconds type=cpu" ] || [ "$got" != "$want" ] ||
   ! grep -q '<title>all ([0-9.]* [mu]*s, 100%)' <<<"$got"; then
	echo "FAIL: perf script | flame-collapse | flame-render: '$got', on perf.data '$want'"
	fail=1
fi
checks=$((checks + 1))
"$ft" --window 10s -n 3 piped.folded > got.top && "$ft" --window 10s -n 3 fp.data > want.top &&
	cmp -s got.top want.top && grep -q 'cores' got.top ||
	{ echo "FAIL: flame-top on the piped folded text: $(head -1 got.top)"; fail=1; }

# what the recordings must show, so a comparison of two empty outputs cannot pass
has fp.data --all '^pd-user;.*pd_lib_spin'           # the shared library
has fp.data --all '^pd-user;.*user_leaf'             # the executable (PIE)
has fp.data --all '^pd-kernel;.*_\[k\]'              # kernel frames
if [ "$(uname -m)" = x86_64 ]; then
	has fp.data --all 'pd_jit_loop_\[j\]'            # the JIT map file
fi
has two.data '--event-filter task-clock' 'pd_lib_spin'

# Rust names (legacy with its hash, legacy with $-escapes, v0) as perf script demangles them
if cc $cflags -o pd-rust "$src/tests/perfdata/progs/pd-rust.c" &&
   perf record -q -e cpu-clock -F 999 -g -o rust.data ./pd-rust 300 2>rust.err >/dev/null; then
	same rust.data "-F $fields"
	same rust.data "-F $fields" --raw-names
	has rust.data "" ';core::fmt::write( |;)'
	has rust.data "" ';<alloc::vec::Vec<T> as core::clone::Clone>::clone( |;)'
	has rust.data "" ';mycrate::spin( |;)'
else
	echo "FAIL: cannot build or record tests/perfdata/progs/pd-rust.c: $(head -c 300 rust.err 2>/dev/null)"
	fail=1
fi

# kernel modules, which the machines here have none of: a recording written by
# tests/perfdata/module.py, with its kallsyms in a build-id cache of its own
if command -v python3 >/dev/null; then
	HOME=$tmp/modhome KFIRST=1 python3 "$src/tests/perfdata/module.py" mod.data "$tmp/modhome"
	HOME=$tmp/modhome python3 "$src/tests/perfdata/module.py" modfirst.data "$tmp/modhome"
	HOME=$tmp/modhome
	for o in "" --kernel --all --addrs; do
		same mod.data "-F $fields" $o
	done
	has mod.data "" '^modload;entry_fn;mod_mid;mod_leaf '             # named from kallsyms
	has mod.data --kernel ';mod_mid_\[k\];mod_leaf_\[k\] '          # a kernel's frames
	has mod.data "" ';\[\[fakefs\]\] '                               # in the module, no symbol
	has mod.data "" ';\[unknown\] '                                    # past it: no map
	# perf script loses a module's first symbol when the module was looked up before the
	# kernel's symbols were loaded (the README's differences): named here all the same
	has modfirst.data "" '^modload;entry_fn;mod_mid;mod_leaf '
	HOME=$tmp
fi

# perf record -z: one zstd stream across COMPRESSED records, read as the uncompressed
# file would be; in pipe mode too; and the stream cut again into COMPRESSED2 records of
# 333 bytes (tests/perfdata/recompress.py: records straddle them), against our reading of
# the recording it was cut from (perf 6.1 reads no COMPRESSED2; that recording is compared
# with perf script's text above, where a PLT stub perf names wrongly is allowed for)
if [ "${FLAME_ZSTD:-1}" = 1 ]; then
rec z.data -z -e cpu-clock -F 999 -g
rec z9.data -z --compression-level=9 -e cpu-clock -e page-faults -F 999 -g
perf record -q -z -e cpu-clock -F 999 -g -o - ./pd-prog 300 > zpipe.data 2>zpipe.err ||
	{ echo "FAIL: perf record -z -o - failed"; fail=1; }
for f in z.data z9.data zpipe.data; do
	jitmap "$f"
done
for o in "" --tid --all --addrs; do
	same z.data "-F $fields" $o
	same zpipe.data "-F $fields" $o
	same z9.data "-F $fields" --event-filter cpu-clock $o
done
checks=$((checks + 1))
"$fc" - < zpipe.data > got && "$fc" zpipe.data > want && cmp -s got want ||
	{ echo "FAIL: a -z pipe read from stdin differs from the file"; fail=1; }
has z.data --all '^pd-user;.*pd_lib_spin'
python3 "$src/tests/perfdata/recompress.py" z.data z2.data 333
for o in "" --all; do
	"$fc" $o z.data > want
	"$fc" $o z2.data > got 2>got.err
	checks=$((checks + 1))
	cmp -s got want || { echo "FAIL: COMPRESSED2 records ($o): $(head -c 200 got.err)"; diff want got | head -5; fail=1; }
done
else
	echo "note: built without libzstd (-Dzstd): perf record -z recordings are not compared"
fi

# what a system-wide recording holds that this machine may not record on demand (idle
# samples in the kernel's init text, a task on its way out, a stripped program's PLT):
# a recording tests/perfdata/system.py writes, with its kallsyms in a build-id cache
if command -v python3 >/dev/null && cp pd-prog pd-stripped && strip pd-stripped; then
	HOME=$tmp/syshome python3 "$src/tests/perfdata/system.py" sys.data "$tmp/syshome" "$tmp/pd-stripped"
	HOME=$tmp/syshome
	for o in "" --tid --pid --kernel --addrs --all; do
		same sys.data "-F $fields" $o
	done
	has sys.data "" '^swapper;x86_64_start_kernel;start_kernel;rest_init;default_idle '
	has sys.data "" '^:-1__4343/-1_'
	HOME=$tmp
fi
# and a real one, where perf can record the whole system: pd-prog's samples and the
# idle ones (the machine's other processes exec one another, where the maps of a process
# after exec still differ from perf's: not compared)
if perf record -q -a -g -e cpu-clock -F 499 -o all.data -- ./pd-prog 300 >/dev/null 2>all.err; then
	jitmap all.data
	for o in "" --tid --kernel --all; do
		"$fc" $o all.data 2>/dev/null | grep -E '^(# |pd-|swapper)' > got
		perf script -F $fields -i all.data 2>/dev/null | "$fc" $o | grep -E '^(# |pd-|swapper)' > want
		checks=$((checks + 1))
		cmp -s got want || { echo "FAIL: all.data ($o) differs from perf script's"; diff want got | head -5; fail=1; }
	done
	has all.data "" '^pd-user;.*pd_lib_spin'
else
	echo "note: perf cannot record system-wide here, a system-wide recording is not compared: $(head -c 200 all.err)"
fi

# perf record killed (the header's data size is 0, no feature sections): the records
# that are there are read, with a warning; cut at the end of the data, the same stacks
set_killed() { # set_killed IN OUT BYTES-OF-DATA-KEPT
	python3 - "$@" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', d, 40)
h = bytearray(d[:off + min(size, int(sys.argv[3]))])
struct.pack_into('<Q', h, 48, 0)
open(sys.argv[2], 'wb').write(h)
PY
}
set_killed fp.data killed.data 1000000000000
"$fc" --all fp.data > want
"$fc" --all killed.data > got 2>got.err
checks=$((checks + 1))
cmp -s got want && grep -q 'not properly finished' got.err ||
	{ echo "FAIL: a killed recording: $(head -c 300 got.err)"; diff want got | head -5; fail=1; }
set_killed fp.data killed.data $(( $(od -An -t u8 -j 48 -N 8 fp.data) / 2 + 3 ))
"$fc" killed.data > got 2>got.err
checks=$((checks + 1))
[ -s got ] && grep -q 'not properly finished.*cut short at byte' got.err ||
	{ echo "FAIL: a killed recording cut inside a record: $(head -c 300 got.err)"; fail=1; }

# --call-graph dwarf: unwound here (-Ddwarf: the build says so in FLAME_DWARF), else refused
rec dw.data -e cpu-clock -F 499 --call-graph dwarf
if [ "${FLAME_DWARF:-0}" = 1 ]; then
	# tests/perfdata/progs/pd-dwarf.c, -O2 -g -fomit-frame-pointer: threads, PLT calls into
	# a library of ours, a SIGPROF handler, a recursion deeper than the 8 KiB dump, inline
	# functions; the same program stripped; xz (Debian's, no frame pointers in liblzma)
	dcf="-O2 -g -fomit-frame-pointer"
	cc $dcf -fPIC -shared -o libpddw.so "$src/tests/perfdata/progs/pd-dwlib.c" &&
	cc $dcf -pthread -o pd-dwarf "$src/tests/perfdata/progs/pd-dwarf.c" -L. -lpddw -Wl,-rpath,'$ORIGIN' &&
	cp pd-dwarf pd-dwarf-stripped && strip pd-dwarf-stripped ||
		{ echo "FAIL: cannot build tests/perfdata/progs/pd-dwarf.c"; fail=1; }
	for p in pd-dwarf pd-dwarf-stripped; do
		perf record -q -e cpu-clock -F 999 --call-graph dwarf -o $p.data ./$p 250 >/dev/null 2>$p.err ||
			{ echo "FAIL: perf record --call-graph dwarf ./$p: $(head -c 300 $p.err)"; fail=1; }
		for o in "" --no-inline --tid --addrs "--no-inline --all"; do
			same $p.data "-F $fields $(grep -o -- --no-inline <<<"$o")" $o
		done
	done
	same dw.data "-F $fields"
	same dw.data "-F $fields --no-inline" --no-inline
	has pd-dwarf.data "" '^dw-lib;clone3;start_thread;worker;pd_dw_lib;step '    # PLT, inline
	has pd-dwarf.data "" '^dw-deep;\[unknown\];deep;deep;'                     # past the dump
	has pd-dwarf.data "" ';worker;inlined_caller;mix '                          # inlined here
	has pd-dwarf.data --no-inline ';worker;inlined_caller '
	has pd-dwarf.data "" ";\\[libc.so.6\\];in_handler;inlined_caller"        # signal frame
	# damaged copies (tests/perfdata/damage-dwarf.py): a dump zeroed past its first 64
	# bytes reads as perf script reads it (the frames found before the zeros); an attribute
	# claiming all 64 registers misplaces every later field: perf script prints no user
	# frame for such samples and skips those whose misread dump size runs past the record,
	# where we stop at the first, naming its byte (either way, never a crash); a dump size
	# past its record and a dump saying it holds more than it has are errors naming the byte
	python3 "$src/tests/perfdata/damage-dwarf.py" pd-dwarf.data bad-stack.data stack >/dev/null &&
		same bad-stack.data "-F $fields"
	# every dump zeroed: samples in the SIGPROF handler too, whose signal frame reads a
	# saved IP of 0 (perf shows no frame for it)
	python3 "$src/tests/perfdata/damage-dwarf.py" pd-dwarf.data bad-stacks.data stacks >/dev/null &&
		same bad-stacks.data "-F $fields"
	python3 "$src/tests/perfdata/damage-dwarf.py" pd-dwarf.data bad-regs.data regs >/dev/null
	if "$fc" bad-regs.data > got 2> got.err; then
		same bad-regs.data "-F $fields"
	else
		checks=$((checks + 1))
		grep -Eq "bad-regs.data: byte [0-9]+: (a user stack dump|a sample of)" got.err ||
			{ echo "FAIL: bad-regs.data: $(head -c 300 got.err)"; fail=1; }
	fi
	for m in dump:"a user stack dump of [0-9]* bytes runs past its sample" \
	         filled:"a user stack dump says 8200 bytes were filled of 8192"; do
		checks=$((checks + 1))
		at=$(python3 "$src/tests/perfdata/damage-dwarf.py" pd-dwarf.data bad.data ${m%%:*})
		"$fc" bad.data > got 2> got.err
		rc=$?
		# the byte named is the size field's: in the record damaged
		named=$(grep -o 'byte [0-9]*' got.err | grep -o '[0-9]*')
		if [ $rc -ne 1 ] || ! grep -q "bad.data: byte [0-9]*: ${m#*:}" got.err ||
		   [ "${named:-0}" -lt "$at" ] || [ "$named" -gt $((at + 65536)) ]; then
			echo "FAIL: damaged dump (${m%%:*}): exit $rc, $(head -c 300 got.err) (record at $at)"
			fail=1
		fi
	done
	# processes a shell starts during the recording (fork, exec): perf script 6.1 ends many
	# of their stacks early, differently for the same code in two processes ("setlocale" or
	# "[unknown]" as a root: the README's differences); each of ours goes down to the
	# program's entry
	perf record -q -e cpu-clock -F 4999 --call-graph dwarf -o exec.data \
		sh -c 'for i in $(seq 40); do basename /a/b; done' >/dev/null 2>&1
	checks=$((checks + 1))
	# (samples wholly in the kernel, as around exec, before the new program has a user
	# stack: any kernel function can be their root, __x86_indirect_thunk_r14 was one)
	"$fc" --no-inline --kernel exec.data | grep '^basename;' | grep -v '^basename;[^;]*_\[k\][; ]' > exec.got
	# (the entry: _start, the stripped program's own, or the loader's _dl_start_user that
	# runs the libraries' constructors)
	entry='^basename;\(_start\|_dl_start_user\|\[basename\]\)[; ]'
	if [ ! -s exec.got ] || grep -v "$entry" exec.got | grep -q .; then
		echo "FAIL: basename's stacks do not all reach its entry: $(grep -v "$entry" exec.got | head -2)"
		fail=1
	fi
	if command -v xz >/dev/null; then
		head -c 3000000 "$fc" "$src"/fixtures/perfdata/*.data 2>/dev/null | cat - /dev/zero |
			head -c 3000000 > xz.in
		perf record -q -e cpu-clock -F 999 --call-graph dwarf -o xz.data xz -6 -k -f xz.in \
			>/dev/null 2>xz.err || { echo "FAIL: perf record xz: $(head -c 300 xz.err)"; fail=1; }
		same xz.data "-F $fields"
		same xz.data "-F $fields --no-inline" --no-inline
		has xz.data "" '^xz;.*;lzma_code;'
	fi
else
	checks=$((checks + 1))
	if "$fc" dw.data > got 2> got.err || ! grep -q "call-graph dwarf.*perf script -i dw.data" got.err; then
		echo "FAIL: a --call-graph dwarf recording was not refused as it should be: $(cat got.err)"
		fail=1
	fi
fi

# the binaries changed on disk: symbols come from the build-id cache perf record filled
"$fc" --all fp.data > before
build_prog -DPD_CHANGED=1 -O0 || fail=1
checks=$((checks + 1))
"$fc" --all fp.data > after
cmp -s before after || { echo "FAIL: a changed binary is not read through the build-id cache"; diff before after | head -5; fail=1; }
same fp.data "-F $fields" --all
# missing (and not in the cache): [unknown] frames where perf script prints them
rm -rf "$HOME/.debug" libpd.so
same fp.data "-F $fields" --all --addrs
has fp.data "" '^pd-user;.*\[libpd.so\]'

echo "$checks checks"
[ $checks -gt 30 ] || { echo "FAIL: only $checks checks ran"; fail=1; }
exit $fail
