#!/bin/bash
# Real crashes of demo/crashme under LD_PRELOAD=libcrash.so and via crash_install():
# report present, header right, function names in order, stop reason, and the
# process's real wait status (signal, core dump) the same as without libcrash.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
ARCH=${CR_ARCH:-$(uname -m)}
# SIGTRAP's si_code for a breakpoint instruction differs: x86_64 int3 -> SI_KERNEL.
case $ARCH in x86_64) TRAPCODE=SI_KERNEL ;; *) TRAPCODE=TRAP_BRKPT ;; esac
# SIGILL's si_code for crashme's undefined instruction, as the kernel sends it (x86_64 ud2:
# ILL_ILLOPN; arm64 do_undefinstr, riscv do_trap_insn_illegal: ILL_ILLOPC) or qemu-user:
# qemu-aarch64 sends ILL_ILLOPN for every undefined instruction, qemu-loongarch64 10 si_code 0.
case $ARCH in
x86_64) ILLCODE=ILL_ILLOPN ;;
aarch64) if [ -n "$RUN" ]; then ILLCODE=ILL_ILLOPN; else ILLCODE=ILL_ILLOPC; fi ;;
loongarch64) if [ -n "$RUN" ]; then ILLCODE=SI_USER; else ILLCODE=ILL_ILLOPC; fi ;;
*) ILLCODE=ILL_ILLOPC ;;
esac
# What an fp walk that starts inside glibc does, per arch: x86_64 and riscv64 glibc are built
# without frame pointers and reuse the register (the walk stops, truncated); aarch64 glibc keeps
# AAPCS64 frame records (the walk goes through it, complete); loongarch64 glibc leaves $fp
# untouched on these paths, so the walk resumes at the record of the last crashme frame that
# had one and cannot see that it skipped the glibc frames.
case $ARCH in aarch64) FPLIBC=records ;; loongarch64) FPLIBC=stale ;; *) FPLIBC=none ;; esac
# Integer division by zero: x86_64 div traps (#DE -> FPE_INTDIV); aarch64 SDIV and riscv64
# DIV return a value without trapping (Arm ARM C6.2 SDIV; RISC-V ISA M extension, "Division
# by zero"), so crashme's division returns and no SIGFPE exists to report; loongarch64 div.w
# does not trap either, and crashme, as GCC's -mcheck-zero-division, executes `break 7`
# (BRK_DIVZERO): the kernel sends SIGFPE/FPE_INTDIV, qemu-user 10 SIGTRAP/TRAP_BRKPT.
case $ARCH in
aarch64 | riscv64) FPE= ;;
loongarch64) if [ -n "$RUN" ]; then FPE="5 TRAP_BRKPT"; else FPE="8 FPE_INTDIV"; fi ;;
*) FPE="8 FPE_INTDIV" ;;
esac
# __pthread_once_slow is a static function of glibc: named only where its .symtab (or a debug
# file) is there.  Natively always required; the cross sysroots' libcs are stripped.
ONCE=__pthread_once_slow
if [ -n "$RUN" ]; then
	sysroot=$(sed -n 's/.* -L \([^ ]*\).*/\1/p' <<<"$RUN")
	ONCE=
	for l in "$sysroot"/lib/libc.so.6 "$sysroot"/lib/*-linux-gnu/libc.so.6 "$sysroot"/lib64/libc.so.6; do
		if [ -e "$l" ] && nm "$l" 2>/dev/null | grep -q ' __pthread_once_slow$'; then
			ONCE=__pthread_once_slow
		fi
	done
fi

CHAIN="level3 level2 level1 main"
# mode signal code names... ('|' ends what the fp engine can see: glibc and ld.so
# have no frame pointers, so an fp walk out of them stops, truncated; see FPLIBC)
CASES="
segv 11 SEGV_MAPERR crash_null $CHAIN
read 11 SEGV_MAPERR crash_read $CHAIN
${FPE:+fpe $FPE crash_fpe $CHAIN}
ill 4 $ILLCODE crash_ill $CHAIN
trap 5 $TRAPCODE crash_trap $CHAIN
bus 7 BUS_ADRERR crash_bus $CHAIN
badpc 11 SEGV_MAPERR crash_badpc $CHAIN
rodata 11 SEGV_ACCERR crash_rodata $CHAIN
nx 11 SEGV_ACCERR crash_nx $CHAIN
guard 11 SEGV_ACCERR crash_guard $CHAIN
abort 6 SI_TKILL | abort crash_abort $CHAIN
thread 11 SEGV_MAPERR crash_null thread_main
lib 11 SEGV_MAPERR lib_inner crashme_lib_crash crash_lib $CHAIN
dlopen 11 SEGV_MAPERR init_crash crashinit | crash_dlopen $CHAIN
qsort 11 SEGV_MAPERR crash_null cmp_crash | qsort_r crash_qsort $CHAIN
once 11 SEGV_MAPERR crash_null once_init | $ONCE crash_once $CHAIN
"

# A report for one engine: every case, names in order, died by the signal.
engine_cases() { # ENGINE BINARY MUST-COMPLETE
	local engine=$1 bin=$2 complete=$3 out names
	while read -r mode sig code rest; do
		[ -n "$mode" ] || continue
		out=$TMPD/$mode.$engine.$(basename "$bin").txt
		run_crash "$out" CRASH_OUTPUT="$out" CRASH_ENGINE=$engine LD_PRELOAD="$LIBCRASH" -- "$bin" "$mode"
		is "$STATUS" "signal $sig core 0" "$engine $(basename "$bin") $mode: died by signal $sig"
		check "$engine $mode: one report" test "$(grep -c '^\*\*\* libcrash: fatal signal \*\*\*$' "$out")" = 1
		check "$engine $mode: signal line" grep -q "^signal $sig (SIG[A-Z]*), code -\?[0-9]* ($code)" "$out"
		check "$engine $mode: pid/tid/name line" grep -qE '^pid: [0-9]+, tid: [0-9]+, name: .* >>> .*crashme.* <<<$' "$out"
		check "$engine $mode: end marker" grep -q '^\*\*\* end of libcrash report \*\*\*$' "$out"
		names=${rest//|/}
		if [ "$engine" = fp ] && [ "$rest" != "$names" ]; then
			case $FPLIBC in
			records)
				# glibc's frame records: every frame, to the end.
				check "fp $mode: complete through glibc's frame records" \
					grep -q '^backtrace: .*engine fp, complete$' "$out" ;;
			stale)
				# Beyond '|': what comes before must be seen.
				names=${rest%%|*}
				skip "fp $mode: truncated in code without frame pointers" \
					"loongarch64 glibc leaves \$fp untouched: the walk resumes at an older record" ;;
			*)
				# Beyond '|' the walk is in code without frame pointers: the fp
				# engine must see what comes before and say that it stopped.
				names=${rest%%|*}
				check "fp $mode: truncated in code without frame pointers" \
					grep -q '^backtrace: .*engine fp, truncated: ' "$out" ;;
			esac
		fi
		if names_in_order "$out" $names; then ok 0 "$engine $mode: frames $names"; else
			ok 1 "$engine $mode: frames $names"; sed 's/^/#   /' "$out"; fi
		if [ "$complete" = 1 ]; then
			check "$engine $mode: complete" grep -q "^backtrace: [0-9]* frames, engine $engine, complete$" "$out"
		fi
	done <<<"$CASES"
}

if [ -z "$FPE" ]; then
	# No integer divide trap on this arch (see FPE): the division returns, as without libcrash.
	out=$TMPD/fpe.txt
	run_crash "$out" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" fpe
	is "$STATUS" "exit 1" "fpe: $ARCH division by zero does not trap: crashme exits 1"
	check "fpe: crashme says it did not crash" grep -q 'crashme: fpe did not crash' "$out.stderr"
	check "fpe: no report" test ! -s "$out"
fi

engine_cases fp "$DEMO/crashme" 0
engine_cases auto "$DEMO/crashme" 1
engine_cases auto "$DEMO/crashme-nofp" 1
# The cause line (issue 18): what the fault was, where it can be told; no
# line where it cannot (a wild read, a division, a trap).
cause_is() { # MODE CAUSE ("" for none)
	local f=$TMPD/$1.auto.crashme.txt got
	got=$(sed -n 's/^cause: //p' "$f")
	is "$got" "$2" "cause of $1: ${2:-none}"
}
cause_is segv "null pointer dereference"
cause_is thread "null pointer dereference"
cause_is lib "null pointer dereference"
cause_is read ""
cause_is bus "access past the end of a mapped file"
cause_is badpc "execution at a null address (a null function pointer or return address)"
cause_is rodata "write to read-only memory"
cause_is nx "execution of non-executable memory"
cause_is guard "access to a page mapped without access (PROT_NONE)"
cause_is abort "raised by the process itself (abort, raise, or kill of its own pid)"
cause_is ill ""
cause_is trap ""
[ -z "$FPE" ] || cause_is fpe ""
# The memory sections (issue 18): 16 rows near the pc, near sp; the memory
# map with the module's build-id and load bias, and the fault address marked.
seg=$TMPD/segv.auto.crashme.txt
check "segv: memory near pc, 16 rows" test "$(sed -n '/^memory near pc /,/^$/p' "$seg" | grep -c '^    [0-9a-f]\{16\}\( [0-9a-f-]\{2\}\)\{16\}  .\{16\}$')" = 16
check "segv: memory near sp" grep -q '^memory near sp' "$seg"
check "segv: memory map header" grep -q '^memory map ([0-9]* entries):$' "$seg"
check "segv: the fault address (0) falls before the first mapping" \
	grep -q '^--->fault address 0x0000000000000000 falls before the first mapping$' "$seg"
check "segv: crashme's mappings with its build-id and load bias" \
	grep -q "^    [0-9a-f]*-[0-9a-f]* r-xp [0-9a-f]*  .*crashme (BuildId: [0-9a-f]*) (load bias 0x[0-9a-f]*)$" "$seg"
# Under qemu-user the maps are the emulator's, and qemu 10 sometimes names
# this file's mapping "[heap]" (seen under qemu-aarch64 in 2 runs of 8, the
# report's mark on the right line): the shared read-only mapping at offset 0
# is the file's either way.
busname='/tmp/crashme-bus-'
[ -z "$RUN" ] || busname='\(/tmp/crashme-bus-\|\[heap\]$\)'
check "bus: the mapping of the file is marked" \
	grep -q "^--->[0-9a-f]*-[0-9a-f]* r--s 00000000  $busname" "$TMPD/bus.auto.crashme.txt"
n=$(sed -n 's/^memory map (\([0-9]*\) entries):$/\1/p' "$seg")
got=$(sed -n '/^memory map/,/^$/p' "$seg" | grep -c '^\(    \|--->\)[0-9a-f]*-')
check "segv: as many mapping lines as the header says ($n, $got)" test "$n" = "$got"
# More mappings than the report's 64 KiB copy of /proc/self/maps holds: the
# file read line by line, twice (the count, then the lines), as complete.
out=$TMPD/maps.txt
rm -f "$out"
CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" $RUN "$DEMO/crashme" maps >/dev/null 2>&1
n=$(sed -n 's/^memory map (\([0-9]*\) entries):$/\1/p' "$out")
got=$(sed -n '/^memory map/,/^$/p' "$out" | grep -c '^\(    \|--->\)[0-9a-f]*-')
check "maps: over 2,000 mappings ($n), as many lines as the header says ($got)" \
	test "${n:-0}" -gt 2000 -a "$n" = "$got"
check "maps: the report ends" grep -q '^\*\*\* end of libcrash report \*\*\*$' "$out"
# Sent by someone else: the shell's kill.
out=$TMPD/killed.txt
rm -f "$out"
CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" $RUN "$DEMO/crashme" pause >"$out.ready" 2>/dev/null &
victim=$!
for i in $(seq 300); do grep -q ready "$out.ready" 2>/dev/null && break; sleep 0.1; done
kill -SEGV "$victim"
wait "$victim" 2>/dev/null
is "$(sed -n 's/^cause: //p' "$out")" "sent by another process (pid $$, uid $(id -u))" \
	"cause of a kill -SEGV from the shell: sent by another process, its pid and uid"
if [ "$ARCH" = aarch64 ]; then
	# Pointer authentication: crashme-pac's saved return addresses are signed (where the
	# CPU has FEAT_PAuth: qemu-user's default CPU does); the CFI rows say so
	# (DW_CFA_AARCH64_negate_ra_state) and the engines strip the PAC.
	$RUN "$DEMO/crashme-pac" pac-active
	is "$?" 0 "pac: paciasp signs return addresses on this CPU"
	engine_cases auto "$DEMO/crashme-pac" 1
	engine_cases scan "$DEMO/crashme-pac" 0
fi

# C++: an uncaught exception (abort from std::terminate, called by __cxa_throw),
# and a destructor that crashes while an exception unwinds (the landing pad).
out=$TMPD/cxx.txt
run_crash "$out" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashcxx" uncaught
is "$STATUS" "signal 6 core 0" "c++ uncaught: died by SIGABRT"
check "c++ uncaught: complete" grep -q '^backtrace: .*engine auto, complete$' "$out"
check "c++ uncaught: abort <- std::terminate <- __cxa_throw <- thrower <- main" \
	names_in_order "$out" abort "std::terminate()" __cxa_throw "thrower()" main
run_crash "$out" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashcxx" dtor
is "$STATUS" "signal 11 core 0" "c++ dtor: died by SIGSEGV"
check "c++ dtor: complete" grep -q '^backtrace: .*engine auto, complete$' "$out"
check "c++ dtor: ~Bomb <- thrower_with_bomb (landing pad) <- main" \
	names_in_order "$out" "(anonymous namespace)::Bomb::~Bomb()" "thrower_with_bomb()" main
# ...and a fault in a member function inlined into its caller (issue 17): its own
# [inline] line first, at its source line, then the caller at the call site;
# names demangled.  tests/symbols checks every frame against binutils.
run_crash "$out" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashcxx" inline
is "$STATUS" "signal 11 core 0" "c++ inline: died by SIGSEGV"
check "c++ inline: #00 Cart<int>::total() [inline] at crashcxx.cc" \
	grep -q '^ *#00 pc [0-9a-f]*  .*crashcxx (shop::Cart<int>::total() const+[0-9]*) (BuildId: [0-9a-f]*) \[inline\] at .*demo/crashcxx.cc:[0-9]*$' "$out"
check "c++ inline: #01 checkout() with #00's pc, from the context, at its call of total()" \
	grep -q "^ *#01 pc $(sed -n 's/^ *#00 pc \([0-9a-f]*\) .*/\1/p' "$out")  .*(shop::checkout(shop::Cart<int> const&)+[0-9]*) \[ctx\] at .*demo/crashcxx.cc:[0-9]*$" "$out"
