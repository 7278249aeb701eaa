#!/bin/sh
# The SIGPROF cross-check over the distribution's own libraries (tests/xcheck/distro.c).
# XCHECK_DISTRO_SAMPLES samples per run (default 1500 natively, about 4 s; 1000 per run under
# qemu-user 10, about 7 s each).  aarch64 under qemu: twice, on qemu's default CPU (pointer authentication:
# libcrypto's paciasp signs) and on a Cortex-A57 (none: paciasp is a NOP).  Skipped under
# qemu 7.2 (the same libraries; CI time).
b=${top_builddir:-.}/tests/xcheck
n=${XCHECK_DISTRO_SAMPLES:-1500}
case $CRASH_TEST_RUNNER in
*qemu-7.2*) echo "1..0 # SKIP under qemu 7.2"; exit 0 ;;
*qemu-aarch64*)
	n=${XCHECK_DISTRO_SAMPLES:-1000}
	tmp=$(mktemp)
	st=0
	$CRASH_TEST_RUNNER "$b/distro" "$n" >>"$tmp" || st=1
	$CRASH_TEST_RUNNER -cpu cortex-a57 "$b/distro" "$n" >>"$tmp" || st=1
	awk '/^1\.\.[0-9]+$/ { next } /^(not )?ok [0-9]+/ { k++; sub(/ok [0-9]+/, "ok " k) } { print } END { print "1.." k }' "$tmp"
	rm -f "$tmp"
	exit $st
	;;
esac
exec $CRASH_TEST_RUNNER "$b/distro" "$n"
