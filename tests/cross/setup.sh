#!/bin/bash
# tests/cross/setup.sh [PREFIX]: cross toolchains and qemu-user for testing libcrash on
# aarch64, riscv64 and loongarch64 from a Debian 12 (bookworm) x86_64 host.  Idempotent:
# a step whose stamp exists is skipped, so a second run takes well under a second.
#
# Into the host (apt-get, bookworm): gcc- and g++-aarch64-linux-gnu, gcc- and
#   g++-riscv64-linux-gnu, their libc6-dev-*-cross, clang-19, lld-19, llvm-19 (llvm-addr2line-19 &c.: tests/symbols on loongarch64).
# Into PREFIX (default <repo>/.cross; extracted with dpkg-deb -x, never installed):
#   qemu/                qemu-{aarch64,riscv64,loongarch64} 10.0 from trixie (static-pie, so they
#                        run on bookworm).  bookworm's qemu 7.2 cannot run trixie's loong64
#                        glibc (its ld.so uses LSX vld: SIGILL).
#   sysroot/riscv64      trixie libc6{,-dev}-riscv64-cross 2.41, libgcc and libstdc++ 14, kernel
#                        headers: the runtime root of run-riscv64 (bookworm's riscv64 glibc 2.36
#                        has no CFI for abort(), so nothing unwinds out of it), clang's sysroot.
#   sysroot/loongarch64  the same for loong64 (bookworm has no loong64 at all).
#   riscv64-unwind/      trixie libunwind 1.8.1:riscv64 + liblzma5 (test oracle only).
#   aarch64-unwind/      bookworm libunwind 1.6.2:arm64 + liblzma5 (test oracle only).
#   riscv64-libs/        trixie libssl3t64, libssl-dev, zlib1g{,-dev}:riscv64, and aarch64-libs/
#                        bookworm's :arm64 ones: the real libraries tests/xcheck/distro samples.
#   dbgroot/aarch64,     runtime roots of the distribution's own libc6 and libc6-dbg (bookworm
#   dbgroot/riscv64      :arm64, trixie :riscv64): libc's debug file by build-id under qemu
#                        (tests/symbols' libc cases); run-<arch>-dbg, CROSS_RUN_DBG_<arch>.
#   qemu-7.2/            with QEMU72=1: bookworm's qemu-{aarch64,riscv64}-static 7.2 (no vdso,
#                        sigreturn trampoline on an anonymous page): run-<arch>-7.2 wrappers.
#   bin/                 cc-aarch64 (gcc-12), cc-riscv64 (clang-19), gcc-riscv64 (gcc-12),
#                        cc-loongarch64 (clang-19), their C++ twins c++-aarch64, c++-riscv64,
#                        g++-riscv64, c++-loongarch64, and run-<arch> (qemu -L <runtime root>).
#   cross.env            CROSS_RUN_<arch>='<qemu command line>', for test harnesses (and
#                        CROSS_RUN_DBG_<arch> for the debug roots).
#   setup.log            everything the tools printed; the terminal gets one line per step.
#
# Afterwards:  export PATH="PREFIX/bin:$PATH"
#   cc-riscv64 -g x.c -o x && run-riscv64 ./x
#   run-riscv64 -E LD_PRELOAD=/abs/libcrash.so ./prog     (qemu options before the program)
# Environment: SKIP_SELFTEST=1 skips the final compile-and-run check; QEMU72=1 adds qemu 7.2.
set -eEuo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PREFIX=${1:-$REPO/.cross}
mkdir -p "$PREFIX"
PREFIX=$(cd "$PREFIX" && pwd)
LOG=$PREFIX/setup.log
T0=$(date +%s)
STEP="start"
log() { printf '[cross-setup %s +%ss] %s\n' "$(date +%H:%M:%S)" "$(($(date +%s) - T0))" "$*" >&2; }
# die MESSAGE: say what failed, show the end of the log, stop
die() {
	log "FAILED: $*"
	if [ -s "$LOG" ]; then
		echo "---- last lines of $LOG:" >&2
		tail -n 20 "$LOG" >&2
	fi
	exit 1
}
on_err() {
	local st=$?
	trap - ERR
	die "exit status $st during: $STEP"
}
trap on_err ERR
step() { STEP=$*; log "$*"; echo "==== $(date +%H:%M:%S) $*" >>"$LOG"; }
# run CMD...: output to the log only; a failure stops the script through the ERR trap
run() { "$@" >>"$LOG" 2>&1; }

