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
check "no malloc/stdio/dladdr/dl_iterate_phdr imported" sh -c "! echo '$undef' | grep -qxE 'malloc|calloc|realloc|free|printf|fprintf|snprintf|dladdr|dl_iterate_phdr|backtrace|fopen|fwrite'"
# Thread-local storage only of the initial-exec model (a thread's remembered
# stack, libcrash/mem.c): __tls_get_addr may allocate.
check "no __tls_get_addr (TLS initial-exec only)" sh -c "! echo '$undef' | grep -qxE '__tls_get_addr|__tls_get_offset'"
# ... nor TLS descriptors or module ids (aarch64's general dynamic model goes
# through a TLSDESC resolver, no import): only offsets from the thread pointer.
nm0=${NM%% *}
READELF=${READELF:-${nm0%nm}readelf}
if relocs=$($READELF -rW "$so" 2>/dev/null); then
	is "$(printf '%s\n' "$relocs" | grep -cE 'TLSDESC|DTPMOD|DTPOFF|TLS_DTP' || true)" 0 \
		"no TLS descriptor or module-id relocations"
else
	skip "no TLS descriptor or module-id relocations" "no readelf for this target ($READELF)"
fi

exports=$($NM -D --defined-only "$so" | awk '$2 ~ /[TWDBR]/ {print $3}' | sed 's/@.*//' | sort -u)
# crash_*, and what libcrash.so takes over from glibc (libcrash/interpose.c).
INTERPOSED="__sysv_signal bsd_signal pthread_create sigaction sigignore signal sigset sysv_signal"
others=$(echo "$exports" | grep -v '^crash_' | grep -vxE '_init|_fini|_edata|_end|__bss_start' || true)
is "$(echo $others)" "$INTERPOSED" "exports are crash_* and the interposed $INTERPOSED"
for f in crash_install crash_uninstall crash_thread_init crash_backtrace crash_backtrace_with crash_report_fd; do
	check "exports $f" sh -c "echo '$exports' | grep -qx $f"
done
# Imports of class install (locks, gnu_get_libc_version) are unreachable from the signal
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
# call) or an address computation it is, but aarch64's adrp, which gives a
# 4 KiB page's address and names whatever symbol starts that page.
refs() {
	printf '%s\n' "${2-$dis}" | awk -v re="^<($1)(@plt)?>\$" '
		/^[0-9a-f]+ <.*>:$/ {f = $2; pa = ""; next}
		# riscv64: an address is auipc + add(i); an add(i) or add(i)w whose
		# register no auipc just set is arithmetic that objdump named anyway
		# (gcc 12: "add a1,a1,12 # 200c <sysv_signal>" in a loop over a
		# constant; clang: "lui a1,0x13; addw a1,a1,-1216 # 12b40
		# <crash_preload>", an offset into a struct that equals that address).
		{ was = pa; pa = ($2 == "auipc") ? substr($3, 1, index($3, ",") - 1) : "" }
		$NF !~ re {next}
		/#/ && $2 ~ /^addi?w?$/ && was == "" {next}
		/#/ && $2 ~ /^addi?w?$/ && substr($3, index($3, ",") + 1) !~ "^" was "," {next}
		/#/ && $2 ~ /^(l[bhwd]u?|s[bhwd]|fl[wd]|fs[wd]|ld[rp].*|st[rp].*|ld\.[bhwd]u?|st\.[bhwd]|ldptr\..*|stptr\..*|mov[a-z]*)$/ {next}
		$2 == "adrp" {next}
		{sub(/^</, "", f); sub(/>:$/, "", f); sub(/\..*/, "", f); print f}' |
		sort -u | tr '\n' ' '
}
# The rule on made-up disassembly (riscv64, aarch64, x86_64 forms).
fake='0000000000001000 <caller_jal>:
    1000:	jal	ra,2000 <target@plt>
0000000000001010 <caller_jalr>:
    1010:	auipc	ra,0x1
    1014:	jalr	-16(ra) # 2000 <target@plt>
0000000000001018 <arith>:
    1018:	lui	a1,0x2
    101c:	addw	a1,a1,0 # 2000 <target>
0000000000001020 <loader>:
    1020:	lbu	a1,0(s2) # 2000 <target>
    1024:	ldr	x0, [x1] # 2000 <target>
    1028:	mov	0x10(%rip),%rax        # 2000 <target>
