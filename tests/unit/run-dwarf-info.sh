#!/bin/bash
# dwarf/info.c (with line.c) against `addr2line -a -f -i`: programs compiled
# here, C (gcc, clang) and C++ (g++, clang++) with several levels of static
# inline and always_inline functions, a C++ template member and a lambda
# inlined, -O0 and -O2, -gdwarf-4 and -gdwarf-5, plus libcrash's DWARF
# decoders as a shared object (gcc, clang); every instruction address.
# tests/unit/dwarf-info-cli -b prints the chain, innermost first, as
# addr2line does (names mangled, as the DWARF gives them; -b copies
# binutils' stateful use of ELF symbol names for C++ functions that have no
# linkage name: see the driver).  Agreement must be complete but for these
# named exceptions, counted per module and in total:
#   nosub       no DW_TAG_subprogram holds pc (padding after a function,
#               code without debug information): addr2line names the ELF
#               symbol before pc, which is not .debug_info's to say.
#   bfd-file0   binutils before 2.42 starts the line program's file register
#               at 0 in DWARF 5 (DWARF 5 6.2.2 Table 6.4 says 1), see
#               run-dwarf-line.sh; only the files of the answer differ.
#   bfd-lost    binutils 2.40 drops inlined frames that llvm-addr2line and
#               we report: clang's DWARF 5 gives those inlines' DW_AT_ranges
#               as DW_FORM_rnglistx, which bfd does not implement for them,
#               so they never enter its address map (as analysed in
#               scylladb/seastar pull request 2846, which moved to
#               llvm-addr2line for that reason).
#   bfd-names   only function names differ, where binutils' name memo (see
#               the driver's -b) depends on the order of earlier queries in
#               a way the driver does not copy; counted only where
#               llvm-addr2line prints what one of the two prints.
# bfd-file0 and bfd-lost count only in DWARF 5 modules and where
# llvm-addr2line (if installed) prints exactly what we print.  Skipped, with the reason, under a runner ($RUN) or
# without addr2line/objdump/a compiler.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CLI="$top_builddir/tests/unit/dwarf-info-cli"
LLVM_A2L=$(command -v llvm-addr2line || true)

if [ -n "$RUN" ]; then
	skip "addr2line -i agreement" "cross build (\$RUN set): no compiler for the target here"
	done_testing
	exit
fi
for t in addr2line objdump; do
	if ! command -v $t >/dev/null; then
		skip "addr2line -i agreement" "no $t"
		done_testing
		exit
	fi
done

mkdir -p "$TMPD/src"
cat >"$TMPD/src/inl.h" <<'SRC'
#define AI static inline __attribute__((always_inline))
AI int leaf(int x)
{
	return x * 3 + (x >> 2);
}

AI int mid(int x)
{
	int s = 0;

	for (int i = 0; i < x; i++)
		s += leaf(i + x);
	return s;
}

static inline int top(int x)
{
	if (x & 1)
		return mid(x) - 1;
	return mid(x + 1) + leaf(x);
}
SRC
cat >"$TMPD/src/prog.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include "inl.h"

int other(int);

static int walk(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += top(i) ^ other(i);
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	printf("%d\n", walk(n));
	return 0;
}
SRC
cat >"$TMPD/src/other.c" <<'SRC'
#include "inl.h"

int other(int x)
{
	switch (x & 3) {
	case 0:
		return top(x) + 1;
	case 1:
		return leaf(x) - 7;
	default:
		return mid(x * 3);
	}
}
SRC
cat >"$TMPD/src/prog.cc" <<'SRC'
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "inl.h"

namespace ns {
template <typename T> struct Acc {
	T v;
	__attribute__((always_inline)) inline void add(T x)
	{
		v += static_cast<T>(leaf(static_cast<int>(x)));
	}
	T get() const;
};

template <typename T> T Acc<T>::get() const
{
	return v * 2;
}

template <typename T> __attribute__((always_inline)) inline T twice(T x)
{
	Acc<T> a{0};
	a.add(x);
	a.add(x + 1);
	return a.get();
}
} // namespace ns

static int apply(const std::vector<int> &v)
{
	int s = 0;
	auto f = [&s](int x) __attribute__((always_inline)) { s += ns::twice(x) + top(x); };

	for (int x : v)
		f(x);
	return s;
}

extern "C" int plain(int x)
{
	return ns::twice<long>(x) > 10 ? mid(x) : 0;
}

int main(int argc, char **argv)
{
	std::vector<int> v;

	for (int i = 0; i < (argc > 1 ? atoi(argv[1]) : 10); i++)
		v.push_back(i);
	std::printf("%d %d\n", apply(v), plain(argc));
	return 0;
}
SRC
LIBSRC="libcrash/inflate.c libcrash/dwarf/line.c libcrash/dwarf/info.c libcrash/cursor.c"