check "c++ inline: checkout <- main, through std::function" \
	names_in_order "$out" "shop::checkout(shop::Cart<int> const&)" main
run_crash "$out" CRASH_OUTPUT="$out" CRASH_SYMBOLS=mangled LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashcxx" inline
check "c++ inline, CRASH_SYMBOLS=mangled: mangled names, no [inline], no file:line" \
	eval "grep -q '(_ZN4shop8checkoutERKNS_4CartIiEE+[0-9]*) .*\[ctx\]\$' '$out' && ! grep '^ *#[0-9]' '$out' | grep -q '\[inline\]\| at '"
run_crash "$out" CRASH_OUTPUT="$out" CRASH_SYMBOLS=names LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashcxx" inline
check "c++ inline, CRASH_SYMBOLS=names: demangled, no [inline], no file:line" \
	eval "grep -q '^ *#00 .*(shop::checkout(shop::Cart<int> const&)+[0-9]*) .*\[ctx\]\$' '$out' && ! grep '^ *#[0-9]' '$out' | grep -q '\[inline\]\| at '"

# The engines against each other (issue 4: the evidence where no libunwind is packaged):
# CRASH_ENGINE=all on the frame-pointer build, every mode.  auto must equal cfi frame for
# frame; every frame fp gives, up to the first one outside the demo's own modules (beyond,
# in code without frame pointers, it may stop or misread), equals cfi's; every frame scan
# gives equals cfi's.  Each must see at least the demo's frames up to the first other one.
engines_agree() { # REPORT
	# The crashing thread's sections only (the other threads' come after "other threads:").
	awk '/^other threads: / { others = 1 } others { next }
		/^backtrace: / { e = $5; sub(",", "", e) }
		/^ *#[0-9]+ pc / { n[e]++; pc[e, n[e]] = $3 " " $4 }
		END {
			if (!n["cfi"] || !n["auto"] || !n["fp"] || !n["scan"]) { print "# missing a section"; exit 1 }
			if (n["auto"] != n["cfi"]) { print "# auto " n["auto"] " frames, cfi " n["cfi"]; exit 1 }
			for (i = 1; i <= n["cfi"]; i++) {
				if (pc["auto", i] != pc["cfi", i]) { print "# auto #" i - 1 ": " pc["auto", i] " cfi " pc["cfi", i]; exit 1 }
				if (own == 0 && pc["cfi", i] !~ /\/(crashme|libcrashme\.so|libcrashinit\.so)$/) own = i
			}
			if (own == 0) own = n["cfi"]
			for (i = 1; i <= n["fp"] && i <= own; i++)
				if (pc["fp", i] != pc["cfi", i]) { print "# fp #" i - 1 ": " pc["fp", i] " cfi " pc["cfi", i]; exit 1 }
			for (i = 1; i <= n["scan"]; i++)
				if (pc["scan", i] != pc["cfi", i]) { print "# scan #" i - 1 ": " pc["scan", i] " cfi " pc["cfi", i]; exit 1 }
			if (n["fp"] < own - 1 || n["scan"] < own - 1) { print "# fp " n["fp"] ", scan " n["scan"] " frames, demo frames " own - 1; exit 1 }
		}' "$1"
}
while read -r mode rest; do
	[ -n "$mode" ] || continue
	out=$TMPD/all.$mode.txt
	run_crash "$out" CRASH_OUTPUT="$out" CRASH_ENGINE=all LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" "$mode"
	if engines_agree "$out" >"$out.why"; then ok 0 "all engines $mode: fp and scan agree with cfi, auto equals cfi"; else
		ok 1 "all engines $mode: fp and scan agree with cfi, auto equals cfi"; sed 's/^/#   /' "$out.why"; fi