[ "$(uname -m)" = x86_64 ] || die "this script is for an x86_64 host, not $(uname -m)"
command -v dpkg-deb >/dev/null && command -v apt-get >/dev/null ||
	die "needs a Debian host (apt-get, dpkg-deb)"
: >"$LOG"

# ---------------------------------------------------------------- host packages (bookworm)
HOST_PKGS="gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross
	gcc-riscv64-linux-gnu g++-riscv64-linux-gnu libc6-dev-riscv64-cross clang-19 lld-19 llvm-19"
missing=""
for p in $HOST_PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	step "apt-get install$missing"
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	run $SUDO apt-get update -q
	run env DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends \
		$missing
fi

# ---------------------------------------------------------------- private apt configs
# Download only, from the Debian mirror this machine already uses, with another suite or
# foreign architecture; nothing is installed and the host's apt state is not touched.
DEB_URI=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null ||
	true)
[ -n "$DEB_URI" ] ||
	DEB_URI=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$DEB_URI" ] || die "no Debian mirror found in /etc/apt/sources.list{,.d/debian.sources}"

APTD=$PREFIX/apt
mkapt() { # NAME SUITE ARCH...
	local d=$APTD/$1 suite=$2 o a
	shift 2
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	touch "$d/status"
	echo "deb $DEB_URI $suite main" >"$d/sources.list"
	o="-o Dir::Etc::SourceList=$d/sources.list -o Dir::Etc::SourceParts=/dev/null"
	o="$o -o Dir::State::Lists=$d/lists -o Dir::Cache=$d/cache -o Dir::State::status=$d/status"
	o="$o -o APT::Architectures::=amd64"
	for a in "$@"; do o="$o -o APT::Architectures::=$a"; done
	echo "$o" >"$d/opts"
}
aptget() { # NAME ARGS...
	local name=$1
	shift
	# shellcheck disable=SC2046
	apt-get $(cat "$APTD/$name/opts") "$@"
}
# update NAME: apt-get update for config NAME.  A mirror being synced serves
# index files that do not match its Release file for a while ("File has
# unexpected size"; trixie's riscv64 index did for days): wait and fetch again,
# 3 times over a minute, then take the index as served (served_index).
update() {
	local i
	for i in 1 2 3; do
		run aptget "$1" update -q && return 0
		[ "$i" = 3 ] || { log "apt-get update ($1) failed (mirror sync?): again in 30 s"; sleep 30; }
	done
	log "apt-get update ($1) failed 3 times: taking its index as served"
	served_index "$1"
}
# served_index NAME: put the suite's InRelease and each architecture's Packages
# file, as the mirror serves them, where apt-get update would have.  apt only
# refused them for a size that disagrees with the Release file; the pool still
# holds what the served index lists, and apt-get download still checks each
# .deb against that index's SHA256.  apt's own downloader (apt-helper): no curl
# needed.  The index is gzip (gzip is essential on Debian), else xz.
served_index() {
	local d=$APTD/$1 uri suite pre a f
	read -r _ uri suite _ <"$d/sources.list"
	uri=${uri%/}
	pre=$(printf '%s' "$uri" | sed -E 's#^[a-z]+://##; s#/#_#g')
	f=$d/lists/${pre}_dists_${suite}
	run /usr/lib/apt/apt-helper download-file "$uri/dists/$suite/InRelease" "${f}_InRelease" ||
		return 1
	for a in $(grep -o 'Architectures::=[a-z0-9]*' "$d/opts" | cut -d= -f2 | sort -u); do
		if run /usr/lib/apt/apt-helper download-file \
			"$uri/dists/$suite/main/binary-$a/Packages.gz" "$d/index.gz"; then
			gzip -dc "$d/index.gz" >"${f}_main_binary-${a}_Packages" || return 1
		else
			run /usr/lib/apt/apt-helper download-file \
				"$uri/dists/$suite/main/binary-$a/Packages.xz" "$d/index.xz" || return 1
			xz -dc "$d/index.xz" >"${f}_main_binary-${a}_Packages" || return 1
		fi
		rm -f "$d/index.gz" "$d/index.xz"
	done
}
fetch() { # NAME DEST PKG...: the .debs of PKG... into DEST
	local name=$1 dest=$2
	shift 2
	mkdir -p "$dest"
	if [ ! -e "$APTD/$name/updated" ]; then
		update "$name" || die "apt-get update ($name) failed, and its index as served could not be had"
		touch "$APTD/$name/updated"
	fi
	(cd "$dest" && run aptget "$name" download -q "$@")
	ls "$dest"/*.deb >/dev/null 2>&1 || die "apt-get download $* got nothing"
}
extract() { # DIR-OF-DEBS DEST
	local f
	mkdir -p "$2"
	for f in "$1"/*.deb; do run dpkg-deb -x "$f" "$2"; done
}
# riscv64's own index (for libunwind only) in a config of its own: when the
# mirror serves a broken one, the rest of trixie still comes through.
mkapt trixie trixie
mkapt trixie-rv trixie riscv64
mkapt bookworm bookworm arm64

DEBS=$PREFIX/debs
STAMP=$PREFIX/.stamps
mkdir -p "$STAMP"
TMP=""
newtmp() { TMP=$(mktemp -d "$PREFIX/tmp.XXXXXX"); }

# ---------------------------------------------------------------- qemu-user 10 (trixie)
if [ ! -e "$STAMP/qemu" ]; then
	step "qemu-user 10 (trixie) -> $PREFIX/qemu"
	rm -rf "$DEBS/qemu" "$PREFIX/qemu"
	fetch trixie "$DEBS/qemu" qemu-user:amd64
	newtmp
	extract "$DEBS/qemu" "$TMP"
	mkdir -p "$PREFIX/qemu"
	for a in aarch64 riscv64 loongarch64; do cp "$TMP/usr/bin/qemu-$a" "$PREFIX/qemu/"; done
	rm -rf "$TMP" "$DEBS/qemu"
	touch "$STAMP/qemu"
fi

# ------------------------------------------------------------ qemu-user 7.2 (bookworm): QEMU72=1
if [ "${QEMU72:-0}" = 1 ] && [ ! -e "$STAMP/qemu-7.2" ]; then
	step "qemu-user-static 7.2 (bookworm) -> $PREFIX/qemu-7.2"
	rm -rf "$DEBS/q72" "$PREFIX/qemu-7.2"
	fetch bookworm "$DEBS/q72" qemu-user-static:amd64
	newtmp
	extract "$DEBS/q72" "$TMP"
	mkdir -p "$PREFIX/qemu-7.2"
	for a in aarch64 riscv64; do cp "$TMP/usr/bin/qemu-$a-static" "$PREFIX/qemu-7.2/qemu-$a"; done
	rm -rf "$TMP" "$DEBS/q72"
	touch "$STAMP/qemu-7.2"
fi

# ---------------------------------------------------------------- sysroots (trixie, arch all)
sysroot() { # ARCH DEBIAN-ARCH
	local s=$PREFIX/sysroot/$1 pkgs
	pkgs="libc6-$2-cross libc6-dev-$2-cross linux-libc-dev-$2-cross libgcc-14-dev-$2-cross
		libgcc-s1-$2-cross libstdc++-14-dev-$2-cross libstdc++6-$2-cross"
	pkgs=$(echo $pkgs)
	# the stamp holds the package list: a changed list rebuilds the sysroot
	[ "$(cat "$STAMP/sysroot-$1" 2>/dev/null)" != "$pkgs" ] || return 0
	step "$1 sysroot (trixie glibc 2.41, libstdc++ 14: *-$2-cross) -> $s"
	rm -rf "$DEBS/$1" "$s"
	# shellcheck disable=SC2086
	fetch trixie "$DEBS/$1" $pkgs
	extract "$DEBS/$1" "$s"
	rm -rf "$DEBS/$1" "$s/usr/share"
	echo "$pkgs" >"$STAMP/sysroot-$1"
}
sysroot riscv64 riscv64
sysroot loongarch64 loong64

# ---------------------------------------------------------------- libunwind (test oracle)
unwind() { # ARCH SUITE DEBIAN-ARCH
	local d=$PREFIX/$1-unwind
	[ ! -e "$STAMP/$1-unwind" ] || return 0
	step "$1 libunwind ($2 libunwind:$3) -> $d"
	rm -rf "$DEBS/u$1" "$d"
	fetch "$2" "$DEBS/u$1" "libunwind8:$3" "libunwind-dev:$3" "liblzma5:$3"
	newtmp
	extract "$DEBS/u$1" "$TMP"
	mkdir -p "$d/lib" "$d/include"
	# bookworm keeps liblzma in /lib, trixie in /usr/lib
	for l in "$TMP/usr/lib/$1-linux-gnu" "$TMP/lib/$1-linux-gnu"; do
		[ ! -d "$l" ] || cp -a "$l/." "$d/lib/"
	done
	# Only libunwind*.h: libunwind-dev's own unwind.h would shadow the compiler's.
	cp -a "$TMP/usr/include/$1-linux-gnu"/libunwind*.h "$d/include/"
	rm -rf "$TMP" "$DEBS/u$1" "$d/lib/pkgconfig"
	[ -e "$d/lib/libunwind.so" ] || die "no libunwind.so in libunwind-dev:$3"
	touch "$STAMP/$1-unwind"
}
# riscv64 libunwind is the riscv64 oracle of the cross-checks: update() takes a
# broken index as served rather than going on without it (configure would then
# leave the libunwind cross-checks out; tests/run-all.sh counts that as a failure).
unwind riscv64 trixie-rv riscv64
unwind aarch64 bookworm arm64

# ------------------------------------------------ distribution libraries (cross-check's subjects)
# The SIGPROF cross-check over real libraries (tests/xcheck/distro.c) samples the arch's own
# libcrypto (OpenSSL's perlasm) and zlib, with their headers: no *-cross package has them.
# Into PREFIX/ARCH-libs (lib, include), from the same suite as the runtime root.
distlibs() { # ARCH SUITE DEBIAN-ARCH PKG...
	local a=$1 suite=$2 da=$3 d=$PREFIX/$1-libs pkgs p
	shift 3
	pkgs=""
	for p in "$@"; do pkgs="$pkgs $p:$da"; done
	# the stamp holds the package list: a changed list fetches again
	[ "$(cat "$STAMP/$a-libs" 2>/dev/null)" != "$pkgs" ] || return 0
	step "$a distribution libraries ($suite$pkgs) -> $d"
	rm -rf "$DEBS/l$a" "$d"
	# shellcheck disable=SC2086
	fetch "$suite" "$DEBS/l$a" $pkgs
	newtmp
	extract "$DEBS/l$a" "$TMP"
	mkdir -p "$d/lib" "$d/include"
	for p in "$TMP/usr/lib/$a-linux-gnu" "$TMP/lib/$a-linux-gnu"; do
		[ ! -d "$p" ] || cp -a "$p/." "$d/lib/"
	done
	# bookworm's libz.so -> /lib/...: absolute links made relative, into the same directory
	for p in "$d/lib"/*.so; do
		[ ! -L "$p" ] || case $(readlink "$p") in /*) ln -sf "$(basename "$(readlink "$p")")" "$p" ;; esac
	done
	# zlib.h, openssl/*.h, then the arch's own openssl/configuration.h &c. over them
	cp -a "$TMP/usr/include/." "$d/include/"
	cp -a "$d/include/$a-linux-gnu/." "$d/include/"
	rm -rf "$TMP" "$DEBS/l$a" "$d/lib/pkgconfig" "$d/include/$a-linux-gnu"
	[ -e "$d/lib/libcrypto.so" ] && [ -e "$d/lib/libz.so" ] || die "no libcrypto.so or libz.so"
	echo "$pkgs" >"$STAMP/$a-libs"
}
distlibs riscv64 trixie-rv riscv64 libssl3t64 libssl-dev zlib1g zlib1g-dev libzstd1
distlibs aarch64 bookworm arm64 libssl3 libssl-dev zlib1g zlib1g-dev

# ------------------------------------------------ debug runtime roots (libc against libc6-dbg)
# The runtime roots above hold the *-cross packages' glibc, rebuilt by cross-toolchain-base: no
# debug file exists for their build-ids.  tests/symbols checks libc's frames against libc's debug
# file (issue 17), so a second root per arch, PREFIX/dbgroot/ARCH, holds the distribution's own
# libc6 and libc6-dbg of the same suite (same glibc as the first root): a C program that needs
# only libc runs there (run-ARCH-dbg; tests/symbols' C programs and libcrash.so need nothing
# else, so no libgcc-s1), and libcrash's open of
# /usr/lib/debug/.build-id/xx/rest.debug is redirected into the root by qemu's -L.  Not
# loongarch64: its libc6-dbg is only in debian-ports.
dbgroot() { # ARCH SUITE DEBIAN-ARCH
	local a=$1 suite=$2 da=$3 r=$PREFIX/dbgroot/$1 pkgs p lib id did dbg
	pkgs="libc6:$da libc6-dbg:$da"
	# the stamp holds the package list: a changed list builds the root again
	[ "$(cat "$STAMP/dbgroot-$a" 2>/dev/null)" != "$pkgs" ] || return 0
	step "$a debug runtime root ($suite $pkgs) -> $r"
	rm -rf "$DEBS/d$a" "$r"
	# shellcheck disable=SC2086
	fetch "$suite" "$DEBS/d$a" $pkgs
	extract "$DEBS/d$a" "$r"
	rm -rf "$DEBS/d$a" "$r/usr/share"
	# trixie's packages keep everything under usr/: the programs' interpreter is
	# /lib/ld-linux-*.so.1.  Relative links, so that qemu's -L stays inside the root.
	for p in lib lib64 bin sbin; do
		[ -e "$r/$p" ] || [ ! -d "$r/usr/$p" ] || ln -s "usr/$p" "$r/$p"
	done
	lib=$r/lib/$a-linux-gnu/libc.so.6
	[ -e "$lib" ] || die "$a debug root: no $lib in libc6:$da"
	id=$(readelf -n "$lib" 2>>"$LOG" | sed -n 's/.*Build ID: //p')
	[ -n "$id" ] || die "$a debug root: $lib has no build-id"
	dbg=$r/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	[ -e "$dbg" ] || die "$a debug root: libc6-dbg:$da has no debug file for libc.so.6's\
 build-id $id ($dbg): libc6 and libc6-dbg of different builds?"
	did=$(readelf -n "$dbg" 2>>"$LOG" | sed -n 's/.*Build ID: //p')
	[ "$did" = "$id" ] || die "$a debug root: $dbg has build-id '$did', libc.so.6 $id"
	log "$a debug root: libc.so.6 and its debug file, build-id $id"
	echo "$pkgs" >"$STAMP/dbgroot-$a"
}
dbgroot aarch64 bookworm arm64
dbgroot riscv64 trixie-rv riscv64

rm -rf "$DEBS" "$APTD"/*/cache "$APTD"/*/lists "$APTD"/*/updated

# ---------------------------------------------------------------- wrappers
B=$PREFIX/bin
mkdir -p "$B"
wrap() { # NAME COMMAND-LINE
	printf '#!/bin/sh\n# generated by tests/cross/setup.sh\n%s\n' "$2" >"$B/$1"
	chmod +x "$B/$1"
}
# gcc-12 (riscv64) and clang-19 (loongarch64) emit no .eh_frame for C by default: force it.
# -Qunused-arguments: the link flags are harmless with -c, and a -Werror build must not see them.
UT=-fasynchronous-unwind-tables
SR_RV=$PREFIX/sysroot/riscv64
SR_LA=$PREFIX/sysroot/loongarch64
U_RV=$PREFIX/riscv64-unwind
U_A64=$PREFIX/aarch64-unwind
L_RV=$PREFIX/riscv64-libs
L_A64=$PREFIX/aarch64-libs
UNW_RV="-I$U_RV/include -L$U_RV/lib -Wl,-rpath-link,$U_RV/lib"
UNW_RV="$UNW_RV -I$L_RV/include -L$L_RV/lib -Wl,-rpath-link,$L_RV/lib"
UNW_A64="-I$U_A64/include -L$U_A64/lib -Wl,-rpath-link,$U_A64/lib"
UNW_A64="$UNW_A64 -I$L_A64/include -L$L_A64/lib -Wl,-rpath-link,$L_A64/lib"
CL_RV="--target=riscv64-linux-gnu --sysroot=$SR_RV -fuse-ld=lld -Qunused-arguments $UT $UNW_RV"
CL_LA="--target=loongarch64-linux-gnu --sysroot=$SR_LA -fuse-ld=lld -Qunused-arguments $UT"
wrap cc-riscv64 "exec clang-19 $CL_RV \"\$@\""
wrap c++-riscv64 "exec clang++-19 $CL_RV \"\$@\""
# Debian's cross gcc ignores --sysroot for its own dirs: it builds against bookworm's glibc 2.36,
# and the result runs on the trixie 2.41 runtime root.
wrap gcc-riscv64 "exec riscv64-linux-gnu-gcc $UT $UNW_RV \"\$@\""
wrap g++-riscv64 "exec riscv64-linux-gnu-g++ $UT $UNW_RV \"\$@\""
wrap cc-aarch64 "exec aarch64-linux-gnu-gcc $UT $UNW_A64 \"\$@\""
wrap c++-aarch64 "exec aarch64-linux-gnu-g++ $UT $UNW_A64 \"\$@\""
wrap cc-loongarch64 "exec clang-19 $CL_LA \"\$@\""
wrap c++-loongarch64 "exec clang++-19 $CL_LA \"\$@\""
# binfmt_misc is not assumed: qemu is called explicitly.  libunwind lives outside the -L root; a
# guest path missing under the root falls back to the host path.  cross.env holds the bare qemu
# command lines: a test harness runs qemu directly, so a host LD_PRELOAD of a target library
# reaches only static programs (qemu ignores it and hands it on to the guest's ld.so).
declare -A QRUN=(
	[riscv64]="$PREFIX/qemu/qemu-riscv64 -L $SR_RV/usr/riscv64-linux-gnu -E LD_LIBRARY_PATH=$U_RV/lib:$L_RV/lib"
	[aarch64]="$PREFIX/qemu/qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=$U_A64/lib:$L_A64/lib"
	[loongarch64]="$PREFIX/qemu/qemu-loongarch64 -L $SR_LA/usr/loongarch64-linux-gnu"
)
{
	echo "# generated by tests/cross/setup.sh: qemu-user command lines per arch"
	for a in riscv64 aarch64 loongarch64; do
		echo "CROSS_RUN_$a='${QRUN[$a]}'"
		wrap "run-$a" "exec ${QRUN[$a]} \"\$@\""
		if [ -e "$STAMP/qemu-7.2" ] && [ $a != loongarch64 ]; then
			q=${QRUN[$a]/\/qemu\/qemu-//qemu-7.2/qemu-}
			echo "CROSS_RUN_${a}_7_2='$q'"
			wrap "run-$a-7.2" "exec $q \"\$@\""
		fi
		# the debug runtime root: the distribution's libc with libc6-dbg (dbgroot above)
		if [ -e "$STAMP/dbgroot-$a" ]; then
			q="$PREFIX/qemu/qemu-$a -L $PREFIX/dbgroot/$a"
			echo "CROSS_RUN_DBG_$a='$q'"
			wrap "run-$a-dbg" "exec $q \"\$@\""
		else
			rm -f "$B/run-$a-dbg"
		fi
	done
} >"$PREFIX/cross.env"

# ---------------------------------------------------------------- self-test
# Each compiler builds a program that links libunwind (where there is one) and the program
# runs under its qemu: toolchain, sysroot, runtime root and wrappers all work together.
if [ "${SKIP_SELFTEST:-0}" != 1 ]; then
	step "self-test: compile and run a program per arch"
	newtmp
	cat >"$TMP/t.c" <<'EOF'
#include <stdio.h>
#ifdef UNW
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#endif
int main(void)
{
#ifdef UNW
	unw_context_t uc;
	unw_cursor_t c;
	int n = 0;

	unw_getcontext(&uc);
	unw_init_local(&c, &uc);
	while (n < 64 && unw_step(&c) > 0)
		n++;
	printf("ok %s %d\n", ARCH, n > 0);
#else
	printf("ok %s 1\n", ARCH);
#endif
	return 0;
}
EOF
	RV_UNW="-DUNW -lunwind"
	[ -e "$STAMP/riscv64-unwind" ] || RV_UNW=""
	for t in "riscv64 cc-riscv64 $RV_UNW" "riscv64 gcc-riscv64 $RV_UNW" \
		"aarch64 cc-aarch64 -DUNW -lunwind" "loongarch64 cc-loongarch64"; do
		set -- $t
		a=$1 cc=$2
		shift 2
		STEP="self-test: $cc"
		run "$B/$cc" -O2 -DARCH="\"$a\"" "$TMP/t.c" -o "$TMP/t-$cc" "$@"
		got=$("$B/run-$a" "$TMP/t-$cc" 2>>"$LOG") || die "run-$a $cc-built program: exit $?"
		[ "$got" = "ok $a 1" ] || die "run-$a $cc-built program printed '$got', want 'ok $a 1'"
		if [ -e "$B/run-$a-7.2" ]; then
			got=$("$B/run-$a-7.2" "$TMP/t-$cc" 2>>"$LOG") || die "run-$a-7.2: exit $?"
			[ "$got" = "ok $a 1" ] || die "run-$a-7.2 printed '$got'"
		fi
	done
	# the debug roots: the distribution's libc runs the cross compilers' programs
	for t in "aarch64 cc-aarch64" "riscv64 cc-riscv64" "riscv64 gcc-riscv64"; do
		set -- $t
		[ -e "$B/run-$1-dbg" ] || continue
		STEP="self-test: run-$1-dbg"
		run "$B/$2" -O2 -DARCH="\"$1\"" "$TMP/t.c" -o "$TMP/t-$2-dbg"
		got=$("$B/run-$1-dbg" "$TMP/t-$2-dbg" 2>>"$LOG") || die "run-$1-dbg $2-built program: exit $?"
		[ "$got" = "ok $1 1" ] || die "run-$1-dbg $2-built program printed '$got', want 'ok $1 1'"
	done
	echo 'int main() { try { throw 42; } catch (int e) { return e - 42; } return 1; }' >"$TMP/t.cc"
	for t in "riscv64 c++-riscv64" "riscv64 g++-riscv64" "aarch64 c++-aarch64" \
		"loongarch64 c++-loongarch64"; do
		set -- $t
		STEP="self-test: $2"
		run "$B/$2" -O2 "$TMP/t.cc" -o "$TMP/t-$2"
		"$B/run-$1" "$TMP/t-$2" 2>>"$LOG" || die "run-$1 $2-built C++ program: exit $?"
	done
	rm -rf "$TMP"
fi

log "done: $PREFIX ($(du -sh "$PREFIX" | cut -f1)); log in $LOG"
echo "export PATH=\"$B:\$PATH\""
