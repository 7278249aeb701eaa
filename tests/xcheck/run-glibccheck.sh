#!/bin/sh
# crash_backtrace_with(CFI) and crash_backtrace() against glibc backtrace() at
# the call sites of callsites.c, built each way.  XCHECK_ROUNDS per build.
b=${top_builddir:-.}/tests/xcheck
n=${XCHECK_ROUNDS:-600}
tmp=$(mktemp)
st=0
for v in O0 O2 Os O2fp; do
	$CRASH_TEST_RUNNER "$b/glibccheck-$v" "$v" "$n" >>"$tmp" || st=1
done
awk '/^1\.\.[0-9]+$/ { next } /^(not )?ok [0-9]+/ { k++; sub(/ok [0-9]+/, "ok " k) } { print } END { print "1.." k }' "$tmp"
rm -f "$tmp"
exit $st
