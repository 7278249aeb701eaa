#!/bin/bash
# tests/cross/check-cross.sh [CONFIG...]: build libcrash for other arches and run the same
# `make check` there, every target program under qemu-user.  CONFIG is an arch (aarch64,
# riscv64, loongarch64: the default is all three) or riscv64-gcc (riscv64 built by gcc-12
# instead of clang-19), optionally with @7.2: under bookworm's qemu 7.2 instead of qemu 10 (no
# vDSO; needs QEMU72=1 tests/cross/setup.sh; not loongarch64, whose trixie glibc qemu 7.2 cannot
# run), where only the tests that depend on the emulator run (TESTS_EMULATOR below), on a
# copy of the qemu 10 config's build when one is there.  Each gets its own build dir,
# $CROSS_BUILD_ROOT/CONFIG (default <repo>/build-cross/CONFIG), reused when present
# (CROSS_FRESH=1: from scratch).  The toolchains come from tests/cross/setup.sh (run here when
# its prefix, $CROSS_PREFIX or <repo>/.cross, has none yet).  Results are the automake TAP
# driver's .trs files, as for a native build; the last
# line counts them: "N passed, M failed".
#
# How the tests reach the guest:
# - LOG_COMPILER (binary tests) and CRASH_TEST_RUNNER (tests/lib.sh's $RUN) are the bare qemu
#   command line, a static program: the host LD_PRELOAD of a target libcrash.so then passes
#   through qemu to the guest's ld.so, and no host loader sees (and complains about) it.
# - CRASH_TEST_RUNNER_DBG is the arch's CROSS_RUN_DBG_<arch> (qemu 10 configs, where setup.sh
#   made one): the same qemu with the debug runtime root, the distribution's libc6 and libc6-dbg,
#   for tests/symbols' libc cases (libc's frames against its debug file).
# - waitsig watches the emulator: qemu-user ends the way its guest did (it kills itself with the
#   guest's fatal signal), so waitsig is built for this machine, static (LD_PRELOAD ignored),
#   and named by CRASH_TEST_WAITSIG.
set -uo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PREFIX=${CROSS_PREFIX:-$SRC/.cross}
OUT=${CROSS_BUILD_ROOT:-$SRC/build-cross}
JOBS=${JOBS:-2}
CONFIGS=${*:-aarch64 riscv64 loongarch64}
T0=$(date +%s)
log() { printf '[check-cross %s +%ss] %s\n' "$(date +%H:%M:%S)" "$(($(date +%s) - T0))" "$*"; }

if [ ! -r "$PREFIX/cross.env" ]; then
	log "no cross toolchains in $PREFIX: running tests/cross/setup.sh"
	bash "$SRC/tests/cross/setup.sh" "$PREFIX" >/dev/null ||
		{ log "FAILED: tests/cross/setup.sh"; echo "0 passed, 1 failed"; exit 1; }
fi
# shellcheck source=/dev/null
. "$PREFIX/cross.env"
if [ ! -x "$SRC/configure" ] || [ ! -e "$SRC/build-aux/config.guess" ]; then
	log "autoreconf"
	(cd "$SRC" && autoreconf -fi >/dev/null 2>&1) ||
		{ log "FAILED: autoreconf"; echo "0 passed, 1 failed"; exit 1; }
fi
mkdir -p "$OUT"
BUILD=$("$SRC/build-aux/config.guess")
PASS=0
FAIL=0

WAITSIG=$OUT/waitsig
if ! ${CC_FOR_BUILD:-cc} -O2 -static -o "$WAITSIG" "$SRC/tests/crash/waitsig.c"; then
	log "FAILED: building waitsig for $BUILD (needs a static libc: libc6-dev)"
	echo "0 passed, 1 failed"
	exit 1
fi

# Count one build's .trs results; list the failing tests' "not ok" lines.
count_trs() { # DIR MAKE-STATUS
	local p f
	p=$(find "$1" -name '*.trs' -exec cat {} + | grep -cE '^:test-result: (PASS|XFAIL|SKIP)')
	f=$(find "$1" -name '*.trs' -exec cat {} + | grep -cE '^:test-result: (FAIL|XPASS|ERROR)')
	PASS=$((PASS + p))
	FAIL=$((FAIL + f))
	log "$(basename "$1"): $p passed, $f failed"
	if [ "$2" != 0 ] && [ "$f" = 0 ]; then
		FAIL=$((FAIL + 1))
		log "$(basename "$1"): make check failed without a failing test: see $1/check.log"
	fi
	find "$1" -name '*.log' ! -name config.log ! -name test-suite.log ! -name check.log \
		! -name build.log -exec grep -l '^not ok\|^ERROR' {} + 2>/dev/null | sort |
		while read -r l; do
			echo "--- ${l#"$OUT"/}"
			grep -E '^not ok|^#' "$l" | head -20
		done
}

