#!/bin/bash
# Real runtimes with and without LD_PRELOAD=libcrash.so (issue 14): each program runs twice,
# and with libcrash it must behave as without (the runtime's own output, its wait status,
# the faults it handles itself), plus a libcrash report for a real crash and none for a
# fault that the runtime recovers from.
#   JVM:     a crash in libjvm (hs_err file, abort); caught NullPointerExceptions in JIT code
#            and StackOverflowErrors (SIGSEGVs that HotSpot handles).
#   Node.js: wasm out-of-bounds traps (SIGSEGVs that V8 handles); a crash in a native addon.
#   Rust:    stack overflow in main and in a thread (the runtime's message, then abort).
#   Python:  a crash under -X faulthandler (its traceback, then the default action).
# A runtime that is not installed is skipped (tests/setup.sh installs Debian's).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
SRC=$top_srcdir/tests/runtimes
JAVA=${JAVA:-java}
JAVAC=${JAVAC:-javac}
NODE=${NODE:-node}
RUSTC=${RUSTC:-rustc}
PYTHON=${PYTHON:-python3}
CC_ADDON=${CC_ADDON:-cc}
# The compilers' temporary files go where everything else of the test goes, and no run
# leaves a core file (the JVM then says "Core dumps have been disabled" and aborts).
export TMPDIR=$TMPD
ulimit -c 0

# These are programs of this machine, not of the target: they cannot run under qemu-user,
# and a libcrash.so built for another arch cannot be preloaded into them.
if [ -n "$RUN" ] || { [ -n "${CR_ARCH:-}" ] && [ "$CR_ARCH" != "$(uname -m)" ]; }; then
	skip "runtimes" "cross-arch build: the runtimes are tested natively only"
	done_testing
	exit
fi

# run_rt CASE WITH CMD...: run CMD in $TMPD, with libcrash preloaded if WITH is 1 (its
# report to $TMPD/CASE.report).  The program's stdout goes to $TMPD/CASE.WITH.out (waitsig
# prints its verdict on its own stdout, which the program would share), stderr to
# $TMPD/CASE.WITH.err; STATUS is waitsig's verdict.
run_rt() {
	local c=$1 w=$2 envs=()
	shift 2
	if [ "$w" = 1 ]; then
		rm -f "$TMPD/$c.report"
		envs=(LD_PRELOAD="$LIBCRASH" CRASH_OUTPUT="$TMPD/$c.report")
	fi
	# sh is not preloaded: env sets the variables for the runtime only.
	STATUS=$(cd "$TMPD" && "$WAITSIG" -t 120 sh -c 'o=$1; shift; exec env "$@" >"$o"' sh \
		"$TMPD/$c.$w.out" "${envs[@]}" "$@" 2>"$TMPD/$c.$w.err")
}

# same NAME CASE STREAM FILTER [EMPTY-OK]: STREAM (out or err) of the two runs, through
# FILTER, is the same, and not empty unless EMPTY-OK is given (where the runtime should
# print something, an empty baseline would prove nothing).
same() {
	local name=$1 c=$2 s=$3 f=$4 a b
	a=$($f <"$TMPD/$c.0.$s")
	b=$($f <"$TMPD/$c.1.$s")
	if [ -n "$a$5" ] && [ "$a" = "$b" ]; then
		ok 0 "$name"
	else
		ok 1 "$name"
		diff <(echo "$a") <(echo "$b") | sed 's/^/#   /' | head -20
	fi
}

has_report() { grep -q '^\*\*\* libcrash: fatal signal \*\*\*$' "$TMPD/$1.report"; }
no_report() { [ ! -s "$TMPD/$1.report" ]; }

# A diagnostic line: both verdicts and what libcrash reported (the unindented lines between
# each report's pid line and its backtrace, without addresses and pids), or that it did not.
diag() { # CASE STATUS-WITHOUT STATUS-WITH
	local what
	what=$(awk '/^pid: / { f = 1; next } /^backtrace:/ { f = 0 } f && !/^ /' "$TMPD/$1.report" 2>/dev/null |
		sed -E 's/, (fault addr|sender pid).*//' | paste -sd'|' - | sed 's/|/; /g')
	echo "# $1: without libcrash: $2; with: $3; libcrash reports: ${what:-none}"
}

