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
# Every allowlist entry has a class and a reason.
bad=$(grep -v '^#' "$LIST" | awk 'NF && ($2 !~ /^(as-safe|linux|glibc-as|install|toolchain|data|pure)$/ || $0 !~ /-- ./)')
is "$bad" "" "allowlist entries are classified and justified"
done_testing
