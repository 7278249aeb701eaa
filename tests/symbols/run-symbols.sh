#!/bin/bash
# The report's symbols against binutils, frame by frame (issue 17): names (nm -C), file:line
# and inlined frames (addr2line -f -i -C) of real crashes under LD_PRELOAD=libcrash.so.
#
# Programs (tests/symbols/symprog.c, symprog.cc, symhdr.h, symlib.c) are built here, in
# <builddir>/tests/symbols/, as a matrix: C and C++ x -O0 and -O2 x -gdwarf-4 and -gdwarf-5 x
# PIE and -no-pie, by the build's $CC/$CXX and, natively, by the other compiler (gcc or clang)
# when it is on PATH (not with SYM_OTHER=0: tests/run-all.sh, whose gcc and clang builds each
# build their own); each program crashes through a shared library (symlib.c), and in C++
# through std::function, a lambda, an operator of a class template in a namespace, recursive
# templates and (gcc -O2) a `.cold` clone.  Then, from the C++ and C programs built by $CC -O2
# -gdwarf-5 PIE: stripped copies with their debug files under a build-id root, found by
# .gnu_debuglink (next to the module, in .debug/, under a root; and, for modules without a
# build-id, by its CRC: one with a wrong CRC must not be used), in a debuginfod client cache
# ($DEBUGINFOD_CACHE_PATH, $XDG_CACHE_HOME, $HOME), zlib- and zstd-compressed debug sections;
# CRASH_SYMBOLS=names and mangled; crashes inside libc
# (qsort's callback, abort, strlen) checked against libc's debug file (libc6-dbg) by build-id
# (under qemu, again in the debug runtime root $CRASH_TEST_RUNNER_DBG: see below);
# and damaged debug files (garbage over .debug_info/.debug_line, truncated), where the report
# must still complete with the symbol table's names and the process die by its signal.
#
# One TAP line per frame line of each report (tests/symbols/symcheck.sh says exactly what is
# compared), plus per report: died by its signal, end marker, the header's count, numbering,
# BuildId on each module's first line only, [inline] lines sharing the next line's pc.
# Under a runner ($RUN: make check-cross) the target's binutils are $host_alias-addr2line &c.;
# without them, or without a compiler, the suite is skipped with the reason.
# SYM_STRICT=1: no tolerance for binutils 2.40's known DWARF 5 bugs (see symcheck.sh).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
. "$top_srcdir/tests/symbols/symcheck.sh"
SRC=$top_srcdir/tests/symbols
B=$top_builddir/tests/symbols
T0=$(date +%s)
mkv() { sed -n "s/^$1 = //p" "$top_builddir/Makefile" | head -n 1; }
CC=$(mkv CC) CXX=$(mkv CXX)
HOST=$(mkv host) BUILD=$(mkv build) HOST_ALIAS=$(mkv host_alias) HOST_CPU=$(mkv host_cpu)
SYSROOT=$(sed -n 's/.* -L \([^ ]*\).*/\1/p' <<<"$RUN")
# Under qemu, the runtime root's libc (the *-cross packages', rebuilt by Debian's
# cross-toolchain-base) has no debug file anywhere.  CRASH_TEST_RUNNER_DBG (make check-cross:
# tests/cross/setup.sh's CROSS_RUN_DBG_<arch>) runs the guest in a second root with the
# distribution's own libc6 and libc6-dbg, for the libc cases.
RUN_DBG=${CRASH_TEST_RUNNER_DBG:-}
SYSROOT_DBG=$(sed -n 's/.* -L \([^ ]*\).*/\1/p' <<<"$RUN_DBG")

# binutils for the target.
TP=
if [ "$HOST" != "$BUILD" ] || [ -n "$RUN" ]; then
	TP=none
	for p in "$HOST_ALIAS" "$HOST_CPU-linux-gnu"; do
		if [ -n "$p" ] && command -v "$p-addr2line" >/dev/null; then
			TP=$p-
			break
		fi
	done
	# No binutils for the target (Debian 12 has none for loongarch64): LLVM's
	# twins, which read every arch (llvm-19: tests/cross/setup.sh installs it).
	if [ "$TP" = none ] && command -v llvm-addr2line-19 >/dev/null &&
		command -v llvm-nm-19 >/dev/null && command -v llvm-readelf-19 >/dev/null &&
		command -v llvm-objcopy-19 >/dev/null; then
		TP=llvm-19
	fi
	if [ "$TP" = none ]; then
		skip "symbols against binutils" "no binutils for $HOST_CPU here\
 ($HOST_CPU-linux-gnu-addr2line &c.; Debian: binutils-$HOST_CPU-linux-gnu, which Debian 12\
 does not have for loongarch64; nor llvm-19's llvm-addr2line-19 &c.)"
		done_testing
		exit
	fi
