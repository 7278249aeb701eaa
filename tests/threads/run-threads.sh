#!/bin/bash
# Every thread in the report (issue 18, item 5): tests/threads/threads, 18 threads blocked in
# different system calls, one stopped by a tracer and one exited but not reaped by it where
# ptrace works.  A crash: every other thread has its separator, header and registers,
# and a complete backtrace through the function it blocks in, or the reason it was not captured;
# as many threads as /proc/self/task had; the exit status and core as without libcrash; the whole
# report in bounded time.  A requested report (crash_report_fd, twice): every thread goes on and
# finishes its work afterwards, errno kept.  CRASH_THREADS=crashing: the one-thread report.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
PROG="$top_builddir/tests/threads/threads"
SEP='--- --- --- --- --- --- --- --- --- --- --- --- --- --- --- ---'
# name function: each thread and the function its backtrace must go through.
THREADS="t-cond:thr_cond t-pipe:thr_pipe t-sleep:thr_sleep t-poll:thr_poll t-accept:thr_accept
t-waitpid:thr_waitpid t-busy:thr_busy t-handler:on_usr1 t-mutex:thr_mutex t-epoll:thr_epoll
t-sigwait:thr_sigwait t-deep:thr_deep t-select:thr_select"

# The section of thread NAME in report FILE: from its header to the next separator.
section() { # FILE NAME
	awk -v n="$2" -v sep="$SEP" '$0 == sep { on = 0 } on { print } /^pid: [0-9]+, tid: [0-9]+, name: / && $NF == n && !/>>>/ { on = 1; print }' "$1"
}

