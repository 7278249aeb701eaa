/* SPDX-License-Identifier: MIT */
/*
 * crash_backtrace_with(CFI) and crash_backtrace() (auto) against glibc
 * backtrace() from ordinary (non-signal) code, at many call sites: the probes
 * in callsites.c (recursion on the way down and up, alloca, varargs, a frame
 * larger than a page, every callee-saved register live, qsort and bsearch
 * callbacks through glibc, a function pointer, a tail call).  The oracle of
 * issue 4 where no libunwind is packaged (loongarch64); run on every arch.
 *
 *   glibccheck NAME ROUNDS
 *
 * Prints TAP and the agreement figure.
 */
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "callsites.h"
#include "crash.h"

#define N 64
#define NOINLINE __attribute__((noinline))

static long captures, frames_cmp, frames_ok[2], short_or_long[2];
static unsigned sites_seen;	/* bit per enum xc_site */
static unsigned long stacks_hash[4096];
static unsigned n_stacks;
static uintptr_t ras[2048];	/* every distinct return address crossed */
static unsigned n_ras;
static int reported[2];

static const char *const what[2] = { "cfi", "auto" };

static void note_stack(void *const *f, int n)
{
	unsigned long h = 1469598103934665603ul;
	unsigned i;
	for (int k = 1; k < n; k++) {
		h = (h ^ (uintptr_t)f[k]) * 1099511628211ul;
		for (i = 0; i < n_ras && ras[i] != (uintptr_t)f[k]; i++)
			;
		if (i == n_ras && n_ras < sizeof(ras) / sizeof(ras[0]))
			ras[n_ras++] = (uintptr_t)f[k];
	}
	for (i = 0; i < n_stacks && stacks_hash[i] != h; i++)
		;
	if (i == n_stacks && n_stacks < sizeof(stacks_hash) / sizeof(stacks_hash[0]))
		stacks_hash[n_stacks++] = h;
}

/*
 * Frames #1.. of ours equal glibc's; #0 is the call site inside xc_probe.
 * Both are return addresses on every arch (libgcc's _Unwind_GetIP; no
 * libunwind is linked here to interpose its own, as in btcheck).
 */
static void compare(int e, void *const *ours, int n_ours, void *const *gl, int n_gl)
{
	int n = n_ours < n_gl ? n_ours : n_gl, i;

	for (i = 1; i < n; i++) {
		if (ours[i] != gl[i])
			break;
		frames_ok[e]++;
	}
	if (i == n && n_ours == n_gl)
		return;
	short_or_long[e]++;
	if (reported[e]++ < 2) {
		printf("# %s differs from glibc at frame %d (ours %d frames, glibc %d):\n", what[e], i,
		       n_ours, n_gl);
		for (int k = 0; k < (n_ours > n_gl ? n_ours : n_gl) && k < N; k++)
			printf("#   %2d ours %p glibc %p\n", k, k < n_ours ? ours[k] : NULL,
			       k < n_gl ? gl[k] : NULL);
	}
}

NOINLINE void xc_probe(enum xc_site site)
{
	void *ours[2][N], *gl[N];
	int n_ours[2], n_gl;

	n_ours[0] = crash_backtrace_with(CRASH_ENGINE_CFI, ours[0], N);
	n_ours[1] = crash_backtrace(ours[1], N);
	n_gl = backtrace(gl, N);
	__asm__ volatile("" ::: "memory");
	captures++;
	frames_cmp += n_gl > 1 ? n_gl - 1 : 0;
	sites_seen |= 1u << site;
	note_stack(gl, n_gl);
	compare(0, ours[0], n_ours[0], gl, n_gl);
	compare(1, ours[1], n_ours[1], gl, n_gl);
}

int main(int argc, char **argv)
{
	char name[160];
	unsigned rounds;

	if (argc < 3) {
		fprintf(stderr, "usage: glibccheck NAME ROUNDS\n");
		return 2;
	}
	rounds = (unsigned)atoi(argv[2]);
	crash_install(&(struct crash_options){ .fd = 2, .signals = CRASH_SIGMASK(SIGSEGV) });
	xc_run(rounds);
	for (int e = 0; e < 2; e++) {
		snprintf(name, sizeof(name), "%s: %s equals glibc backtrace() in %ld captures", argv[1],
			 what[e], captures);
		tap_ok(short_or_long[e] == 0 && frames_ok[e] == frames_cmp && captures > 0, name);
	}
	snprintf(name, sizeof(name), "%s: every probe reached (%d of %d)", argv[1],
		 __builtin_popcount(sites_seen), XC_NSITES);
	tap_ok(sites_seen == (1u << XC_NSITES) - 1, name);
	printf("# agreement %s: cfi %.4f%%, auto %.4f%% of %ld frames in %ld captures from %d "
	       "probes, %u distinct stacks, %u distinct return addresses\n",
	       argv[1], frames_cmp ? 100.0 * (double)frames_ok[0] / (double)frames_cmp : 0.0,
	       frames_cmp ? 100.0 * (double)frames_ok[1] / (double)frames_cmp : 0.0, frames_cmp,
	       captures, __builtin_popcount(sites_seen), n_stacks, n_ras);
	return tap_done();
}
