/* SPDX-License-Identifier: MIT */
/*
 * bt METHOD DEPTH ITERS: recurse DEPTH frames, then capture a backtrace ITERS
 * times with METHOD:
 *   cfi      crash_backtrace_with(CRASH_ENGINE_CFI)
 *   auto     crash_backtrace()
 *   fp       crash_backtrace_with(CRASH_ENGINE_FP)
 *   unw      libunwind unw_backtrace()
 *   unwstep  libunwind unw_getcontext + unw_init_local + unw_step loop
 *   glibc    glibc backtrace() (libgcc's unwinder)
 *   naive    a bare frame-pointer walk (the floor: no checks at all)
 *   none     recurse only (the baseline to subtract)
 * Built -O2 with frame pointers and unwind tables, so every method applies.
 * glibc backtrace() is measured in a build without libunwind (bt-nounw):
 * libunwind.so exports _Unwind_Backtrace and would stand in for libgcc's.
 * Under callgrind, (instructions at ITERS=k) - (ITERS=0) is the capture cost.
 */
#define UNW_LOCAL_ONLY
#include <execinfo.h>
#ifndef BT_NO_LIBUNWIND
#include <libunwind.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "crash.h"

#define MAXF 512
static void *buf[MAXF];
static volatile int sink;
static const char *method;
static long iters;

__attribute__((noinline)) static int naive_fp(void **out, int max)
{
	void **fp = __builtin_frame_address(0);
	int n = 0;

	while (fp && n < max) {
		out[n++] = fp[1];
		if ((void **)fp[0] <= fp)	/* the chain must go up the stack */
			break;
		fp = (void **)fp[0];
	}
	return n;
}

#ifndef BT_NO_LIBUNWIND
__attribute__((noinline)) static int unwstep(void **out, int max)
{
	unw_context_t ctx;
	unw_cursor_t c;
	int n = 0;

	unw_getcontext(&ctx);
	unw_init_local(&c, &ctx);
	while (n < max && unw_step(&c) > 0) {
		unw_word_t ip;

		unw_get_reg(&c, UNW_REG_IP, &ip);
		out[n++] = (void *)ip;
	}
	return n;
}
#endif

__attribute__((noinline)) static int capture(void)
{
	if (strcmp(method, "cfi") == 0)
		return crash_backtrace_with(CRASH_ENGINE_CFI, buf, MAXF);
	if (strcmp(method, "auto") == 0)
		return crash_backtrace(buf, MAXF);
	if (strcmp(method, "fp") == 0)
		return crash_backtrace_with(CRASH_ENGINE_FP, buf, MAXF);
#ifndef BT_NO_LIBUNWIND
	if (strcmp(method, "unw") == 0)
		return unw_backtrace(buf, MAXF);
	if (strcmp(method, "unwstep") == 0)
		return unwstep(buf, MAXF);
#endif
	if (strcmp(method, "glibc") == 0)
		return backtrace(buf, MAXF);
	if (strcmp(method, "naive") == 0)
		return naive_fp(buf, MAXF);
	return 0;
}

__attribute__((noinline)) static int recurse(int depth)
{
	int n = 0;

	if (depth > 0) {
		n = recurse(depth - 1);
	} else {
		for (long i = 0; i < iters; i++)
			n = capture();
	}
	__asm__ volatile("" ::: "memory");
	return n;
}

int main(int argc, char **argv)
{
	int n;

	if (argc < 4) {
		fprintf(stderr, "usage: bt METHOD DEPTH ITERS\n");
		return 2;
	}
	method = argv[1];
	iters = atol(argv[3]);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = recurse(atoi(argv[2]));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (getenv("BT_PRINT"))
		printf("%s: %d frames\n", method, n);
	/* BT_TIME: wall nanoseconds per capture (the recursion is negligible). */
	if (getenv("BT_TIME") && iters)
		printf("%.0f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / iters);
	sink = n;
	return 0;
}
