/* SPDX-License-Identifier: MIT */
/* State shared by install.c, handler.c, api.c and report.c. */
#ifndef CR_CRASH_INT_H
#define CR_CRASH_INT_H

#include <signal.h>

#include "crash.h"
#include "maps.h"
#include "unwind.h"

struct cr_config {
	int fd;				/* report output */
	int engine;			/* enum crash_engine */
	unsigned max_frames;
	unsigned long long signals;
	int chain;			/* call previous handlers */
	int selftest_fault;		/* CRASH_SELFTEST_FAULT=1: fault inside the handler
					   after the report (tests of the nested-fault path) */
};

extern struct cr_config cr_cfg;

/*
 * The previous disposition of each signal (first install), for chaining and
 * for crash_uninstall(): a struct sigaction holds a 128-byte sigset_t, and 65
 * of them were 10 KiB, three pages to write at install; this is 2 KiB in
 * .data (CR_INSTALL_DATA).
 */
struct cr_prev {
	void (*handler)(int);				/* sa_handler, or */
	void (*action)(int, siginfo_t *, void *);	/* sa_sigaction (SA_SIGINFO) */
	uint64_t mask;					/* sa_mask: signal n is bit n - 1 */
	int flags;					/* sa_flags */
};
extern struct cr_prev cr_prev[65];
extern unsigned long long cr_prev_saved;

void cr_handler(int sig, siginfo_t *si, void *uc);

struct cr_env;
/* crash_install(NULL) with the environment already read (the constructor). */
int cr_install_env(const struct cr_env *e);

/*
 * A walk of the live process.  maps != NULL (crash path): executable checks
 * and stack bounds from /proc/self/maps; NULL: from the modules alone.
 */
void cr_walk_live(struct cr_walk *w, struct cr_maps *maps, uint64_t sp, int exact);

#endif
