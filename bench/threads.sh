#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/threads.sh: crash latency of the whole report (issue 18): bench/threads, a process of
# 16 threads blocked in different system calls, crashes in one of them; libcrash's report
# with every thread, names, file:line, memory and maps, against the glibc backtrace() handler
# (bench/refhandler.so, what libSegFault did: one thread, raw addresses) and gdb on the core
# (`thread apply all bt`), in the same run.  Paired runs (bench/latency -F: from the fault
# to the parent's seeing the death).  Run by bench/run.sh (`make bench`) or `make
# bench-threads`.  Environment: THR_RUNS (paired runs per row, 200), GDB_RUNS (5).
set -euo pipefail
B=$(cd "${top_builddir:-.}" && pwd)
LAT=$B/bench/latency
LIB=$B/.libs/libcrash.so
REF=$B/bench/refhandler.so
PROG=$B/bench/threads
RUNS=${THR_RUNS:-200}
GRUNS=${GDB_RUNS:-5}

echo
echo "## Crash latency with the full report: 16 threads, symbols, memory, maps"
echo
for f in "$LAT" "$LIB" "$REF" "$PROG"; do
	if [ ! -e "$f" ]; then
		echo "skipped: $f is not built (make bench builds it)"
		exit 0
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One report, to check the crash and say what it holds.
rc=0
{ CRASH_OUTPUT=$tmp/report LD_PRELOAD=$LIB "$PROG" || rc=$?; } 2>/dev/null
if [ "$rc" != 139 ]; then
	echo "skipped: $PROG ended with status $rc, not SIGSEGV"
	exit 0
fi
r=$tmp/report
echo "The report: $(grep -c '^pid: ' "$r") threads ($(grep -c '^backtrace: .*complete' "$r") complete" \
	"backtraces), $(grep -c '^ *#[0-9]* pc ' "$r") frame lines, $(grep -c '^ *#[0-9]* pc .* at [^ ]*:[0-9]' "$r")" \
	"with a file:line, $(wc -c <"$r") bytes. Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "$RUNS paired runs per row (A B, then B A), medians in ms, from the fault to the parent's"
echo "seeing the death; the reports to a file."
echo
echo "| A against B | A | B | A - B (paired) | A / B |"
echo "|---|---|---|---|---|"
out=$tmp/out
declare -A F
lat() { # NAME A-SETTINGS B-SETTINGS A-PRELOAD B-PRELOAD
	local name=$1 r fa fb fd wa wb wd v set=()
	for v in $2; do set+=(-a "$v"); done
	for v in $3; do set+=(-b "$v"); done
	if ! r=$(CRASH_OUTPUT=$out "$LAT" -F -s 11 "${set[@]}" "$RUNS" "$4" "$5" -- "$PROG"); then
		echo "| $name | failed (latency's message above) | | | |"
		return
	fi
	read -r fa fb fd wa wb wd <<<"$r"
	F[$name]=$fa
	echo "| $name | $fa | $fb | $fd | $(awk -v a="$fa" -v b="$fb" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else printf "-" }') |"
}
N=CRASH_BENCH_NONE=1
lat "libcrash, all threads, full symbols - no handler" $N $N "$LIB" -
lat "glibc backtrace() handler - no handler" $N $N "$REF" -
lat "libcrash, all threads, full symbols - glibc backtrace() handler" $N $N "$LIB" "$REF"
lat "libcrash, crashing thread only - glibc backtrace() handler" CRASH_THREADS=crashing $N "$LIB" "$REF"
lat "libcrash, all threads, names only - glibc backtrace() handler" CRASH_SYMBOLS=names $N "$LIB" "$REF"
lat "libcrash, all threads - crashing thread only" $N CRASH_THREADS=crashing "$LIB" "$LIB"
echo

# gdb on a core of the same crash, every thread's backtrace.
if ! command -v gdb >/dev/null 2>&1; then
	echo "gdb: skipped (not installed)"
	exit 0
fi
pat=$(cat /proc/sys/kernel/core_pattern 2>/dev/null || echo '?')
if [ "${pat#|}" != "$pat" ]; then
	echo "gdb: skipped (core_pattern '$pat' pipes cores away from the working directory)"
	exit 0
fi
{ (cd "$tmp" && ulimit -c unlimited && exec "$PROG") || true; } 2>/dev/null
core=$(ls -t "$tmp"/core* 2>/dev/null | head -1 || true)
if [ -z "$core" ]; then
	echo "gdb: skipped (no core in the working directory; core_pattern '$pat')"
	exit 0
fi
for i in $(seq "$GRUNS"); do
	t0=$(date +%s%N)
	DEBUGINFOD_URLS= gdb -nx -batch -iex 'set debuginfod enabled off' -ex 'thread apply all bt' \
		"$PROG" "$core" >"$tmp/gdb.out" 2>&1 </dev/null || true
	echo $((($(date +%s%N) - t0) / 1000))
done | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f\n", v[int((NR + 1) / 2)] / 1000 }' >"$tmp/gdb.ms"
echo "| on the core of the same crash | median ms | threads | frames |"
echo "|---|---|---|---|"
echo "| \`gdb -batch -ex 'thread apply all bt' PROG CORE\`, $GRUNS runs | $(cat "$tmp/gdb.ms") |" \
	"$(grep -c '^Thread ' "$tmp/gdb.out") | $(grep -c '^#[0-9]' "$tmp/gdb.out") |"
echo "| libcrash, all threads, full symbols (fault to death, above) |" \
	"${F[libcrash, all threads, full symbols - no handler]:-?} | $(grep -c '^pid: ' "$r") | $(grep -c '^ *#[0-9]* pc ' "$r") |"
echo
echo "(gdb's figure does not include writing the core, which the kernel does after the death.)"
