/* SPDX-License-Identifier: MIT */
/*
 * Work for the SIGPROF cross-check to interrupt: recursion, alloca, varargs,
 * large frames, tail calls, callbacks from libc (qsort), leaf loops, string
 * functions.  Built many ways (-O0..-O3, -Os, with and without frame pointers,
 * PIE and not, as a shared library).  xw_run() returns a checksum so that
 * nothing is optimised away.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf_loop(unsigned long n)
{
	unsigned long x = n;

	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

__attribute__((noinline)) static unsigned long sum_va(int n, ...)
{
	unsigned long s = 0;
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, unsigned long);
	va_end(ap);
	return s + leaf_loop(50);
}

__attribute__((noinline)) static unsigned long big_frame(unsigned long n)
{
	volatile unsigned char buf[16384];

	for (unsigned i = 0; i < sizeof(buf); i += 512)
		buf[i] = (unsigned char)(n + i);
	return buf[n % sizeof(buf) & ~511ul] + leaf_loop(100);
}

__attribute__((noinline)) static unsigned long with_alloca(unsigned long n)
{
	unsigned char *p = __builtin_alloca(64 + (n & 255) * 8);

	memset(p, (int)n, 64 + (n & 255) * 8);
	return p[n & 63] + leaf_loop(80);
}

static int cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	sink += leaf_loop(3);
	return x < y ? -1 : x > y;
}

__attribute__((noinline)) static unsigned long sorter(unsigned long n)
{
	unsigned long v[64];

	for (int i = 0; i < 64; i++)
		v[i] = (n * 2654435761u + (unsigned long)i * 40503u) & 0xffff;
	qsort(v, 64, sizeof(v[0]), cmp);
	return v[n & 63];
}

/* A tail call at -O2: tail_b's frame replaces tail_a's. */
__attribute__((noinline)) static unsigned long tail_b(unsigned long n)
{
	return leaf_loop(n & 127) ^ n;
}

__attribute__((noinline)) static unsigned long tail_a(unsigned long n)
{
	return tail_b(n + 1);
}

__attribute__((noinline)) static unsigned long strings(unsigned long n)
{
	char a[256], b[256];

	memset(a, 'a' + (int)(n % 26), sizeof(a) - 1);
	a[sizeof(a) - 1] = 0;
	memcpy(b, a, sizeof(b));
	return strlen(b) + (unsigned long)strcmp(a, b) + leaf_loop(20);
}

__attribute__((noinline)) unsigned long xw_recurse(unsigned long depth, unsigned long n)
{
	unsigned long r;

	if (depth == 0) {
		switch (n % 7) {
		case 0:
			return sum_va(4, n, n + 1, n + 2, n + 3);
		case 1:
			return big_frame(n);
		case 2:
			return with_alloca(n);
		case 3:
			return sorter(n);
		case 4:
			return tail_a(n);
		case 5:
			return strings(n);
		default:
			return leaf_loop(200);
		}
	}
	r = xw_recurse(depth - 1, n * 31 + depth);
	return r + depth;	/* not a tail call */
}

unsigned long xw_run(unsigned long iters)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < iters; i++)
		s += xw_recurse(i % 12, i);
	sink = s;
	return s;
}
