#!/bin/bash
# tests/valgrind-units.sh DIR PROGRAM...: each unit test program (paths from the current
# directory, a build tree) under valgrind's memcheck with leak checking, $CR_JOBS (2) at a
# time.  DIR/list names them in order; DIR/N holds the Nth one's exit status (0: no error,
# 99: valgrind found one) and DIR/N.err what valgrind said.  Exits 0: the caller
# (tests/run-all.sh, through make distcheck's installcheck-local) counts the results.
set -u
dir=$1
shift
jobs=${CR_JOBS:-2}
mkdir -p "$dir"
: >"$dir/list"
vg() { # PROGRAM N
	valgrind -q --error-exitcode=99 --leak-check=full "./$1" >/dev/null 2>"$dir/$2.err"
	echo $? >"$dir/$2"
}
i=0
for t in "$@"; do
	i=$((i + 1))
	echo "$t" >>"$dir/list"
	while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n; done
	vg "$t" "$i" &
done
wait
exit 0
