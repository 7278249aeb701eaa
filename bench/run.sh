#!/bin/bash
# bench/run.sh: the figures in README's performance table, reproducible with
# public tools: `make bench` (valgrind's callgrind for instruction counts, the
# benchmark's own clock for wall time).  Every reference is measured in the
# same run; quote ratios, the machine is noisy.
set -euo pipefail
B=${top_builddir:-.}
BT=$B/bench/bt
BTN=$B/bench/bt-nounw
LAT=$B/bench/latency
LIB=$(cd "$B/.libs" && pwd)/libcrash.so
REF=$(cd "$B/bench" && pwd)/refhandler.so
EMPTY=$(cd "$B/bench" && pwd)/empty.so
DEMO=$B/demo/crashme
K=20
RUNS=1000	# paired runs of each wall-time row: a few milliseconds each

ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
# capture COST: callgrind instructions per capture at a depth, warm (the
# average of K captures after the first) or cold (the first capture).
warm() { # ENV BIN METHOD DEPTH
	local e=$1 b=$2 m=$3 d=$4 x y z
	x=$(env $e "$b" "$m" "$d" 0 >/dev/null; env $e valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b" "$m" "$d" 0 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	y=$(env $e valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b" "$m" "$d" 1 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	z=$(env $e valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b" "$m" "$d" $((K + 1)) 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	echo $(( (z - y) / K )) $(( y - x ))
}
wall() { # ENV BIN METHOD: median ns per capture at depth 32 over 5 runs
	local e=$1 b=$2 m=$3
	for i in 1 2 3 4 5; do env $e BT_TIME=1 "$b" "$m" 32 2000; done | sort -n | sed -n 3p
}

echo "## Per-frame cost of a backtrace (x86_64, $(date -u +%Y-%m-%d))"
echo
echo "callgrind instructions per capture (warm: mean of $K after the first), per frame"
echo "(the slope from depth 8 to 128), first capture in a fresh process at depth 32,"
echo "and the median wall time per capture at depth 32 (5 runs of 2000)."
echo
echo "| method | depth 8 | depth 32 | depth 128 | per frame | first capture (d32) | wall ns (d32) |"
echo "|---|---|---|---|---|---|---|"
row() { # NAME ENV BIN METHOD
	local name=$1 e=$2 b=$3 m=$4 w8 w32 w128 c
	read -r w8 _ <<<"$(warm "$e" "$b" "$m" 8)"
	read -r w32 c <<<"$(warm "$e" "$b" "$m" 32)"
	read -r w128 _ <<<"$(warm "$e" "$b" "$m" 128)"
	echo "| $name | $w8 | $w32 | $w128 | $(( (w128 - w8) / 120 )) | $c | $(wall "$e" "$b" "$m") |"
}
# CRASH_DISABLE=1: no crash_install(), so the first capture is really cold.
row "libcrash crash_backtrace_with(CFI)" "CRASH_DISABLE=1" "$BT" cfi
# Installed (the preload constructor ran), as it is for a crash: install
# takes nothing about modules (docs/design.md), and the row cache starts
# empty all the same, so this first capture should equal the one above.
row "libcrash CFI after crash_install (what a crash has)" "CRASH_BENCH=1" "$BT" cfi
row "libcrash crash_backtrace() (auto)" "CRASH_DISABLE=1" "$BT" auto
row "libcrash CFI, row cache off (CRASH_CACHE=0)" "CRASH_CACHE=0" "$BT" cfi
row "libcrash crash_backtrace_with(FP)" "CRASH_DISABLE=1" "$BT" fp
row "libunwind unw_backtrace()" "CRASH_DISABLE=1" "$BT" unw
row "libunwind unw_step() loop" "CRASH_DISABLE=1" "$BT" unwstep
row "glibc backtrace() (libgcc)" "CRASH_DISABLE=1" "$BTN" glibc
row "naive frame-pointer walk (floor)" "CRASH_DISABLE=1" "$BT" naive

# Captures at the end of a chain of 32 and 128 distinct functions without
# frame pointers, against unw_backtrace(), libgcc and glibc backtrace() in the
# same run (issue 20): bench/chain.sh; BENCH_CHAIN=0 leaves it out.
if [ "${BENCH_CHAIN:-1}" != 0 ]; then
	top_builddir=$B bash "$(dirname "$0")/chain.sh"
fi

echo
echo "## Crash latency and start-up cost (whole process, $RUNS paired runs, ms)"
echo
# Wall times move with the machine's load (other jobs, a CI run beside
# this one): say what it was, so that runs are compared like with like.
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| what | with | without | median paired difference |"
echo "|---|---|---|---|"
out=$(mktemp)
# demo/crashme deep 26: 33 frames at the crash; the report goes to a file.
read -r a b d <<<"$(CRASH_OUTPUT=$out "$LAT" $RUNS "$LIB" - -- "$DEMO" deep 26)"
echo "| crash at depth 33, LD_PRELOAD=libcrash.so (report to a file) | $a | $b | $d |"
read -r a b d <<<"$(CRASH_OUTPUT=$out "$LAT" $RUNS "$REF" - -- "$DEMO" deep 26)"
echo "| crash at depth 33, a glibc backtrace() handler (reference) | $a | $b | $d |"
read -r a b d <<<"$(CRASH_OUTPUT=$out "$LAT" $RUNS "$LIB" "$REF" -- "$DEMO" deep 26)"
echo "| crash at depth 33, libcrash.so against the reference handler | $a | $b | $d |"
read -r a b d <<<"$("$LAT" $RUNS "$LIB" - -- /bin/true)"
echo "| /bin/true, LD_PRELOAD=libcrash.so (start-up) | $a | $b | $d |"
read -r a b d <<<"$("$LAT" $RUNS "$REF" - -- /bin/true)"
echo "| /bin/true, the reference handler preloaded | $a | $b | $d |"
read -r a b d <<<"$("$LAT" $RUNS "$EMPTY" - -- /bin/true)"
echo "| /bin/true, an empty library preloaded (the floor of any preload) | $a | $b | $d |"
read -r a b d <<<"$("$LAT" $RUNS "$LIB" "$EMPTY" -- /bin/true)"
echo "| /bin/true, libcrash.so against the empty library | $a | $b | $d |"
rm -f "$out"

# What symbolization adds to a crash of a large C++ program, and gdb on the
# same crash (issue 17): bench/symbols.sh, the program in 8 translation
# units a module (a unity build's, the worst case) and in 150 (113
# functions a unit); BENCH_SYMBOLS=0 leaves it out.
if [ "${BENCH_SYMBOLS:-1}" != 0 ]; then
	top_builddir=$B bash "$(dirname "$0")/symbols.sh"
	top_builddir=$B SYM_TUS=150 bash "$(dirname "$0")/symbols.sh"
fi

# Crash latency of the whole report of a 16-thread process against the glibc
# backtrace() handler and gdb on the core (issue 18): bench/threads.sh;
# BENCH_THREADS=0 leaves it out.
if [ "${BENCH_THREADS:-1}" != 0 ]; then
	top_builddir=$B bash "$(dirname "$0")/threads.sh"
fi

# The fp and scan engines per frame against a naive frame-pointer walk and the
# scan engine before (issue 20): bench/engines.sh; BENCH_ENGINES=0 leaves it out.
if [ "${BENCH_ENGINES:-1}" != 0 ]; then
	top_builddir=$B bash "$(dirname "$0")/engines.sh"
fi