# Filters: only the lines of a runtime's own output that do not change from run to run.
everything() { cat; }
# HotSpot prints its fatal error banner on stdout: without pids, tids, addresses and the
# hs_err file's path.
jvm_banner() { grep -vF "$TMPD" | sed -E 's/0x[0-9a-f]+/0x?/g; s/(pid|tid)=[0-9]+/\1=?/g'; }
# Rust's message; newer Rust names the thread's id: "thread 'main' (1234) has overflowed".
rust_message() { grep -E 'has overflowed its stack|^fatal runtime error' | sed -E 's/ \([0-9]+\)//'; }
# faulthandler's first line and the traceback's function names (not its paths or thread id).
py_traceback() { grep -E '^Fatal Python error|^  File ' | sed -E 's/^  File .* in ([^ ]+)$/in \1/'; }

# ---------------------------------------------------------------- JVM
JVM=(-XX:-UsePerfData -XX:+UseSerialGC -cp "$TMPD/java")	# no hsperfdata file in /tmp
if ! command -v "$JAVA" >/dev/null 2>&1 || ! command -v "$JAVAC" >/dev/null 2>&1; then
	skip "jvm" "java or javac not installed (Debian: openjdk-17-jdk-headless)"
elif ! "$JAVAC" -J-XX:-UsePerfData -nowarn -d "$TMPD/java" "$SRC/JvmCrash.java" \
	"$SRC/JvmTraps.java" >"$TMPD/javac.log" 2>&1; then
	ok 1 "jvm: javac compiles the test programs"
	sed 's/^/#   /' "$TMPD/javac.log" | head -20
else
	# A crash in libjvm: HotSpot's handler writes hs_err and aborts; libcrash reports too.
	for w in 0 1; do
		run_rt jvmcrash $w "$JAVA" "${JVM[@]}" -XX:ErrorFile="$TMPD/jvmcrash.$w.hs_err_%p.log" JvmCrash
		ST[w]=$STATUS
	done
	diag jvmcrash "${ST[0]}" "${ST[1]}"
	check "jvm crash: hs_err file without libcrash" ls "$TMPD"/jvmcrash.0.hs_err_*.log
	check "jvm crash: hs_err file with libcrash" ls "$TMPD"/jvmcrash.1.hs_err_*.log
	is "${ST[1]}" "${ST[0]}" "jvm crash: same wait status with libcrash"
	check "jvm crash: fatal error banner without libcrash" \
		grep -q '^# A fatal error has been detected by the Java Runtime' "$TMPD/jvmcrash.0.out"
	same "jvm crash: same stdout (the banner; pids, addresses, hs_err path aside)" jvmcrash out jvm_banner
	same "jvm crash: same stderr" jvmcrash err everything empty-ok
	check "jvm crash: libcrash report" has_report jvmcrash

	# Faults HotSpot recovers from: no report, nothing changed.
	for w in 0 1; do
		run_rt jvmtraps $w "$JAVA" "${JVM[@]}" JvmTraps
		ST[w]=$STATUS
	done
	diag jvmtraps "${ST[0]}" "${ST[1]}"
	is "$(paste -sd' ' "$TMPD/jvmtraps.0.out")" "npe 50000 soe 5" "jvm NPE+SOE: all caught without libcrash"
	is "${ST[1]}" "exit 0" "jvm NPE+SOE: exit 0 with libcrash"
	same "jvm NPE+SOE: same stdout" jvmtraps out everything
	same "jvm NPE+SOE: same stderr" jvmtraps err everything empty-ok
	check "jvm NPE+SOE: no libcrash report" no_report jvmtraps
fi