fi
if [ "$TP" = llvm-19 ]; then
	A2L=llvm-addr2line-19 NMT=llvm-nm-19 READELF=llvm-readelf-19 OBJCOPY=llvm-objcopy-19
else
	A2L=${TP}addr2line NMT=${TP}nm READELF=${TP}readelf OBJCOPY=${TP}objcopy
fi
for t in "$A2L" "$NMT" "$READELF" "$OBJCOPY" gzip od; do
	if ! command -v "$t" >/dev/null; then
		skip "symbols against binutils" "no $t"
		done_testing
		exit
	fi
done
# The second opinion where binutils 2.40 errs: LLVM 19 where installed (LLVM 14,
# Debian 12's llvm-addr2line, knows neither loongarch64 nor zstd-compressed sections).
LLVM_A2L=$(command -v llvm-addr2line-19 || command -v llvm-addr2line || true)
LLVM_DWARFDUMP=$(command -v llvm-dwarfdump-19 || command -v llvm-dwarfdump || true)
if [ "$HOST_CPU" = loongarch64 ]; then
	LLVM_A2L=$(command -v llvm-addr2line-19 || true)
	LLVM_DWARFDUMP=$(command -v llvm-dwarfdump-19 || true)
fi
if [ -z "$CC" ] || ! command -v "${CC%% *}" >/dev/null || [ -z "$CXX" ] ||
	! command -v "${CXX%% *}" >/dev/null; then
	skip "symbols against binutils" "no compiler (CC '$CC', CXX '$CXX' from $top_builddir/Makefile)"
	done_testing
	exit
fi

family() { # COMPILER...: gcc or clang
	if "$@" --version 2>/dev/null | head -n 1 | grep -qi clang; then echo clang; else echo gcc; fi
}
# COMPILERS: the families to build with; CCOF, CXXOF: their commands.
# shellcheck disable=SC2086 # CC may carry options
MAIN=$(family $CC)
COMPILERS=("$MAIN")
declare -A CCOF CXXOF
CCOF[$MAIN]=$CC CXXOF[$MAIN]=$CXX
if [ "$MAIN" = gcc ]; then OTHER=clang OCXX=clang++; else OTHER=gcc OCXX=g++; fi
if [ -n "$RUN" ] || [ "$HOST" != "$BUILD" ]; then
	skip "the matrix by $OTHER" "cross build: only the configured $CC targets $HOST here"
elif [ "${SYM_OTHER:-1}" = 0 ]; then
	# tests/run-all.sh: the gcc and the clang build each build their own compiler's matrix,
	# not both the same 32 programs.
	skip "the matrix by $OTHER" "SYM_OTHER=0: $OTHER's build of the suite builds it"
elif command -v "$OTHER" >/dev/null && command -v "$OCXX" >/dev/null; then
	COMPILERS+=("$OTHER")
	CCOF[$OTHER]=$OTHER CXXOF[$OTHER]=$OCXX
else
	skip "the matrix by $OTHER" "$OTHER or $OCXX is not on PATH"
fi

# build NAME FAMILY LANG OPT DWARF PIE [LDFLAGS]: <B>/NAME/prog and its libsymlib.so (rpath
# $ORIGIN).
# -O0 builds name their sources by absolute paths, -O2 builds compile in the source directory
# with relative ones (so that FILE is joined with the line table's directories and the
# compilation directory).  Not rebuilt when the commands and the sources did not change.
build() {
	local d=$B/$1 fam=$2 lang=$3 o=$4 dw=$5 pie=$6 cf lf dir pre c1 c2
	cf="-g -gdwarf-$dw -O$o"
	if [ "$pie" = pie ]; then cf+=" -fPIE" lf=-pie; else cf+=" -fno-pie" lf=-no-pie; fi
	lf+=${7:+ $7}
	if [ "$o" = 0 ]; then dir=/ pre=$SRC/; else dir=$SRC pre=; fi
	c1="${CCOF[$fam]} -g -gdwarf-$dw -O$o -fPIC -shared ${7:+$7 }-o $d/libsymlib.so ${pre}symlib.c"
	if [ "$lang" = c ]; then
		c2="${CCOF[$fam]} -std=gnu11 $cf -I${pre:-.} $lf -o $d/prog ${pre}symprog.c"
	else
		c2="${CXXOF[$fam]} $cf -I${pre:-.} $lf -o $d/prog ${pre}symprog.cc"
	fi
	c2+=" -L$d -lsymlib -Wl,-rpath,'\$ORIGIN'"
	mkdir -p "$d"
	if [ -e "$d/prog" ] && [ "$(cat "$d/cmd" 2>/dev/null)" = "$c1"$'\n'"$c2" ] &&
		[ -z "$(find "$SRC" -newer "$d/prog" \( -name 'sym*.[ch]' -o -name '*.cc' \))" ]; then
		return 0
	fi
	rm -f "$d/prog" "$d/cmd"
	(cd "$dir" && eval "$c1" && eval "$c2") >"$d/build.err" 2>&1 || return 1
	printf '%s\n%s\n' "$c1" "$c2" >"$d/cmd"
}

