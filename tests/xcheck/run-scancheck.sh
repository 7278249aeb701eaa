#!/bin/sh
# Scan vs CFI over every build of the workload (issue 5's agreement figure),
# then the workload without unwind tables: complete scan chains.
# XCHECK_SAMPLES per build (default 3000).
b=${top_builddir:-.}/tests/xcheck
n=${XCHECK_SAMPLES:-3000}
tmp=$(mktemp)
st=0
for v in O0 O2 O3 Os O2fp; do
	$CRASH_TEST_RUNNER "$b/scancheck-$v" "$v" "$n" >>"$tmp" || st=1
done
for v in O0 O2; do
	$CRASH_TEST_RUNNER "$b/scancheck-noeh-$v" "noeh-$v" "$n" chain >>"$tmp" || st=1
done
awk '/^1\.\.[0-9]+$/ { next } /^(not )?ok [0-9]+/ { k++; sub(/ok [0-9]+/, "ok " k) } { print } END { print "1.." k }' "$tmp"
rm -f "$tmp"
exit $st
