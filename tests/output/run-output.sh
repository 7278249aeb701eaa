#!/bin/bash
# Where a report goes (issue 16), and what a report must never do there: hang start-up on a
# FIFO nobody reads, block a crash without end on a full pipe, turn a SIGSEGV into a SIGPIPE,
# land in a daemon's data file, follow a symbolic link, truncate a file, interleave with
# another process's report; one file per crash in a directory; the environment's bad values;
# seccomp filters; journald's native protocol.  Programs run with and without libcrash where
# the way they end matters; time bounds are measured (the elapsed time is in the test's name).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
HELPER=$top_builddir/tests/output/outhelper
LINKED=$top_builddir/tests/output/outhelper-linked
LISTEN=$top_builddir/tests/output/journal-listen
ulimit -c 0
FATAL='^\*\*\* libcrash: fatal signal \*\*\*$'
END='^\*\*\* end of libcrash report \*\*\*$'
SEGV="signal 11 core 0"
MARKER="outhelper data marker"

# The wall clock in microseconds (bash's EPOCHREALTIME; its decimal point follows the locale).
now_us() { echo "${EPOCHREALTIME//[.,]/}"; }

# run TAG ENV... -- PROG ARGS: stdout in $TMPD/TAG.out, stderr in $TMPD/TAG.err (or the open
# descriptor $ERRFD, or the file $ERRTO), the wait status in STATUS, the elapsed wall time
# (from this shell, around waitsig) in MS.  The environment goes to the program only.
run() {
	local f=$TMPD/$1 envs=() t0
	shift
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	t0=$(now_us)
	if [ -n "${ERRFD:-}" ]; then
		"$WAITSIG" -t 30 env "${envs[@]}" $RUN "$@" >"$f.out" 2>&"$ERRFD" </dev/null
	else
		"$WAITSIG" -t 30 env "${envs[@]}" $RUN "$@" >"$f.out" 2>"${ERRTO:-$f.err}" </dev/null
	fi
	MS=$((($(now_us) - t0) / 1000))
	# waitsig prints its verdict last, once the program is done.
	STATUS=$(tail -n 1 "$f.out")
	sed -i '$d' "$f.out"
}

# within MS LIMIT NAME: a measured time against its bound.
within() {
	if [ "$1" -le "$2" ]; then ok 0 "$3 (${1} ms, bound ${2} ms)"; else
		ok 1 "$3 (${1} ms, bound ${2} ms)"; fi
}

nreports() { # FILE
	if [ -e "$1" ]; then grep -c "$FATAL" "$1"; else echo 0; fi
}

# Exactly one report in FILE, whole: the header its first line, the end marker its last.
one_whole() { # FILE
	[ "$(nreports "$1")" = 1 ] && [ "$(grep -c "$END" "$1")" = 1 ] &&
		head -n 1 "$1" | grep -q "$FATAL" && tail -n 1 "$1" | grep -q "$END"
}
# One whole report somewhere in FILE (stderr: other lines around it are the program's).
has_whole() { # FILE
	[ "$(nreports "$1")" = 1 ] && [ "$(grep -c "$END" "$1")" = 1 ] &&
		sed -n "/$FATAL/,/$END/p" "$1" | grep -q '^backtrace: '
}

# Lines starting "libcrash: " are warnings (a report's own lines start "*** libcrash" or
# are indented).
nwarn() { # FILE
	grep -c '^libcrash: ' "$1"
}

