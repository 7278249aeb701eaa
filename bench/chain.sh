#!/bin/bash
# bench/chain.sh: captures at the end of a chain of 32 or 128 distinct
# functions built -O2 -fomit-frame-pointer (issue 20; bench/chain.c), for
# libcrash's cfi and auto against libunwind's unw_backtrace(), libgcc's
# _Unwind_Backtrace() and glibc's backtrace(), every one measured in the same
# run, the methods taking turns in each round (the machine's load moves).
# Warm: the median of a process's 41 batches of 100 captures after 200, the
# median over ROUNDS processes.  Cold: the first capture of a fresh process,
# the median over COLD processes, and the mean of the page faults it took.
# Instructions: callgrind, warm the mean of K captures after the first, cold
# the first (exact, load-independent).
# Thread: the same warm captures in a thread other than the main one
# (CHAIN_THREAD=1), for libcrash and unw_backtrace, in the same rounds; and
# libcrash on a thread stack it does not remember (guard size 0:
# CHAIN_THREAD=noguard), whose captures prove their pages each time.
set -euo pipefail
B=${top_builddir:-.}
CH=$B/bench/chain
CHN=$B/bench/chain-nounw
K=20
ROUNDS=${CHAIN_ROUNDS:-7}
COLD=${CHAIN_COLD:-31}
# CRASH_DISABLE=1: no crash_install(), so the first capture is really cold.
export CRASH_DISABLE=1

bin() { case $1 in gcc|glibc) echo "$CHN" ;; *) echo "$CH" ;; esac; }
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
M="cfi auto unw gcc glibc"
MT="cfi auto unw"
declare -A W32 W128 C32 S32 FC I32 I128 IC T32 T128
load0=$(cut -d' ' -f1-3 /proc/loadavg)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$ROUNDS"); do
	for m in $M; do
		CHAIN_TIME=warm "$(bin $m)" $m 32 0 >>"$tmp/w32.$m"
		CHAIN_TIME=warm "$(bin $m)" $m 128 0 >>"$tmp/w128.$m"
	done
	for m in $MT; do
		CHAIN_THREAD=1 CHAIN_TIME=warm "$(bin $m)" $m 32 0 >>"$tmp/t32.$m"
		CHAIN_THREAD=1 CHAIN_TIME=warm "$(bin $m)" $m 128 0 >>"$tmp/t128.$m"
	done
	for m in cfi auto; do
		CHAIN_THREAD=noguard CHAIN_TIME=warm "$(bin $m)" $m 32 0 >>"$tmp/n32.$m"
		CHAIN_THREAD=noguard CHAIN_TIME=warm "$(bin $m)" $m 128 0 >>"$tmp/n128.$m"
	done
done
for m in $MT; do
	T32[$m]=$(med <"$tmp/t32.$m")
	T128[$m]=$(med <"$tmp/t128.$m")
done
declare -A N32 N128
for m in cfi auto; do
	N32[$m]=$(med <"$tmp/n32.$m")
	N128[$m]=$(med <"$tmp/n128.$m")
done
# Cold: the methods in a new random order each round, so that no method
# always follows the same one.  A process right after one that ran the same
# binary and library finds their code in the CPU's caches: in a fixed order
# auto, always right after CFI, measured 13-24% faster than CFI for the same
# code path, and glibc's backtrace() always had libgcc's binary before it.
for r in $(seq "$COLD"); do
	for m in $(printf '%s\n' $M | shuf); do
		CHAIN_TIME=cold "$(bin $m)" $m 32 1 >>"$tmp/c32.$m"
	done
done
for m in $M; do
	W32[$m]=$(med <"$tmp/w32.$m")
	W128[$m]=$(med <"$tmp/w128.$m")
	C32[$m]=$(med <"$tmp/c32.$m")
	S32[$m]=$(awk '{ print $3 }' "$tmp/c32.$m" | med)
	FC[$m]=$(awk '{ s += $2 } END { printf "%.1f", s / NR }' "$tmp/c32.$m")
	b=$(bin $m)
	x=$(ir "$b" $m 32 0)
	y=$(ir "$b" $m 32 1)
	z=$(ir "$b" $m 32 $((K + 1)))
	I32[$m]=$(( (z - y) / K ))
	IC[$m]=$(( y - x ))
	x=$(ir "$b" $m 128 1)
	z=$(ir "$b" $m 128 $((K + 1)))
	I128[$m]=$(( (z - x) / K ))
done
name() {
	case $1 in
	cfi) echo "libcrash crash_backtrace_with(CFI)" ;;
	auto) echo "libcrash crash_backtrace() (auto)" ;;
	unw) echo "libunwind unw_backtrace()" ;;
	gcc) echo "libgcc _Unwind_Backtrace()" ;;
	glibc) echo "glibc backtrace()" ;;
	esac
}
echo
echo "## Captures at the end of a chain of distinct functions (-O2 -fomit-frame-pointer)"
echo
echo "load average: $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo "warm: median ns per capture ($ROUNDS processes, each the median of 41 batches of 100"
echo "after 200); cold: the first capture of a fresh process, median of $COLD; instructions:"
echo "callgrind, warm the mean of $K captures after the first, cold the first; cold faults:"
echo "the page faults the first capture took (getrusage), the mean over the same processes;"
echo "second: the same processes' second capture, median (libcrash's first capture keeps its"
echo "rows to itself: its second writes the row cache)."
echo
echo "| method | warm d32 ns | warm d128 ns | cold d32 ns | cold faults | second d32 ns | warm d32 instr | warm d128 instr | cold d32 instr |"
echo "|---|---|---|---|---|---|---|---|---|"
for m in $M; do
	echo "| $(name $m) | ${W32[$m]} | ${W128[$m]} | ${C32[$m]} | ${FC[$m]} | ${S32[$m]} | ${I32[$m]} | ${I128[$m]} | ${IC[$m]} |"
done
echo
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
echo "Ratios, same run (below 1.00: libcrash is faster or smaller):"
echo
echo "| libcrash | warm d32 wall / unw | warm d128 wall / unw | cold d32 wall / libgcc | cold + second d32 wall / libgcc | cold d32 instr / libgcc | warm d32 instr / unw |"
echo "|---|---|---|---|---|---|---|"
for m in cfi auto; do
	echo "| $m | $(ratio "${W32[$m]}" "${W32[unw]}") | $(ratio "${W128[$m]}" "${W128[unw]}") |" \
		"$(ratio "${C32[$m]}" "${C32[gcc]}") |" \
		"$(ratio $((C32[$m] + S32[$m])) $((C32[gcc] + S32[gcc]))) | $(ratio "${IC[$m]}" "${IC[gcc]}") |" \
		"$(ratio "${I32[$m]}" "${I32[unw]}") |"
done
echo
echo "In a thread other than the main one (glibc's default stack), warm, median ns:"
echo
echo "| method | thread warm d32 ns | thread warm d128 ns | d32 / unw | d128 / unw |"
echo "|---|---|---|---|---|"
for m in $MT; do
	echo "| $(name $m) | ${T32[$m]} | ${T128[$m]} | $(ratio "${T32[$m]}" "${T32[unw]}") |" \
		"$(ratio "${T128[$m]}" "${T128[unw]}") |"
done
for m in cfi auto; do
	echo "| $(name $m), guard size 0 (not remembered) | ${N32[$m]} | ${N128[$m]} |" \
		"$(ratio "${N32[$m]}" "${T32[unw]}") | $(ratio "${N128[$m]}" "${T128[unw]}") |"
done
