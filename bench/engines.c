/* SPDX-License-Identifier: MIT */
/*
 * engines METHOD DEPTH ITERS: a chain of DEPTH noinline functions (128 distinct
 * ones, then round again: up to 1000), then ITERS captures with METHOD:
 *   fp       crash_backtrace_with(CRASH_ENGINE_FP)
 *   scan     crash_backtrace_with(CRASH_ENGINE_SCAN)
 *   cfi      crash_backtrace_with(CRASH_ENGINE_CFI)
 *   auto     crash_backtrace() (on engines-noeh: scan, where no FDE covers a pc)
 *   naive    a bare frame-pointer walk (the floor: no checks at all)
 *   none     the chain only (the baseline to subtract)
 * Built three times (bench/local.mk): with frame pointers (engines-fp),
 * without (engines-nofp: the fp engine's time to give up), and without
 * frame pointers or unwind tables (engines-noeh: the scan engine's case).
 * Under callgrind, (instructions at ITERS=k) - (ITERS=0) is the capture cost;
 * ENGINES_TIME=1 prints the median wall nanoseconds of a capture (each timed
 * alone, the chain not), ENGINES_PRINT=1 the frame count.  engines METHOD
 * DEPTH ITERS DEPTH2: ITERS captures at each depth in turn, and the wall ns
 * per frame: the difference of the medians over the difference of frames.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crash.h"

#define MAXF 1100
#define CHAIN 128
#define DEPTH_MAX 1000	/* past CHAIN the chain goes round again (laps) */
static void *buf[MAXF];
static volatile int sink;
static int method;	/* index into methods[] */
static long iters;
static double ns;	/* per capture */
static int frames;

static const char *const methods[] = { "none", "fp", "scan", "cfi", "naive", "auto" };

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

__attribute__((noinline)) static int capture(void)
{
	switch (method) {
	case 1:
		return crash_backtrace_with(CRASH_ENGINE_FP, buf, MAXF);
	case 2:
		return crash_backtrace_with(CRASH_ENGINE_SCAN, buf, MAXF);
	case 3:
		return crash_backtrace_with(CRASH_ENGINE_CFI, buf, MAXF);
	case 4:
		return naive_fp(buf, MAXF);
	case 5:
		return crash_backtrace(buf, MAXF);
	}
	return 0;
}

#define TIMED 100000
static double each[2][TIMED];	/* ns of each timed capture, per depth */
static long nt[2];
static int timing, which;	/* which: the depth being captured (pairs: 0 or 1) */

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The end of the chain: the captures.  Timed (ENGINES_TIME), each capture
 * alone and the median kept: a capture the machine's load delayed (a
 * preemption, a slow system call) moves a mean, not the median.
 */
__attribute__((noinline)) static int captures(int x)
{
	struct timespec t0, t1;
	long *k = &nt[which];
	int n = 0;

	for (long i = 0; i < iters; i++) {
		if (timing && *k < TIMED)
			clock_gettime(CLOCK_MONOTONIC, &t0);
		n = capture();
		if (timing && *k < TIMED) {
			clock_gettime(CLOCK_MONOTONIC, &t1);
			each[which][(*k)++] =
				(t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
		}
	}
	frames = n;
	return n + x;
}

/* 128 distinct functions, each calling the next through the table (its own
   frame, its own FDE, its own prologue), round again after the last (laps,
   for depths past 128), until left frames are made: then the captures. */
static int (*volatile chain[CHAIN])(int);
static volatile int left;

#define F(p, k)                                                                  \
	__attribute__((noinline)) static int f_##p##_##k(int x)                   \
	{                                                                        \
		int r = --left > 0 ? chain[((p) * 16 + (k) + 1) % CHAIN](x + 1)   \
				   : captures(x);                                 \
		__asm__ volatile("" ::: "memory");                               \
		return r + (p) + (k);                                             \
	}
#define ROW(p)                                                                   \
	F(p, 0) F(p, 1) F(p, 2) F(p, 3) F(p, 4) F(p, 5) F(p, 6) F(p, 7) F(p, 8) F(p, 9) \
	F(p, 10) F(p, 11) F(p, 12) F(p, 13) F(p, 14) F(p, 15)
#define NAMES(p)                                                                 \
	f_##p##_0, f_##p##_1, f_##p##_2, f_##p##_3, f_##p##_4, f_##p##_5, f_##p##_6,     \
	f_##p##_7, f_##p##_8, f_##p##_9, f_##p##_10, f_##p##_11, f_##p##_12,         \
	f_##p##_13, f_##p##_14, f_##p##_15
ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7)

int main(int argc, char **argv)
{
	static int (*const fns[CHAIN])(int) = { NAMES(0), NAMES(1), NAMES(2), NAMES(3),
						NAMES(4), NAMES(5), NAMES(6), NAMES(7) };
	int depth, depth2 = 0, m, n[2] = { 0, 0 };
	double med[2];
	long total;

	if (argc < 4 || (depth = atoi(argv[2])) < 1 || depth > DEPTH_MAX) {
		fprintf(stderr, "usage: engines METHOD DEPTH(1-%d) ITERS\n", DEPTH_MAX);
		return 2;
	}
	for (m = 0; m < (int)(sizeof(methods) / sizeof(methods[0])); m++)
		if (strcmp(argv[1], methods[m]) == 0)
			break;
	if (m == (int)(sizeof(methods) / sizeof(methods[0]))) {
		fprintf(stderr, "engines: unknown method %s\n", argv[1]);
		return 2;
	}
	method = m;
	iters = total = atol(argv[3]);
	timing = getenv("ENGINES_TIME") != NULL || argc > 4;
	for (int i = 0; i < CHAIN; i++)
		chain[i] = fns[i];
	if (argc > 4 && ((depth2 = atoi(argv[4])) < 1 || depth2 > DEPTH_MAX)) {
		fprintf(stderr, "engines: DEPTH2 1-%d\n", DEPTH_MAX);
		return 2;
	}
	if (!depth2) {
		/* depth frames of the chain, then captures: the first lap starts
		   where its last function is the chain's last (depth <= 128:
		   distinct functions). */
		left = depth;
		sink = chain[(CHAIN - depth % CHAIN) % CHAIN](0);
		if (nt[0]) {
			qsort(each[0], (size_t)nt[0], sizeof(each[0][0]), by_value);
			ns = each[0][nt[0] / 2];
		}
		if (getenv("ENGINES_PRINT"))
			printf("%s: %d frames\n", argv[1], frames);
		if (getenv("ENGINES_TIME") && iters)
			printf("%.1f\n", ns);
		return 0;
	}
	/*
	 * DEPTH2: a capture at each depth in turn, ITERS pairs, in one process
	 * (the machine's load drifts between processes); prints the difference
	 * of the two medians per frame of difference: the wall time of a frame
	 * with the capture's fixed cost (its system calls) taken out.
	 */
	iters = 1;
	for (long i = 0; i < total; i++) {
		for (which = 0; which < 2; which++) {
			left = which ? depth2 : depth;
			sink = chain[(CHAIN - left % CHAIN) % CHAIN](0);
			n[which] = frames;
		}
	}
	for (which = 0; which < 2; which++) {
		qsort(each[which], (size_t)nt[which], sizeof(each[0][0]), by_value);
		med[which] = nt[which] ? each[which][nt[which] / 2] : 0;
	}
	if (n[1] != n[0])
		printf("%.2f\n", (med[1] - med[0]) / (n[1] - n[0]));
	return 0;
}