check_threads() { # FILE WHAT STDERR-OF-THE-RUN
	local f=$1 what=$2 nm fn s
	for t in $THREADS; do
		nm=${t%%:*} fn=${t#*:}
		section "$f" "$nm" >"$TMPD/sec"
		s=$(grep -c '^backtrace: .*, complete$' "$TMPD/sec")
		is "$s" 1 "$what: $nm: one backtrace, complete"
		# A miss shows the section (or that there is none).  Seen once under
		# qemu-loongarch64 in CI: a thread the first request had parked was
		# still on its way out of the handler, every signal blocked, when the
		# second looked (libcrash/threads.c, examine_again, now waits for it).
		[ "$s" = 1 ] || { echo "#   $nm's section ($(wc -l <"$TMPD/sec") lines):"; sed -n '1,40s/^/#     /p' "$TMPD/sec"; }
		# Registers: the sp line is there with a value.
		check "$what: $nm: registers" grep -qE '^    .*(sp|rsp) +[0-9a-f]{16}' "$TMPD/sec"
		check "$what: $nm: the backtrace goes through $fn" names_in_order "$TMPD/sec" "$fn"
	done
	section "$f" t-deep >"$TMPD/sec"
	is "$(frame_names "$TMPD/sec" | grep -cE '^thr_deep($|\.)')" 21 "$what: t-deep: 21 frames of thr_deep (or its GCC clone)"
	# The thread a tracer stopped (where ptrace works: not under qemu-user, not where a
	# seccomp filter forbids it).
	section "$f" t-traced >"$TMPD/sec"
	if grep -qx 'traced: 1' "$3"; then
		check "$what: t-traced: not captured: stopped" grep -qx 'not captured: stopped' "$TMPD/sec"
	else
		check "$what: t-traced (not traced here): complete" grep -q '^backtrace: .*, complete$' "$TMPD/sec"
	fi
	# The thread that exited while traced: a zombie until the tracer reaps it.
	if grep -qx 'zombie: 1' "$3"; then
		section "$f" t-exited >"$TMPD/sec"
		check "$what: t-exited: not captured: exiting" grep -qx 'not captured: exiting' "$TMPD/sec"
	fi
	# The thread that blocks every signal: not captured, and why.  qemu-user 10 mirrors the
	# guest's mask in the host's SigBlk; an emulator that kept it to itself would let the
	# signal wait unseen (timed out).
	section "$f" t-blocked >"$TMPD/sec"
	if [ -n "$RUN" ]; then
		check "$what: t-blocked: not captured (blocked or timed out under qemu)" \
			grep -qE '^not captured: (signal blocked|timed out)$' "$TMPD/sec"
	else
		check "$what: t-blocked: not captured: signal blocked" \
			grep -qx 'not captured: signal blocked' "$TMPD/sec"
	fi
}

# 0. Threads that never allocate: libcrash's pthread_create wrapper must not
#    make them allocate (a malloc arena of their own, 64 MiB of address space
#    each): the same large mappings with libcrash preloaded as without.
NA="$top_builddir/tests/threads/noalloc"
NA0=$($RUN "$NA" 2>&1)
NA1=$(env LD_PRELOAD="$LIBCRASH" $RUN "$NA" 2>&1)
is "$NA1" "$NA0" "threads that never allocate: the same large mappings preloaded as without"

# 1. A crash of thread t-crash.
T0=$(date +%s%N)
run_crash "$TMPD/r" CRASH_OUTPUT="$TMPD/r" -- "$PROG" crash
T1=$(date +%s%N)
REF=$("$WAITSIG" -t 60 env CRASH_DISABLE=1 $RUN "$PROG" crash 2>/dev/null)
is "$STATUS" "$REF" "crash: wait status as without libcrash ($REF)"
check "crash: a report" grep -q '^\*\*\* end of libcrash report \*\*\*$' "$TMPD/r"
check "crash: the crashing thread first" grep -qE '^pid: [0-9]+, tid: [0-9]+, name: t-crash  >>>' "$TMPD/r"
check "crash: its backtrace before the other threads" awk -v sep="$SEP" '
	/^backtrace:/ && !b { b = NR } $0 == sep && !s { s = NR } END { exit !(b && s && b < s) }' "$TMPD/r"
check "crash: the crashing thread's backtrace has thr_crash" names_in_order "$TMPD/r" thr_crash start
check_threads "$TMPD/r" crash "$TMPD/r.stderr"
# main is in pthread_join, in a section named after the program (qemu-user: the emulator).
n_hdr=$(grep -cE '^pid: [0-9]+, tid: [0-9]+, name: ' "$TMPD/r")
n_sep=$(grep -cxF -- "$SEP" "$TMPD/r")
is "$n_sep" $((n_hdr - 1)) "crash: a separator before every other thread's header"
# The program counted /proc/self/task just before the crash (qemu-user's own threads too).
n_proc=$(sed -n 's/^threads in \/proc: //p' "$TMPD/r.stderr")
is "$n_hdr" "${n_proc:-?}" "crash: as many thread headers as /proc/self/task had"
check "crash: the count line" grep -qE "^other threads: $((n_hdr - 1)) \([0-9]+ captured, [0-9]+ not captured, 0 over the limit of 64\)$" "$TMPD/r"
ms=$(((T1 - T0) / 1000000))
echo "# crash with 18 threads: ${ms} ms from start to exit"
check "crash: bounded time (${ms} ms < 20000)" test "$ms" -lt 20000

# 2. CRASH_THREADS=crashing: the report of one thread.
run_crash "$TMPD/c" CRASH_OUTPUT="$TMPD/c" CRASH_THREADS=crashing -- "$PROG" crash
is "$STATUS" "$REF" "crashing: wait status unchanged"
check "crashing: a report" grep -q '^\*\*\* end of libcrash report \*\*\*$' "$TMPD/c"
is "$(grep -cE '^pid: [0-9]+, tid: ' "$TMPD/c")" 1 "crashing: one thread header"
check "crashing: no separator, no thread count" sh -c "! grep -qE -- '^($SEP|other threads:)' '$TMPD/c'"
run_crash "$TMPD/b" CRASH_OUTPUT="$TMPD/b" CRASH_THREADS=some -- "$PROG" crash
is "$(grep -c 'CRASH_THREADS=some: expected all or crashing; using all' "$TMPD/b.stderr")" 1 \
	"bad CRASH_THREADS: one warning"
check "bad CRASH_THREADS: all threads" grep -qxF -- "$SEP" "$TMPD/b"

# 3. A requested report from a live 16-thread process, twice: everyone resumes.
STATUS=$("$WAITSIG" -t 60 sh -c 'exec "$@" >"$0"' "$TMPD/q" $RUN "$PROG" request 2>"$TMPD/q.stderr")
is "$STATUS" "exit 0" "request: the process goes on and exits 0"
is "$(sed -n 's/^finished: //p' "$TMPD/q")" "17 of 17 threads, errno kept: 4321" \
	"request: every thread finished its work afterwards; errno kept in the busy one"
is "$(grep -c '^\*\*\* libcrash: report requested \*\*\*$' "$TMPD/q")" 2 "request: two reports"
# The second report alone (the first's sections would count twice).
awk '/^\*\*\* libcrash: report requested/ { n++ } n == 2' "$TMPD/q" >"$TMPD/q2"
check_threads "$TMPD/q2" request "$TMPD/q.stderr"
section "$TMPD/q2" t-crash >"$TMPD/sec"
check "request: t-crash, asleep, has its section" grep -q '^backtrace: .*, complete$' "$TMPD/sec"
check "request: no 'timed out' but for the blocked thread" sh -c "
	! awk -v sep='$SEP' '\$0 == sep { n = \"\" } /^pid: / { n = \$NF } /^not captured: timed out/ && n != \"t-blocked\"' '$TMPD/q' | grep -q ."

# 4. More threads than a report shows: 64 sections, the rest counted.
STATUS=$("$WAITSIG" -t 120 sh -c 'exec "$@" >"$0"' "$TMPD/m" env CRASH_SYMBOLS=names $RUN "$PROG" many 2>"$TMPD/m.stderr")
is "$STATUS" "exit 0" "many: exits 0"
is "$(sed -n 's/^finished: //p' "$TMPD/m")" "80 of 80 threads" "many: every thread finished"
# qemu-user's own thread is one more.
check "many: 64 shown, the rest counted" grep -qE '^other threads: 8[01] \(6[34] captured, [01] not captured, 1[67] over the limit of 64\)$' "$TMPD/m"
is "$(grep -cxF -- "$SEP" "$TMPD/m")" 64 "many: 64 thread sections"
done_testing