# compare NAME MODULE V5: one TAP line with the agreement figures.
compare() {
	local name=$1 mod=$2 v5=$3
	objdump -d --no-show-raw-insn "$mod" |
		awk '/^[0-9a-f]+ <.*>:$/ {
			keep = $2 !~ /@plt>:$/ && $2 !~ /^<(_start|_init|_fini|frame_dummy)>:$/ &&
				$2 !~ /^<(deregister_tm_clones|register_tm_clones|__do_global_dtors_aux)>:$/
		}
		keep && /^ +[0-9a-f]+:/ { sub(":", "", $1); print $1 }' >"$TMPD/pcs"
	addr2line -a -f -i -e "$mod" <"$TMPD/pcs" >"$TMPD/a2l"
	if [ -n "$LLVM_A2L" ]; then
		"$LLVM_A2L" -a -f -i -e "$mod" <"$TMPD/pcs" >"$TMPD/llvm"
	else
		: >"$TMPD/llvm"
	fi
	if ! "$CLI" -b "$mod" <"$TMPD/pcs" >"$TMPD/ours" 2>"$TMPD/err"; then
		ok 1 "$name: dwarf-info-cli runs"
		sed 's/^/#   /' "$TMPD/err"
		return
	fi
	# Blocks by address (addr2line pads it, llvm does not); llvm's line 0 is
	# addr2line's '?'; discriminators are left out.
	awk -v v5="$v5" -v fig="$TMPD/figures" '
		FNR == 1 { f++ }
		/^0x[0-9a-f]+$/ { k = $0; sub(/^0x0*/, "", k); if (f == 1) order[++n] = k; next }
		{
			l = $0
			sub(/ \(discriminator [0-9]+\)$/, "", l)
			if (f == 3)
				sub(/:0$/, ":?", l)
			B[f, k] = B[f, k] l "\n"
		}
		function frames(s) { return gsub(/\n/, "\n", s) / 2 }
		function tail(s) { return substr(s, match(s, /:[^:]*$/)) }
		END {
			inl = 0
			for (i = 1; i <= n; i++) {
				k = order[i]; a = B[1, k]; o = B[2, k]
				inl += frames(o) - 1
				if (a == o) { agree++; continue }
				if (o ~ /^\?\?\n/ && frames(o) == 1 && frames(a) == 1) { nosub++; continue }
				llvm = !((3, k) in B) || B[3, k] == o
				if (llvm || B[3, k] == a) {
					na = split(a, av, "\n"); no = split(o, ov, "\n")
					files = names = na == no
					for (j = 1; j < na && na == no; j++) {
						if (j % 2 == 1 && av[j] != ov[j])
							files = 0
						if (j % 2 == 0 && av[j] != ov[j])
							names = 0
						if (j % 2 == 0 && tail(av[j]) != tail(ov[j]))
							files = 0
					}
					if (llvm && v5 && files) { file0++; continue }
					if (names) { bnames++; continue }
					if (llvm && v5 && frames(a) < frames(o)) { lost++; continue }
				}
				bad++
				if (bad <= 5) {
					gsub(/\n/, " | ", a)
					gsub(/\n/, " | ", o)
					printf "#   0x%s: addr2line %s\n#   ours %s\n", k, a, o
				}
			}
			printf "%d %d %d %d %d %d %d %d\n", n, agree, inl, nosub, file0, lost, bnames,
				bad > fig
		}' "$TMPD/a2l" "$TMPD/ours" "$TMPD/llvm" >"$TMPD/diffs"
	read -r total agree inl nosub file0 lost bnames bad <"$TMPD/figures"
	ok $([ "$bad" = 0 ] && [ "$total" -gt 0 ] && echo 0 || echo 1) "$name: $agree of $total pcs \
agree ($inl inlined frames), $nosub nosub, $file0 bfd-file0, $lost bfd-lost, $bnames bfd-names, \
$bad differ"
	cat "$TMPD/diffs"
	for f in total agree nosub file0 lost bnames bad; do
		eval "T_$f=\$((T_$f + $f))"
	done
}

T_total=0 T_agree=0 T_nosub=0 T_file0=0 T_lost=0 T_bnames=0 T_bad=0
for cc in gcc clang; do
	cxx=$([ $cc = gcc ] && echo g++ || echo clang++)
	for o in 0 2; do
		for d in 4 5; do
			v=O$o-dwarf$d
			v5=$([ $d = 5 ] && echo 1 || echo 0)
			flags="-g -gdwarf-$d -O$o"
			for lang in c c++; do
				if [ $lang = c ]; then
					comp=$cc src="prog.c other.c"
				else
					comp=$cxx src=prog.cc
				fi
				if ! command -v $comp >/dev/null; then
					skip "$lang $comp $v" "no $comp"
					continue
				fi
				if (cd "$TMPD/src" && $comp $flags $src -o "$TMPD/prog") 2>"$TMPD/err"
				then
					compare "$lang $comp $v" "$TMPD/prog" $v5
				else
					ok 1 "$lang $comp $v: builds"
					sed 's/^/#   /' "$TMPD/err"
				fi
			done
		done
	done
	command -v $cc >/dev/null || continue
	# Real code with absolute paths: libcrash's DWARF decoders as a shared object.
	if (cd "$top_srcdir" && $cc -g -gdwarf-5 -O2 -std=gnu11 -D_GNU_SOURCE -fPIC -shared \
		-Iinclude -Ilibcrash $LIBSRC -o "$TMPD/lib.so") 2>"$TMPD/err"; then
		compare "lib $cc O2-dwarf5" "$TMPD/lib.so" 1
	else
		ok 1 "lib $cc: builds"
		sed 's/^/#   /' "$TMPD/err"
	fi
done
echo "# total: $T_agree of $T_total pcs agree with addr2line -f -i; exceptions: $T_nosub nosub," \
	"$T_file0 bfd-file0, $T_lost bfd-lost, $T_bnames bfd-names; $T_bad differ"
done_testing