# ---------------------------------------------------------------- Node.js
# node_api.h: beside the node binary (nodejs.org tarballs, NodeSource: PREFIX/include/node),
# or where Debian's libnode-dev puts it.
node_include() {
	local bin d
	bin=$(readlink -f "$(command -v "$NODE")")
	for d in "${bin%/bin/*}/include/node" /usr/include/node /usr/local/include/node; do
		if [ -f "$d/node_api.h" ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}
if ! command -v "$NODE" >/dev/null 2>&1; then
	skip "node wasm traps" "node not installed (Debian: nodejs)"
	skip "node addon crash" "node not installed (Debian: nodejs)"
else
	echo "# node $("$NODE" --version)"
	# wasm out-of-bounds loads: V8's trap handler turns each SIGSEGV into a RuntimeError.
	for w in 0 1; do
		run_rt wasm $w "$NODE" "$SRC/wasm-traps.js"
		ST[w]=$STATUS
	done
	diag wasm "${ST[0]}" "${ST[1]}"
	is "$(cat "$TMPD/wasm.0.out")" "traps 10000 sum 0" "node wasm: every trap caught without libcrash"
	is "${ST[1]}" "exit 0" "node wasm: exit 0 with libcrash"
	same "node wasm: same stdout" wasm out everything
	same "node wasm: same stderr" wasm err everything empty-ok
	check "node wasm: no libcrash report" no_report wasm

	# A crash in native code: V8 does not handle it, the process dies; libcrash reports.
	if ! INC=$(node_include); then
		skip "node addon crash" "node_api.h not found (Debian: libnode-dev)"
	elif ! command -v "$CC_ADDON" >/dev/null 2>&1; then
		skip "node addon crash" "no C compiler ($CC_ADDON) to build the addon"
	elif ! "$CC_ADDON" -shared -fPIC -O2 -I"$INC" -o "$TMPD/addon-crash.node" \
		"$SRC/addon-crash.c" >"$TMPD/addon.log" 2>&1; then
		ok 1 "node addon: builds against $INC"
		sed 's/^/#   /' "$TMPD/addon.log" | head -20
	else
		for w in 0 1; do
			run_rt addon $w "$NODE" "$SRC/addon-crash.js" "$TMPD/addon-crash.node"
			ST[w]=$STATUS
		done
		diag addon "${ST[0]}" "${ST[1]}"
		is "$(cat "$TMPD/addon.0.out")" "calling" "node addon: crashes in the call without libcrash"
		is "${ST[1]}" "${ST[0]}" "node addon: same wait status with libcrash"
		same "node addon: same stdout" addon out everything
		same "node addon: same stderr" addon err everything empty-ok
		check "node addon: libcrash report" has_report addon
	fi
fi

# ---------------------------------------------------------------- Rust
if ! command -v "$RUSTC" >/dev/null 2>&1; then
	skip "rust stack overflow" "rustc not installed (Debian: rustc)"
elif ! "$RUSTC" -O -o "$TMPD/overflow" "$SRC/overflow.rs" >"$TMPD/rustc.log" 2>&1; then
	ok 1 "rust: rustc compiles overflow.rs"
	sed 's/^/#   /' "$TMPD/rustc.log" | head -20
else
	echo "# $("$RUSTC" --version)"
	# Rust's SIGSEGV handler recognizes the guard page, prints its message and aborts.
	for where in main thread; do
		for w in 0 1; do
			run_rt "rust-$where" $w "$TMPD/overflow" $where
			ST[w]=$STATUS
		done
		diag "rust-$where" "${ST[0]}" "${ST[1]}"
		same "rust $where: same 'has overflowed its stack' message" "rust-$where" err rust_message
		is "${ST[1]}" "${ST[0]}" "rust $where: same wait status with libcrash"
		same "rust $where: same stdout" "rust-$where" out everything
		check "rust $where: libcrash report" has_report "rust-$where"
		check "rust $where: report says 'cause: stack overflow'" \
			grep -q '^cause: stack overflow' "$TMPD/rust-$where.report"
	done
fi

# ---------------------------------------------------------------- Python
# faulthandler prints the Python traceback, restores the previous handler and raises the
# signal again.  -I -B: no user site, no environment, no .pyc files written.
PY_CRASH='import ctypes
def inner(): ctypes.string_at(0)
def outer(): inner()
outer()'
if ! command -v "$PYTHON" >/dev/null 2>&1; then
	skip "python faulthandler" "python3 not installed (Debian: python3)"
else
	echo "# $("$PYTHON" --version 2>&1)"
	for w in 0 1; do
		run_rt python $w "$PYTHON" -I -B -X faulthandler -c "$PY_CRASH"
		ST[w]=$STATUS
	done
	diag python "${ST[0]}" "${ST[1]}"
	check "python: 'Fatal Python error: Segmentation fault' without libcrash" \
		grep -q '^Fatal Python error: Segmentation fault' "$TMPD/python.0.err"
	same "python: same faulthandler message and traceback" python err py_traceback
	is "${ST[1]}" "${ST[0]}" "python: same wait status with libcrash"
	check "python: libcrash report" has_report python
fi

echo "# $SECONDS s"
done_testing
