#!/bin/bash
# The whole test suite, as CI runs it:
#   1. gcc: make distcheck, whose make check is the whole suite (unit, integration,
#      ABI, libunwind cross-checks) built from the distribution tarball
#   2. clang build: make check
#   3. ASan+UBSan build: the unit tests
#   4. valgrind: the unit tests of build 1
#   5. fuzzing: the parsers and decoders, 30 s each (tests/fuzz/run.sh)
#   6. cross: the same make check for aarch64, riscv64, loongarch64 under qemu-user
# Prints every result and, last, "N passed, M failed, K skipped" counted from
# the TAP results of all of them (K: SKIP, and TAP "# TODO" expected failures,
# each of which names the issue that tracks it).
set -uo pipefail
cd "$(dirname "$0")/.."
T0=$(date +%s)
SRC=$PWD
OUT=${BUILD_ROOT:-$SRC/build-ci}
JOBS=${JOBS:-2}
bash tests/setup.sh || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }
chmod -R u+w "$OUT" 2>/dev/null # (distcheck leaves a failed tree read-only)
rm -rf "$OUT"
mkdir -p "$OUT"
PASS=0
FAIL=0
SKIP=0
# Each step's heading says when it began: minutes and seconds since the start.
note() { local t=$(($(date +%s) - T0)); printf '\n=== [+%d:%02d] %s\n' $((t / 60)) $((t % 60)) "$*"; }

# Count the results of one build's .trs files.
count_trs() { # DIR MAKE-STATUS
	local p f k
	p=$(find "$1" -name '*.trs' -exec cat {} + | grep -cE '^:test-result: PASS')
	f=$(find "$1" -name '*.trs' -exec cat {} + | grep -cE '^:test-result: (FAIL|XPASS|ERROR)')
	# SKIP, and XFAIL (a TAP "# TODO": a known gap, tracked by an issue): neither.
	k=$(find "$1" -name '*.trs' -exec cat {} + | grep -cE '^:test-result: (SKIP|XFAIL)')
	PASS=$((PASS + p))
	FAIL=$((FAIL + f))
	SKIP=$((SKIP + k))
	echo "$1: $p passed, $f failed, $k skipped or expected to fail"
	# make check failed with no failing test: a test did not build or run at all.
	if [ "${2:-0}" != 0 ] && [ "$f" = 0 ]; then
		FAIL=$((FAIL + 1))
		echo "$1: make check failed without a failing test (build error?)"
	fi
	find "$1" -name '*.log' ! -name 'config.log' ! -name 'test-suite.log' -exec grep -l '^not ok\|^ERROR' {} + 2>/dev/null |
		while read -r log; do echo "--- $log"; grep -E '^not ok|^#' "$log" | head -40; done
}
one() { # NAME CMD... : a whole step as one result
	local name=$1; shift
	if "$@"; then PASS=$((PASS + 1)); echo "ok: $name"; else FAIL=$((FAIL + 1)); echo "FAILED: $name"; fi
}

note "autoreconf"
one autoreconf autoreconf -fi >/dev/null 2>&1

build() { # DIR CONFIGURE-ARGS...
	local dir=$1; shift
	mkdir -p "$dir"
	(cd "$dir" && "$SRC/configure" -q --enable-werror "$@" && make -j"$JOBS" >/dev/null)
}

note "gcc: make distcheck: the whole make check, built from the distribution tarball; valgrind"
# distcheck's make check is the gcc make check (CC=gcc, --enable-werror): built from
# the tarball, out of its tree, the sources read-only, then install, uninstall and
# distclean checked.  Its results are kept (CR_CHECK_RESULTS, Makefile.am) and counted
# here; when its make check fails, distcheck stops and leaves its tree, counted instead.
# The unit test programs it built then run under valgrind (CR_VALGRIND, Makefile.am; the
# results counted in the valgrind step below).  $OUT/gcc is only configured, for the tarball.
# SYM_OTHER=0 (here and in the clang build): tests/symbols builds its matrix of programs by
# the build's own compiler only; each compiler's matrix is built and checked once, not twice.
one "gcc configure" eval 'mkdir -p "$OUT/gcc" && (cd "$OUT/gcc" && "$SRC/configure" -q --enable-werror CC=gcc)'
(cd "$OUT/gcc" && SYM_OTHER=0 make -j"$JOBS" distcheck DISTCHECK_CONFIGURE_FLAGS=CC=gcc \
	CR_CHECK_RESULTS="$OUT/gcc-check" CR_VALGRIND=1 CR_JOBS="$JOBS" >"$OUT/distcheck.log" 2>&1)
st=$?
one "make distcheck" test "$st" = 0 || tail -30 "$OUT/distcheck.log"
if [ -d "$OUT/gcc-check" ]; then
	count_trs "$OUT/gcc-check" 0
