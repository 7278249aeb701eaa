/* SPDX-License-Identifier: MIT */
/*
 * Crash at many depths and shapes; in the SIGSEGV handler unwind the same
 * ucontext with our engine and with libunwind (unw_init_local2 +
 * UNW_INIT_SIGNAL_FRAME) and compare pc and sp frame by frame.
 *
 * fpcheck ENGINE: fp (frames up to the first one without a frame record must
 * match; the walk must reach main) or cfi/auto (every frame libunwind finds).
 * Prints TAP.
 */
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "context.h"
#include "crash-int.h"
#include "module.h"
#include "sym.h"
#include "unwind.h"

#define MAXF 256
static sigjmp_buf back;
static int engine;
static int frames_ok, frames_all, cases_ok, main_reached;
static char why[256];

static uint64_t ours_pc[MAXF], ours_sp[MAXF], lu_pc[MAXF], lu_sp[MAXF];
static unsigned n_ours, n_lu;
static uint8_t ours_stop;

static void handler(int sig, siginfo_t *si, void *ucv)
{
	struct cr_frame f[MAXF];
	struct cr_trace t = { .f = f, .max = MAXF };
	struct cr_regs regs;
	struct cr_walk w;
	unw_cursor_t c;

	(void)sig;
	(void)si;
	cr_regs_from_ucontext(ucv, &regs);
	cr_walk_live(&w, NULL, regs.r[cr_host->sp], 1);
	cr_unwind(&w, &regs, cr_policy(engine), &t);
	n_ours = t.n;
	ours_stop = t.stop;
	for (unsigned i = 0; i < t.n; i++) {
		ours_pc[i] = f[i].pc;
		ours_sp[i] = f[i].sp;
	}
	n_lu = 0;
	if (unw_init_local2(&c, (unw_context_t *)ucv, UNW_INIT_SIGNAL_FRAME) == 0) {
		do {
			unw_word_t ip, sp;

			unw_get_reg(&c, UNW_REG_IP, &ip);
			unw_get_reg(&c, UNW_REG_SP, &sp);
			lu_pc[n_lu] = ip;
			lu_sp[n_lu] = sp;
			n_lu++;
		} while (n_lu < MAXF && unw_step(&c) > 0);
	}
	siglongjmp(back, 1);
}

void fp_rec(int n, int shape);	/* fpwork.c: -O0 with frame pointers */

static int is_main(uint64_t pc)
{
	struct cr_module mod;
	struct cr_sym s;

	return cr_module_find(&cr_mem_self, pc - 1, &mod) == 0 &&
	       cr_sym_find(&cr_mem_self, &mod, pc - 1, &s) == 0 && strcmp(s.name, "main") == 0;
}

/*
 * On aarch64 a frame record (x29, x30) may sit anywhere in its frame: the fp
 * engine can only give the caller's sp as a lower bound, the record's address
 * + 16 (docs/design.md).  There its sp must lie in [previous sp, true sp];
 * the pc must still be exact.  Everywhere else, and for cfi/auto, sp is exact.
 */
#if defined(__aarch64__)
#define FP_SP_EXACT 0
#else
#define FP_SP_EXACT 1
#endif

static int same_sp(unsigned i)
{
	if (FP_SP_EXACT || engine != CRASH_ENGINE_FP || i == 0)
		return ours_sp[i] == lu_sp[i];
	return ours_sp[i] >= ours_sp[i - 1] && ours_sp[i] <= lu_sp[i];
}

/* Compare one sample; the fp walk only up to the frames it can see. */
static int compare(void)
{
	unsigned n = n_ours < n_lu ? n_ours : n_lu;
	int reached = 0;

	for (unsigned i = 0; i < n; i++) {
		frames_all++;
		if (ours_pc[i] != lu_pc[i] || !same_sp(i)) {
			snprintf(why, sizeof(why), "frame %u: ours pc %#lx sp %#lx, libunwind pc %#lx sp %#lx",
				 i, (unsigned long)ours_pc[i], (unsigned long)ours_sp[i],
				 (unsigned long)lu_pc[i], (unsigned long)lu_sp[i]);
			return 0;
		}
		frames_ok++;
		if (is_main(ours_pc[i]))
			reached = 1;
	}
	if (!reached) {
		snprintf(why, sizeof(why), "main not reached (ours %u frames, libunwind %u)", n_ours,
			 n_lu);
		return 0;
	}
	main_reached++;
	if (engine != CRASH_ENGINE_FP && (n_ours != n_lu || ours_stop != CR_STOP_COMPLETE)) {
		snprintf(why, sizeof(why), "ours %u frames (stop %u), libunwind %u", n_ours,
			 ours_stop, n_lu);
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	char name[128];
	volatile int cases = 0;

	engine = argc > 1 && strcmp(argv[1], "fp") == 0 ? CRASH_ENGINE_FP
		 : argc > 1 && strcmp(argv[1], "cfi") == 0 ? CRASH_ENGINE_CFI
							 : CRASH_ENGINE_AUTO;
	cr_mem_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	for (int shape = 0; shape < 3; shape++) {
		for (int depth = 0; depth < 40; depth += 3) {
			cases++;
			if (sigsetjmp(back, 1) == 0)
				fp_rec(depth, shape);
			int good = compare();
			cases_ok += good;
			snprintf(name, sizeof(name), "%s shape %d depth %d: %u frames equal libunwind's",
				 argv[1] ? argv[1] : "auto", shape, depth, n_ours < n_lu ? n_ours : n_lu);
			if (!tap_ok(good, name))
				printf("#   %s\n", why);
		}
	}
	printf("# agreement: %d/%d samples, %d/%d frames (pc and %s), main reached in %d\n",
	       cases_ok, cases, frames_ok, frames_all,
	       FP_SP_EXACT || engine != CRASH_ENGINE_FP ? "sp" : "sp bound", main_reached);
	return tap_done();
}