done <<<"$CASES"

# Generated code (an anonymous executable page, as a JIT's): no module, no symbol, no table.
# auto takes the caller from [sp] / the link register, confirmed (docs/design.md), where an fp
# walk would skip crash_jit; scan alone has no function start and says so.
for bin in crashme crashme-nofp; do
	out=$TMPD/jit.$bin.txt
	run_crash "$out" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/$bin" jit
	is "$STATUS" "signal 11 core 0" "jit $bin: died by SIGSEGV"
	check "jit $bin: frame #00 in no module" grep -q '^ *#00 pc [0-9a-f]\{16\}  <unknown> \[ctx\]\( at .*:[0-9]*\)\{0,1\}$' "$out"
	check "jit $bin: frame #01 crash_jit, from the return address" \
		grep -q '^ *#01 pc .*(crash_jit+[0-9]*).* \[ra\]\( at .*:[0-9]*\)\{0,1\}$' "$out"
	if names_in_order "$out" crash_jit $CHAIN; then ok 0 "jit $bin: frames crash_jit $CHAIN"; else
		ok 1 "jit $bin: frames crash_jit $CHAIN"; sed 's/^/#   /' "$out"; fi
	check "jit $bin: complete" grep -q '^backtrace: .*engine auto, complete$' "$out"