# parse_reports FILE: prints "REPORTS INTERLEAVINGS SHAPES" and the reports' pids into
# FILE.pids.  A report is its header, its "pid: N, tid: M, ..." line, its lines and its end
# marker, back to back with the next.  An interleaving: a report cut by another's header, a
# report with a second pid line or the header's or end's text inside a line, a run of lines
# outside every report, an end without a header.  SHAPES: the reports that differ from the
# first once every number and hex word is blanked (the same program crashing at the same
# place prints the same lines).
parse_reports() {
	awk -v pids="$1.pids" '
	function shape(s) {
		gsub(/[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+/, "H", s)
		gsub(/[0-9]+/, "N", s)
		return s
	}
	/^\*\*\* libcrash: fatal signal \*\*\*$/ {
		if (inside) inter++
		inside = 1; n++; want = 1; broken = 0; stray = 0; mem = 0; cur = ""; next
	}
	/^\*\*\* end of libcrash report \*\*\*$/ {
		if (!inside || want || broken) inter++
		if (inside) {
			if (!have) { first = cur; have = 1 } else if (cur != first) shapes++
		}
		inside = 0; stray = 0; next
	}
	!inside { if (!stray) inter++; stray = 1; next }
	/libcrash: fatal signal|end of libcrash report/ { broken = 1 }
	want {
		want = 0
		if ($0 ~ /^pid: [0-9]+, tid: [0-9]+, /) {
			p = $2; sub(/,$/, "", p); print p > pids
		} else broken = 1
		cur = cur shape($0) "\n"; next
	}
	# The memory sections and the other threads after them differ from
	# process to process (which registers point into mappings, the bytes;
	# under qemu-user even the number of mappings, and the own threads of
	# the emulator, each with its "pid: P, tid: T, name: N" header): left out of
	# the shape, not of the checks.
	/^memory (near|map) / { mem = 1 }
	mem { next }
	/^pid: / { broken = 1 }
	{ cur = cur shape($0) "\n" }
	END { if (inside) inter++; print n + 0, inter + 0, shapes + 0 }' "$1"
	[ -e "$1.pids" ] && sort -n "$1.pids" -o "$1.pids"
}

# together N PREFIX ENV... -- PROG ARGS: N processes of "PROG ARGS wait-segv GO READY" (under
# waitsig: PREFIX.I.out ends with the verdict, PREFIX.I.err), each says it is ready on the FIFO
# READY and waits for the FIFO GO to become readable; once all N are ready one byte on GO
# releases them at the same moment.  The helpers' pids (from their stderr) go to PREFIX.pids.
together() {
	local n=$1 f=$2 envs=() pids=() i got rfd gfd
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	rm -f "$f.go" "$f.ready"
	mkfifo "$f.go" "$f.ready"
	# Opened read-write: no open waits for another side; this shell never reads GO.
	exec {rfd}<>"$f.ready"
	for ((i = 0; i < n; i++)); do
		"$WAITSIG" -t 60 env "${envs[@]}" $RUN "$@" wait-segv "$f.go" "$f.ready" \
			>"$f.$i.out" 2>"$f.$i.err" </dev/null &
		pids+=($!)
	done
	read -r -t 60 -N "$n" -u "$rfd" got
	[ "${#got}" = "$n" ] || echo "# together: only ${#got} of $n ready"
	exec {gfd}<>"$f.go"
	printf x >&"$gfd"
	wait "${pids[@]}"
	exec {rfd}>&- {gfd}>&-
	cat "$f".*.err | sed -n 's/^outhelper: pid //p' | sort -n >"$f.pids"
}
# The verdicts of PREFIX.*.out, counted: "20 signal 11 core 0".
verdicts() { # PREFIX-GLOB...
	tail -qn 1 "$@" | sort | uniq -c | sed 's/^ *//'
}

# ---------------------------------------------------------------- 1. a FIFO nobody reads
# CRASH_OUTPUT is opened at install: a blocking open of a FIFO without a reader would wait
# for one before main, for ever.
fifo=$TMPD/nobody.fifo
mkfifo "$fifo"
run fifo.exit.0 CRASH_OUTPUT="$fifo" -- "$HELPER" exit
is "$STATUS" "exit 0" "FIFO nobody reads, without libcrash: exit 0"
run fifo.exit.1 CRASH_OUTPUT="$fifo" LD_PRELOAD="$LIBCRASH" -- "$HELPER" exit
is "$STATUS" "exit 0" "FIFO nobody reads, preloaded: exit 0"
check "FIFO nobody reads, preloaded: main reached" grep -q '^outhelper: main$' "$TMPD/fifo.exit.1.err"
within "$MS" 2000 "FIFO nobody reads, preloaded: start-up and exit"
run fifo.exit.2 CRASH_DISABLE=1 CRASH_OUTPUT="$fifo" -- "$LINKED" exit
is "$STATUS" "exit 0" "FIFO nobody reads, crash_install(NULL): exit 0"
within "$MS" 2000 "FIFO nobody reads, crash_install(NULL): start-up and exit"
run fifo.segv.0 CRASH_OUTPUT="$fifo" -- "$DEMO/crashme" segv
is "$STATUS" "$SEGV" "FIFO nobody reads, crash without libcrash: SIGSEGV"
run fifo.segv.1 CRASH_OUTPUT="$fifo" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
is "$STATUS" "$SEGV" "FIFO nobody reads, crash preloaded: SIGSEGV"
within "$MS" 2000 "FIFO nobody reads, crash preloaded: dies promptly"

# ---------------------------------------------------------------- 2. a full stderr pipe
# The reader (this shell, through a read-write descriptor: no EOF, no EPIPE) never reads;
# the helper fills the pipe itself, then crashes with its descriptor in blocking mode.
# An emulator that writes to the program's stderr when the program dies (qemu-user: "qemu:
# uncaught target signal 11 ...") blocks on that full pipe itself, libcrash or not.
run probe -- "$DEMO/crashme" segv
if [ -s "$TMPD/probe.err" ]; then
	EMUL=$(head -n 1 "$TMPD/probe.err")
	skip "full stderr pipe" "the emulator writes to stderr when the program dies ('$EMUL') and blocks there"
fi
for with in 0 1; do
	[ -s "$TMPD/probe.err" ] && break
	full=$TMPD/full.$with.fifo
	mkfifo "$full"
	exec {hold}<>"$full"
	if [ $with = 1 ]; then
		ERRTO=$full run full.$with CRASH_TIMEOUT=2 LD_PRELOAD="$LIBCRASH" -- "$HELPER" fill-segv
		is "$STATUS" "$SEGV" "full stderr pipe, preloaded, CRASH_TIMEOUT=2: SIGSEGV"
		within "$MS" 3000 "full stderr pipe, preloaded: dies within CRASH_TIMEOUT + 1 s"
	else
		ERRTO=$full run full.$with CRASH_TIMEOUT=2 -- "$HELPER" fill-segv
		is "$STATUS" "$SEGV" "full stderr pipe, without libcrash: SIGSEGV"
		within "$MS" 3000 "full stderr pipe, without libcrash: dies"
	fi
	exec {hold}>&-
done

# ---------------------------------------------------------------- 3. a broken stderr pipe
# A pipe whose reader has gone: a write raises SIGPIPE (exit 141 from a shell), which must not
# replace the crash's SIGSEGV.
for with in 0 1; do
	bp=$TMPD/broken.$with.fifo
	mkfifo "$bp"
	exec {r}<>"$bp"
	exec {w}>"$bp"
	exec {r}<&-
	if [ $with = 1 ]; then
		ERRFD=$w run broken.$with LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
		is "$STATUS" "$SEGV" "broken stderr pipe, preloaded: SIGSEGV, not SIGPIPE"
	else
		ERRFD=$w run broken.$with -- "$DEMO/crashme" segv
		is "$STATUS" "$SEGV" "broken stderr pipe, without libcrash: SIGSEGV"
	fi
	exec {w}>&-
done

# ---------------------------------------------------------------- 4. a daemon's descriptors
# The daemon closes libcrash's descriptor with all the others and opens its data file, which
# may get any number; or it dup2()s the data file onto that very number.  The report must go
# to CRASH_OUTPUT (opened again by path), never into the data.
printf '%s\n' "$MARKER" >"$TMPD/marker"
data=$TMPD/daemon.data
run daemon.0 -- "$HELPER" daemon "$data"
is "$STATUS" "$SEGV" "daemon, without libcrash: SIGSEGV"
for v in preload linked; do
	rep=$TMPD/daemon.$v.report
	rm -f "$data" "$rep"
	if [ $v = preload ]; then
		run daemon.$v CRASH_OUTPUT="$rep" LD_PRELOAD="$LIBCRASH" -- "$HELPER" daemon "$data"
	else
		run daemon.$v CRASH_DISABLE=1 CRASH_OUTPUT="$rep" -- "$LINKED" daemon "$data"
	fi
	is "$STATUS" "$SEGV" "daemon closes every fd ($v): SIGSEGV"
	check "daemon closes every fd ($v): the data file holds only its marker" cmp "$data" "$TMPD/marker"
	check "daemon closes every fd ($v): one whole report in CRASH_OUTPUT" one_whole "$rep"
	rm -f "$data" "$rep"
	if [ $v = preload ]; then
		run dup2.$v CRASH_OUTPUT="$rep" LD_PRELOAD="$LIBCRASH" -- "$HELPER" daemon-dup2 "$data" "$rep"
	else
		run dup2.$v CRASH_DISABLE=1 CRASH_OUTPUT="$rep" -- "$LINKED" daemon-dup2 "$data" "$rep"
	fi
	is "$STATUS" "$SEGV" "daemon dup2()s its data onto libcrash's fd ($v): SIGSEGV"
	grep '^outhelper: ' "$TMPD/dup2.$v.err" | sed 's/^/# /'
	check "dup2 onto libcrash's fd ($v): the data file holds only its marker" cmp "$data" "$TMPD/marker"
	check "dup2 onto libcrash's fd ($v): one whole report in CRASH_OUTPUT" one_whole "$rep"
done

# ---------------------------------------------------------------- 5. unwritable CRASH_OUTPUT
# One warning line, stderr instead, and the handlers installed all the same.
bad_output() { # TAG PATH WHAT
	run "$1" CRASH_OUTPUT="$2" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
	is "$STATUS" "$SEGV" "CRASH_OUTPUT $3: SIGSEGV"
	is "$(nwarn "$TMPD/$1.err")" 1 "CRASH_OUTPUT $3: one warning line"
	check "CRASH_OUTPUT $3: the warning names CRASH_OUTPUT" grep -q "^libcrash: CRASH_OUTPUT=" "$TMPD/$1.err"
	check "CRASH_OUTPUT $3: the report on stderr" has_whole "$TMPD/$1.err"
}
bad_output nodir "$TMPD/no-such-dir/report.txt" "in a missing directory"
check "CRASH_OUTPUT in a missing directory: nothing created" test ! -e "$TMPD/no-such-dir"
if [ "$(id -u)" = 0 ]; then
	skip "CRASH_OUTPUT in a read-only directory" "running as root: permissions do not bite"
else
	mkdir "$TMPD/ro"
	chmod 555 "$TMPD/ro"
	bad_output rodir "$TMPD/ro/report.txt" "in a read-only directory"
	chmod 755 "$TMPD/ro"
fi
printf 'precious\n' >"$TMPD/target"
cp "$TMPD/target" "$TMPD/target.orig"
touch -d '2001-02-03 04:05:06' "$TMPD/target"
ln -s "$TMPD/target" "$TMPD/link"
bad_output symlink "$TMPD/link" "a symbolic link"
check "CRASH_OUTPUT a symbolic link: its target untouched" cmp "$TMPD/target" "$TMPD/target.orig"
is "$(stat -c %y "$TMPD/target" | cut -c1-19)" "2001-02-03 04:05:06" \
	"CRASH_OUTPUT a symbolic link: its target's mtime unchanged"
check "CRASH_OUTPUT a symbolic link: still a link" test -L "$TMPD/link"

# ---------------------------------------------------------------- 6. file modes, append
# With no umask in the way, the mode is what libcrash asked for.
new=$TMPD/new.report
(umask 000 && run new CRASH_OUTPUT="$new" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv)
is "$(stat -c %a "$new")" 600 "a new report file is mode 0600 (umask 000)"
check "a new report file: one whole report" one_whole "$new"
old=$TMPD/old.report
printf 'an earlier line\n' >"$old"
chmod 644 "$old"
run old.1 CRASH_OUTPUT="$old" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
run old.2 CRASH_OUTPUT="$old" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" abort
is "$(head -n 1 "$old")" "an earlier line" "an existing file: its first line kept (appended, not truncated)"
is "$(nreports "$old")" 2 "an existing file: both crashes appended"
check "an existing file: SEGV then ABRT, in order" sh -c "grep '^signal ' '$old' | head -1 | grep -q '^signal 11 ' &&
	grep '^signal ' '$old' | tail -1 | grep -q '^signal 6 '"
is "$(stat -c %a "$old")" 644 "an existing file: its mode unchanged"

# ---------------------------------------------------------------- 7. one file per crash
# 20 processes crash at the same moment into a directory: 20 files, each one whole report,
# named after the crash's time, pid and tid.
NAME_RE='^crash-[0-9]{8}T[0-9]{6}Z-[0-9]+-[0-9]+\.txt$'
for form in slash plain; do
	dir=$TMPD/dir.$form
	mkdir "$dir"
	out=$dir
	[ $form = slash ] && out=$dir/
	t0=$(date -u +%Y%m%dT%H%M%S)
	mask=$(umask)
	umask 000
	together 20 "$TMPD/dir.$form.p" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" -- "$HELPER"
	umask "$mask"
	t1=$(date -u +%Y%m%dT%H%M%S)
	what="CRASH_OUTPUT=$(basename "$dir")$([ $form = slash ] && echo /)"
	is "$(verdicts "$TMPD/dir.$form.p".*.out)" "20 $SEGV" "$what: 20 processes died by SIGSEGV"
	is "$(find "$dir" -type f | wc -l)" 20 "$what: 20 files"
	is "$(find "$dir" -type f -printf '%f\n' | grep -cE "$NAME_RE")" 20 \
		"$what: every name crash-<YYYYMMDD>T<HHMMSS>Z-<pid>-<tid>.txt"
	is "$(find "$dir" -type f -printf '%m\n' | sort -u)" 600 "$what: every file mode 0600 (umask 000)"
	bad=0 badtime=0
	: >"$dir.names.pids"
	for f in "$dir"/*; do
		n=$(basename "$f")
		pid=$(sed -E 's/^crash-[0-9T]+Z-([0-9]+)-[0-9]+\.txt$/\1/' <<<"$n")
		tid=$(sed -E 's/^crash-[0-9T]+Z-[0-9]+-([0-9]+)\.txt$/\1/' <<<"$n")
		stamp=$(sed -E 's/^crash-([0-9T]+)Z-.*/\1/' <<<"$n")
		echo "$pid" >>"$dir.names.pids"
		one_whole "$f" && grep -q "^pid: $pid, tid: $tid, " "$f" || bad=$((bad + 1))
		[[ ! "$stamp" < "$t0" && ! "$stamp" > "$t1" ]] || badtime=$((badtime + 1))
	done
	is "$bad" 0 "$what: each file one whole report, its pid and tid those of the name"
	is "$badtime" 0 "$what: each name's UTC time within the run ($t0 .. $t1)"
	sort -n "$dir.names.pids" -o "$dir.names.pids"
	check "$what: the pids in the names are the 20 crashed processes" cmp "$dir.names.pids" "$TMPD/dir.$form.p.pids"
done

# ---------------------------------------------------------------- 8. never interleaved
# 50 pairs, each pair released at the same moment, all into one file: 100 whole reports.
shared=$TMPD/shared.report
for ((p = 0; p < 50; p++)); do
	together 2 "$TMPD/pair.$p" CRASH_OUTPUT="$shared" LD_PRELOAD="$LIBCRASH" -- "$HELPER"
done
is "$(verdicts "$TMPD"/pair.*.[01].out)" "100 $SEGV" "50 pairs crashing together: 100 died by SIGSEGV"
# Not "read < <(parse_reports ...)": a process substitution is not waited for, and its
# sort of $shared.pids would still be running when the pids are compared below.
parse_reports "$shared" >"$TMPD/shared.parsed"
read -r nrep inter shapes <"$TMPD/shared.parsed"
echo "# one file, 50 pairs: $nrep reports, $inter interleavings, $shapes of another shape"
is "$nrep" 100 "one file, 50 pairs at once: 100 reports"
is "$inter" 0 "one file, 50 pairs at once: 0 interleavings (each report's lines together)"
is "$shapes" 0 "one file, 50 pairs at once: every report whole (the same lines, numbers aside)"
cat "$TMPD"/pair.*.pids | sort -n >"$TMPD/pairs.pids"
check "one file, 50 pairs at once: one report per crashed process (pids)" cmp "$shared.pids" "$TMPD/pairs.pids"

# ---------------------------------------------------------------- 9. CRASH_SIGNALS=SEGV,WINCH
# WINCH's default action is to do nothing: not a crash signal; the whole value is refused.
run winch.0 -- "$HELPER" winch
is "$STATUS" "$SEGV" "SIGWINCH then SIGSEGV, without libcrash: SIGSEGV"
rep=$TMPD/winch.report
run winch.1 CRASH_SIGNALS=SEGV,WINCH CRASH_OUTPUT="$rep" LD_PRELOAD="$LIBCRASH" -- "$HELPER" winch
is "$STATUS" "$SEGV" "CRASH_SIGNALS=SEGV,WINCH: SIGSEGV"
is "$(nwarn "$TMPD/winch.1.err")" 1 "CRASH_SIGNALS=SEGV,WINCH: one warning line"
check "CRASH_SIGNALS=SEGV,WINCH: the warning names CRASH_SIGNALS" grep -q '^libcrash: CRASH_SIGNALS=SEGV,WINCH' "$TMPD/winch.1.err"
check "CRASH_SIGNALS=SEGV,WINCH: the process went on after SIGWINCH" grep -q '^outhelper: after SIGWINCH$' "$TMPD/winch.1.err"
check "CRASH_SIGNALS=SEGV,WINCH: exactly one report, the SIGSEGV's" sh -c "
	[ \"\$(grep -c '$FATAL' '$rep')\" = 1 ] && grep -q '^signal 11 (SIGSEGV)' '$rep' &&
	! grep -q '^signal 28\|^raised in the handler of signal 28' '$rep'"
rep=$TMPD/winch.abrt.report
run winch.2 CRASH_SIGNALS=SEGV,WINCH CRASH_OUTPUT="$rep" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" abort
check "CRASH_SIGNALS=SEGV,WINCH: the default set (SIGABRT reported)" grep -q '^signal 6 (SIGABRT)' "$rep"

# ---------------------------------------------------------------- 10. CRASH_DISABLE, CRASH_TIMEOUT
run dis.yes CRASH_DISABLE=yes LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
is "$STATUS" "$SEGV" "CRASH_DISABLE=yes: SIGSEGV"
is "$(nwarn "$TMPD/dis.yes.err")" 1 "CRASH_DISABLE=yes: one warning line"
check "CRASH_DISABLE=yes: the warning names CRASH_DISABLE" grep -q '^libcrash: CRASH_DISABLE=yes' "$TMPD/dis.yes.err"
check "CRASH_DISABLE=yes: libcrash stays on (a report)" has_whole "$TMPD/dis.yes.err"
run dis.1 CRASH_DISABLE=1 LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
is "$STATUS" "$SEGV" "CRASH_DISABLE=1: SIGSEGV"
is "$(grep -c libcrash "$TMPD/dis.1.err")" 0 "CRASH_DISABLE=1: off (no report, no warning)"
run tmo CRASH_TIMEOUT=bogus LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
is "$STATUS" "$SEGV" "CRASH_TIMEOUT=bogus: SIGSEGV"
is "$(nwarn "$TMPD/tmo.err")" 1 "CRASH_TIMEOUT=bogus: one warning line"
check "CRASH_TIMEOUT=bogus: the warning names CRASH_TIMEOUT" grep -q '^libcrash: CRASH_TIMEOUT=bogus' "$TMPD/tmo.err"
check "CRASH_TIMEOUT=bogus: a report all the same" has_whole "$TMPD/tmo.err"

# ---------------------------------------------------------------- 11. seccomp
# A filter that traps one call with SIGSYS: libcrash's call fails, the report goes on without
# what it gave, and the process dies by its SIGSEGV, never by the SIGSYS.
run sc.probe -- "$HELPER" seccomp getpid
if [ "$STATUS" = "exit 77" ]; then
	skip "seccomp" "$(sed -n 's/^outhelper: //p' "$TMPD/sc.probe.err")${RUN:+ (under an emulator)}"
else
	for call in getpid openat write; do
		run sc.$call.0 -- "$HELPER" seccomp $call
		is "$STATUS" "$SEGV" "seccomp traps $call, without libcrash: SIGSEGV"
		rep=$TMPD/sc.$call.report
		run sc.$call.1 CRASH_OUTPUT="$rep" LD_PRELOAD="$LIBCRASH" -- "$HELPER" seccomp $call
		is "$STATUS" "$SEGV" "seccomp traps $call, preloaded: SIGSEGV, not SIGSYS"
		case $call in
		getpid)
			check "seccomp traps getpid: one whole report" one_whole "$rep"
			check "seccomp traps getpid: 'pid: ?'" grep -q '^pid: ?, tid: [0-9]*, ' "$rep"
			;;
		openat)
			check "seccomp traps openat: one whole report" one_whole "$rep"
			;;
		write)
			is "$(nreports "$rep")" 0 "seccomp traps write: no report (nothing can be written)"
			;;
		esac
	done
