#!/bin/bash
# The JSON report (CRASH_FORMAT=json, both; docs/report-format.md, "JSON") of real crashes:
# parsed by Python's json, validated against docs/report.schema.json (python3-jsonschema),
# and compared fact by fact with the text report (tests/json/check-json.py): with
# CRASH_FORMAT=both, one process writes both and every fact must agree (pids, registers,
# memory, maps, every frame's pcs); with CRASH_FORMAT=json, the frames (module-relative pcs,
# modules, build-ids, names, offsets, files, lines, inline flags, tags) against a text run of
# the same crash.  Under qemu-user (make check-cross) the programs run in the guest and the
# checks on this machine.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CHECK=$top_srcdir/tests/json/check-json.py
SCHEMA=$top_srcdir/docs/report.schema.json
PY=$(command -v python3 || true)

if [ -z "$PY" ]; then
	if [ "${CI:-}" = true ]; then ok 1 "python3 is needed (tests/setup.sh installs it)"; else
		skip "JSON reports" "no python3"; fi
	done_testing
	exit
fi

# checks NAME JSON-FILE TEXT-FILE SAME: one report pair for check-json.py, queued: one Python
# run checks them all (checks_run, at the end), each check a TAP line.
CK_NAME=() CK_ARGS=()
checks() {
	CK_NAME+=("$1")
	CK_ARGS+=("$2" "$3" "$4")
}
checks_run() {
	local line out st k=0 name= fails=0 seen=()
	[ ${#CK_NAME[@]} -gt 0 ] || return 0
	out=$("$PY" "$CHECK" "$SCHEMA" "${CK_ARGS[@]}" 2>&1)
	st=$?
	if [ ${#CK_NAME[@]} = 1 ]; then
		out="REPORT 1"$'\n'"$out"$'\n'"STATUS 1 $st"
	fi
	while IFS= read -r line; do
		case $line in
		REPORT\ *) k=${line#REPORT } name=${CK_NAME[k - 1]} fails=0 ;;
		STATUS\ *)
			seen+=("$k")
			# A report whose checks failed without saying which (a Python exception).
			[ "${line##* }" = 0 ] || [ "$fails" = 1 ] || ok 1 "$name: check-json.py said status ${line##* }"
			;;
		PASS\ *) ok 0 "$name: ${line#PASS }" ;;
		FAIL\ *) ok 1 "$name: ${line#FAIL }"; fails=1 ;;
		SKIP\ *) skip "$name: ${line#SKIP }" "python3-jsonschema is not installed" ;;
		*) echo "# $line" ;;
		esac
	done <<<"$out"
	# Every report answered (check-json.py did not stop half-way).
	is "${#seen[@]}" "${#CK_NAME[@]}" "check-json.py answered for every report (status $st)"
}

