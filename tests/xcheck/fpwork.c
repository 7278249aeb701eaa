/* SPDX-License-Identifier: MIT */
/* fpcheck's crash chains, built -O0 with frame pointers (tests/xcheck/local.mk). */
#include <stdint.h>

void fp_rec(int n, int shape);

static volatile int zero;

#define NOINLINE __attribute__((noinline))
#define KEEP() __asm__ volatile("" ::: "memory")

NOINLINE static void leaf(void)
{
	*(volatile int *)(uintptr_t)zero = 1;
	KEEP();
}

NOINLINE static void big_frame(int n);
NOINLINE static void with_alloca(int n);

NOINLINE void fp_rec(int n, int shape)
{
	if (n == 0) {
		leaf();
	} else if (shape == 1 && n % 3 == 0) {
		big_frame(n - 1);
	} else if (shape == 2 && n % 2 == 0) {
		with_alloca(n - 1);
	} else {
		fp_rec(n - 1, shape);
	}
	KEEP();
}

NOINLINE static void big_frame(int n)
{
	volatile char buf[8192];

	buf[0] = (char)n;
	fp_rec(n, 1);
	KEEP();
	(void)buf[0];
}

NOINLINE static void with_alloca(int n)
{
	volatile char *p = __builtin_alloca(100 + n * 16);

	p[0] = 1;
	fp_rec(n, 2);
	KEEP();
}

