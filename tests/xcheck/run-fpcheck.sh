#!/bin/sh
# The fp engine (and auto) against libunwind on the same ucontexts.
set -e
b=${top_builddir:-.}/tests/xcheck/fpcheck
$CRASH_TEST_RUNNER "$b" fp | sed 's/^1\.\.[0-9]*$//' > "${TMPDIR:-/tmp}/fpcheck.$$" || st=1
$CRASH_TEST_RUNNER "$b" auto | sed 's/^1\.\.[0-9]*$//' >> "${TMPDIR:-/tmp}/fpcheck.$$" || st=1
# Renumber the two runs into one TAP stream.
awk '/^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " n) } /^$/ { next } { print } END { print "1.." n }' "${TMPDIR:-/tmp}/fpcheck.$$"
rm -f "${TMPDIR:-/tmp}/fpcheck.$$"
exit ${st:-0}
