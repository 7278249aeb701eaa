#!/bin/bash
# libcrash living with the application's own signal handlers (issue 14).  Every mode of
# tests/coexist/coexist runs without libcrash, then with it (preloaded, or the build linked
# with libcrash), and must end the same way (wait status) with the same output of its own;
# libcrash reports exactly the crashes that end the process, once, and nothing that the
# application recovers from.  The modes are described in tests/coexist/coexist.c.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
PROG=$top_builddir/tests/coexist/coexist
LINKED=$top_builddir/tests/coexist/coexist-linked
# No core files: both runs say "core 0", whatever the system's core_pattern.
ulimit -c 0
# The main thread's stack overflow must end at a limit, not at the next mapping.
[ "$(ulimit -s)" != unlimited ] || ulimit -s 8192
FATAL='^\*\*\* libcrash: fatal signal \*\*\*$'
END='^\*\*\* end of libcrash report \*\*\*$'
# The cost comparison: as many recovered faults as take about 2 s without libcrash (below:
# a million natively on a host where a fault costs 2-3 us, fewer where the kernel's signal
# delivery is dearer: 15 s a run where a fault costs 15 us made this test take 3 minutes);
# the ratio allowed, in tenths: 1.3x natively, 1.5x under an emulator, where libcrash's
# handler is translated code but signal delivery is the emulator's own native code.
# COEXIST_FAULTS: that many, no calibration.
if [ -n "$RUN" ]; then
	FAULTS_MAX=200000 RATIO=15
else
	FAULTS_MAX=1000000 RATIO=13
fi
FAULTS=${COEXIST_FAULTS:-}
# A prefix for waitsig's command (the SIG_IGN case), empty otherwise.
WRAP=()

# run TAG ENV... -- PROG ARGS: stdout in $TMPD/TAG.out, stderr in $TMPD/TAG.err, the wait
# status in STATUS.  The environment goes to the program only, not to waitsig.
run() {
	local f=$TMPD/$1 envs=()
	shift
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	"$WAITSIG" -t 60 "${WRAP[@]}" env "${envs[@]}" $RUN "$@" >"$f.out" 2>"$f.err"
	# waitsig prints its verdict last, once the program (and its children) are done.
	STATUS=$(tail -n 1 "$f.out")
	sed -i '$d' "$f.out"
}

nreports() { # FILE
	if [ -e "$1" ]; then grep -c "$FATAL" "$1"; else echo 0; fi
}

# The program's own output (stdout without its "info " lines, stderr) is the same in both runs.
same_output() { # NAME
	local n=$TMPD/$1
	grep -v '^info ' "$n.0.out" >"$n.0.own"
	grep -v '^info ' "$n.1.out" >"$n.1.own"
	if cmp -s "$n.0.own" "$n.1.own" && cmp -s "$n.0.err" "$n.1.err"; then
		ok 0 "$1: the program's own output is the same"
	else
		ok 1 "$1: the program's own output is the same"
		diff "$n.0.own" "$n.1.own" | head -20 | sed 's/^/#   stdout: /'
		diff "$n.0.err" "$n.1.err" | head -20 | sed 's/^/#   stderr: /'
	fi
}

# The program's own checks ("ok: ..." / "FAIL: ..."): one TAP line each for the run with
# libcrash; without libcrash they must all pass, or the test itself is wrong.
own_checks() { # NAME
	local n=$TMPD/$1 line
	if grep -q '^\(ok\|FAIL\): ' "$n.0.out"; then
		if grep -q '^FAIL: ' "$n.0.out"; then
			ok 1 "$1: without libcrash, the program's own checks pass"
			grep '^FAIL: ' "$n.0.out" | sed 's/^/#   /'
		else
			ok 0 "$1: without libcrash, the program's own checks pass"
		fi
	fi
	while IFS= read -r line; do
		case $line in
		"ok: "*) ok 0 "$1: ${line#ok: }" ;;
		"FAIL: "*) ok 1 "$1: ${line#FAIL: }" ;;
		esac
	done <"$n.1.out"
}