fi

# A filter that kills on process_vm_readv (systemd's SystemCallFilter= without
# SystemCallErrorNumber=), installed before exec: a program that does not crash lives as it
# would without libcrash; libcrash makes that call only for a capture or a report.
run kx.probe -- "$HELPER" kill-exec "$HELPER" exit
if [ "$STATUS" = "exit 77" ] || [ -n "$RUN" ]; then
	skip "seccomp kill filter at start-up" \
		"$(sed -n 's/^outhelper: //p' "$TMPD/kx.probe.err")${RUN:+ (under an emulator: exec)}"
else
	is "$STATUS" "exit 0" "a filter that kills on process_vm_readv, without libcrash: exit 0"
	run kx.1 LD_PRELOAD="$LIBCRASH" -- "$HELPER" kill-exec "$HELPER" exit
	is "$STATUS" "exit 0" "the same filter, libcrash preloaded: exit 0, not SIGSYS at start-up"
	run kx.2 CRASH_DISABLE=1 -- "$HELPER" kill-exec "$LINKED" exit
	is "$STATUS" "exit 0" "the same filter, linked and crash_install() in main: exit 0"
fi

# ---------------------------------------------------------------- 12. journald
# A listener of our own at CRASH_JOURNAL_SOCKET prints the fields it received
# (tests/output/journal-listen.c).  listen_run TAG ENV... -- PROG ARGS: the listener's output
# in $TMPD/TAG.fields, MESSAGE in $TMPD/TAG.msg; STATUS as run's.
sock=$TMPD/journal.sock
listen_run() {
	local tag=$1 f=$TMPD/$1 pid lfd line=
	shift
	rm -f "$f.lo" "$f.msg"
	mkfifo "$f.lo"
	$RUN "$LISTEN" "$sock" "$f.msg" >"$f.lo" 2>&1 &
	pid=$!
	exec {lfd}<"$f.lo"
	read -r -t 30 -u "$lfd" line
	if [ "$line" != listening ]; then
		echo "# journal-listen: '$line'"
		kill "$pid" 2>/dev/null
	fi
	run "$tag" "$@"
	cat <&"$lfd" >"$f.fields"
	wait "$pid"
	exec {lfd}<&-
}
field() { # TAG NAME: the value the listener printed
	sed -n "s/^$2=//p" "$TMPD/$1.fields" | head -1
}
# The report's own pid, tid, name and executable.
report_id() { # FILE
	sed -n 's/^pid: \([0-9?]*\), tid: \([0-9?]*\), name: \(.*\)  >>> \(.*\) <<<$/\1 \2 \3 \4/p' "$1" | head -1
}
# journal_checks TAG TRANSPORT NAME: the fields of a SIGSEGV's report of demo/crashme.
journal_checks() {
	local tag=$1 f=$TMPD/$1 pid tid comm exe
	is "$STATUS" "$SEGV" "journal $3: SIGSEGV"
	check "journal $3: transport $2" grep -qx "transport: $2" "$f.fields"
	check "journal $3: the datagram parses as journald's native protocol" grep -qx 'protocol: ok' "$f.fields"
	is "$(field "$tag" PRIORITY)" 2 "journal $3: PRIORITY=2"
	is "$(field "$tag" CRASH_SIGNAL)" 11 "journal $3: CRASH_SIGNAL=11"
	is "$(field "$tag" CRASH_SIGNAL_NAME)" SIGSEGV "journal $3: CRASH_SIGNAL_NAME=SIGSEGV"
	check "journal $3: MESSAGE is one whole report" one_whole "$f.msg"
	read -r pid tid comm exe < <(report_id "$f.msg")
	is "$(field "$tag" CRASH_PID)" "${pid:-none}" "journal $3: CRASH_PID is the report's pid"
	is "$(field "$tag" CRASH_TID)" "${tid:-none}" "journal $3: CRASH_TID is the report's tid"
	is "$(field "$tag" SYSLOG_IDENTIFIER)" "${comm:-none}" "journal $3: SYSLOG_IDENTIFIER is the report's name (comm)"
	is "$(field "$tag" CRASH_EXE)" "${exe:-none}" "journal $3: CRASH_EXE is the report's executable"
	if [ -z "$RUN" ]; then
		# Natively the name and path are crashme's own (under qemu-user, comm is the emulator's).
		is "$(field "$tag" SYSLOG_IDENTIFIER)" crashme "journal $3: SYSLOG_IDENTIFIER=crashme"
		is "$(field "$tag" CRASH_EXE)" "$(readlink -f "$DEMO/crashme")" "journal $3: CRASH_EXE is crashme's path"
	fi
	is "$(nreports "$f.err")" 0 "journal $3: nothing on stderr"
}
JOURNAL=(CRASH_OUTPUT=journal CRASH_JOURNAL_SOCKET="$sock" LD_PRELOAD="$LIBCRASH")
listen_run jr.inline "${JOURNAL[@]}" -- "$DEMO/crashme" segv
if ! grep -q '^transport: ' "$TMPD/jr.inline.fields"; then
	# The listener itself did not work here (no unix datagram sockets?): say why, skip.
	skip "journal" "the test listener received nothing: $(head -1 "$TMPD/jr.inline.fields")"
