#!/bin/bash
# bench/engines.sh: the fp and scan engines per frame (issue 20), also the
# end of `make bench`.  A chain of 128 distinct noinline functions
# (bench/engines.c), built with frame pointers (engines-fp), without
# (engines-nofp) and without frame pointers or unwind tables (engines-noeh).
# callgrind instructions per frame: the slope of the capture's cost from
# depth 8 to 128; wall per frame: captures at two depths in turn in one
# process, the difference of their medians (engines.c); every method in the
# same run.
set -euo pipefail
B=${top_builddir:-.}
E=$B/bench/engines
K=20
ITERS=${ENGINES_ITERS:-2000}
# Before issue 20's work (commit 78b6b42), this benchmark's instructions per
# frame (callgrind, exact; 2026-11-26): for the ratios.  Wall times before
# and after in one run: docs/performance.md.
FP_BEFORE_IR=1560
SCAN_BEFORE_IR=23358
GIVEUP_BEFORE_IR=876

capture_ir() { # BIN METHOD DEPTH [CAPTURES]: callgrind instructions per capture
	local x y k=${4:-$K}
	x=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" 0 2>&1 |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	y=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" $k 2>&1 |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	echo $(( (y - x) / k ))
}
first_ns() { # BIN METHOD DEPTH: the median over 9 processes of a process's first capture
	for i in 1 2 3 4 5 6 7 8 9; do ENGINES_TIME=1 "$1" "$2" "$3" 1; done | sort -n | sed -n 5p
}
capture_ns() { # BIN METHOD DEPTH [ITERS]: the median over 5 runs of each run's median capture
	for i in 1 2 3 4 5; do ENGINES_TIME=1 "$1" "$2" "$3" "${4:-$ITERS}"; done | sort -n | sed -n 3p
}
slope_ir() { # BIN METHOD
	local a b
	a=$(capture_ir "$1" "$2" 8)
	b=$(capture_ir "$1" "$2" 128)
	echo $(( (b - a) / 120 ))
}
slope_ns() { # BIN METHOD DEPTH2 [ITERS]: wall ns per frame, depth 8 against DEPTH2 in
	# turn in one process (engines.c), the median of 3 runs
	for i in 1 2 3; do "$1" "$2" 8 "${4:-$ITERS}" "$3"; done | sort -n | sed -n 2p
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }

echo
echo "## fp and scan engines per frame (issue 20, $(date -u +%Y-%m-%d))"
echo
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "A chain of 128 distinct functions (then round again). Instructions per frame:"
echo "callgrind, the slope from depth 8 to 128. Wall per frame: captures at depth 8"
echo "and at 1000 (scan: 128) in turn in one process, each timed alone, the difference"
echo "of the medians per frame (the captures' fixed cost, their system calls, cancels)."
echo
echo "| what | instructions per frame | wall ns per frame | ratio |"
echo "|---|---|---|---|"
fi_=$(slope_ir "$E-fp" fp); fn=$(slope_ns "$E-fp" fp 1000)
ni=$(slope_ir "$E-fp" naive); nn=$(slope_ns "$E-fp" naive 1000)
echo "| fp engine, frame-pointer build | $fi_ ($FP_BEFORE_IR before) | $fn | $(ratio "$fi_" "$ni") the naive walk's instructions, $(ratio "$fn" "$nn") its wall |"
echo "| naive frame-pointer walk (no checks), same run | $ni | $nn | 1x |"
si=$(slope_ir "$E-noeh" scan); sn=$(slope_ns "$E-noeh" scan 128 200)
echo "| scan engine, no frame pointers, no unwind tables | $si ($SCAN_BEFORE_IR before) | $sn | $(ratio "$SCAN_BEFORE_IR" "$si") fewer instructions than before |"
# auto on the same build: no FDE anywhere in the chain, so scan at each frame
# (before stop 30 the fp step came first and took an ancestor's record: 2
# frames of 45 at depth 40).  Its frame count at depth 128 against scan's.
ai=$(slope_ir "$E-noeh" auto); an=$(slope_ns "$E-noeh" auto 128 200)
af=$(ENGINES_PRINT=1 "$E-noeh" auto 128 1 | tr -dc 0-9); sf=$(ENGINES_PRINT=1 "$E-noeh" scan 128 1 | tr -dc 0-9)
echo "| auto (\`crash_backtrace()\`), the same build | $ai | $an | $af frames at depth 128, scan $sf |"
# A process's first capture: nothing in the row cache (a crash report's walk,
# which does not use it, pays this for every frame).
fi8=$(capture_ir "$E-noeh" scan 8 1); fi128=$(capture_ir "$E-noeh" scan 128 1)
fn8=$(first_ns "$E-noeh" scan 8); fn128=$(first_ns "$E-noeh" scan 128)
echo "| scan engine, a process's first capture (nothing cached: a crash's case) | $(( (fi128 - fi8) / 120 )) | $(awk -v a="$fn128" -v b="$fn8" 'BEGIN { printf "%.0f", (a - b) / 120 }') | $(ratio "$SCAN_BEFORE_IR" "$(( (fi128 - fi8) / 120 ))") fewer instructions than before |"
echo
echo "| what | instructions per capture | wall ns per capture (median) |"
echo "|---|---|---|"
echo "| fp engine giving up on a build without frame pointers (depth 32) | $(capture_ir "$E-nofp" fp 32) ($GIVEUP_BEFORE_IR before) | $(capture_ns "$E-nofp" fp 32) |"
echo "| fp engine, frame-pointer build, depth 32 | $(capture_ir "$E-fp" fp 32) | $(capture_ns "$E-fp" fp 32) |"
echo "| naive frame-pointer walk, depth 32 | $(capture_ir "$E-fp" naive 32) | $(capture_ns "$E-fp" naive 32) |"
echo "| scan engine, depth 32 | $(capture_ir "$E-noeh" scan 32) | $(capture_ns "$E-noeh" scan 32 200) |"
