/* SPDX-License-Identifier: MIT */
/* State shared by install.c, handler.c, api.c and report.c. */
#ifndef CR_CRASH_INT_H
#define CR_CRASH_INT_H

#include <signal.h>
#include <stdint.h>

#include "crash.h"
#include "maps.h"
#include "sink.h"
#include "unwind.h"

struct cr_config {
	struct cr_sink sink;		/* where reports go (sink.h) */
	int engine;			/* enum crash_engine */
	unsigned max_frames;
	unsigned long long signals;
	int chain;			/* call the application's handlers (disp.h) */
	int thread_altstack;		/* an alternate stack for every new thread */
	int symbols;			/* enum cr_symbols (options.h) */
	int threads;			/* enum crash_threads */
	int format;			/* enum crash_format */
	int selftest_fault;		/* CRASH_SELFTEST_FAULT=1: fault inside the handler
					   after the report (tests of the nested-fault path) */
};

extern struct cr_config cr_cfg;

/*
 * The signal handler, entered through cr_sigentry (arch/<host>/entry.S) with
 * the sp and return address it was entered with (context.h
 * cr_ctx_from_kernel).
 */
void cr_handler(int sig, siginfo_t *si, void *uc, uint64_t entry_sp, uint64_t entry_ra);

/*
 * Tests only (tests/crash/stackuse.c): run reports on [lo, lo + size) instead
 * of libcrash's own stack, so the test can see how much of it they used.
 */
void cr_report_stack_set(void *lo, size_t size);

struct cr_env;
/* crash_install(NULL) with the environment already read (the constructor). */
int cr_install_env(const struct cr_env *e);

/*
 * A walk of the live process.  maps != NULL (crash path): executable checks
 * and stack bounds from /proc/self/maps; NULL: from the modules alone.
 */
void cr_walk_live(struct cr_walk *w, struct cr_maps *maps, uint64_t sp, int exact);

#endif