done
out=$TMPD/jit.scan.txt
run_crash "$out" CRASH_OUTPUT="$out" CRASH_ENGINE=scan LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" jit
pc0=$(sed -n 's/^ *#00 pc \([0-9a-f]\{16\}\) .*/\1/p' "$out")
check "jit scan: truncated: no function start for frame #00's pc" \
	grep -q "^backtrace: 1 frame, engine scan, truncated: no function start for pc 0x$pc0\$" "$out"

# Frame #00 is the exact faulting pc; a bad pc is said so and its caller follows.
out=$TMPD/badpc.auto.crashme.txt
check "badpc: frame #00 not in any executable mapping" \
	grep -q '^ *#00 pc 0000000000000000  <not in any executable mapping> \[ctx\]\( at .*:[0-9]*\)\{0,1\}$' "$out"
check "badpc: frame #01 is the caller, from the return address" \
	grep -q '^ *#01 pc .*(crash_badpc+[0-9]*).* \[ra\]\( at .*:[0-9]*\)\{0,1\}$' "$out"
check "segv: fault addr 0" grep -q 'fault addr 0x0000000000000000$' "$TMPD/segv.auto.crashme.txt"
# The process lines (issue 18): when, how long, what command, who, on what.
seg=$TMPD/segv.auto.crashme.txt
ts=$(sed -n 's/^timestamp: \([0-9-]*\)T\([0-9:]*\)\.[0-9]\{6\}Z$/\1 \2/p' "$seg")
if [ -n "$ts" ]; then
	age=$(( $(date -u +%s) - $(date -u -d "$ts" +%s) ))
	check "segv: timestamp, UTC to the microsecond, within 5 minutes of now ($ts, ${age}s)" \
		test "$age" -ge 0 -a "$age" -le 300