JOBS=$(nproc 2>/dev/null || echo 2)
VARIANTS=()
declare -A VPID
for fam in "${COMPILERS[@]}"; do
	for lang in c c++; do
		for o in 0 2; do
			for dw in 4 5; do
				for pie in pie nopie; do
					v=$fam-$lang-O$o-d$dw-$pie
					VARIANTS+=("$v")
					while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
					build "$v" "$fam" "$lang" "$o" "$dw" "$pie" &
					VPID[$v]=$!
				done
			done
		done
	done
done
# Without a build-id: a .gnu_debuglink's CRC is then the only way to know the debug file.
NOBID=$MAIN-c++-O2-d5-pie-nobid
VARIANTS+=("$NOBID")
build "$NOBID" "$MAIN" c++ 2 5 pie -Wl,--build-id=none &
VPID[$NOBID]=$!
BUILT=()
for v in "${VARIANTS[@]}"; do
	# A build's verdict is its cmd file (written last): `wait -n` above may have reaped it.
	wait "${VPID[$v]}" 2>/dev/null
	if [ -e "$B/$v/cmd" ]; then
		BUILT+=("$v")
	else
		ok 1 "$v: builds"
		sc_show "$(cat "$B/$v/build.err")"
	fi
done
echo "# built ${#BUILT[@]} of ${#VARIANTS[@]} programs in $(($(date +%s) - T0)) s"
# GNU nm, told the target's format: without it nm tries every format it knows, the bfd
# plugins' too, and LLVMgold's start-up (libLLVM) costs about 0.1 s a run.
if [ "$TP" != llvm-19 ] && [ ${#BUILT[@]} -gt 0 ] && command -v "${TP}objdump" >/dev/null; then
	tgt=$(${TP}objdump -f "$B/${BUILT[0]}/prog" 2>/dev/null | sed -n 's/.*file format //p')
	[ -z "$tgt" ] || NMT="$NMT --target=$tgt"
fi

E=$TMPD/empty
mkdir -p "$E"
# run_case NAME PROG ARG SIGNAL MODE ROOTS CACHE [ENV...]: one crash and its checks.  ROOTS
# "default": CRASH_DEBUG_PATH unset (/usr/lib/debug); CACHE "xdg:DIR" or "home:DIR": no
# DEBUGINFOD_CACHE_PATH, XDG_CACHE_HOME or HOME set to DIR instead.
run_case() {
	local v=$1 prog=$2 arg=$3 sig=$4 mode=$5 roots=$6 cache=$7 out envs=()
	shift 7
	out=$TMPD/$v.txt
	case $cache in
	xdg:*)
		envs=(-u DEBUGINFOD_CACHE_PATH XDG_CACHE_HOME="${cache#xdg:}")
		cache=${cache#xdg:}/debuginfod_client
		;;
	home:*)
		envs=(-u DEBUGINFOD_CACHE_PATH -u XDG_CACHE_HOME HOME="${cache#home:}")
		cache=${cache#home:}/.cache/debuginfod_client
		;;
	*) envs=(DEBUGINFOD_CACHE_PATH="$cache") ;;
	esac
	if [ "$roots" = default ]; then
		envs=(-u CRASH_DEBUG_PATH "${envs[@]}")
		roots=/usr/lib/debug
	else
		envs+=(CRASH_DEBUG_PATH="$roots")
	fi
	run_crash "$out" "${envs[@]}" CRASH_OUTPUT="$out" LD_PRELOAD="$LIBCRASH" "$@" -- "$prog" $arg
	is "$STATUS" "signal $sig core 0" "$v: died by signal $sig"
	check_report "$v" "$out" "$mode" "$roots" "$cache"
}

# The matrix.
for v in "${BUILT[@]}"; do
	[ "$v" != "$NOBID" ] || continue
	run_case "$v" "$B/$v/prog" deep 11 full default "$E"
done

BASE=$MAIN-c++-O2-d5-pie
CBASE=$MAIN-c-O2-d5-pie
have() { [ -e "$B/$1/prog" ] && [ -e "$B/$1/cmd" ]; }

# libc: crashes inside it and through it, its frames against its debug file (by build-id).
LIBC=$(LD_TRACE_LOADED_OBJECTS=1 $RUN "$B/$CBASE/prog" 2>/dev/null |
	awk '/libc\.so/ { print $3; exit }')
sc_host "$LIBC"
LIBCID=$($READELF -n "$SC_P" 2>/dev/null | sed -n 's/.*Build ID: //p')
if [ -n "$LIBCID" ] && [ -e "/usr/lib/debug/.build-id/${LIBCID:0:2}/${LIBCID:2}.debug" ]; then
	ok 0 "libc's debug file by build-id: /usr/lib/debug/.build-id/${LIBCID:0:2}/${LIBCID:2}.debug"
elif [ -n "$RUN" ]; then
	skip "libc frames against libc's debug file" "no debug file for $LIBC (build-id\
 '$LIBCID') under /usr/lib/debug: the cross sysroot's libc is stripped; its frames are checked\
 against its .dynsym here (against libc6-dbg's in the debug runtime root, below, where there\
 is one)"
else
	skip "libc frames against libc's debug file" "no debug file for $LIBC (build-id\
 '$LIBCID') under /usr/lib/debug: install libc6-dbg; its frames are checked against its .dynsym"
fi
for v in "$CBASE" "$MAIN-c-O0-d4-nopie"; do
	have "$v" || continue
	run_case "$v-qsort" "$B/$v/prog" qsort 11 full default "$E"
	run_case "$v-abort" "$B/$v/prog" abort 6 full default "$E"
	run_case "$v-strlen" "$B/$v/prog" strlen 11 full default "$E"
done
# A process with only 4 descriptors left to open (symprog's fdsN): the report as complete
# as with many, every frame's file:line among the checks (the descriptors the report opens,
# and the symbolizer's probe of unit headers, are never held past their use).  Natively:
# under qemu-user the emulator's own opens share the table.
if [ -z "$RUN" ] && have "$CBASE"; then
	run_case "$CBASE-fds4" "$B/$CBASE/prog" fds4 11 full default "$E"
	n=$(grep -c ' at [^ ]*:[0-9]*$' "$TMPD/$CBASE-fds4.txt")
	m=$(grep -c ' at [^ ]*:[0-9]*$' "$TMPD/$CBASE.txt")
	is "$n" "$m" "$CBASE-fds4: as many frames with a file:line as with descriptors to spare ($m)"
fi
# The checker's self-tests (no test that cannot fail), here and below: how many checks a
# report fails, and a report with one frame line's line number raised by one.
selffail() { # REPORT: the number of failing checks
	(T_N=0 T_FAIL=0; check_report "self" "$1" full /usr/lib/debug "$E" >/dev/null; echo "$T_FAIL")
}
bump_line() { # ERE IN OUT: IN, the first line that matches ERE with its line number + 1
	RE=$1 awk '!done && $0 ~ ENVIRON["RE"] { match($0, /[0-9]+$/)
		$0 = substr($0, 1, RSTART - 1) (substr($0, RSTART) + 1); done = 1 } { print }' "$2" >"$3"
}