# pair NAME WANT REPORTS HOW [ENV...] -- ARGS...: the program without libcrash, then with it.
# HOW: preload (LD_PRELOAD=libcrash.so), linked (coexist-linked: its constructor installs),
# linked-disabled (coexist-linked with CRASH_DISABLE=1: only its own crash_install() calls).
# ENV goes to both runs.  Checks: both runs end as WANT, the same output, nothing from
# libcrash on stderr, REPORTS reports in $TMPD/NAME.report (REPORTS "any": not counted, the
# count is a comment), each one complete.
pair() {
	local name=$1 want=$2 nrep=$3 how=$4 envs=() rep=$TMPD/$1.report
	shift 4
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	rm -f "$rep"
	run "$name.0" "${envs[@]}" -- "$PROG" "$@"
	S0=$STATUS
	case $how in
	preload) run "$name.1" "${envs[@]}" CRASH_OUTPUT="$rep" LD_PRELOAD="$LIBCRASH" -- "$PROG" "$@" ;;
	linked) run "$name.1" "${envs[@]}" CRASH_OUTPUT="$rep" -- "$LINKED" "$@" ;;
	linked-disabled)
		run "$name.1" "${envs[@]}" CRASH_OUTPUT="$rep" CRASH_DISABLE=1 -- "$LINKED" "$@" ;;
	esac
	S1=$STATUS
	is "$S0" "$want" "$name: without libcrash: $want"
	is "$S1" "$want" "$name: with libcrash: $want"
	same_output "$name"
	own_checks "$name"
	if grep -q libcrash "$TMPD/$name.1.err"; then
		ok 1 "$name: nothing from libcrash on stderr"
		grep libcrash "$TMPD/$name.1.err" | head -5 | sed 's/^/#   /'
	fi
	if [ "$nrep" = any ]; then
		echo "# $name: $(nreports "$rep") libcrash report(s)"
		return
	fi
	is "$(nreports "$rep")" "$nrep" "$name: $nrep libcrash report(s)"
	if [ "$nrep" -gt 0 ]; then
		is "$(grep -c "$END" "$rep" 2>/dev/null)" "$nrep" "$name: the report ends with its end line"
	elif [ -s "$rep" ]; then
		ok 1 "$name: libcrash wrote nothing"
		head -5 "$rep" | sed 's/^/#   /'
	fi
}

# A signal raised inside the application's SIGSEGV handler (abort()): the report says in which
# handler, at which frame the interrupted function is, and its backtrace goes on down through
# the handler to the function that faulted and to main.
nested_checks() { # NAME NAMES-IN-ORDER...
	local n=$1 rep=$TMPD/$1.report line nn
	shift
	line=$(grep -E '^raised in the handler of signal 11 \(SIGSEGV\), code 1 \(SEGV_MAPERR\), fault addr 0x0000000000000000 \(frame #[0-9]{2}\)$' "$rep" 2>/dev/null)
	if [ -n "$line" ]; then
		ok 0 "$n: 'raised in the handler of signal 11 (SIGSEGV)' line"
		nn=$(sed -E 's/.*\(frame #([0-9]+)\)$/\1/' <<<"$line")
		check "$n: frame #$nn is the faulting function" \
			grep -qE "^ +#$nn pc [0-9a-f]{16}  .* \(fault_null(\.[a-z0-9_.]+)?\+[0-9]+\)" "$rep"
	else
		ok 1 "$n: 'raised in the handler of signal 11 (SIGSEGV)' line"
		grep -E '^(signal|raised)' "$rep" 2>/dev/null | head -3 | sed 's/^/#   /'
	fi
	if names_in_order "$rep" "$@"; then ok 0 "$n: backtrace $*"; else
		ok 1 "$n: backtrace $*"
		frame_names "$rep" 2>/dev/null | tr '\n' ' ' | sed 's/^/#   frames: /; s/$/\n/'
	fi
}

# ---- A: the interfaces that libcrash.so defines in front of libc's.
for f in sigaction signal bsd_signal sysv_signal sigset sigignore pthread_create; do
	check "libcrash.so defines $f" sh -c "${NM:-nm} -D --defined-only '$LIBCRASH' | grep -q ' [TW] $f\$'"
done

# ---- I, A: what the application reads back; libcrash stays the kernel's handler.
pair readback "exit 0" 0 preload -- readback
is "$(grep "^info kernel's SIGSEGV" "$TMPD/readback.0.out")" \
	"info kernel's SIGSEGV handler: the application's" \
	"readback: without libcrash, the kernel has the application's handler"
is "$(grep "^info kernel's SIGSEGV" "$TMPD/readback.1.out")" \
	"info kernel's SIGSEGV handler: another handler" \
	"readback: with libcrash, the kernel keeps libcrash's handler"
