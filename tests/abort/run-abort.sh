#!/bin/bash
# The abort message (issue 18): programs that abort the ways glibc (assert,
# malloc's checks, fortify, the stack protector) and libstdc++ (std::terminate
# after an uncaught exception, from a noexcept function, in a thread) do.
# Each runs without libcrash, then under LD_PRELOAD=libcrash.so with the
# report in a file: the report's 'abort message:' line (right after the cause
# line) is what glibc printed on stderr, or the exception's type and what();
# the wait status and the program's own stderr are the same as without it.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
ABORTME="$top_builddir/tests/abort/abortme"
ABORTCXX="$top_builddir/tests/abort/abortme-cxx"

# run_both BINARY MODE: sets BASE_STATUS, STATUS, and $TMPD/MODE.{base,txt,txt.stderr}.
run_both() {
	local bin=$1 mode=$2
	BASE_STATUS=$("$WAITSIG" -t 60 $RUN "$bin" "$mode" 2>"$TMPD/$mode.base")
	run_crash "$TMPD/$mode.txt" CRASH_OUTPUT="$TMPD/$mode.txt" LD_PRELOAD="$LIBCRASH" -- "$bin" "$mode"
}

# The report's abort message line ('abort message: ' and the quotes removed), or "none".
abort_line() {
	local l
	l=$(grep '^abort message: ' "$1")
	[ -n "$l" ] || { echo none; return; }
	l=${l#abort message: \'}
	echo "${l%\'}"
}

# The common checks of one case; $3: the line wanted ("none": no line).
check_case() { # MODE WHAT WANT
	local mode=$1 what=$2 want=$3 out=$TMPD/$1.txt
	is "$STATUS" "$BASE_STATUS" "$what: the wait status is the same as without libcrash ($BASE_STATUS)"
	case $BASE_STATUS in "signal 6 "*) ok 0 "$what: died by SIGABRT" ;; *) ok 1 "$what: died by SIGABRT ($BASE_STATUS)" ;; esac
	check "$what: the program's own stderr is the same" cmp "$TMPD/$mode.base" "$out.stderr"
	check "$what: one report" test "$(grep -c '^\*\*\* end of libcrash report \*\*\*$' "$out")" = 1
	is "$(abort_line "$out")" "$want" "$what: abort message"
	if [ "$want" != none ]; then
		# Right after the cause line (and the signal's line before that).
		is "$(awk '/^cause: / { getline; print; exit }' "$out" | cut -c1-15)" "abort message: " \
			"$what: the line follows the cause line"
	fi
}

# glibc: the message is the last line glibc printed on stderr (the oracle), and names the check.
while read -r mode pattern; do
	[ -n "$mode" ] || continue
	run_both "$ABORTME" "$mode"
	# (qemu-user adds a line of its own about the signal after the program's.)
	oracle=$(grep -v -e '^abortme: start$' -e '^qemu: ' "$TMPD/$mode.base" | tail -n 1)
	check "glibc $mode: glibc's own message names it ($pattern)" grep -qF -- "$pattern" <<<"$oracle"
	check_case "$mode" "glibc $mode" "$oracle"
done <<'CASES'
assert Assertion `argc == 42 && "the answer"' failed.
dfree free(): double free detected in tcache 2
corrupt free(): invalid pointer
fortify *** buffer overflow detected ***: terminated
strcpy *** buffer overflow detected ***: terminated
smash *** stack smashing detected ***: terminated
CASES
run_both "$ABORTME" abort
check_case abort "glibc abort() alone" none

# libstdc++: the type (as its verbose terminate handler names it) and what() when it is
# std::runtime_error's or std::logic_error's.
while IFS='|' read -r mode want; do
	[ -n "$mode" ] || continue
	run_both "$ABORTCXX" "$mode"
	check_case "$mode" "c++ $mode" "$want"
	if [ "$want" != none ] && [ "$mode" != catch ]; then
		type=$(sed -n "s/^terminate called after throwing an instance of '\(.*\)'$/\1/p" "$TMPD/$mode.base")
		check "c++ $mode: the type is the one libstdc++ names ($type)" \
			test "${want#C++ exception $type}" != "$want"
	fi
done <<'CASES'
runtime|C++ exception std::runtime_error: boom: runtime
logic|C++ exception std::invalid_argument: bad argument 'x'
derived|C++ exception app::Derived: derived text
override|C++ exception app::Override
plain|C++ exception app::Plain
stdexc|C++ exception app::StdExc
noexcept|C++ exception std::runtime_error: thrown through noexcept
thread|C++ exception std::overflow_error: in a thread
rethrow|C++ exception std::out_of_range: kept\tand rethrown
catch|C++ exception std::length_error: being handled
terminate|none
CASES
done_testing
