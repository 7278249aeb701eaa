#!/bin/bash
# dwarf/line.c against addr2line: programs compiled here with gcc and clang,
# -O0 and -O2, -gdwarf-4 and -gdwarf-5 (a small program with a header in a
# subdirectory and a #line directive, and libcrash's own decoders as a shared
# object), every instruction address and the byte after it: FILE:LINE from
# tests/unit/dwarf-line-cli, the line table's answer, against addr2line's
# innermost answer (no -i).  One module again with zlib-compressed debug
# sections (inflate.c on the way).  Agreement must be complete but for the
# named exceptions, which are counted:
#   bfd-file0  binutils before 2.42 starts the file register of a DWARF 5
#              program at 0 instead of 1 (DWARF 5 6.2.2 Table 6.4), so a
#              sequence that never sets it names the primary source file;
#              counted only where the line agrees, addr2line names a primary
#              source file, and llvm-addr2line (if installed) agrees with us.
# Forms that say the same thing are equal: addr2line prints a line 0 as '?',
# and where no row covers a pc it prints ??:? or the name of the CU whose
# range holds the pc with line '?'; the driver prints ??:0 there.
# Skipped, with the reason, under a runner ($RUN: a cross build has no
# compiler for the target here) or without addr2line/objdump/a compiler.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CLI="$top_builddir/tests/unit/dwarf-line-cli"
LLVM_A2L=$(command -v llvm-addr2line || true)

if [ -n "$RUN" ]; then
	skip "addr2line agreement" "cross build (\$RUN set): no compiler for the target here"
	done_testing
	exit
fi
for t in addr2line objdump; do
	if ! command -v $t >/dev/null; then
		skip "addr2line agreement" "no $t"
		done_testing
		exit
	fi
done

# The small program: main.c with an inline header from sub/, lib.c with a
# #line directive; compiled from its directory with relative paths, so that
# DWARF 4 file entries use directory 0 and relative directories.
mkdir -p "$TMPD/src/sub"
cat >"$TMPD/src/sub/util.h" <<'EOF'
static inline int sq(int x)
{
	return x * x;
}

static inline int clampi(int v, int lo, int hi)
{
	if (v < lo)
		return lo;
	return v > hi ? hi : v;
}
EOF
cat >"$TMPD/src/main.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include "sub/util.h"

int lib(int);
int table(const char *);

static int walk(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++) {
		s += sq(i) + lib(i);
		if (s > 100000)
			s = clampi(s / 3, 10, 5000);
	}
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	printf("%d %d\n", walk(n), table(argv[0]));
	return 0;
}
EOF
cat >"$TMPD/src/lib.c" <<'EOF'
#include "sub/util.h"

int lib(int x)
{
	switch (x & 3) {
	case 0:
		return sq(x) + 1;
	case 1:
		return x - 7;
	default:
		return clampi(x * 3, 0, 77);
	}
}
#line 500 "generated.y"
int table(const char *s)
{
	int h = 0;

	while (*s)
		h = h * 31 + *s++;
	return h & 0xff;
}
EOF
LIBSRC="libcrash/inflate.c libcrash/dwarf/line.c libcrash/cursor.c"