pair readback-linked "exit 0" 0 linked -- readback
# Started with SIGSEGV ignored (exec keeps SIG_IGN): the first query says SIG_IGN; a sent
# SIGSEGV is ignored; a fault still kills (the kernel forces the default action).
WRAP=(bash -c 'trap "" SEGV; exec "$@"' ignore-segv)
pair ignored "signal 11 core 0" 1 preload -- ignored
WRAP=()
pair sigignore "signal 11 core 0" 1 preload -- sigignore

# ---- B: the application recovers; libcrash says nothing.
for how in jmp ctx map; do
	pair "recover-$how" "exit 0" 0 preload -- recover "$how" 1000
	check "recover-$how: all 1000 recovered" grep -qx 'recovered 1000 of 1000' "$TMPD/recover-$how.1.out"
done
# The cost: FAULTS recovered faults, the program's own clock around its loop; median of three
# runs each, alternated.  A run with libcrash three times slower ends the measurement.
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
if [ -z "$FAULTS" ]; then
	# 20,000 without libcrash, timed by the program's clock; then enough for ~2 s, between
	# 20,000 and FAULTS_MAX.
	FAULTS=20000
	run calibrate -- "$PROG" recover jmp "$FAULTS"
	ns=$(sed -n 's/^info ns //p' "$TMPD/calibrate.out")
	if [ "$STATUS" = "exit 0" ] && [ "${ns:-0}" -gt 0 ]; then
		FAULTS=$(awk -v ns="$ns" -v max="$FAULTS_MAX" \
			'BEGIN { n = int(20000 * 2e9 / ns / 1000) * 1000; print (n < 20000 ? 20000 : n > max ? max : n) }')
	fi
	echo "# $FAULTS recovered faults a run: 20,000 took $((${ns:-0} / 1000000)) ms without libcrash"
fi
for how in jmp ctx; do
	t0=() t1=() good=1
	for _ in 1 2 3; do
		run "time-$how.0" -- "$PROG" recover "$how" "$FAULTS"
		[ "$STATUS" = "exit 0" ] || good=0
		t0+=("$(sed -n 's/^info ns //p' "$TMPD/time-$how.0.out")")
		rm -f "$TMPD/time.report"
		run "time-$how.1" CRASH_OUTPUT="$TMPD/time.report" LD_PRELOAD="$LIBCRASH" -- \
			"$PROG" recover "$how" "$FAULTS"
		[ "$STATUS" = "exit 0" ] && grep -qx "recovered $FAULTS of $FAULTS" "$TMPD/time-$how.1.out" &&
			[ ! -s "$TMPD/time.report" ] || good=0
		t1+=("$(sed -n 's/^info ns //p' "$TMPD/time-$how.1.out")")
		if [ "$good" != 1 ] || [ $((${t1[-1]:-0})) -gt $((3 * ${t0[-1]:-0})) ]; then
			break
		fi
	done
	m0=$(median "${t0[@]}")
	m1=$(median "${t1[@]}")
	echo "# recover-$how: $FAULTS recovered SIGSEGVs: without libcrash $((m0 / 1000000)) ms," \
		"with libcrash $((${m1:-0} / 1000000)) ms (median of ${#t1[@]})," \
		"ratio $(awk -v a="${m1:-0}" -v b="$m0" 'BEGIN { printf "%.2f", b ? a / b : 0 }')"
	is "$good" 1 "recover-$how: $FAULTS faults recovered with libcrash, exit 0, no report"
	if [ -n "$m1" ] && [ $((m1 * 10)) -le $((m0 * RATIO)) ]; then
		ok 0 "recover-$how: with libcrash at most $((RATIO / 10)).$((RATIO % 10))x the time without"
	else
		ok 1 "recover-$how: with libcrash at most $((RATIO / 10)).$((RATIO % 10))x the time without"
	fi
done

# ---- C, D: the application's handler ends the process: one report, the same death.
for how in abort raise refault resethand; do
	case $how in abort) sig=6 ;; *) sig=11 ;; esac
	pair "end-$how" "signal $sig core 0" 1 preload -- end "$how"
	check "end-$how: the application's handler ran" grep -qx 'my handler ran' "$TMPD/end-$how.1.err"
	check "end-$how: the report is for signal $sig" grep -q "^signal $sig (SIG" "$TMPD/end-$how.report"
done
nested_checks end-abort abort on_segv fault_null main
# A handler without SA_NODEFER faults itself: the kernel's default action.  No report is
# required: SIGSEGV is blocked in that handler (the application's mask, which end-raise relies
# on), so the kernel resets the disposition to SIG_DFL and kills without calling anyone.
pair infault "signal 11 core 0" any preload -- infault

