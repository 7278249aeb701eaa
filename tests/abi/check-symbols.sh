#!/bin/bash
# ABI test: libcrash.so exports exactly crash_*, and imports only what
# tests/abi/allowlist.txt lists (each entry justified there).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
NM=${NM:-nm}
LIST="$top_srcdir/tests/abi/allowlist.txt"
so=$LIBCRASH
check "libcrash.so built" test -f "$so"

undef=$($NM -D --undefined-only "$so" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
allowed=$(grep -v '^#' "$LIST" | awk 'NF {print $1}' | sort -u)
bad=$(comm -23 <(echo "$undef") <(echo "$allowed"))
is "$bad" "" "every undefined symbol is on the allowlist"
[ -z "$bad" ] || echo "$bad" | sed 's/^/#   not allowed: /'
check "no malloc/stdio/dladdr imported" sh -c "! echo '$undef' | grep -qxE 'malloc|calloc|realloc|free|printf|fprintf|snprintf|dladdr|backtrace|fopen|fwrite'"

exports=$($NM -D --defined-only "$so" | awk '$2 ~ /[TWDBR]/ {print $3}' | sed 's/@.*//' | sort -u)
others=$(echo "$exports" | grep -v '^crash_' | grep -vxE '_init|_fini|_edata|_end|__bss_start' || true)
is "$others" "" "exports are crash_* only"
for f in crash_install crash_uninstall crash_thread_init crash_backtrace crash_backtrace_with crash_report_fd; do
	check "exports $f" sh -c "echo '$exports' | grep -qx $f"
done
# Imports that take locks (class install) are unreachable from the signal
# handler: every function that refers to them, and to the entry points that
# do, is one of the install paths below, and those are reached only from the
# preload constructor or the application (the handler never calls them).
# Direct references only; the disassembler of the target's binutils.
nm1=${NM%% *}
OBJDUMP=${OBJDUMP:-${nm1%nm}objdump}
dis=$($OBJDUMP -d --no-show-raw-insn "$so" 2>/dev/null || true)
if echo "$dis" | grep -q '<crash_install>:$'; then
	refs() { # SYMBOL-REGEX: the functions that refer to it
		echo "$dis" | awk -v re="^<($1)(@plt)?>\$" '/^[0-9a-f]+ <.*>:$/ {f = $2; next}
			$NF ~ re {sub(/^</, "", f); sub(/>:$/, "", f); sub(/\..*/, "", f); print f}' |
			sort -u | tr '\n' ' '
	}
	is "$(refs 'dl_iterate_phdr')" "cr_modules_snapshot " "dl_iterate_phdr: only the module snapshot"
	is "$(refs 'cr_modules_snapshot')" "crash_install " "the snapshot: only crash_install"
	is "$(refs 'pthread_mutex_lock|pthread_mutex_unlock')" "crash_install crash_uninstall " \
		"the install lock: only crash_install and crash_uninstall"
	is "$(refs 'crash_install|crash_uninstall')" "crash_preload " \
		"crash_install/uninstall: only the preload constructor calls them"
else
	skip "install-only imports unreachable from the handler" "no disassembler for this target ($OBJDUMP)"
fi

# Every allowlist entry has a class and a reason.
bad=$(grep -v '^#' "$LIST" | awk 'NF && ($2 !~ /^(as-safe|linux|glibc-as|install|toolchain|data|pure)$/ || $0 !~ /-- ./)')
is "$bad" "" "allowlist entries are classified and justified"
done_testing