else
	check "segv: timestamp line" false
fi
check "segv: process uptime in seconds" grep -q '^process uptime: [0-9]*\.[0-9][0-9] s$' "$seg"
check "segv: cmdline is the command and its argument" grep -q "^cmdline: .*crashme segv$" "$seg"
is "$(sed -n 's/^uid: \([0-9]*\).*/\1/p' "$seg")" "$(id -u)" "segv: uid"
check "segv: kernel release" grep -q "^kernel: Linux $(uname -r | sed 's/[.[\*^$]/\\&/g') [a-z0-9_]*$" "$seg"
ver=$(sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile")
is "$(sed -n 's/^libcrash version: //p' "$seg")" "$ver" "segv: libcrash version"
check "read: fault addr 0xdead0000" grep -q 'fault addr 0x00000000dead0000$' "$TMPD/read.auto.crashme.txt"
check "abort: sender is the process itself" grep -q 'code -6 (SI_TKILL), sender pid [0-9]*, uid [0-9]*$' "$TMPD/abort.auto.crashme.txt"
check "segv: build-id on the first frame" grep -q '^ *#00 pc .*crashme (crash_null+[0-9]*) (BuildId: [0-9a-f]\{40\}) \[ctx\]\( at .*:[0-9]*\)\{0,1\}$' "$TMPD/segv.auto.crashme.txt"
# The psABI's names, four a line, padded to three columns, in the arch's order
# (libcrash/arch/<arch>/desc.c).
H='[0-9a-f]\{16\}'
case $ARCH in
aarch64) REGLINE="x28 $H  x29 $H  x30 $H  sp  $H" ;;
riscv64) REGLINE="t4  $H  t5  $H  t6  $H  pc  $H" ;;
loongarch64) REGLINE="s6  $H  s7  $H  s8  $H  pc  $H" ;;
*) REGLINE="r12 $H  r13 $H  r14 $H  r15 $H" ;;
esac
check "segv: every register" grep -q "^    $REGLINE\$" "$TMPD/segv.fp.crashme.txt"
if grep -q '^ *#01 pc .*(level3+[0-9]*) \[scan\]\( at .*:[0-9]*\)\{0,1\}$' "$TMPD/segv.fp.crashme.txt" && [ "$ARCH" != x86_64 ]; then
	# crash_null is a leaf without a frame record (aarch64; riscv64 gcc saves only fp): its
	# caller comes from the link register, as the prologue decoder says; then records.
	check "fp engine tags [fp] from #02 (#01: leaf's caller from the link register, [scan])" \
		grep -q '^ *#02 pc .*(level2+[0-9]*) \[fp\]\( at .*:[0-9]*\)\{0,1\}$' "$TMPD/segv.fp.crashme.txt"
