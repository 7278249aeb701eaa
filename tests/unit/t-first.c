/* SPDX-License-Identifier: MIT */
/*
 * A process's first capture keeps its rows to itself (cfi/trace.c, struct
 * cold): it writes nothing to the row cache, unless it meets a pc it passed
 * (a recursion whose cycle its own rows do not hold), and then it writes
 * the cache from there on.  Each case runs in a child forked from a parent
 * that never captured, so the child's first capture is its process's
 * first; every capture must give what glibc's backtrace() gives (libgcc's
 * unwinder), the first, the second (which fills the cache) and the third
 * (which reads it).
 */
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crash.h"
#include "cfi/cache.h"
#include "../tap.h"

#define MAXF 256

/* Slots of the cache written so far (a slot's pc is 0 until then). */
static unsigned cache_rows(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < CR_CACHE_SLOTS; i++)
		n += cr_cache_slots[i].pc != 0;
	return n;
}

/* One CFI capture against backtrace(), both from here: the frames after
   each one's own call site must be the same.  1 if they are. */
__attribute__((noinline)) static int same(void)
{
	void *ours[MAXF], *ref[MAXF];
	int n = crash_backtrace_with(CRASH_ENGINE_CFI, ours, MAXF);
	int m = backtrace(ref, MAXF);

	if (n < 2 || m < n || m > n + 1 ||
	    memcmp(ours + 1, ref + (m - n) + 1, (size_t)(n - 1) * sizeof(void *)) != 0) {
		fprintf(stderr, "# %d frames, backtrace() %d\n", n, m);
		return 0;
	}
	return n;
}

/* What a child reports, one bit a check (exit status). */
enum {
	FIRST_SAME = 1, FIRST_NOWRITE = 2, SECOND_SAME = 4, SECOND_WRITES = 8, THIRD_SAME = 16,
	FIRST_WRITES = 32, DEEP = 64
};
static int report;
static int min_frames;

static void captures(void)
{
	int n;

	if ((n = same()) != 0) {
		report |= FIRST_SAME;
		if (n >= min_frames)
			report |= DEEP;
	}
	report |= cache_rows() == 0 ? FIRST_NOWRITE : FIRST_WRITES;
	if (getenv("T_FIRST_DEBUG"))
		fprintf(stderr, "# %d frames, %u rows\n", n, cache_rows());
	if (same())
		report |= SECOND_SAME;
	if (cache_rows() > 0)
		report |= SECOND_WRITES;
	if (same())
		report |= THIRD_SAME;
}

/* Distinct functions, each its own FDE and return address. */
#define LINK(name, next)                                                  \
	__attribute__((noinline)) static int name(int x)                  \
	{                                                                 \
		int r = next(x + 1);                                      \
		__asm__ volatile("" : "+r"(r));                           \
		return r + 1;                                             \
	}
__attribute__((noinline)) static int leaf(int x)
{
	captures();
	__asm__ volatile("" ::: "memory");
	return x;
}
LINK(d9, leaf) LINK(d8, d9) LINK(d7, d8) LINK(d6, d7) LINK(d5, d6) LINK(d4, d5) LINK(d3, d4)
LINK(d2, d3) LINK(d1, d2) LINK(d0, d1)

/* A recursion through a cycle of `cycle` functions, `depth` calls deep. */
static int cycle, depth;
static int r0(int x);
#define RLINK(name, next)                                                 \
	__attribute__((noinline)) static int name(int x)                  \
	{                                                                 \
		int r = x >= depth ? leaf(x) : next(x + 1);               \
		__asm__ volatile("" : "+r"(r));                           \
		return r + 1;                                             \
	}
static int r_next(int x);
RLINK(r5, r0) RLINK(r4, r_next) RLINK(r3, r_next) RLINK(r2, r_next) RLINK(r1, r_next)
RLINK(r0, r_next)
static int (*const ring[6])(int) = { r0, r1, r2, r3, r4, r5 };
__attribute__((noinline)) static int r_next(int x)
{
	int r = ring[x % cycle](x);

	__asm__ volatile("" : "+r"(r));
	return r;
}

/* Runs f in a child; its report (the bits above), or -1. */
static int child(int (*f)(int), int arg)
{
	pid_t pid;
	int st;

	fflush(stdout);
	if ((pid = fork()) == 0) {
		f(arg);
		_exit(report);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	if (WEXITSTATUS(st) != 0 && !(WEXITSTATUS(st) & FIRST_SAME))
		printf("# child report %#x\n", WEXITSTATUS(st));
	return WEXITSTATUS(st);
}

int main(void)
{
	int r;

	/* The parent never captures: each child's first capture is its process's first. */
	tap_ok(cache_rows() == 0 && cr_cache_gen == 0, "the parent: an empty cache");

	min_frames = 12;
	r = child(d0, 0);
	tap_ok(r >= 0 && (r & FIRST_SAME) && (r & DEEP), "distinct functions: the first capture");
	tap_ok(r >= 0 && (r & FIRST_NOWRITE), "distinct functions: the first capture writes no row");
	tap_ok(r >= 0 && (r & SECOND_SAME), "distinct functions: the second capture");
	tap_ok(r >= 0 && (r & SECOND_WRITES), "distinct functions: the second capture fills the cache");
	tap_ok(r >= 0 && (r & THIRD_SAME), "distinct functions: the third, from the cache");

	/* A cycle of 2 (r0 <-> r_next, through ring[x % 1] = r0): its own rows hold it. */
	cycle = 1;
	depth = 40;
	min_frames = 40;
	r = child(r_next, 0);
	tap_ok(r >= 0 && (r & FIRST_SAME) && (r & DEEP), "a recursion its own rows hold: the first capture");
	tap_ok(r >= 0 && (r & FIRST_NOWRITE), "a recursion its own rows hold: no row written");
	tap_ok(r >= 0 && (r & SECOND_SAME) && (r & SECOND_WRITES), "and the second fills the cache");
	tap_ok(r >= 0 && (r & THIRD_SAME), "and the third");

	/* A cycle of 12 return addresses (6 functions, each through r_next):
	   more than its own rows hold; the first capture goes to the cache at
	   the first pc it passed again. */
	cycle = 6;
	depth = 60;
	min_frames = 60;
	r = child(r_next, 0);
	tap_ok(r >= 0 && (r & FIRST_SAME) && (r & DEEP), "a longer cycle: the first capture");
	tap_ok(r >= 0 && (r & FIRST_WRITES), "a longer cycle: the first capture writes the cache, from the repeat");
	tap_ok(r >= 0 && (r & SECOND_SAME), "a longer cycle: the second capture");
	tap_ok(r >= 0 && (r & THIRD_SAME), "a longer cycle: the third");

	/* Deeper than CR_COLD_OWN_FRAMES, through one cycle of 2 that the own
	   rows hold: the frames past the bound that miss (child, main, libc's)
	   go to the cache. */
	cycle = 1;
	depth = 110;	/* two frames a call: ~230 frames */
	min_frames = 220;
	r = child(r_next, 0);
	tap_ok(r >= 0 && (r & FIRST_SAME) && (r & DEEP), "220 frames: the first capture");
	tap_ok(r >= 0 && (r & FIRST_WRITES),
	       "220 frames: past CR_COLD_OWN_FRAMES the first capture writes the cache (the outer frames)");
	tap_ok(r >= 0 && (r & SECOND_SAME) && (r & THIRD_SAME), "220 frames: the second and third");
	tap_ok(cache_rows() == 0 && cr_cache_gen == 0, "the parent's cache still empty");
	return tap_done();
}