else
	journal_checks jr.inline inline "inline (crashme segv)"
fi
# A descriptor passed with an empty payload: what libcrash (and sd_journal_send) does for a
# long report.  qemu-user 7.2 drops such a datagram (its sendmsg returns 0 for an empty
# iovec without sending): there the memfd cases cannot be seen.
listen_run jr.probe -- "$HELPER" fdpass "$sock"
if ! grep -q '^transport: ' "$TMPD/jr.inline.fields"; then
	:
elif ! grep -qx 'transport: memfd' "$TMPD/jr.probe.fields"; then
	skip "journal memfd" "this kernel or emulator does not deliver a datagram with no payload and a descriptor (a plain probe's was lost)"
else
	# Larger than a datagram may be (the sender's SO_SNDBUF, net.core.wmem_default:
	# EMSGSIZE): a sealed memfd.  The report is made that large with every engine's backtrace
	# of a deep recursion, its depth from two runs' sizes (bytes per level and the rest) so
	# that it comes out near 237,000 bytes: between the datagram limit (212,992 by default)
	# and libcrash's report buffer (256 KiB), whatever this build's paths and arch.
	wmem=$(cat /proc/sys/net/core/wmem_default 2>/dev/null || echo 212992)
	for d in 100 300; do
		run jr.cal.$d CRASH_OUTPUT="$TMPD/jr.cal.$d.report" CRASH_ENGINE=all CRASH_MAX_FRAMES=1024 \
			LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" deep $d
	done
	s100=$(wc -c <"$TMPD/jr.cal.100.report")
	s300=$(wc -c <"$TMPD/jr.cal.300.report")
	depth=$(((237000 - s100) * 200 / (s300 - s100) + 100))
	listen_run jr.memfd "${JOURNAL[@]}" CRASH_ENGINE=all CRASH_MAX_FRAMES=1024 -- "$DEMO/crashme" deep "$depth"
	size=$(sed -n 's/^MESSAGE: \([0-9]*\) bytes.*/\1/p' "$TMPD/jr.memfd.fields")
	echo "# journal memfd: crashme deep $depth, MESSAGE ${size:-?} bytes, datagram limit about $wmem"
	check "journal memfd: the report (${size:-?} bytes) is larger than a datagram ($wmem)" \
		test "${size:-0}" -gt "$wmem"
	journal_checks jr.memfd memfd "memfd (crashme deep $depth, all engines)"
	if [ -n "$RUN" ] && grep -q '^seals: error' "$TMPD/jr.memfd.fields"; then
		# The listener's own fcntl(F_GET_SEALS) failed: the emulator lacks it.
		skip "journal memfd: sealed" "$(grep '^seals: ' "$TMPD/jr.memfd.fields") under the emulator"
	else
		check "journal memfd: sealed (F_SEAL_WRITE|SHRINK|GROW|SEAL)" grep -qx 'seals: ok' "$TMPD/jr.memfd.fields"
	fi
	is "$(grep -c '^backtrace: ' "$TMPD/jr.memfd.msg")" 4 "journal memfd: the four engines' backtraces"
	# Larger than libcrash's report buffer: still one whole report (the header first).
	listen_run jr.huge "${JOURNAL[@]}" CRASH_ENGINE=all CRASH_MAX_FRAMES=1024 -- "$DEMO/crashme" deep 1000
	size=$(sed -n 's/^MESSAGE: \([0-9]*\) bytes.*/\1/p' "$TMPD/jr.huge.fields")
	echo "# journal, a report over 256 KiB: crashme deep 1000, MESSAGE ${size:-?} bytes"
	is "$STATUS" "$SEGV" "journal, report over 256 KiB: SIGSEGV"
	check "journal, report over 256 KiB: MESSAGE begins with the header" sh -c "head -n 1 '$TMPD/jr.huge.msg' | grep -q '$FATAL'"
	check "journal, report over 256 KiB: MESSAGE is one whole report" one_whole "$TMPD/jr.huge.msg"
fi
# No journald listening: stderr.
run jr.none CRASH_OUTPUT=journal CRASH_JOURNAL_SOCKET="$TMPD/nobody.sock" LD_PRELOAD="$LIBCRASH" -- \
	"$DEMO/crashme" segv
is "$STATUS" "$SEGV" "journal without a listener: SIGSEGV"
check "journal without a listener: the report on stderr" has_whole "$TMPD/jr.none.err"

done_testing