else
	check "fp engine tags [fp]" grep -q '^ *#01 pc .*(level3+[0-9]*) \[fp\]\( at .*:[0-9]*\)\{0,1\}$' "$TMPD/segv.fp.crashme.txt"
fi
check "nofp: caller frames tagged [cfi]" grep -q '^ *#01 pc .*(level3+[0-9]*) \[cfi\]\( at .*:[0-9]*\)\{0,1\}$' "$TMPD/segv.auto.crashme-nofp.txt"

# The module-relative pc names the same place for addr2line (if binutils is there).
if command -v addr2line >/dev/null && [ -z "$RUN" ]; then
	pc=$(sed -n 's/^ *#01 pc \([0-9a-f]*\) .*/\1/p' "$TMPD/segv.fp.crashme.txt")
	fn=$(addr2line -f -e "$DEMO/crashme" "0x$pc" | head -1)
	is "$fn" level3 "addr2line on frame #01's pc names level3"
fi

# deep N: exactly N+1 recursion frames between crash_null and crash_deep.
out=$TMPD/deep.txt
run_crash "$out" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" deep 20
is "$STATUS" "signal 11 core 0" "deep 20: died by SIGSEGV"
is "$(frame_names "$out" | grep -c '^recurse$')" 21 "deep 20: 21 recurse frames"
check "deep 20: complete" grep -q 'engine auto, complete$' "$out"
check "deep 20: in order" names_in_order "$out" crash_null recurse recurse crash_deep $CHAIN

# Frame limit.
run_crash "$out" CRASH_OUTPUT="$out" CRASH_MAX_FRAMES=10 LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" deep 20
check "CRASH_MAX_FRAMES=10: truncated: frame limit" grep -q '^backtrace: 10 frames, engine auto, truncated: frame limit$' "$out"