# Under qemu, the same cases in the debug runtime root: libcrash's open of
# /usr/lib/debug/.build-id/xx/rest.debug goes to the root's libc6-dbg file (qemu's -L), and
# symcheck.sh's sc_host maps the guest paths into the root ($SYSROOT) for binutils.  Each
# report must also have libc frames with a file:line, so that a debug file that neither side
# found cannot pass as agreement.
if [ -n "$RUN" ] && [ -z "$RUN_DBG" ]; then
	if [ "$HOST_CPU" = loongarch64 ]; then
		skip "libc frames against libc's debug file under qemu" "no debug runtime root for\
 loongarch64: libc6-dbg:loong64 is only in debian-ports, not in the Debian archive\
 tests/cross/setup.sh uses"
	else
		skip "libc frames against libc's debug file under qemu" "no debug runtime root\
 (CRASH_TEST_RUNNER_DBG is empty: make check-cross passes CROSS_RUN_DBG_$HOST_CPU from\
 .cross/cross.env, which tests/cross/setup.sh writes: run it again)"
	fi
elif [ -n "$RUN" ]; then
	RUN_MAIN=$RUN SYSROOT_MAIN=$SYSROOT
	RUN=$RUN_DBG SYSROOT=$SYSROOT_DBG
	LIBC=$(LD_TRACE_LOADED_OBJECTS=1 $RUN "$B/$CBASE/prog" 2>/dev/null |
		awk '/libc\.so/ { print $3; exit }')
	sc_host "$LIBC"
	LIBCID=$($READELF -n "$SC_P" 2>/dev/null | sed -n 's/.*Build ID: //p')
	sc_host "/usr/lib/debug/.build-id/${LIBCID:0:2}/${LIBCID:2}.debug"
	[ -n "$LIBCID" ] && [ "${SC_P#"$SYSROOT"/}" != "$SC_P" ] && [ -e "$SC_P" ]
	ok $? "debug runtime root: libc's debug file by build-id: $LIBC (build-id '$LIBCID') -> $SC_P"
	for v in "$CBASE" "$MAIN-c-O0-d4-nopie"; do
		have "$v" || continue
		for m in qsort:11 abort:6 strlen:11; do
			run_case "$v-${m%:*}-dbg" "$B/$v/prog" "${m%:*}" "${m#*:}" full default "$E"
			n=$(awk '/^backtrace:/ { n++ } n == 1 && /^ +#[0-9]+ pc .*\/libc\.so\.6 .*\] at /' \
				"$TMPD/$v-${m%:*}-dbg.txt" 2>/dev/null | wc -l)
			[ "$n" -gt 0 ]
			ok $? "$v-${m%:*}-dbg: $n libc frame lines with a file:line from libc6-dbg"
		done
	done
	# The checker on libc's frames (no test that cannot fail): the qsort report with its first
	# libc line number + 1 must fail exactly one check more than the report itself.
	f=$TMPD/$CBASE-qsort-dbg.txt
	if [ -s "$f" ] && grep -q '/libc\.so\.6 .*\] at .*:[0-9][0-9]*$' "$f"; then
		base=$(selffail "$f")
		bump_line '/libc\.so\.6 .*\] at .*:[0-9]+$' "$f" "$TMPD/self-libc.txt"
		got=$(selffail "$TMPD/self-libc.txt")
		is "$((got - base))" 1 "checker self-test: a libc frame's line number + 1 fails one check\
 under the debug runtime root ($got, $base before)"
	else
		ok 1 "checker self-test under the debug runtime root: $CBASE-qsort-dbg has a libc frame\
 with a file:line"
	fi
	RUN=$RUN_MAIN SYSROOT=$SYSROOT_MAIN
