#!/bin/bash
# Issue 5 integration: the demo built without unwind tables and frame pointers
# (-fno-asynchronous-unwind-tables -fno-unwind-tables -fomit-frame-pointer, at
# -O0 and -O2) crashes, and CRASH_ENGINE=scan gives the complete chain.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CHAIN="crash_null level3 level2 level1 main"

# Is any of the functions $2... covered by an FDE in .eh_frame of $1?  (glibc's
# crt files and the PLT keep theirs: only the demo's own functions are checked;
# -g's .debug_frame is not loaded, so not looked at.)
fde_covers() {
	local bin=$1; shift
	local ranges addr f
	ranges=$(readelf --debug-dump=frames "$bin" 2>/dev/null |
		awk '/^Contents of the / { eh = ($4 == ".eh_frame") } eh' |
		sed -nE 's/.* FDE .*pc=([0-9a-f]+)\.\.([0-9a-f]+).*/\1 \2/p')
	for f in "$@"; do
		addr=$(nm "$bin" | awk -v f="$f" '$3 == f { print $1; exit }')
		[ -n "$addr" ] || return 0	# no symbol: cannot tell, count as covered
		while read -r lo hi; do
			[ -n "$lo" ] || continue
			if [ $((16#$addr >= 16#$lo && 16#$addr < 16#$hi)) = 1 ]; then return 0; fi
		done <<<"$ranges"
	done
	return 1
}

for o in O0 O2; do
	bin=$DEMO/crashme-scan-$o
	if [ ! -x "$bin" ]; then skip "crashme-scan-$o" "not built"; continue; fi
	if fde_covers "$bin" crash_null level3 level2 level1 main; then
		ok 1 "$o: no FDE covers the demo's functions"
	else
		ok 0 "$o: no FDE covers the demo's functions"
	fi
	for mode in segv deep; do
		out=$TMPD/$mode.$o.txt
		run_crash "$out" CRASH_OUTPUT="$out" CRASH_ENGINE=scan LD_PRELOAD="$LIBCRASH" -- "$bin" $mode
		is "$STATUS" "signal 11 core 0" "$o $mode: died by SIGSEGV"
		names=$CHAIN
		[ $mode = deep ] && names="crash_null recurse recurse crash_deep level3 level2 level1 main"
		if names_in_order "$out" $names; then ok 0 "$o $mode: scan frames $names"; else
			ok 1 "$o $mode: scan frames $names"; sed 's/^/#   /' "$out"; fi
		check "$o $mode: complete" grep -q "^backtrace: [0-9]* frames, engine scan, complete$" "$out"
		check "$o $mode: frame #01 tagged [scan]" grep -q '^ *#01 pc .*\[scan\]\( at .*:[0-9]*\)\{0,1\}$' "$out"
	done
done
done_testing