# Stack overflow: reported from the alternate stack.
out=$TMPD/overflow.txt
run_crash "$out" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" stack-overflow
is "$STATUS" "signal 11 core 0" "stack-overflow: died by SIGSEGV"
check "stack-overflow: report with 256 frames" grep -q '^backtrace: 256 frames, engine auto, truncated: frame limit$' "$out"
check "stack-overflow: recurse frames" names_in_order "$out" recurse recurse recurse

# A garbage frame pointer ends the walk cleanly, and the process dies as it should.
out=$TMPD/wildfp.txt
run_crash "$out" CRASH_OUTPUT="$out" CRASH_ENGINE=fp LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" wildfp
is "$STATUS" "signal 11 core 0" "wildfp: died by SIGSEGV"
if [ "$ARCH" != x86_64 ] && grep -q '^ *#01 pc .*(level3+[0-9]*) \[scan\]\( at .*:[0-9]*\)\{0,1\}$' "$out"; then
	# crash_wildfp saved no return address (a leaf): the fp engine's frame-#00 rule takes
	# its caller from the link register.  Then either the wild fp ends the walk (the leaf
	# saved no fp: aarch64, clang) or, where the leaf saved fp before overwriting it (GCC
	# on riscv64: sd s0,8(sp)), the decoded prologue restores it and the chain goes on.
	wild_leaf() {
		grep -q '^backtrace: 2 frames, engine fp, truncated: invalid memory at 0x00007ffd00000007$' "$1" ||
			{ names_in_order "$1" crash_wildfp $CHAIN &&
				grep -q '^ *#02 pc .*(level2+[0-9]*) \[fp\]\( at .*:[0-9]*\)\{0,1\}$' "$1"; }
	}
	check "wildfp: leaf's caller, then the wild fp or the saved one" wild_leaf "$out"
else
	check "wildfp: truncated: invalid memory at the wild fp" \
		grep -q '^backtrace: 1 frame, engine fp, truncated: invalid memory at 0x00007ffd00000007$' "$out"
fi
# auto: CFI (CFA = rbp+16) and fp fail at frame #00; the prologue decoder sees
# that rbp was overwritten after the push and recovers the caller from sp.  Where
# the compiler made crash_wildfp a leaf without a frame record (GCC for aarch64),
# its CFI is sp-based, untouched by the wild x29: CFI recovers the caller.
run_crash "$out" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" wildfp
case $ARCH in aarch64) WILDTAG=cfi ;; *) WILDTAG=scan ;; esac
check "wildfp auto: frame #01 recovered by $WILDTAG" grep -q "^ *#01 pc .*(level3+[0-9]*) \\[$WILDTAG\\]\\( at .*:[0-9]*\\)\\{0,1\\}$" "$out"
check "wildfp auto: then complete" grep -q '^backtrace: .*engine auto, complete$' "$out"

# Two threads crash at once: exactly one report, one death.
for i in 1 2 3 4 5; do
	out=$TMPD/race.txt
	run_crash "$out" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" race
	is "$STATUS" "signal 11 core 0" "race $i: died by SIGSEGV"
	is "$(grep -c '^\*\*\* libcrash: fatal signal' "$out")" 1 "race $i: exactly one report"
	is "$(grep -c '^\*\*\* end of libcrash report' "$out")" 1 "race $i: and it is complete"
done

# crash_report_fd then abort: two reports, the first one requested.
out=$TMPD/assert.txt
run_crash "$out" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" assert
is "$STATUS" "signal 6 core 0" "assert: died by SIGABRT"
check "assert: requested report on stderr" grep -q '^\*\*\* libcrash: report requested \*\*\*$' "$out.stderr"
check "assert: requested report names the caller" names_in_order "$out.stderr" crash_report_fd crash_assert $CHAIN
check "assert: then the SIGABRT report" grep -q '^signal 6 (SIGABRT)' "$out"

# Exit status from a shell is 128+signal, as without libcrash.
sh -c "LD_PRELOAD='$LIBCRASH' CRASH_OUTPUT=/dev/null $RUN '$DEMO/crashme' segv" 2>/dev/null
is "$?" 139 "shell sees 139 after a SIGSEGV"
sh -c "LD_PRELOAD='$LIBCRASH' CRASH_OUTPUT=/dev/null $RUN '$DEMO/crashme' abort" 2>/dev/null
is "$?" 134 "shell sees 134 after abort()"

