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
# SYMBOL-REGEX: the functions in disassembly $2 (default: libcrash.so's) that
# refer to it.  An address after "#" is the disassembler's guess from the
# registers it tracks: on a load or store (riscv64 objdump once named
# crash_uninstall on a byte load through a pointer getenv returned) it is
# never a call, so it is not counted; on a jalr (riscv64's auipc + jalr
# call) or an address computation it is.
refs() {
	printf '%s\n' "${2-$dis}" | awk -v re="^<($1)(@plt)?>\$" '
		/^[0-9a-f]+ <.*>:$/ {f = $2; next}
		$NF !~ re {next}
		/#/ && $2 ~ /^(l[bhwd]u?|s[bhwd]|fl[wd]|fs[wd]|ld[rp].*|st[rp].*|ld\.[bhwd]u?|st\.[bhwd]|ldptr\..*|stptr\..*|mov[a-z]*)$/ {next}
		{sub(/^</, "", f); sub(/>:$/, "", f); sub(/\..*/, "", f); print f}' |
		sort -u | tr '\n' ' '
}
# The rule on made-up disassembly (riscv64, aarch64, x86_64 forms).
fake='0000000000001000 <caller_jal>:
    1000:	jal	ra,2000 <target@plt>
0000000000001010 <caller_jalr>:
    1010:	auipc	ra,0x1
    1014:	jalr	-16(ra) # 2000 <target@plt>
0000000000001020 <loader>:
    1020:	lbu	a1,0(s2) # 2000 <target>
    1024:	ldr	x0, [x1] # 2000 <target>
    1028:	mov	0x10(%rip),%rax        # 2000 <target>
0000000000001030 <caller_bl>:
    1030:	bl	2000 <target@plt>
0000000000001040 <caller_call>:
    1040:	call	2000 <target@plt>
0000000000001050 <taker>:
    1050:	lea	0x10(%rip),%rdi        # 2000 <target>'
is "$(refs target "$fake")" "caller_bl caller_call caller_jal caller_jalr taker " \
	"references: calls and address computations, not loads or stores"
if echo "$dis" | grep -q '<crash_install>:$'; then
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
