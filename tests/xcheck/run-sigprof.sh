#!/bin/sh
# The SIGPROF cross-check over every build of the workload.
# XCHECK_SAMPLES per build (default 1500: 8 builds, 12,000 samples).
b=${top_builddir:-.}/tests/xcheck
n=${XCHECK_SAMPLES:-1500}
tmp=$(mktemp)
st=0
for v in O0 O2 O3 Os O2fp nopie cxx; do
	$CRASH_TEST_RUNNER "$b/sigprof-$v" "$v" "$n" >>"$tmp" || st=1
done
$CRASH_TEST_RUNNER "$b/sigprof-dl" dlopen "$n" "$b/libxwork.so" >>"$tmp" || st=1
awk '/^1\.\.[0-9]+$/ { next } /^(not )?ok [0-9]+/ { k++; sub(/ok [0-9]+/, "ok " k) } { print } END { print "1.." k }' "$tmp"
rm -f "$tmp"
exit $st