elif dc=$(ls -d "$OUT"/gcc/libcrash-*/_build/sub 2>/dev/null) && [ -n "$dc" ]; then
	count_trs "$dc" "$st"
else
	FAIL=$((FAIL + 1))
	echo "gcc: make distcheck ran no test (see $OUT/distcheck.log)"
fi

note "clang build + make check"
one "clang build" build "$OUT/clang" CC=clang
(cd "$OUT/clang" && SYM_OTHER=0 make -j"$JOBS" check >"$OUT/clang-check.log" 2>&1)
count_trs "$OUT/clang" $?

note "ASan+UBSan build: unit tests"
SAN="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
one "asan build" build "$OUT/asan" CC=gcc CFLAGS="$SAN" LDFLAGS="-fsanitize=address,undefined"
UNITS=$(cd "$OUT/gcc" && make -s list-unit-tests)
one "make list-unit-tests names the unit tests" test -n "$UNITS"
# check_PROGRAMS narrowed to them too: the suite's other programs (the sigprof builds, the
# coexist and output helpers...) would be built with the sanitizers for nothing.
(cd "$OUT/asan" && ASAN_OPTIONS=detect_leaks=1 make -j"$JOBS" check TESTS="$UNITS" \
	check_PROGRAMS="$UNITS" >"$OUT/asan-check.log" 2>&1)
count_trs "$OUT/asan" $?

note "valgrind: unit tests"
# Run inside make distcheck, on the unit test programs of its gcc build (above): each one's
# exit status and valgrind's complaints in $OUT/gcc-check/valgrind (tests/valgrind-units.sh).
VG=$OUT/gcc-check/valgrind
if [ -s "$VG/list" ]; then
	i=0
	while read -r t; do
		i=$((i + 1))
		cat "$VG/$i.err" 2>/dev/null
		one "valgrind $t" test "$(cat "$VG/$i" 2>/dev/null)" = 0
	done <"$VG/list"
else
	FAIL=$((FAIL + 1))
	echo "FAILED: valgrind did not run (make distcheck stopped before its installcheck)"
fi

note "fuzzing: every parser and decoder (libFuzzer + ASan + UBSan)"
count_tap() { # FILE: add a TAP stream's results
	local p f
	p=$(grep -cE '^ok [0-9]+' "$1")
	f=$(grep -cE '^not ok [0-9]+' "$1")
	PASS=$((PASS + p))
	FAIL=$((FAIL + f))
	cat "$1"
}
FUZZ_OUT="$OUT/fuzz" FUZZ_SECONDS=${FUZZ_SECONDS:-30} FUZZ_JOBS=$JOBS bash tests/fuzz/run.sh >"$OUT/fuzz.tap" 2>&1
count_tap "$OUT/fuzz.tap"

note "cross: aarch64, riscv64 (clang and gcc), loongarch64 under qemu 10; aarch64, riscv64 under qemu 7.2"
# The toolchains and qemu-user, the project's own recipe (tests/cross/setup.sh), then
# make check-cross: the same make check for each, every target program under qemu-user.
CROSS_CONFIGS=${CROSS_CONFIGS:-"aarch64 riscv64 loongarch64 riscv64-gcc aarch64@7.2 riscv64@7.2"}
if one "cross toolchains (tests/cross/setup.sh)" env QEMU72=1 bash tests/cross/setup.sh; then
	CROSS_BUILD_ROOT="$OUT/cross" CROSS_FRESH=1 JOBS=$JOBS \
		bash tests/cross/check-cross.sh $CROSS_CONFIGS >"$OUT/cross.log" 2>&1
	grep '^\[check-cross' "$OUT/cross.log"
	# One failure per config that ran no test (its configure or build failed, or setup:
	# check-cross.sh says which), and one per make check that failed with no failing test.
	for cfg in $CROSS_CONFIGS; do
		if [ -n "$(find "$OUT/cross/$cfg" -name '*.trs' 2>/dev/null | head -1)" ]; then
			count_trs "$OUT/cross/$cfg" 0
		else
			FAIL=$((FAIL + 1))
			echo "cross $cfg: no test ran (see $OUT/cross.log)"
		fi
	done
	n=$(grep -c '^\[check-cross .*make check failed without' "$OUT/cross.log")
	FAIL=$((FAIL + n))
	# The libunwind oracle where Debian packages one (aarch64, riscv64): a config
	# that configured without it would leave its cross-checks out in silence.
	for cfg in $CROSS_CONFIGS; do
		case $cfg in
		aarch64* | riscv64*)
			one "libunwind oracle in cross $cfg" \
				grep -q 'libunwind tests: yes' "$OUT/cross/$cfg/configure.out" ;;
		esac
	done
fi

note "end"
echo "$PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" = 0 ]