# compare NAME MODULE: one TAP line with the agreement figure.
compare() {
	local name=$1 mod=$2 primary
	objdump -d --no-show-raw-insn "$mod" |
		awk 'function hex(s,  v, i) {
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		/^[0-9a-f]+ <.*>:$/ {
			keep = $2 !~ /@plt>:$/ && $2 !~ /^<(_start|_init|_fini|frame_dummy)>:$/ &&
				$2 !~ /^<(deregister_tm_clones|register_tm_clones|__do_global_dtors_aux)>:$/
		}
		keep && /^ +[0-9a-f]+:/ {
			sub(":", "", $1)
			print $1
			printf "%x\n", hex($1) + 1
		}' \
		>"$TMPD/pcs"
	addr2line -e "$mod" <"$TMPD/pcs" | sed 's/ (discriminator [0-9]*)$//' >"$TMPD/a2l"
	if [ -n "$LLVM_A2L" ]; then
		"$LLVM_A2L" -e "$mod" <"$TMPD/pcs" | sed 's/ (discriminator [0-9]*)$//' >"$TMPD/llvm"
	else
		sed 's/.*/-/' "$TMPD/pcs" >"$TMPD/llvm"
	fi
	if ! "$CLI" "$mod" <"$TMPD/pcs" >"$TMPD/ours" 2>"$TMPD/err"; then
		ok 1 "$name: dwarf-line-cli runs"
		sed 's/^/#   /' "$TMPD/err"
		return
	fi
	primary="main.c lib.c generated.y $LIBSRC"
	paste -d '\t' "$TMPD/pcs" "$TMPD/a2l" "$TMPD/ours" "$TMPD/llvm" |
		awk -F '\t' -v primary="$primary" -v v5="$3" -v fig="$TMPD/figures" '
		function base(p) { sub(/.*\//, "", p); return p }
		function line(p) { sub(/.*:/, "", p); return p }
		BEGIN {
			n = split(primary, pv, " ")
			for (i = 1; i <= n; i++)
				prim[base(pv[i])] = 1
		}
		{
			total++
			a = $2; o = $3
			if (a == o || (o ~ /:0$/ && a == substr(o, 1, length(o) - 1) "?") ||
			    (o == "??:0" && a ~ /:\?$/)) {
				agree++
				if (o != "??:0")
					rows++
				next
			}
			afile = substr(a, 1, length(a) - length(line(a)) - 1)
			if (v5 && line(a) == line(o) && prim[base(afile)] && ($4 == "-" || $4 == o)) {
				file0++
				next
			}
			bad++
			if (bad <= 10)
				printf "#   0x%s: addr2line %s, ours %s\n", $1, a, o
		}
		END {
			verdict = bad ? "bad" : "ok"
			printf "%s %d %d %d %d %d\n", verdict, total, agree, rows, file0, bad > fig
		}' >"$TMPD/diffs"
	read -r verdict total agree rows file0 bad <"$TMPD/figures"
	ok $([ "$verdict" = ok ] && [ "$total" -gt 0 ] && echo 0 || echo 1) "$name: $agree of $total pcs \
agree with addr2line ($rows on a row), $file0 bfd-file0, $bad differ"
	cat "$TMPD/diffs"
	TOTAL=$((TOTAL + total))
	AGREE=$((AGREE + agree))
	FILE0=$((FILE0 + file0))
	BAD=$((BAD + bad))
}

TOTAL=0 AGREE=0 FILE0=0 BAD=0
for cc in gcc clang; do
	if ! command -v $cc >/dev/null; then
		skip "$cc builds" "no $cc"
		continue
	fi
	for o in 0 2; do
		for d in 4 5; do
			v=$cc-O$o-dwarf$d
			v5=$([ $d = 5 ] && echo 1 || echo 0)
			cflags="-g -gdwarf-$d -O$o"
			if (cd "$TMPD/src" && $cc $cflags main.c lib.c -o "$TMPD/prog-$v") \
				2>"$TMPD/err"; then
				compare "prog $v" "$TMPD/prog-$v" $v5
			else
				ok 1 "prog $v: builds"
				sed 's/^/#   /' "$TMPD/err"
			fi
			# Real code, with absolute paths: libcrash's decoders as a shared object.
			if (cd "$top_srcdir" && $cc $cflags -std=gnu11 -D_GNU_SOURCE -fPIC -shared \
				-Iinclude -Ilibcrash $LIBSRC -o "$TMPD/lib-$v.so") 2>"$TMPD/err"; then
				compare "lib $v" "$TMPD/lib-$v.so" $v5
			else
				ok 1 "lib $v: builds"
				sed 's/^/#   /' "$TMPD/err"
			fi
		done
	done
	# The same module with its debug sections compressed (SHF_COMPRESSED, zlib).
	if objcopy --compress-debug-sections=zlib "$TMPD/lib-$cc-O2-dwarf5.so" "$TMPD/z-$cc.so" \
		2>/dev/null; then
		compare "lib $cc-O2-dwarf5, compressed debug sections" "$TMPD/z-$cc.so" 1
	else
		skip "lib $cc-O2-dwarf5, compressed debug sections" "objcopy cannot compress"
	fi
done
echo "# total: $AGREE of $TOTAL pcs agree with addr2line, $FILE0 bfd-file0 exceptions, $BAD differ"
done_testing
