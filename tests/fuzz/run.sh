#!/bin/bash
# Fuzz every parser and decoder for FUZZ_SECONDS each (default 30), with
# libFuzzer + ASan + UBSan (clang; Debian: clang, libclang-rt-14-dev).
# Prints TAP: one line per target, "ok" when no input crashed it.  FUZZ_TARGETS picks
# some: "DEMANGLE"; FUZZ_JOBS runs that many targets at once.
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FUZZ_OUT:-$(mktemp -d)}
mkdir -p "$OUT"
SECS=${FUZZ_SECONDS:-30}
CC=${FUZZ_CC:-clang}
LIB="$SRC/libcrash"
# mem.c and maps.c make system calls through the host's arch/<arch>/syscall.h (libcrash/sys.h).
SYSCALL_H="-DCR_ARCH_SYSCALL_H=\"arch/$(uname -m)/syscall.h\""
SOURCES="$LIB/cursor.c $LIB/mem.c $LIB/modmem.c $LIB/row.c $LIB/maps.c $LIB/cfi/ehframe.c $LIB/cfi/cfa.c $LIB/cfi/cache.c
	$LIB/cfi/expr.c $LIB/arch/x86_64/desc.c $LIB/arch/x86_64/scan.c $LIB/arch/x86_64/insn.c $LIB/arch/aarch64/desc.c
	$LIB/arch/aarch64/scan.c $LIB/arch/riscv64/desc.c $LIB/arch/riscv64/scan.c
	$LIB/arch/loongarch64/desc.c $LIB/arch/loongarch64/scan.c
	$LIB/demangle.c $LIB/demangle-cxx*.c $LIB/demangle-rust*.c $LIB/inflate.c $LIB/dwarf/*.c
	$LIB/debuginfo.c $LIB/elfmem.c $LIB/unzstd.c"
# modmem.c (which mem.c calls) includes configure's config.h: the targets read
# byte buffers, never a loaded module's memory, so one that says nothing (no
# _dl_find_object: no module is ever remembered) builds it as configure would
# on an old glibc.
printf '/* tests/fuzz/run.sh: no configure results */\n' >"$OUT/config.h"
CFLAGS_FUZZ="-g -O1 -std=gnu11 -D_GNU_SOURCE $SYSCALL_H -I$SRC/include -I$LIB -I$OUT"
SAN="address,undefined -fno-sanitize-recover=all"
# The library's sources do not depend on the target (only the harness's FUZZ_<target>
# does): compiled once, instrumented for libFuzzer (fuzzer-no-link), each target then
# links them with its harness.  One object per source, named by its path (arch/*/scan.c).
compile_one() { # SOURCE
	local o=$OUT/obj/$(echo "${1#"$LIB"/}" | tr / _ | sed 's/\.c$/.o/')
	# shellcheck disable=SC2086
	$CC $CFLAGS_FUZZ -fsanitize=fuzzer-no-link,$SAN -c "$1" -o "$o" 2>"$o.log" ||
		{ cat "$o.log"; return 1; }
}
# fuzz_one N TARGET: build and run one target; its TAP line (and diagnostics) go to
# $OUT/tap-N, its status is the exit code.
fuzz_one() {
	local n=$1 t=$2 bin harness l objs
	bin=$OUT/fuzz-$t
	exec >"$OUT/tap-$n"
	# The symbolizer's decompression and DWARF targets are in a file of their own.
	case $t in INFLATE | DWARF* | DEBUGELF | ZSTD) harness=fuzz-dwarf.c ;; *) harness=fuzz.c ;; esac
	# EHSMALL: ehframe.c built with CR_EH_SMALL (its long-table ways within 4 KiB).
	objs=$(printf '%s ' "$OUT"/obj/*.o)
	# shellcheck disable=SC2086
	[ "$t" = EHSMALL ] && objs="$(printf '%s\n' $objs | grep -v '/cfi_ehframe\.o$') $OUT/obj-small/cfi_ehframe.o"
	# DWARFINFO: dwarf/info.c (and the harness) with CR_DWWALK_SMALL (a long unit's window within 4 KiB).
	local small=""
	# shellcheck disable=SC2086
	[ "$t" = DWARFINFO ] && small=-DCR_DWWALK_SMALL &&
		objs="$(printf '%s\n' $objs | grep -v '/dwarf_info\.o$') $OUT/obj-small/dwarf_info.o"
	# DWARFLINE: dwarf/line.c with CR_DWWALK_SMALL (a line program's window from 512 bytes).
	# shellcheck disable=SC2086
	[ "$t" = DWARFLINE ] && small=-DCR_DWWALK_SMALL &&
		objs="$(printf '%s\n' $objs | grep -v '/dwarf_line\.o$') $OUT/obj-small/dwarf_line.o"
	# shellcheck disable=SC2086
	if [ ! -e "$OUT/obj/ok" ] || ! $CC $CFLAGS_FUZZ $small -DFUZZ_$t -fsanitize=fuzzer,$SAN \
		"$SRC/tests/fuzz/$harness" $objs -o "$bin" 2>"$OUT/build-$t.log"; then
		[ -e "$OUT/obj/ok" ] || cat "$OUT/obj/build.log" >>"$OUT/build-$t.log" 2>/dev/null
		echo "not ok $n - fuzz $t: does not build"
		sed 's/^/#   /' "$OUT/build-$t.log" | head -20
		return 1
	fi
	mkdir -p "$OUT/corpus-$t"
	if [ "$t" = DEBUGELF ] && [ ! -s "$OUT/corpus-$t/seed" ]; then
		# A seed the fuzzer would take long to find: a small object with
		# zlib-compressed DWARF, behind the byte that picks the output room.
		echo 'static int g(int x) { return x * 3; } int f(int x) { return g(x) + 1; }' |
			$CC -g -O1 -gz=zlib -c -x c - -o "$OUT/seed.o" 2>/dev/null &&
			{ printf '\377'; head -c 4000 "$OUT/seed.o"; } >"$OUT/corpus-$t/seed" || true
	fi
	if [ "$t" = EHSMALL ] && [ ! -s "$OUT/corpus-$t/seedlong" ] && command -v python3 >/dev/null; then
		# A seed whose table is long for CR_EH_SMALL: 40 FDEs of 32 bytes
		# each, sorted, the hdr's length unknown (d[1] 0), so that the
		# search guesses and views the table a page at a time.
		python3 -c 'import struct, sys
def w(v): return struct.pack("<I", v & 0xffffffff)
nf = 40
cie = w(0) + bytes([1]) + b"zR\0" + bytes([1, 0x78, 16, 1, 0x1b, 0x0c, 7, 8, 0x90, 1])
cie += bytes(-len(cie) % 4)
cie = w(len(cie)) + cie
hdr_len = 12 + 8 * nf
frame = (hdr_len + 15) & ~15
fdes, table, at = b"", b"", frame + len(cie)
for i in range(nf):
    body = w(at + 4 - frame) + w(0x20 * i - (at + 8)) + w(0x20) + bytes([0, 0x41, 0x0e, 0x10])
    fdes += w(len(body)) + body
    table += w(0x20 * i) + w(at)
    at += 4 + len(body)
hdr = bytes([1, 0x1b, 0x03, 0x3b]) + w(frame - 4) + w(nf) + table
img = hdr + bytes(frame - len(hdr)) + cie + fdes + w(0)
open(sys.argv[1] + "/seedlong", "wb").write(bytes([1, 0, 0x10, 0x90, 0x31, 0xf3, 0, 0]) + img)' \
			"$OUT/corpus-$t" || true
	fi
	if [ "$t" = DWARFLINE ] && [ ! -s "$OUT/corpus-$t/seedwin" ] && command -v python3 >/dev/null; then
		# A seed whose program is long for CR_DWWALK_SMALL's windows: 2 KB
		# of rows (special opcodes, advance_line, set_column, negate_stmt)
		# with an extended opcode of 300 bytes, longer than the slack,
		# in the middle; the pcs from 0x1200, windows of 321 bytes.
		python3 -c 'import struct, sys
def uleb(v):
    out = b""
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])
def sleb(v):
    out = b""
    while True:
        b = v & 0x7f
        v >>= 7
        if (v == 0 and not b & 0x40) or (v == -1 and b & 0x40):
            return out + bytes([b])
        out += bytes([b | 0x80])
hdr = bytes([1, 1, 1, 0xfb, 14, 13]) + bytes([0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1])
hdr += b"\0" + b"a.c\0\0\0\0" + b"b.c\0\0\0\0" + b"\0"
prog = b"\0\x09\x02" + struct.pack("<Q", 0x1000)
for i in range(600):
    if i % 16 == 0:
        prog += b"\x03" + sleb((i % 7) - 3)
    if i % 11 == 0:
        prog += b"\x05" + uleb(i % 40)
    if i % 50 == 0:
        prog += b"\x06"
    if i % 97 == 0:
        prog += b"\x04" + uleb(1 + i % 2)
    if i == 300:
        prog += b"\0" + uleb(301) + b"\x80" + bytes(300)
    prog += bytes([13 + (i * 5) % 200])
prog += b"\0\x01\x01"
body = struct.pack("<H", 4) + struct.pack("<I", len(hdr)) + hdr + prog
unit = struct.pack("<I", len(body)) + body
open(sys.argv[1] + "/seedwin", "wb").write(bytes([0, 0x12, 0, 0, 0, 0x40, 0, 0]) + unit)' \
			"$OUT/corpus-$t" || true
	fi
	if [ "$t" = DWARFINFO ] && [ ! -s "$OUT/corpus-$t/seedwin" ] && command -v python3 >/dev/null; then
		# Seeds whose unit (at 0) is long for CR_DWWALK_SMALL: 48
		# subprograms, every fourth with an inlined call, in a namespace;
		# d[0] bit 1 the window, bit 2 its reads failing from d[4] * 16.
		python3 -c 'import struct, sys
def w(v): return struct.pack("<I", v & 0xffffffff)
def q(v): return struct.pack("<Q", v)
ab = bytes([1, 0x11, 1, 0x11, 0x01, 0x12, 0x07, 0, 0,
            2, 0x2e, 0, 0x11, 0x01, 0x12, 0x07, 0, 0,
            3, 0x2e, 1, 0x11, 0x01, 0x12, 0x07, 0x01, 0x13, 0, 0,
            4, 0x1d, 0, 0x31, 0x13, 0x11, 0x01, 0x12, 0x07, 0, 0,
            5, 0x39, 1, 0x03, 0x08, 0, 0, 0])
dies = bytes([1]) + q(0) + q(0x1000) + bytes([5]) + b"ns\0"
first = None
for k in range(48):
    at = 11 + len(dies)
    if k % 4 == 1:
        kid = bytes([4]) + w(first) + q(k * 0x40 + 0x10) + q(0x10) + bytes([0])
        dies += bytes([3]) + q(k * 0x40) + q(0x40) + w(at + 1 + 8 + 8 + 4 + len(kid)) + kid
    else:
        if first is None: first = at
        dies += bytes([2]) + q(k * 0x40) + q(0x40)
dies += bytes([0, 0])
unit_len = 7 + len(dies)
info = w(unit_len) + struct.pack("<H", 4) + w(4 + unit_len) + bytes([8]) + dies
img = info + ab
for name, d0 in (("seedwin", 2), ("seedwinfail", 6)):
    open(sys.argv[1] + "/" + name, "wb").write(bytes([d0, 0x58, 0, 0x40, 0x30, 0, 0, 0]) + img)' \
			"$OUT/corpus-$t" || true
	fi
	if [ "$t" = EH ] && [ ! -s "$OUT/corpus-$t/seedz" ] && command -v python3 >/dev/null; then
		# Seeds: 8 control bytes (with a header of 20 bytes, the pcs), then
		# .eh_frame_hdr with one entry and .eh_frame: a "zR" CIE, or "zLR"
		# with an LSDA, and an FDE over the first 4 KiB with the usual
		# instructions (the trace loop's short way answers for it).
		python3 -c 'import struct, sys
def w(v): return struct.pack("<I", v & 0xffffffff)
for lsda, name in ((0, "seedz"), (1, "seedzl")):
    cie = w(0) + bytes([1]) + (b"zLR\0" if lsda else b"zR\0") + bytes([1, 0x78, 16])
    cie += bytes([2, 0x1b, 0x1b]) if lsda else bytes([1, 0x1b])
    cie += bytes([0x0c, 7, 8, 0x90, 1])
    cie += bytes(-len(cie) % 4)
    cie = w(len(cie)) + cie
    at = 0x20 + len(cie)
    body = w(at + 4 - 0x20) + w(-(at + 8)) + w(0x1000)
    body += (bytes([4]) + w(0x10)) if lsda else bytes([0])
    body += bytes([0x41, 0x0e, 0x10, 0x86, 0x02, 0x43, 0x0d, 0x06, 0x41, 0x0a, 0x0c, 7, 8, 0x41, 0x0b])
    body += bytes(-len(body) % 4)
    hdr = bytes([1, 0x1b, 0x03, 0x3b]) + w(0x20 - 4) + w(1) + w(0) + w(at)
    img = hdr + bytes(0x20 - len(hdr)) + cie + w(len(body)) + body + w(0)
    open(sys.argv[1] + "/" + name, "wb").write(bytes([1, 20, 1, 5, 9, 13, 0, 0]) + img)' \
			"$OUT/corpus-$t" || true
	fi
	if [ "$t" = INFLATE ] && [ ! -s "$OUT/corpus-$t/seed9" ] && command -v python3 >/dev/null; then
		# Seeds: zlib streams of 2,560 bytes of a C file (levels 1, 9 and
		# Z_FIXED) behind the byte that gives exactly that room (40 * 64).
		python3 -c 'import sys, zlib
d = open(sys.argv[1], "rb").read()[:2560]
for l, name in ((1, "seed1"), (9, "seed9")):
    open(sys.argv[2] + "/" + name, "wb").write(b"\x28" + zlib.compress(d, l))
c = zlib.compressobj(6, zlib.DEFLATED, 15, 8, zlib.Z_FIXED)
open(sys.argv[2] + "/seedfixed", "wb").write(b"\x28" + c.compress(d) + c.flush())' \
			"$LIB/inflate.c" "$OUT/corpus-$t" || true
	fi
	if [ "$t" = ZSTD ] && [ ! -s "$OUT/corpus-$t/seed19" ] && command -v zstd >/dev/null; then
		# Seeds: frames of a C file at two levels, behind the byte that picks the room.
		for l in 1 19; do
			{ printf '\377'; head -c 3000 "$LIB/unzstd.h" | zstd -q -c -$l; } \
				>"$OUT/corpus-$t/seed$l" || true
		done
	fi
	if "$bin" -max_total_time="$SECS" -max_len=4096 -print_final_stats=1 "$OUT/corpus-$t" \
		>"$OUT/run-$t.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/run-$t.log")
		echo "ok $n - fuzz $t: ${runs:-?} inputs in ${SECS} s, no crash"
	else
		echo "not ok $n - fuzz $t: crashed"
		grep -E 'ERROR|SUMMARY|#[0-9]+ ' "$OUT/run-$t.log" | head -20 | sed 's/^/#   /'
		return 1
	fi
}

# FUZZ_JOBS targets at a time (default 1); each target still runs FUZZ_SECONDS.
JOBS=${FUZZ_JOBS:-1}
n=0
fail=0
rm -rf "$OUT/obj"
mkdir -p "$OUT/obj"
export -f compile_one
export CC CFLAGS_FUZZ SAN OUT LIB
rm -rf "$OUT/obj-small"
mkdir -p "$OUT/obj-small"
# shellcheck disable=SC2086
if printf '%s\n' $SOURCES | xargs -P "$JOBS" -I{} bash -c 'compile_one "$1"' _ {} \
	>"$OUT/obj/build.log" 2>&1 &&
	$CC $CFLAGS_FUZZ -DCR_EH_SMALL -fsanitize=fuzzer-no-link,$SAN -c "$LIB/cfi/ehframe.c" \
		-o "$OUT/obj-small/cfi_ehframe.o" >>"$OUT/obj/build.log" 2>&1 &&
	$CC $CFLAGS_FUZZ -DCR_DWWALK_SMALL -fsanitize=fuzzer-no-link,$SAN -c "$LIB/dwarf/info.c" \
		-o "$OUT/obj-small/dwarf_info.o" >>"$OUT/obj/build.log" 2>&1 &&
	$CC $CFLAGS_FUZZ -DCR_DWWALK_SMALL -fsanitize=fuzzer-no-link,$SAN -c "$LIB/dwarf/line.c" \
		-o "$OUT/obj-small/dwarf_line.o" >>"$OUT/obj/build.log" 2>&1; then
	touch "$OUT/obj/ok"
fi
for t in ${FUZZ_TARGETS:-EH EHSMALL EXPR SCAN MAPS DEMANGLE INFLATE DWARFLINE DWARFINFO DEBUGELF ZSTD}; do
	n=$((n + 1))
	while [ "$(jobs -pr | wc -l)" -ge "$JOBS" ]; do wait -n; done
	rm -f "$OUT/tap-$n"
	fuzz_one "$n" "$t" &
done
wait
for i in $(seq 1 "$n"); do
	if [ -s "$OUT/tap-$i" ]; then
		cat "$OUT/tap-$i"
		grep -q '^not ok' "$OUT/tap-$i" && fail=1
	else
		echo "not ok $i - fuzz: no result"
		fail=1
	fi
done
echo "1..$n"
exit $fail
