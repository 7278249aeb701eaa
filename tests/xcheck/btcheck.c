/* SPDX-License-Identifier: MIT */
/*
 * crash_backtrace() and crash_backtrace_with() against glibc backtrace() and
 * libunwind's unw_backtrace(): from ordinary code, from inside a signal
 * handler (through the kernel's signal frame and glibc's __restore_rt), and
 * from a handler of a signal raised inside another handler (nested).
 */
#define UNW_LOCAL_ONLY
#include <errno.h>
#include <execinfo.h>
#include <libunwind.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../tap.h"
#include "crash-int.h"
#include "crash.h"
#include "module.h"
#include "sym.h"

#define N 64
#define NOINLINE __attribute__((noinline))
#define KEEP() __asm__ volatile("" ::: "memory")

struct capture {
	void *ours[5][N];	/* auto, fp, cfi, scan, crash_backtrace */
	int n_ours[5];
	void *glibc[N], *lu[N];
	int n_glibc, n_lu;
};

/* One capture site: every call is made from this same function. */
NOINLINE static void capture(struct capture *c)
{
	c->n_ours[0] = crash_backtrace_with(CRASH_ENGINE_AUTO, c->ours[0], N);
	c->n_ours[1] = crash_backtrace_with(CRASH_ENGINE_FP, c->ours[1], N);
	c->n_ours[2] = crash_backtrace_with(CRASH_ENGINE_CFI, c->ours[2], N);
	c->n_ours[3] = crash_backtrace_with(CRASH_ENGINE_SCAN, c->ours[3], N);
	c->n_ours[4] = crash_backtrace(c->ours[4], N);
	c->n_glibc = backtrace(c->glibc, N);
	c->n_lu = unw_backtrace(c->lu, N);
	KEEP();
}

/*
 * What the oracles store for a caller: the return address, except on aarch64,
 * where Debian 12's libunwind 1.6 stores return address - 1, and so does glibc's
 * backtrace() in this test, which links libunwind.so (it exports _Unwind_* as
 * libgcc_s does); in a program without libunwind, glibc's backtrace() stores
 * return addresses there too (glibccheck.c).  Ours are return addresses
 * (include/crash.h), so they are compared less ORACLE_ADJ.
 */
#if defined(__aarch64__)
#define ORACLE_ADJ 1
#else
#define ORACLE_ADJ 0
#endif

/*
 * Return addresses differ by call site within capture(); compare from #1 on.
 * The frames in the mask `exact` (interrupted pcs after a signal frame, not
 * return addresses: nobody adjusts them) are compared without adj.
 */
static int same(void *const *a, int na, void *const *b, int nb, int upto, uintptr_t adj,
		unsigned exact)
{
	if (na < upto || nb < upto)
		return 0;
	for (int i = 1; i < upto; i++)
		if ((uintptr_t)a[i] - (i < 32 && (exact >> i & 1) ? 0 : adj) != (uintptr_t)b[i])
			return 0;
	return 1;
}

/* The function that holds pc (a return address: looked up at pc - 1), or "". */
static const char *fn_name(void *pc, struct cr_sym *s)
{
	struct cr_module mod;

	if (!pc || cr_module_find(&cr_mem_self, (uintptr_t)pc - 1, &mod) < 0 ||
	    cr_sym_find(&cr_mem_self, &mod, (uintptr_t)pc - 1, s) < 0)
		return "";
	return s->name;
}

/*
 * How many leading frames of an oracle's trace are real: a "frame" outside
 * every loaded module ends it.  (riscv64 under qemu 10: libunwind and libgcc
 * both step from the vDSO's signal trampoline to return address 0x5; we take
 * the registers from the kernel's rt_sigframe instead, and the test below
 * checks that ours goes on to main.)
 */
static int oracle_frames(void *const *b, int nb)
{
	struct cr_module mod;
	int i;

	for (i = 0; i < nb; i++)
		if (cr_module_find(&cr_mem_self, (uintptr_t)b[i] - (i ? 1 : 0), &mod) < 0)
			break;
	return i;
}

/* Ours has the frames of `want`, in that order, the last one main. */
static void check_chain(const char *where, void *const *a, int na, const char *const *want)
{
	char name[160], got[512] = "";
	struct cr_sym s;
	size_t len = 0;
	int k = 0;

	for (int i = 1; i < na; i++) {
		const char *fn = fn_name(a[i], &s);

		if (want[k] && strcmp(fn, want[k]) == 0)
			k++;
		if (len < sizeof(got) - 1)
			len += (size_t)snprintf(got + len, sizeof(got) - len, " %s", *fn ? fn : "?");
		if (len >= sizeof(got))
			len = sizeof(got) - 1;
	}
	snprintf(name, sizeof(name), "%s: auto goes on through the signal frame to main", where);
	if (!tap_ok(want[k] == NULL, name))
		printf("#   frames:%s\n", got);
}