# one NAME SIGNAL ENV... -- PROGRAM ARGS: json and both, against text.
one() {
	local name=$1 sig=$2 envs=()
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	local b=$TMPD/$name
	run_crash "$b.both" CRASH_OUTPUT="$b.both" CRASH_FORMAT=both "${envs[@]}" LD_PRELOAD="$LIBCRASH" -- "$@"
	STATUS=${STATUS##*$'\n'}	# waitsig's verdict, after the program's own output
	is "$STATUS" "signal $sig core 0" "$name both: died by signal $sig"
	check "$name both: the text report, then the JSON line" \
		awk '/^\*\*\* end of libcrash report/ { e = NR } /^\{/ { j = NR } END { exit !(e && j > e) }' "$b.both"
	checks "$name both" "$b.both" "$b.both" 1
	run_crash "$b.json" CRASH_OUTPUT="$b.json" CRASH_FORMAT=json "${envs[@]}" LD_PRELOAD="$LIBCRASH" -- "$@"
	STATUS=${STATUS##*$'\n'}
	is "$STATUS" "signal $sig core 0" "$name json: died by signal $sig"
	check "$name json: one line, nothing else" test "$(wc -l <"$b.json")" = 1
	run_crash "$b.txt" CRASH_OUTPUT="$b.txt" "${envs[@]}" LD_PRELOAD="$LIBCRASH" -- "$@"
	check "$name text: no JSON by default" test "$(grep -c '^{' "$b.txt")" = 0
	checks "$name json" "$b.json" "$b.txt" 0
}

one segv 11 -- "$DEMO/crashme" segv
one abort 6 -- "$DEMO/crashme" abort
one badpc 11 -- "$DEMO/crashme" badpc
one lib 11 -- "$DEMO/crashme" lib
one thread 11 -- "$DEMO/crashme" thread
one nofp 11 -- "$DEMO/crashme-nofp" segv
one all 11 CRASH_ENGINE=all -- "$DEMO/crashme" segv
one cxx-inline 11 -- "$DEMO/crashcxx" inline
one cxx-uncaught 6 -- "$DEMO/crashcxx" uncaught
one mangled 11 CRASH_SYMBOLS=mangled -- "$DEMO/crashcxx" inline
COEXIST=$top_builddir/tests/coexist/coexist
if [ -x "$COEXIST" ]; then
	one nested 6 -- "$COEXIST" end abort
	check "nested: raised_in_handler_of in the JSON" grep -q '"raised_in_handler_of":{"number":11,' "$TMPD/nested.json"
else
	skip "nested" "no tests/coexist/coexist"
fi
check "c++ inline: an inlined frame with file and line in the JSON" \
	grep -q '"inline":true' "$TMPD/cxx-inline.json"
check "c++ uncaught: the exception's type and what() as abort_message" \
	grep -q '"abort_message":"C++ exception std::runtime_error: crashcxx"' "$TMPD/cxx-uncaught.json"

# glibc's abort messages (tests/abort): the JSON's abort_message is the text's line.
ABORTME=$top_builddir/tests/abort/abortme
if [ -x "$ABORTME" ]; then
	one assert 6 -- "$ABORTME" assert
	check "assert: abort_message in the JSON" grep -q '"abort_message":"[^"]*Assertion' "$TMPD/assert.json"
	one dfree 6 -- "$ABORTME" dfree
	check "double free: abort_message in the JSON" grep -q '"abort_message":"free(): double free detected' "$TMPD/dfree.json"
else
	skip "abort messages" "no tests/abort/abortme"
fi

# Every thread (tests/threads: 18 threads blocked in different calls): both formats from one
# process, every other thread's id, name, reason, registers and frames alike.  (Not against
# a second run: a busy thread's pc is another each time.)
THRPROG=$top_builddir/tests/threads/threads
if [ -x "$THRPROG" ]; then
	run_crash "$TMPD/thr.both" CRASH_OUTPUT="$TMPD/thr.both" CRASH_FORMAT=both -- "$THRPROG" crash
	checks "threads both" "$TMPD/thr.both" "$TMPD/thr.both" 1
	check "threads both: more than 16 threads in the JSON" "$PY" -c '
import json, sys
j = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")][0]
sys.exit(not (len(j["threads"]) > 16 and j["other_threads"]["count"] == len(j["threads"]) - 1))' "$TMPD/thr.both"
else
	skip "threads" "no tests/threads/threads"
fi

# A directory: the .txt and its .json twin, same name.
mkdir -p "$TMPD/dir"
run_crash "$TMPD/dir.out" CRASH_OUTPUT="$TMPD/dir/" CRASH_FORMAT=both LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
txt=$(ls "$TMPD"/dir/crash-*.txt 2>/dev/null)
check "directory: one .txt" test "$(echo "$txt" | grep -c .)" = 1
check "directory: its .json beside it" test -s "${txt%.txt}.json"
[ -s "${txt%.txt}.json" ] && checks "directory" "${txt%.txt}.json" "$txt" 1
mkdir -p "$TMPD/dirj"
run_crash "$TMPD/dirj.out" CRASH_OUTPUT="$TMPD/dirj/" CRASH_FORMAT=json LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
check "directory, json: only a .json" test "$(ls "$TMPD"/dirj | grep -c '^crash-.*\.json$')/$(ls "$TMPD"/dirj | wc -l)" = 1/1

# crash_report_fd() (crashme assert: a requested report on stderr, then abort): both, on stderr.
run_crash "$TMPD/req" CRASH_FORMAT=both CRASH_OUTPUT="$TMPD/req.abort" LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" assert
check "requested: a JSON line on stderr" grep -q '^{"schema":"libcrash.report/1","kind":"requested"' "$TMPD/req.stderr"
checks "requested" "$TMPD/req.stderr" "$TMPD/req.stderr" 1
checks "requested, then abort" "$TMPD/req.abort" "$TMPD/req.abort" 1

# A fault inside the handler after the JSON report (CRASH_SELFTEST_FAULT): the line whole,
# the note on a line of its own.
run_crash "$TMPD/self.json" CRASH_OUTPUT="$TMPD/self.json" CRASH_FORMAT=json CRASH_SELFTEST_FAULT=1 LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
check "fault in the handler: the note on a line of its own" grep -qx 'libcrash: fault inside the crash handler; default action for signal 11' "$TMPD/self.json"
grep '^{' "$TMPD/self.json" >"$TMPD/self.line"
"$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMPD/self.line" 2>/dev/null
ok $? "fault in the handler: the JSON line before it parses"

# A bad value: one warning, and text.
run_crash "$TMPD/bad.txt" CRASH_OUTPUT="$TMPD/bad.txt" CRASH_FORMAT=yaml LD_PRELOAD="$LIBCRASH" -- "$DEMO/crashme" segv
check "CRASH_FORMAT=yaml: one warning" test "$(grep -c 'libcrash: CRASH_FORMAT=yaml: expected text, json or both; using text' "$TMPD/bad.txt.stderr")" = 1
check "CRASH_FORMAT=yaml: a text report" grep -q '^\*\*\* end of libcrash report' "$TMPD/bad.txt"
checks_run
done_testing