0000000000001030 <caller_bl>:
    1030:	bl	2000 <target@plt>
0000000000001040 <caller_call>:
    1040:	call	2000 <target@plt>
0000000000001050 <taker>:
    1050:	lea	0x10(%rip),%rdi        # 2000 <target>
0000000000001060 <pager>:
    1060:	adrp	x5, 2000 <target>'
is "$(refs target "$fake")" "caller_bl caller_call caller_jal caller_jalr taker " \
	"references: calls and address computations, not loads or stores"
# Every function from which a call chain reaches SYMBOL-REGEX (its callers,
# theirs, and so on), sorted; the compilers inline differently, so the test
# is on this closure, not on the direct callers alone.
closure() { # SYMBOL-REGEX [DISASSEMBLY]
	local re=$1 all="" f new
	for _ in 1 2 3 4 5 6 7 8; do
		new=""
		for f in $(refs "$re" "${2-$dis}"); do
			case " $all " in *" $f "*) ;; *) all="$all $f"; new=1 ;; esac
		done
		[ -z "$new" ] && break
		re=$(echo $all | tr ' ' '|')
	done
	echo $all | tr ' ' '\n' | sort | tr '\n' ' '
}
fake2='0000000000001000 <a>:
    1000:	call	2000 <lockit@plt>
0000000000001010 <b>:
    1010:	call	1000 <a>
0000000000001020 <c>:
    1020:	jmp	1010 <b>
0000000000001030 <d>:
    1030:	mov	0x10(%rip),%rax        # 1000 <a>'
is "$(closure 'lockit' "$fake2")" "a b c " "closure: callers of callers, not loads"
if echo "$dis" | grep -q '<crash_install>:$'; then
	# The install paths: the constructor, the exported install/uninstall and
	# what only they call.  Nothing else may reach the loader's or our lock.
	install_paths=" crash_preload crash_install crash_uninstall cr_install_env install cr_abort_resolve "
	imports=$(grep -v '^#' "$LIST" | awk '$2 == "install" {print $1}' | tr '\n' '|')
	c=$(closure "${imports%|}")
	bad=""
	for f in $c; do
		case "$install_paths" in *" $f "*) ;; *) bad="$bad $f" ;; esac
	done
	is "$bad" "" "install imports (locks, the glibc version): reached from the install paths only ($c)"
	case " $c " in *" crash_preload "*) ok=1 ;; *) ok=0 ;; esac
	check "the closure reaches the preload constructor" test $ok = 1
	is "$(refs 'crash_install|crash_uninstall|cr_install_env')" "crash_preload " \
		"crash_install/uninstall: only the preload constructor calls them"
	# The imports of class interpose serve the application's own calls of the
	# functions libcrash takes over (interpose.c), never the handler.
	imports=$(grep -v '^#' "$LIST" | awk '$2 == "interpose" {print $1}' | tr '\n' '|')
	c=$(closure "${imports%|}")
	bad=""
	for f in $c; do
		case " $INTERPOSED have_key thread_start set_simple " in *" $f "*) ;; *) bad="$bad $f" ;; esac
	done
	is "$bad" "" "interpose imports: reached from the interposed functions only ($c)"
else
	skip "install-only imports unreachable from the handler" "no disassembler for this target ($OBJDUMP)"
fi

# .data in one page where it starts a page (x86_64, aarch64 here): the row
# cache's generation and the CIE memo, which a process's first capture reads
# and writes, are there so that it faults on no page the loader has not
# written (its relocations), and a .data one page longer is one more page
# the loader writes at every start-up (libcrash/cfi/cache.c,
# docs/performance.md, issue 20).
if data=$($READELF -SW "$so" 2>/dev/null | awk '$2 == ".data" { print $4, $6 }') && [ -n "$data" ]; then
	set -- $data
	if [ $((16#$1 % 4096)) -eq 0 ]; then
		check ".data fits its page (0x$2 bytes)" test $((16#$2)) -le 4096
	else
		skip ".data fits its page" ".data starts inside a page here (0x$1)"
	fi
else
	skip ".data fits its page" "no readelf for this target ($READELF)"
fi

# Every allowlist entry has a class and a reason.
bad=$(grep -v '^#' "$LIST" | awk 'NF && ($2 !~ /^(as-safe|linux|glibc-as|install|interpose|toolchain|data|pure)$/ || $0 !~ /-- ./)')
is "$bad" "" "allowlist entries are classified and justified"
done_testing