# ---- E: libcrash's handler, taken from the kernel and called by other code, reports and
# returns to its caller.
for how in 1arg 3arg null; do
	pair "foreign-$how" "exit 42" 1 preload -- foreign "$how"
	check "foreign-$how: the raw rt_sigaction saw libcrash's handler" \
		grep -qx 'info previous kernel handler: a function' "$TMPD/foreign-$how.1.out"
	NOCTX='signal 11 (SIGSEGV), handler called by other code, not by the kernel: no signal context'
	if [ "$how" = 3arg ]; then
		check "foreign-$how: signal line" grep -qxE \
			"(${NOCTX//[()]/.}|signal 11 \(SIGSEGV\), code 1 \(SEGV_MAPERR\), fault addr 0x0{16})" \
			"$TMPD/foreign-$how.report"
	else
		check "foreign-$how: signal line says: no signal context" grep -qxF "$NOCTX" \
			"$TMPD/foreign-$how.report"
	fi
done

# ---- F: every order of installation, linked and preloaded.
for end in abort refault; do
	case $end in abort) want="signal 6 core 0" ;; *) want="signal 11 core 0" ;; esac
	pair "order-after-preload-$end" "$want" 1 preload -- order after "$end"
	pair "order-after-linked-$end" "$want" 1 linked -- order after "$end"
	pair "order-before-linked-$end" "$want" 1 linked-disabled -- order before "$end"
	check "order-before-linked-$end: crash_install() returned 0" grep -qx \
		"info crash_install() after the application's sigaction(): 0" \
		"$TMPD/order-before-linked-$end.1.out"
	pair "order-early-preload-$end" "$want" 1 preload COEXIST_EARLY=1 -- order early "$end"
	check "order-early-preload-$end: the helper library's constructor ran before libcrash's" \
		grep -qx "info early: the application's handler came first" \
		"$TMPD/order-early-preload-$end.1.out"
	pair "order-twice-linked-$end" "$want" 1 linked -- order twice "$end"
	is "$(grep -c '^info crash_install() \(first\|second\): 0$' "$TMPD/order-twice-linked-$end.1.out")" 2 \
		"order-twice-linked-$end: both crash_install() calls returned 0"
	for o in after-preload after-linked before-linked early-preload twice-linked; do
		check "order-$o-$end: 3 faults recovered" grep -qx 'recovered 3 of 3' "$TMPD/order-$o-$end.1.out"
		if [ "$end" = abort ]; then
			nested_checks "order-$o-$end" abort on_segv fault_null main
		fi
	done
done

# ---- G: alternate stacks of the application's, small thread stacks, stack overflows.
# abort() in the handler needs a second signal frame below the first one on the application's
# alternate stack.  Where two frames (measured: the handler's depth on a 16 KiB stack) and 1 KiB
# do not fit, SIGABRT can reach no handler at all, libcrash's or any: aarch64's frames take
# 4.6 KiB and its SIGSTKSZ is 16 KiB, so its 8 KiB case is skipped.
run altprobe -- "$PROG" altstack 16 guard abort
FRAME=$(sed -n 's/^info handler entered \([0-9]*\) bytes .*/\1/p' "$TMPD/altprobe.out")
echo "# a SIGSEGV handler on the alternate stack starts ${FRAME:-?} bytes below its top"
for kib in 8 12 16; do
	for kind in guard canary; do
		for h in none abort; do
			n=altstack-$kib-$kind-$h
			case $h in none) sig=11 ;; *) sig=6 ;; esac
			if [ "$h" = abort ] && [ $((2 * ${FRAME:-0} + 1024)) -gt $((kib * 1024)) ]; then
				skip "$n" "two signal frames of $FRAME bytes do not fit in $kib KiB"
				continue
			fi
			pair "$n" "exit 0" 1 preload -- altstack "$kib" "$kind" "$h"
			is "$(grep '^child: ' "$TMPD/$n.1.out")" "child: signal $sig core 0" \
				"$n: the child died by signal $sig"
			if [ "$kind" = canary ]; then
				check "$n: the canary below the stack is intact" grep -qx 'canary intact' "$TMPD/$n.1.out"
			fi
			check "$n: complete backtrace" grep -q '^backtrace: .*, complete$' "$TMPD/$n.report"
			if [ "$h" = abort ]; then
				nested_checks "$n" abort on_segv_alt_abort fault_null main
			else
				check "$n: backtrace fault_null main" names_in_order "$TMPD/$n.report" fault_null main
			fi
		done
	done