# What a @7.2 config runs: every test whose result rests on qemu's signal delivery
# (CROSS_TESTS_72 overrides).
TESTS_EMULATOR=${CROSS_TESTS_72:-"tests/crash/run-crash.sh tests/crash/stackuse \
tests/coexist/run-coexist.sh tests/xcheck/run-sigprof.sh tests/xcheck/btcheck \
tests/xcheck/nofde tests/threads/run-threads.sh tests/abort/run-abort.sh"}

one() { # CONFIG
	local cfg=$1 arch cc cxx run rund d base st qv=""
	case $cfg in
	*@7.2) qv=_7_2 ;;
	esac
	case ${cfg%@7.2} in
	riscv64-gcc) arch=riscv64 cc=gcc-riscv64 cxx=g++-riscv64 ;;
	aarch64 | riscv64 | loongarch64) arch=${cfg%@7.2} cc=cc-$arch cxx=c++-$arch ;;
	*)
		log "unknown config '$cfg' (aarch64, riscv64, riscv64-gcc, loongarch64)"
		FAIL=$((FAIL + 1))
		return
		;;
	esac
	run=CROSS_RUN_$arch$qv
	run=${!run:-}
	rund=CROSS_RUN_DBG_$arch
	rund=${!rund:-}
	if [ -z "$run" ]; then
		log "$cfg: no qemu for it in $PREFIX/cross.env (qemu 7.2: QEMU72=1 tests/cross/setup.sh)"
		FAIL=$((FAIL + 1))
		return
	fi
	d=$OUT/$cfg
	[ "${CROSS_FRESH:-0}" != 1 ] || rm -rf "$d"
	mkdir -p "$d"
	base=$OUT/${cfg%@7.2}
	if [ -n "$qv" ] && [ ! -e "$d/Makefile" ] && [ -e "$base/build.log" ]; then
		# The same compiler, flags and sources as the qemu 10 config's build, so the
		# same binaries: run them rather than configure and build them again.  A copy
		# (times kept, so make finds nothing to do) with none of that build's results.
		log "$cfg: the ${cfg%@7.2} build, copied"
		cp -a "$base/." "$d/" &&
			find "$d" \( -name '*.trs' -o -name '*.log' \) ! -name config.log ! -name build.log -delete
	fi
	if [ ! -e "$d/Makefile" ]; then
		log "$cfg: configure --host=$arch-linux-gnu CC=$cc CXX=$cxx"
		if ! (cd "$d" && "$SRC/configure" --enable-werror --build="$BUILD" --host="$arch-linux-gnu" \
			CC="$PREFIX/bin/$cc" CXX="$PREFIX/bin/$cxx" >configure.out 2>&1); then
			log "$cfg: FAILED: configure (see $d/configure.out, $d/config.log)"
			tail -5 "$d/configure.out"
			FAIL=$((FAIL + 1))
			return
		fi
	fi
	log "$cfg: make"
	if ! (cd "$d" && make -j"$JOBS" >build.log 2>&1); then
		log "$cfg: FAILED: build (see $d/build.log)"
		grep -E 'error|Error' "$d/build.log" | head -10
		FAIL=$((FAIL + 1))
		return
	fi
	log "$cfg: make check under ${run%% *}${qv:+ (the tests that depend on the emulator)}"
	find "$d" -name '*.trs' -delete
	if [ -n "$qv" ]; then
		# Under qemu 7.2 the same binaries as under qemu 10 (same compiler, same
		# sources), so what can differ is the emulator's part: how signals are
		# delivered (the trampoline on an anonymous page, no vDSO), signal frames,
		# sigaltstack, signals to threads, raise and re-raise.  The decoders, the
		# symbolizer and the output sinks are the qemu 10 run's.
		(cd "$d" && CRASH_TEST_RUNNER="$run" CRASH_TEST_WAITSIG="$WAITSIG" \
			make -j"$JOBS" check LOG_COMPILER="$run" TESTS="$TESTS_EMULATOR" \
			abs_top_builddir="$d" abs_builddir="$d" >check.log 2>&1)
	else
		(cd "$d" && CRASH_TEST_RUNNER="$run" CRASH_TEST_RUNNER_DBG="$rund" \
			CRASH_TEST_WAITSIG="$WAITSIG" make -j"$JOBS" check LOG_COMPILER="$run" >check.log 2>&1)
	fi
	st=$?
	count_trs "$d" "$st"
}

for cfg in $CONFIGS; do
	one "$cfg"
done
log "done"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
