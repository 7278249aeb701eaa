#!/bin/bash
# The system calls libcrash makes, against the table in docs/design.md ("The
# system calls libcrash makes"), which a seccomp filter's author goes by: a
# filter that kills on a call of the report changes how the program dies.
# - Every SYS_ and __NR_ name in libcrash/ is in the table.
# - Every call made after the fatal signal, by any thread of a crashing
#   demo/crashme under strace, is in the table: a fault, an abort, a crash in
#   a thread and in a library; the report to stderr, a file, a directory (text
#   and JSON), journald (a stand-in listening, and nobody listening) and a
#   descriptor; every engine.  Natively only (under qemu-user strace would
#   trace the emulator).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
DOC=$top_srcdir/docs/design.md
CRASHME=$DEMO/crashme
LISTEN=$top_builddir/tests/output/journal-listen

# The table's calls: every `name` in the first column of the section's rows.
listed=$(awk '/^### The system calls libcrash makes/ { on = 1; next }
	on && /^##/ { exit }
	on && /^\| `/ {
		split($0, c, "|"); s = c[2]
		while (match(s, /`[a-z_0-9]+`/)) { print substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) }
	}' "$DOC" | sort -u)
check "docs/design.md's table lists the calls (30 or more)" test "$(echo "$listed" | wc -w)" -ge 30

src=$(grep -rhoE '\b(SYS|__NR)_[a-z][a-z0-9_]*' "$top_srcdir/libcrash" | sed -E 's/^(SYS|__NR)_//' | sort -u)
check "libcrash/ names system calls (SYS_ or __NR_)" test "$(echo "$src" | wc -w)" -ge 30
missing=$(comm -23 <(echo "$src") <(echo "$listed"))
is "$(echo $missing)" "" "every system call named in libcrash/ is in docs/design.md's table"

# The calls in strace's -f output from the fatal signal on (its "--- SIGxxx {" line):
# one name a line.  A call another thread had begun before ("<... resumed>") is not
# counted; one begun after is, by its first line.
calls_after() { # TRACE SIGNAL
	awk -v sig="$2" '$2 == "---" && $3 == sig { on = 1; next }
		on && match($0, /^[0-9]+ +[a-z_0-9]+\(/) { s = substr($0, RSTART, RLENGTH - 1); sub(/^[0-9]+ +/, "", s); print s }' "$1" | sort -u
}

why=""
if [ -n "$RUN" ]; then
	why="under an emulator ($RUN): strace would trace it"
elif ! command -v strace >/dev/null 2>&1; then
	why="no strace"
elif ! strace -f -qq -o /dev/null true >/dev/null 2>&1; then
	why="strace cannot trace here (ptrace refused)"
fi
if [ -n "$why" ]; then
	skip "the report's system calls, traced" "$why"
	done_testing
	exit
fi

all=""
# one NAME SIGNAL MODE ENV...: crashme MODE under strace with libcrash preloaded.
one() {
	local name=$1 sig=$2 mode=$3 tr seen bad; shift 3
	tr=$TMPD/trace.${name// /-}
	# (in braces with stderr closed: the shell's "Segmentation fault" notice; strace
	# ends the way its program did)
	{ (cd "$TMPD" && exec env "$@" strace -f -qq -o "$tr" env LD_PRELOAD="$LIBCRASH" "$CRASHME" \
		"$mode" >"$tr.out" 2>"$tr.err"); } 2>/dev/null
	check "$name: killed by $sig, traced" grep -q "+++ killed by $sig" "$tr"
	seen=$(calls_after "$tr" "$sig")
	# The report was written: a write, writev or sendmsg after the signal.
	check "$name: the report's calls traced (a write or a send among them)" \
		sh -c "echo '$seen' | grep -qxE 'write|writev|sendmsg'"
	bad=$(comm -23 <(echo "$seen") <(echo "$listed"))
	is "$(echo $bad)" "" "$name: every call after the signal is in docs/design.md's table"
	all="$all $seen"
}
one "segv to stderr" SIGSEGV segv
one "abort to a file" SIGABRT abort CRASH_OUTPUT="$TMPD/out.txt"
mkdir -p "$TMPD/dir"
one "thread to a directory, text and JSON" SIGSEGV thread CRASH_OUTPUT="$TMPD/dir/" CRASH_FORMAT=both
one "lib to journald, nobody listening" SIGSEGV lib CRASH_OUTPUT=journal CRASH_JOURNAL_SOCKET="$TMPD/none.sock"
one "segv to a descriptor, every engine" SIGSEGV segv CRASH_OUTPUT=fd:2 CRASH_ENGINE=all
if [ -x "$LISTEN" ]; then
	sock=$TMPD/journal.sock
	"$LISTEN" "$sock" "$TMPD/journal.msg" >"$TMPD/journal.out" 2>&1 &
	lpid=$!
	for _ in $(seq 100); do grep -q listening "$TMPD/journal.out" 2>/dev/null && break; sleep 0.05; done
	one "abort to journald, a stand-in listening" SIGABRT abort CRASH_OUTPUT=journal CRASH_JOURNAL_SOCKET="$sock"
	wait "$lpid"
	check "journald's stand-in got the report" grep -q "protocol: ok" "$TMPD/journal.out"
else
	skip "abort to journald, a stand-in listening" "no tests/output/journal-listen"
fi
# At load: the calls a program makes with libcrash that it does not make without, in a
# process that does not crash (preloaded, and linked with crash_install() in main).  A
# filter that kills on one of these kills the program at start-up, crash or not, so they
# are only calls every filter lets through (docs/design.md: process_vm_readv waits for
# the first capture).
names() { # TRACE
	grep -oE '^[0-9]+ +[a-z_0-9]+\(' "$1" | sed -E 's/^[0-9]+ +//; s/\($//' | sort -u
}
at_load="rt_sigaction rt_sigprocmask sigaltstack"
start() { # NAME TRACE-WITH TRACE-WITHOUT [WANT]: the calls libcrash added
	local added want=${4:-$at_load}
	added=$(comm -13 <(names "$3") <(names "$2"))
	check "$1: traced" test -n "$(names "$2")"
	is "$(echo $added)" "$want" "$1: the calls libcrash adds at load are $want"
}
strace -f -qq -o "$TMPD/start.0" env /bin/true
strace -f -qq -o "$TMPD/start.1" env LD_PRELOAD="$LIBCRASH" /bin/true
start "/bin/true preloaded" "$TMPD/start.1" "$TMPD/start.0"
# The output file opened at install: its identity (statx), its descriptor moved up (fcntl).
strace -f -qq -o "$TMPD/start.4" env CRASH_OUTPUT="$TMPD/start.txt" LD_PRELOAD="$LIBCRASH" /bin/true
start "/bin/true preloaded, the report to a file" "$TMPD/start.4" "$TMPD/start.0" \
	"fcntl $at_load statx"
HELPER=$top_builddir/tests/output/outhelper
if [ -x "$HELPER-linked" ] && [ -x "$HELPER" ]; then
	strace -f -qq -o "$TMPD/start.2" env "$HELPER" exit 2>/dev/null
	strace -f -qq -o "$TMPD/start.3" env CRASH_DISABLE=1 "$HELPER-linked" exit 2>/dev/null
	start "linked, crash_install() in main" "$TMPD/start.3" "$TMPD/start.2"
else
	skip "linked, crash_install() in main: the calls at load" "no tests/output/outhelper-linked"
fi

# What the cases reached together: the output kinds' own calls, seen (a table
# that only grows would pass the checks above with calls nobody makes; these
# show the traces reach what they are meant to).
for c in flock openat statx sendmsg rt_tgsigqueueinfo process_vm_readv rt_sigaction; do
	check "the traces reach $c" sh -c "echo '$all' | tr ' ' '\n' | grep -qx $c"
done
done_testing