done
pair smallthread "signal 11 core 0" 1 preload -- smallthread
check "smallthread: complete backtrace" grep -q '^backtrace: .*, complete$' "$TMPD/smallthread.report"
check "smallthread: backtrace fault_null small_thread" names_in_order "$TMPD/smallthread.report" \
	fault_null small_thread
for where in main thread; do
	pair "overflow-$where" "signal 11 core 0" 1 preload -- overflow "$where"
	check "overflow-$where: cause: stack overflow" grep -qx 'cause: stack overflow' \
		"$TMPD/overflow-$where.report"
	check "overflow-$where: backtrace overflow overflow" names_in_order "$TMPD/overflow-$where.report" \
		overflow overflow
done
pair threads "exit 0" 0 preload -- threads
is "$(grep '^info thread alternate stack' "$TMPD/threads.0.out")" \
	"info thread alternate stack: disabled, 0 bytes" "threads: without libcrash, no alternate stack"
alt=$(sed -n 's/^info thread alternate stack: enabled, \([0-9]*\) bytes$/\1/p' "$TMPD/threads.1.out")
if [ -n "$alt" ] && [ "$alt" -ge 16384 ]; then
	ok 0 "threads: a new thread has libcrash's alternate stack ($alt bytes)"
else
	ok 1 "threads: a new thread has libcrash's alternate stack, >= 16 KiB"
	grep '^info thread' "$TMPD/threads.1.out" | sed 's/^/#   /'
fi
grep '^info mappings' "$TMPD/threads.1.out" | sed 's/^info /# threads with libcrash: /'

# ---- H: handler styles, each recovering in one run and ending the process in another.
# Where the kernel (an emulator: qemu-user 7.2 for riscv64) does not apply sa_mask, the
# masks are not compared, and SA_NODEFER cannot be seen: its handler gets a mask from garbage.
run maskprobe -- "$PROG" style signal recover
NOMASK=$(grep -c '^info sa_mask is not applied' "$TMPD/maskprobe.out")
if [ "$NOMASK" != 0 ]; then
	skip "style: the handlers' masks compared" "this kernel (emulator) does not apply sa_mask"
fi
for st in signal bsd_signal siginfo resethand nodefer sysv_signal sigset; do
	if [ "$st" = nodefer ] && [ "$NOMASK" != 0 ]; then
		skip "style-nodefer" "this kernel (emulator) does not apply sa_mask"
		continue
	fi
	pair "style-$st-recover" "exit 0" 0 preload -- style "$st" recover
	check "style-$st-recover: 3 faults recovered" grep -qx 'recovered 3 of 3' "$TMPD/style-$st-recover.1.out"
	case $st in siginfo) sig=6 ;; *) sig=11 ;; esac
	pair "style-$st-end" "signal $sig core 0" 1 preload -- style "$st" end
	check "style-$st-end: the application's handler ran" grep -qx 'my handler ran' "$TMPD/style-$st-end.1.err"
done
if [ "$NOMASK" = 0 ]; then
	check "style-nodefer-recover: a fault inside the SA_NODEFER handler reached it again" \
		grep -qx 'in the handler: a nested fault was recovered' "$TMPD/style-nodefer-recover.1.out"
fi
nested_checks style-siginfo-end abort fault_null main
# SA_ONSTACK: the handler runs on the application's alternate stack only if it asked to.
for a in app-on app-off none-off; do
	pair "onstack-$a" "exit 0" 0 preload -- onstack "${a%-*}" "${a#*-}"
done

# Strict ISO C: signal() is glibc's __sysv_signal, taken over too.  Its handler runs once
# and returns into the fault: death by SIGSEGV, one report, and signal()'s answers as without.
rep=$TMPD/strict.report
rm -f "$rep"
run strict.0 -- "$top_builddir/tests/coexist/strict"
S0=$STATUS
run strict.1 CRASH_OUTPUT="$rep" LD_PRELOAD="$LIBCRASH" -- "$top_builddir/tests/coexist/strict"
is "$S0" "signal 11 core 0" "strict C: without libcrash: signal 11"
is "$STATUS" "signal 11 core 0" "strict C: with libcrash: signal 11"
check "strict C: signal() returns as without libcrash" cmp "$TMPD/strict.0.out" "$TMPD/strict.1.out"
check "strict C: the handler ran" grep -qx 'strict handler ran' "$TMPD/strict.1.err"
is "$(nreports "$rep")" 1 "strict C: one libcrash report"

done_testing
