/* SPDX-License-Identifier: MIT */
/*
 * Call sites of many shapes for glibccheck: each calls xc_probe() (in
 * glibccheck.c), which captures the stack with our CFI engine and with glibc
 * backtrace() from an ordinary, non-signal context.  Built several ways
 * (tests/xcheck/local.mk): -O0, -O2, -Os, -O2 with frame pointers.
 */
#include <alloca.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "callsites.h"

#define NOINLINE __attribute__((noinline))
#define KEEP() __asm__ volatile("" ::: "memory")

static volatile unsigned long sink;

/* Recursion: the probe at every depth on the way down and on the way up. */
NOINLINE static unsigned long rec(unsigned d, unsigned long x)
{
	unsigned long r;

	xc_probe(XC_REC_DOWN);
	if (d == 0)
		return x;
	r = rec(d - 1, x * 3 + d);
	xc_probe(XC_REC_UP);
	return r + d;
}

/* A variable-size frame. */
NOINLINE static unsigned long with_alloca(unsigned n)
{
	char *p = alloca(n + 16);

	memset(p, (int)n, n + 16);
	xc_probe(XC_ALLOCA);
	return (unsigned long)p[n / 2];
}

/* Variadic: the register save area makes an odd prologue. */
NOINLINE static unsigned long varargs(int n, ...)
{
	unsigned long s = 0;
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, unsigned long);
	va_end(ap);
	xc_probe(XC_VARARGS);
	return s;
}

/* A frame larger than a page: the stack probe loop on some targets. */
NOINLINE static unsigned long big_frame(unsigned k)
{
	volatile char buf[20000];

	buf[k % sizeof(buf)] = (char)k;
	xc_probe(XC_BIG);
	return buf[(k * 7) % sizeof(buf)];
}

/* Many values live across the call: every callee-saved register saved. */
NOINLINE static unsigned long many_live(unsigned long a)
{
	unsigned long b = a * 3, c = a ^ 5, d = a + 7, e = a * a, f = a >> 1, g = ~a, h = a - 9,
		      i = a | 0x10, j = a & 0xff;

	xc_probe(XC_LIVE);
	return a + b * c + d * e + f * g + h * i + j;
}

/* Callbacks from glibc: qsort's comparator and bsearch's. */
static int cmp_probe(const void *x, const void *y)
{
	unsigned long a = *(const unsigned long *)x, b = *(const unsigned long *)y;

	if (((a ^ b) & 7) == 0)
		xc_probe(XC_QSORT);
	return a < b ? -1 : a > b;
}

NOINLINE static unsigned long sorts(unsigned long seed)
{
	unsigned long v[12], key;

	for (unsigned i = 0; i < 12; i++)
		v[i] = (seed = seed * 6364136223846793005ul + 1442695040888963407ul) >> 40;
	qsort(v, 12, sizeof(v[0]), cmp_probe);
	key = v[5];
	return (unsigned long)bsearch(&key, v, 12, sizeof(v[0]), cmp_probe) & 0xff;
}

/* Through a function pointer, and a switch. */
typedef unsigned long (*fn_t)(unsigned long);

NOINLINE static unsigned long via_ptr(unsigned long x)
{
	xc_probe(XC_PTR);
	return x + 1;
}

static fn_t volatile table[2] = { via_ptr, many_live };

NOINLINE static unsigned long dispatch(unsigned op, unsigned long x)
{
	switch (op % 6) {
	case 0:
		return rec(op % 5, x) + 1;
	case 1:
		return with_alloca(op * 37 % 900 + 8) + 2;
	case 2:
		return varargs((int)(op % 5), x, x + 1, x + 2, x + 3, x + 4) + 3;
	case 3:
		return big_frame(op) + 4;
	case 4:
		return sorts(x + op) + 5;
	default:
		return table[(op / 6) & 1](x) + 6;
	}
}

/* A tail call: the probe's caller is dispatch's caller, for both unwinders. */
NOINLINE static unsigned long tail(unsigned op, unsigned long x)
{
	sink = x;
	KEEP();
	return dispatch(op, x);
}

unsigned long xc_run(unsigned rounds)
{
	unsigned long s = 0;

	for (unsigned op = 0; op < rounds; op++) {
		s += (op & 1) ? tail(op, s) : dispatch(op, s);
		xc_probe(XC_RUN);
	}
	return s;
}
