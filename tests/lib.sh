# Shared helpers for the shell tests: TAP output and report checks.
# Sourced by tests/*/*.sh; needs top_builddir, top_srcdir (set by make check).
: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
T_N=0
T_FAIL=0
LIBCRASH="$top_builddir/.libs/libcrash.so"
DEMO="$top_builddir/demo"
WAITSIG=${CRASH_TEST_WAITSIG:-"$top_builddir/tests/crash/waitsig"}
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/libcrash-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT
# A command prefix for running target programs (qemu-user for other arches).
RUN=${CRASH_TEST_RUNNER:-}

ok() { # ok COND-STATUS NAME
	T_N=$((T_N + 1))
	if [ "$1" = 0 ]; then
		echo "ok $T_N - $2"
	else
		echo "not ok $T_N - $2"
		T_FAIL=$((T_FAIL + 1))
	fi
}
check() { # check NAME CMD...  (ok if CMD succeeds)
	local name=$1; shift
	if "$@" >/dev/null 2>&1; then ok 0 "$name"; else ok 1 "$name"; fi
}
is() { # is GOT WANT NAME
	if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got '$1', want '$2'"; fi
}
skip() { T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP $2"; }
done_testing() { echo "1..$T_N"; [ "$T_FAIL" = 0 ]; }

# run_crash OUTFILE ENV... -- ARGS: run the demo under LD_PRELOAD, report to OUTFILE;
# sets STATUS to waitsig's verdict.
run_crash() {
	local out=$1; shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	rm -f "$out"
	# The environment goes to the program only, not to waitsig.
	STATUS=$("$WAITSIG" -t 60 env "${envs[@]}" $RUN "$@" 2>"$out.stderr")
}

# The function names of the report's frames (in order), one per line: the
# frames' own lines, not those of the frames inlined into them.  A name is
# demangled and may hold spaces, parentheses and '+' (operator+): it is what
# lies between the module's " (" and the last "+OFF)" before the build-id,
# the [TAG] and " at FILE:LINE".
frame_names() { # FILE [SECTION-NUMBER]
	awk -v want="${2:-1}" '/^backtrace:/ { n++ } n == want && /^ +#[0-9]+ pc / && !/ \[inline\]/' "$1" |
		sed -E 's/^ +#[0-9]+ pc [0-9a-f]+  [^ ]* \((.*)\+[0-9]+\)( \(BuildId: [0-9a-f]+\))? \[[a-z]+\]( at .*)?$/\1/; t; s/.*/?/'
}
# Do the names $2... appear in this order (not necessarily adjacent) in file $1?
# A GCC clone of a function (main.cold, f.part.0) counts as the function.
names_in_order() {
	local f=$1 IFS=$'\x1f'; shift
	frame_names "$f" | awk -v list="$*" 'BEGIN { n = split(list, w, "\x1f"); i = 1 }
		i <= n && ($0 == w[i] || index($0, w[i] ".") == 1 || index($0, w[i] " [clone ") == 1) { i++ }
		END { exit !(i > n) }'
}