fi

# The checker itself (no test that cannot fail): the base report with main's line number
# changed must fail exactly one check more than the report itself, and without the [inline]
# line of symlib.c's lib_twice (renumbered, the header's count lowered) at least one more.
if [ -s "$TMPD/$BASE.txt" ] && grep -q ' (main+[0-9]*) .*\] at .*:[0-9][0-9]*$' "$TMPD/$BASE.txt" &&
	grep -q ' (lib_twice+[0-9]*) .*\[inline\]' "$TMPD/$BASE.txt"; then
	base=$(selffail "$TMPD/$BASE.txt")
	bump_line ' \(main\+[0-9]+\) .*\] at .*:[0-9]+$' "$TMPD/$BASE.txt" "$TMPD/self-line.txt"
	got=$(selffail "$TMPD/self-line.txt")
	is "$((got - base))" 1 "checker self-test: main's line number + 1 fails one check ($got, $base before)"
	awk '/^backtrace:/ { sub(/[0-9]+ frames/, ($2 - 1) " frames") }
		!cut && / \(lib_twice\+[0-9]+\) .*\[inline\] / { cut = 1; next }
		cut && /^ +#[0-9]+ pc / { k = substr($1, 2) - 1; sub(/#[0-9]+/, sprintf("#%02d", k)) }
		{ print }' "$TMPD/$BASE.txt" >"$TMPD/self-inline.txt"
	got=$(selffail "$TMPD/self-inline.txt")
	[ "$got" -gt "$base" ]
	ok $? "checker self-test: lib_twice's [inline] line dropped fails ($got checks, $base before)"
else
	skip "checker self-test" "no base report with a file:line for main and lib_twice inlined"
fi

# CRASH_SYMBOLS.
if have "$BASE"; then
	run_case "$BASE-mangled" "$B/$BASE/prog" deep 11 mangled default "$E" CRASH_SYMBOLS=mangled
	run_case "$BASE-names" "$B/$BASE/prog" deep 11 names default "$E" CRASH_SYMBOLS=names
	run_case "$BASE-full" "$B/$BASE/prog" deep 11 full default "$E" CRASH_SYMBOLS=full
