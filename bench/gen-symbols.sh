#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/gen-symbols.sh OUTDIR [FUNCS [TUS [CHAIN]]]: writes the C++ sources of
# bench/symbols.sh's crashing program (issue 17, "Cost"): three modules (m0 the
# executable, m1 and m2 shared libraries), FUNCS functions each (default
# 17000: 51,000 in all, plus the chain), in TUS translation units each
# (default 8), and a chain of CHAIN functions (default 60) that goes
# m0 -> m1 -> m2 -> m0 -> ... and faults at its end, so the backtrace has
# CHAIN + 4 frames (main, __libc_start_call_main, __libc_start_main, _start).
#
# Names are C++ (nested namespaces, class and function templates, explicit
# specializations, const members, lambdas), every function distinct, so that
# each needs demangling.  Every odd link of the chain makes its call from an
# always_inline helper (every eighth from a helper two deep, some from a
# lambda), so the report has inline frames; the fillers use inline helpers too,
# so .debug_info has inlined subroutines everywhere, not only on the chain.
# Chain links are spread over the translation units, among the fillers.
#
# Plain bash and awk: python may not be installed before set-up.
set -euo pipefail
out=${1:?usage: gen-symbols.sh OUTDIR [FUNCS [TUS [CHAIN]]]}
funcs=${2:-17000}
tus=${3:-8}
chain=${4:-60}
mkdir -p "$out"
awk -v out="$out" -v funcs="$funcs" -v tus="$tus" -v chain="$chain" '
function ns(i) { return sprintf("bsym::m%d::c%02d", i % 3, i) }
# The call of link i (its kind is i % 4), with arguments A and the tag.
function call(i, a) {
	k = i % 4
	if (k == 0) return sprintf("%s::Link<long>::hop(%s, tag)", ns(i), a)
	if (k == 1) return sprintf("%s::step<%d>(%s, tag)", ns(i), i, a)
	if (k == 2) return sprintf("%s::Walker{%d}.go(%s, tag)", ns(i), i, a)
	return sprintf("%s::relay(%s, tag)", ns(i), a)
}
# What link i does in its inline helper or its body: call the next link, or
# fault at the end of the chain.
function next_(i, a) {
	if (i == chain - 1)
		return sprintf("bsym::poke(%s)", a)
	return call(i + 1, a)
}
function decl(i, f) {
	k = i % 4
	printf "namespace bsym { namespace m%d { namespace c%02d {\n", i % 3, i > f
	if (k == 0) print "template <typename T> struct BSYM_API Link { static T hop(T x, const char *tag); };" "\nextern template struct Link<long>;" > f
	if (k == 1) printf "template <int N> BSYM_API long step(long x, const char *tag);\ntemplate <> BSYM_API long step<%d>(long x, const char *tag);\n", i > f
	if (k == 2) print "struct BSYM_API Walker { long k; long go(long x, const char *tag) const; };" > f
	if (k == 3) print "BSYM_API long relay(long x, const char *tag);" > f
	print "} } }" > f
}
function head(i) {
	k = i % 4
	if (k == 0) return "template <typename T> T Link<T>::hop(T x, const char *tag)"
	if (k == 1) return sprintf("template <> long step<%d>(long x, const char *tag)", i)
	if (k == 2) return "long Walker::go(long x, const char *tag) const"
	return "long relay(long x, const char *tag)"
}
function link(i, f) {
	printf "namespace bsym { namespace m%d { namespace c%02d {\n", i % 3, i > f
	if (i % 2 == 1 && i % 8 == 7) {
		# two inline levels: helper -> deeper -> the call
		printf "template <typename T> __attribute__((always_inline)) inline T deeper(T x, const char *tag)\n{\n\tT r = %s;\n\treturn r * 5 + 2;\n}\n", next_(i, "x + 1") > f
		printf "template <typename T, int N> __attribute__((always_inline)) inline T carry(T x, const char *tag)\n{\n\tT r = deeper<T>(x + N, tag);\n\treturn r * 3 + 1;\n}\n" > f
	} else if (i % 2 == 1 && i % 8 != 5) {
		printf "template <typename T, int N> __attribute__((always_inline)) inline T carry(T x, const char *tag)\n{\n\tT r = %s;\n\treturn r * 3 + 1;\n}\n", next_(i, "x + N") > f
	}
	print head(i) > f
	print "{" > f
	if (i % 8 == 5) {
		printf "\tauto hop = [tag](long v) {\n\t\tlong r = %s;\n\t\treturn r + 7;\n\t};\n", next_(i, "v") > f
		printf "\tlong r = hop(x + %d);\n", i > f
	} else if (i % 2 == 1)
		printf "\tlong r = carry<long, %d>(x, tag);\n", i > f
	else
		printf "\tlong r = %s;\n", next_(i, sprintf("x + %d", i)) > f
	printf "\tBSYM_KEEP();\n\treturn r ^ %d;\n}\n", i > f
	if (i % 4 == 0) print "template struct Link<long>;" > f
	print "} } }" > f
}
# Filler j of module m (a global number g): one of five shapes.
function filler(m, j, g, f,   k, n) {
	k = g % 5
	n = g % 13 + 1
	if (k == 0)
		printf "long f%05d(long x, const Rec &r)\n{\n\tlong y = mix<%d>(x) + r.a;\n\treturn y * %d + r.b;\n}\n", g, n, g > f
	else if (k == 1)
		printf "template <typename T> T t%05d(T x, unsigned s)\n{\n\tT y = x ^ (T)%d;\n\treturn fold<T, %d>(y, s);\n}\ntemplate int t%05d<int>(int, unsigned);\n", g, g, n, g > f
	else if (k == 2)
		printf "template <> long Box<long, %d>::get(long x) const\n{\n\tlong y = mix<%d>(v + x);\n\treturn y - %d;\n}\n", g, n, g > f
	else if (k == 3)
		printf "namespace inner { double h%05d(double d, char c)\n{\n\tdouble y = d * %d.5;\n\treturn y + fold<int, %d>(c, %d);\n}\n}\n", g, g, n, g % 31 > f
	else
		printf "long cb%05d(long (*fn)(long), long x)\n{\n\tlong y = fn(x + %d);\n\treturn y + mix<%d>(y) * %d;\n}\n", g, g, n, g % 97 + 2 > f
}
BEGIN {
	h = out "/chain.h"
	print "// generated by bench/gen-symbols.sh" > h
	print "#pragma once" > h
	print "#define BSYM_API __attribute__((visibility(\"default\")))" > h
	print "#define BSYM_KEEP() __asm__ volatile(\"\" ::: \"memory\")" > h
	print "namespace bsym {" > h
	print "extern BSYM_API int *volatile null_ptr;" > h
	print "__attribute__((always_inline)) inline long poke(long x)\n{\n\t*null_ptr = (int)x; /* the fault */\n\tBSYM_KEEP();\n\treturn x;\n}" > h
	print "struct Rec { long a, b; };" > h
	print "template <int N> __attribute__((always_inline)) inline long mix(long x)\n{\n\treturn (x << N) ^ (x >> (N + 1));\n}" > h
	print "template <typename T, int N> __attribute__((always_inline)) inline T fold(T x, unsigned s)\n{\n\treturn (T)(x * N + (T)(s >> 1));\n}" > h
	print "}" > h
	for (i = 0; i < chain; i++)
		decl(i, h)
	close(h)
	g = 0
	for (m = 0; m < 3; m++) {
		for (t = 0; t < tus; t++) {
			f = sprintf("%s/m%d_%d.cc", out, m, t)
			printf "// generated by bench/gen-symbols.sh\n#include \"chain.h\"\n" > f
			if (m == 0 && t == 0)
				print "int *volatile bsym::null_ptr;" > f
			per = int(funcs / tus) + (t < funcs % tus)
			# this unit holds chain links i with i % 3 == m and (i / 3) % tus == t,
			# placed evenly among its fillers
			nl = 0
			for (i = m; i < chain; i += 3)
				if (int(i / 3) % tus == t)
					L[nl++] = i
			li = 0
			for (j = 0; j < per; j++) {
				if (j % 40 == 0) {
					if (j > 0)
						print "} } }" > f
					printf "namespace bsym { namespace m%d { namespace g%d_%03d {\n", m, t, int(j / 40) > f
					print "template <typename T, int N> struct Box { T v; T get(T x) const; };" > f
				}
				if (li < nl && j == int((li + 0.5) * per / nl)) {
					print "} } }" > f
					link(L[li++], f)
					printf "namespace bsym { namespace m%d { namespace g%d_%03d {\n", m, t, int(j / 40) > f
				}
				filler(m, j, g, f)
				g++
			}
			print "} } }" > f
			close(f)
		}
	}
}'
cat >"$out/main.cc" <<'EOF'
// generated by bench/gen-symbols.sh
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "chain.h"

int main(int argc, char **argv)
{
	// bench/latency -F: the time just before the chain (and its fault), on
	// the descriptor the harness names.
	const char *fd = getenv("LATENCY_FD");
	if (fd) {
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (write(atoi(fd), &t, sizeof(t)) != (ssize_t)sizeof(t))
			return 3;
	}
	long r = bsym::m0::c00::Link<long>::hop(argc, argv[0]);
	BSYM_KEEP();
	return (int)r;
}
EOF