# Core dumps: the same with and without libcrash (core_pattern permitting).
if [ -z "$RUN" ] && (ulimit -c unlimited) 2>/dev/null; then
	for mode in segv abort fpe; do
		without=$(cd "$TMPD" && ulimit -c unlimited && "$WAITSIG" "$DEMO/crashme" $mode 2>/dev/null)
		with=$(cd "$TMPD" && ulimit -c unlimited && CRASH_OUTPUT=/dev/null LD_PRELOAD="$LIBCRASH" "$WAITSIG" "$DEMO/crashme" $mode 2>/dev/null)
		is "$with" "$without" "core $mode: same wait status with ulimit -c unlimited ($without)"
	done
	rm -f "$TMPD"/core*
else
	skip "core dumps" "ulimit -c cannot be raised or running under an emulator"
fi

# The environment: disable, output forms, signal set, engine all, bad values.
out=$TMPD/env.txt
run_crash "$out" CRASH_DISABLE=1 LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
is "$STATUS" "signal 11 core 0" "CRASH_DISABLE=1: still dies"
check "CRASH_DISABLE=1: no report" sh -c "! grep -q libcrash '$out.stderr'"
run_crash "$out" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
check "default output is stderr" grep -q '^\*\*\* libcrash: fatal signal' "$out.stderr"
# The shell is a program of this machine: $RUN goes inside it, before crashme.
RUN= run_crash "$out" CRASH_OUTPUT=fd:1 -- sh -c "exec env LD_PRELOAD='$LIBCRASH' $RUN '$DEMO/crashme' segv >'$out'"
check "CRASH_OUTPUT=fd:1" grep -q '^\*\*\* end of libcrash report' "$out"
run_crash "$out" CRASH_OUTPUT="$out" CRASH_SIGNALS=ABRT LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
is "$STATUS" "signal 11 core 0" "CRASH_SIGNALS=ABRT: segv still dies"
check "CRASH_SIGNALS=ABRT: no report for SEGV" test ! -s "$out"
run_crash "$out" CRASH_OUTPUT="$out" CRASH_ENGINE=all LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
is "$(grep -c '^backtrace: ' "$out")" 4 "CRASH_ENGINE=all: four backtraces"
for e in auto fp cfi scan; do
	check "CRASH_ENGINE=all: $e section" grep -q "^backtrace: [0-9]* frames\?, engine $e, " "$out"
done
run_crash "$out" CRASH_OUTPUT="$out" CRASH_ENGINE=bogus LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
is "$(grep -c 'libcrash: CRASH_ENGINE=bogus' "$out.stderr")" 1 "bad CRASH_ENGINE: one warning line"
check "bad CRASH_ENGINE: auto used" grep -q 'engine auto, complete$' "$out"

# crash_install() with options, from a linked program (the preload constructor disabled).
out=$TMPD/linked.txt
run_crash "$out.x" CRASH_DISABLE=1 CRASHME_OUTPUT="$out" -- "$DEMO/crashme-linked" segv
is "$STATUS" "signal 11 core 0" "crash_install: died by SIGSEGV"
check "crash_install: report in the file from crash_options.path" names_in_order "$out" crash_null $CHAIN
check "crash_install: nothing on stderr" sh -c "! grep -q libcrash '$out.x.stderr'"
# The application's handler (installed before crash_install) runs first; it ends
# the process itself (_exit 42), as without libcrash, so there is no report
# (README, "Living with other handlers"; tests/coexist has every other case).
rm -f "$out"
run_crash "$out.x" CRASH_DISABLE=1 CRASHME_OUTPUT="$out" CRASHME_APP_HANDLER=1 -- "$DEMO/crashme-linked" segv
is "$STATUS" "exit 42" "chaining: the application's handler ran first and chose the exit"
check "chaining: application handler message" grep -q 'application handler ran' "$out.x.stderr"
check "chaining: no report (the application ended the process itself)" test ! -s "$out"

# A fault inside the handler ends in the original signal's default action.
out=$TMPD/nested.txt
run_crash "$out" CRASH_OUTPUT="$out" CRASH_SELFTEST_FAULT=1 LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" abort
is "$STATUS" "signal 6 core 0" "fault in the handler during SIGABRT: dies by SIGABRT"
check "fault in the handler: one-line note" grep -q '^libcrash: fault inside the crash handler; default action for signal 6$' "$out"

done_testing