static void check(const char *where, struct capture *c, int frames, int fp_ok, unsigned exact)
{
	static const char *const eng[] = { "auto", "fp", "cfi", "scan", "crash_backtrace" };
	char name[160];

	snprintf(name, sizeof(name), "%s: libunwind and glibc agree (%d frames)", where, frames);
	tap_ok(same(c->lu, c->n_lu, c->glibc, c->n_glibc, frames, 0, 0), name);
	for (int e = 0; e < 5; e++) {
		if (e == 1 && !fp_ok)
			continue;
		snprintf(name, sizeof(name), "%s: %s equals libunwind over %d frames", where,
			 eng[e], frames);
		if (!tap_ok(same(c->ours[e], c->n_ours[e], c->lu, c->n_lu, frames, ORACLE_ADJ, exact),
			    name)) {
			for (int i = 0; i < frames && i < N; i++)
				printf("#   %2d ours %p libunwind %p\n", i,
				       i < c->n_ours[e] ? c->ours[e][i] : NULL,
				       i < c->n_lu ? c->lu[i] : NULL);
		}
	}
}

/*
 * Frame #0 (which the comparisons above leave out): the return address of
 * each call in capture(), so in capture() and in the order of the calls,
 * each before glibc backtrace()'s own (its #0 is its call site in capture()
 * too).  Not a frame inside libcrash, nor capture()'s caller.
 */
static void check_first(const char *where, struct capture *c)
{
	char name[160];
	struct cr_sym s;
	uintptr_t last = 0;
	int e, ok = 1;

	for (e = 0; e < 5; e++) {
		uintptr_t pc = c->n_ours[e] > 0 ? (uintptr_t)c->ours[e][0] : 0;

		if (!pc || strcmp(fn_name(c->ours[e][0], &s), "capture") != 0 || pc <= last)
			ok = 0;
		last = pc;
	}
	if (c->n_glibc < 1 || (uintptr_t)c->glibc[0] - ORACLE_ADJ <= last)
		ok = 0;
	snprintf(name, sizeof(name), "%s: frame #0 is each call's return address in capture()",
		 where);
	if (!tap_ok(ok, name))
		for (e = 0; e < 5; e++)
			printf("#   %d: %p %s\n", e, c->n_ours[e] > 0 ? c->ours[e][0] : NULL,
			       c->n_ours[e] > 0 ? fn_name(c->ours[e][0], &s) : "");
}

static struct capture in_handler, nested;

static void on_usr2(int sig)
{
	(void)sig;
	capture(&nested);
	KEEP();	/* not a tail call: on_usr2 stays a frame */
}

static void on_usr1(int sig)
{
	(void)sig;
	capture(&in_handler);
	raise(SIGUSR2);	/* a second signal frame on top of the first */
	KEEP();
}

NOINLINE static void level2(void)
{
	raise(SIGUSR1);
	KEEP();
}

NOINLINE static void level1(void)
{
	level2();
	KEEP();
}

int main(void)
{
	struct capture plain;
	void *buf[4];

	crash_install(&(struct crash_options){ .fd = 2, .signals = CRASH_SIGMASK(SIGSEGV) });
	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, on_usr2);

	cr_mem_init();
	capture(&plain);
	/* capture <- main <- libc <- libc <- _start: all of it. */
	check("plain", &plain, oracle_frames(plain.lu, plain.n_lu), 0, 0);
	tap_is_i64(plain.n_ours[0], plain.n_lu, "plain: auto has as many frames as libunwind");
	check_first("plain", &plain);

	level1();
	/*
	 * capture <- on_usr1 <- signal trampoline <- the interrupted pc (in
	 * raise's internals: frame 3, exact) <- ... <- level2 <- level1 <- main.
	 */
	check("in a handler", &in_handler, oracle_frames(in_handler.lu, in_handler.n_lu), 0, 1u << 3);
	check_chain("in a handler", in_handler.ours[0], in_handler.n_ours[0],
		    (const char *const[]){ "on_usr1", "level2", "level1", "main", NULL });
	check_first("in a handler", &in_handler);
	/*
	 * capture <- on_usr2 <- trampoline <- the interrupted pc (3) <- raise's
	 * internals <- on_usr1 <- trampoline <- the interrupted pc (7) <- ...
	 */
	check("nested handler", &nested, oracle_frames(nested.lu, nested.n_lu), 0,
	      1u << 3 | 1u << 7);
	check_chain("nested handler", nested.ours[0], nested.n_ours[0],
		    (const char *const[]){ "on_usr2", "on_usr1", "level2", "level1", "main", NULL });
	tap_ok(nested.n_ours[0] > in_handler.n_ours[0] + 2, "nested: deeper than the first handler");
	check_first("nested handler", &nested);

	tap_is_i64(crash_backtrace_with(CRASH_ENGINE_ALL, buf, 4), -EINVAL, "ALL is not a walk engine");
	tap_is_i64(crash_backtrace_with(42, buf, 4), -EINVAL, "unknown engine: -EINVAL");
	tap_is_i64(crash_backtrace_with(CRASH_ENGINE_CFI, NULL, 4), -EINVAL, "NULL buffer: -EINVAL");
	tap_is_i64(crash_backtrace_with(CRASH_ENGINE_CFI, buf, 0), 0, "size 0: nothing");
	tap_is_i64(crash_backtrace(buf, 2), 2, "size 2: two frames");
	tap_ok(buf[0] != NULL && buf[1] != NULL, "both stored");
	return tap_done();
}