fi

# A long unit: one translation unit of 1,500 functions whose .debug_info is past
# CR_DWWALK_WIN_MIN (256 KiB; dwarf/info.h) whoever compiles it (clang for riscv64 and
# loongarch64 emits ~250 bytes a function, GCC ~440), so that its DIEs are walked through the
# window read with pread, not in place; the crash comes through functions from its start
# to its end (out of order), each calling the next from an inlined helper ([inline] lines).  Built by $CC -O2
# -gdwarf-5 once (its command in cmd, as build's).
LONGU=$MAIN-c-O2-d5-longunit
longunit_src() { # FILE: the program's source
	local n=1500
	{
		echo '#include <stddef.h>'
		echo 'volatile int sink;'
		echo 'volatile int *volatile nowhere = NULL;'
		for ((k = 0; k < n; k++)); do
			echo "int f$k(int a, int b, int c, long d, long e, int g);"
		done
		for ((k = 0; k < n; k++)); do
			case $k in
			950) next=3 ;; 3) next=700 ;; 700) next=40 ;; 40) next=999 ;;
			999) next=500 ;; 500) next=-1 ;; *) next=$(((k + 1) % n)) ;;
			esac
			echo "static inline __attribute__((always_inline)) int h$k(int a, int b, long d)"
			if [ "$next" -lt 0 ]; then
				echo "{ *nowhere = a + b + (int)d; return a; }"
			else
				echo "{ int x = f$next(a, b, a ^ b, d, d + a, b + 1); sink = x; return x + 1; }"
			fi
			echo "__attribute__((noinline)) int f$k(int a, int b, int c, long d, long e, int g)"
			echo "{"
			echo "	int u = a + b, v = c * 2, w = (int)(d - e) + g;"
			echo "	long q = d * e + u;"
			echo "	int r = h$k(u + w, v, q);"
			echo "	sink = r;"
			echo "	return u + v + w + (int)q + sink;"
			echo "}"
		done
		echo 'int main(void) { return f950(1, 2, 3, 4, 5, 6); }'
	} >"$1"
}
if [ -n "${CCOF[$MAIN]:-}" ]; then
	d=$B/$LONGU
	mkdir -p "$d"
	c="${CCOF[$MAIN]} -std=gnu11 -g -gdwarf-5 -O2 -o $d/prog $d/longunit.c"
	if ! [ -e "$d/prog" ] || [ "$(cat "$d/cmd" 2>/dev/null)" != "$c" ] ||
		[ "$0" -nt "$d/prog" ]; then
		rm -f "$d/prog" "$d/cmd"
		longunit_src "$d/longunit.c"
		(eval "$c") >"$d/build.err" 2>&1 && printf '%s\n' "$c" >"$d/cmd"
	fi
	if have "$LONGU"; then
		size=$($READELF -S -W "$d/prog" | sed -n 's/.*[.]debug_info[[:space:]]\{1,\}PROGBITS[[:space:]]\{1,\}[0-9a-f]\{1,\}[[:space:]]\{1,\}[0-9a-f]\{1,\}[[:space:]]\{1,\}\([0-9a-f]\{1,\}\).*/\1/p')
		size=$((16#${size:-0}))
		[ "$size" -ge $((256 << 10)) ]
		ok $? "$LONGU: one unit's .debug_info past 256 KiB ($size bytes)"
		run_case "$LONGU" "$d/prog" "" 11 full default "$E"
		n=$(grep -c '^ *#[0-9]* pc .* (f[0-9]*+[0-9]*) .* at [^ ]*longunit\.c:[0-9]*$' \
			"$TMPD/$LONGU.txt")
		m=$(grep -c '^ *#[0-9]* pc .* (h[0-9]*+[0-9]*) .*\[inline\] at [^ ]*longunit\.c:[0-9]*$' \
			"$TMPD/$LONGU.txt")
		[ "$n" -ge 6 ] && [ "$m" -ge 6 ]
		ok $? "$LONGU: the functions' frames with a file:line ($n), and their helpers inlined ($m)"
	else
		ok 1 "$LONGU: builds"
		sc_show "$(cat "$d/build.err")"
	fi
fi

# Separate debug files.  stage SCEN VARIANT STRIP: <B>/SCEN/ with the program and library of
# VARIANT stripped (--strip-all or --strip-debug, or none) and their debug files in
# <B>/SCEN/prog.debug and libsymlib.so.debug; their build-ids in ID_prog, ID_lib.
stage() {
	local s=$B/$1 v=$B/$2 m
	rm -rf "$s"
	mkdir -p "$s"
	for m in prog libsymlib.so; do
		$OBJCOPY --only-keep-debug "$v/$m" "$s/$m.debug" || return 1
		if [ "$3" = none ]; then
			cp "$v/$m" "$s/$m"
		else
			$OBJCOPY "$3" "$v/$m" "$s/$m" || return 1
		fi
	done
	ID_prog=$($READELF -n "$s/prog" | sed -n 's/.*Build ID: //p')
	ID_lib=$($READELF -n "$s/libsymlib.so" | sed -n 's/.*Build ID: //p')
	case $2 in
	*-nobid) [ -z "$ID_prog" ] && [ -z "$ID_lib" ] ;;
	*) [ -n "$ID_prog" ] && [ -n "$ID_lib" ] ;;
	esac
}
# buildid_root ROOT DIR: DIR's debug files under ROOT/.build-id/.
buildid_root() {
	mkdir -p "$1/.build-id/${ID_prog:0:2}" "$1/.build-id/${ID_lib:0:2}"
	mv "$2/prog.debug" "$1/.build-id/${ID_prog:0:2}/${ID_prog:2}.debug"
	mv "$2/libsymlib.so.debug" "$1/.build-id/${ID_lib:0:2}/${ID_lib:2}.debug"
}
# debuglink DIR WHERE: DIR's modules get a .gnu_debuglink; their debug files go to WHERE.
debuglink() {
	local m
	mkdir -p "$2"
	for m in prog libsymlib.so; do
		$OBJCOPY --add-gnu-debuglink="$1/$m.debug" "$1/$m" "$1/$m.tmp" && mv "$1/$m.tmp" "$1/$m"
		[ "$2" = "$1" ] || mv "$1/$m.debug" "$2/"
	done
}
scenario() { # NAME VARIANT: stage and run one; the setup is the function setup_NAME
	local n=$2-$1 s=$B/$2-$1
	if ! have "$2"; then
		skip "$n" "$2 did not build"
		return
	fi
	if ! "setup_$1" "$n" "$2" >"$TMPD/setup.err" 2>&1; then
		ok 1 "$n: set up"
		sc_show "$(cat "$TMPD/setup.err")"
		return
	fi
	run_case "$n" "$s/prog" deep 11 "${MODE:-full}" "$ROOTS" "$CACHE"
}
setup_buildid-all() {
	stage "$1" "$2" --strip-all && buildid_root "$B/$1/root" "$B/$1" && ROOTS=$E:$B/$1/root CACHE=$E
}
setup_buildid-debug() {
	stage "$1" "$2" --strip-debug && buildid_root "$B/$1/root" "$B/$1" && ROOTS=$B/$1/root CACHE=$E
}
setup_link-next() {
	stage "$1" "$2" --strip-all && debuglink "$B/$1" "$B/$1" && ROOTS=$E CACHE=$E
}
setup_link-dotdebug() {
	stage "$1" "$2" --strip-all && debuglink "$B/$1" "$B/$1/.debug" && ROOTS=$E CACHE=$E
}
setup_link-root() {
	stage "$1" "$2" --strip-all && debuglink "$B/$1" "$B/$1/root$B/$1" && ROOTS=$E:$B/$1/root CACHE=$E
}
# Modules without a build-id (NOBID): the debuglink's CRC decides.  link-crc: the right file;
# link-badcrc: a debug file of the right name with one byte changed, not to be used.
setup_link-crc() {
	stage "$1" "$2" --strip-all && debuglink "$B/$1" "$B/$1" && ROOTS=$E CACHE=$E
}
setup_link-badcrc() {
	local m
	stage "$1" "$2" --strip-all && debuglink "$B/$1" "$B/$1" || return 1
	for m in prog libsymlib.so; do
		printf 'X' | dd of="$B/$1/$m.debug" bs=1 seek=200 conv=notrunc status=none
	done
	ROOTS=$E CACHE=$E
}
debuginfod() { # SCENARIO CACHE-DIR
	local c=$2
	mkdir -p "$c/$ID_prog" "$c/$ID_lib"
	mv "$B/$1/prog.debug" "$c/$ID_prog/debuginfo"
	mv "$B/$1/libsymlib.so.debug" "$c/$ID_lib/debuginfo"
}
setup_debuginfod() {
	stage "$1" "$2" --strip-all && debuginfod "$1" "$B/$1/cache" && ROOTS=$E CACHE=$B/$1/cache
}
setup_debuginfod-xdg() {
	stage "$1" "$2" --strip-all && debuginfod "$1" "$B/$1/xdg/debuginfod_client" &&
		ROOTS=$E CACHE=xdg:$B/$1/xdg
}
setup_debuginfod-home() {
	stage "$1" "$2" --strip-all && debuginfod "$1" "$B/$1/home/.cache/debuginfod_client" &&
		ROOTS=$E CACHE=home:$B/$1/home
}
compress() { # FILE [TYPE]
	$OBJCOPY --compress-debug-sections="${2:-zlib}" "$1" "$1.z" && mv "$1.z" "$1" &&
		$READELF -S -W "$1" | grep -qE '\] \.debug_info .* [A-Z]*C[A-Z]* '
}
setup_zlib() {
	stage "$1" "$2" none && compress "$B/$1/prog" && compress "$B/$1/libsymlib.so" &&
		ROOTS=$E CACHE=$E
}
setup_zstd() {
	stage "$1" "$2" none && compress "$B/$1/prog" zstd && compress "$B/$1/libsymlib.so" zstd &&
		ROOTS=$E CACHE=$E
}
setup_zlib-buildid() {
	stage "$1" "$2" --strip-all && compress "$B/$1/prog.debug" &&
		compress "$B/$1/libsymlib.so.debug" && buildid_root "$B/$1/root" "$B/$1" &&
		ROOTS=$B/$1/root CACHE=$E
}
# Damaged debug files under a build-id root; the modules keep their .symtab (--strip-debug).
# garble FILE SECTION SOURCE: SECTION's bytes in FILE overwritten by SOURCE's first bytes.
garble() {
	local off size
	read -r off size < <($READELF -S -W "$1" | sed -E 's/^ *\[ *[0-9]+\] //' |
		awk -v s="$2" '$1 == s { print $4, $5 }')
	[ -n "$off" ] || return 1
	head -c $((16#$size)) "$3" | dd of="$1" bs=1 seek=$((16#$off)) conv=notrunc status=none
}
setup_hostile-garbage() {
	local s=$B/$1 m
	stage "$1" "$2" --strip-debug || return 1
	for m in prog libsymlib.so; do
		garble "$s/$m.debug" .debug_info "$s/prog" && garble "$s/$m.debug" .debug_line "$s/$m" &&
			garble "$s/$m.debug" .debug_abbrev /dev/urandom || return 1
	done
	buildid_root "$s/root" "$s" && ROOTS=$s/root CACHE=$E MODE=hostile
}
setup_hostile-ff() {
	local s=$B/$1 m
	stage "$1" "$2" --strip-debug || return 1
	head -c 1048576 /dev/zero | tr '\0' '\377' >"$s/ff"
	for m in prog libsymlib.so; do
		garble "$s/$m.debug" .debug_info "$s/ff" && garble "$s/$m.debug" .debug_line "$s/ff" ||
			return 1
	done
	buildid_root "$s/root" "$s" && ROOTS=$s/root CACHE=$E MODE=hostile
}
setup_hostile-truncated() {
	local s=$B/$1
	stage "$1" "$2" --strip-debug || return 1
	truncate -s $(($(stat -c %s "$s/prog.debug") / 2)) "$s/prog.debug"
	truncate -s 100 "$s/libsymlib.so.debug"
	buildid_root "$s/root" "$s" && ROOTS=$s/root CACHE=$E MODE=hostile
}

for scen in buildid-all buildid-debug link-next link-dotdebug link-root debuginfod \
	debuginfod-xdg debuginfod-home zlib zlib-buildid hostile-garbage hostile-ff hostile-truncated; do
	MODE=
	scenario "$scen" "$BASE"
done
# zstd-compressed sections where this objcopy writes them (binutils 2.40 built with zstd).
for v in "$BASE" "$CBASE"; do
	MODE=
	if $OBJCOPY --help 2>&1 | grep -q 'compress-debug-sections.*zstd'; then
		scenario zstd "$v"
	else
		skip "$v-zstd" "$OBJCOPY cannot write zstd-compressed sections"
	fi
done
for scen in link-crc link-badcrc; do
	MODE=
	scenario "$scen" "$NOBID"
done
for scen in buildid-all link-next zlib; do
	MODE=
	scenario "$scen" "$CBASE"
done

echo "# $SYM_FRAMES physical frames checked; $SYM_BFD where addr2line differs and llvm-addr2line" \
	"agrees with the report (binutils 2.40's DWARF 5 bugs); $(($(date +%s) - T0)) s"
done_testing
