/* SPDX-License-Identifier: MIT */
/* The report text; docs/report-format.md is its specification. AS-safe. */
#ifndef CR_REPORT_H
#define CR_REPORT_H

#include <signal.h>

#include "context.h"
#include "sym.h"
#include "out.h"
#include "unwind.h"

struct cr_crash {
	int sig;			/* 0: requested (crash_report_fd) */
	const siginfo_t *si;		/* NULL if sig == 0 */
	const struct cr_regs *regs;	/* frame #00 */
	const struct cr_extra *extra;	/* may be NULL */
	const struct cr_maps *maps;	/* may be NULL */
	int engine;			/* enum crash_engine */
	unsigned max_frames;
	int exact;			/* regs->pc is exact (a ucontext) */
};

void cr_report(struct cr_out *o, const struct cr_crash *c);

/* One backtrace section ("backtrace: ..." and its frames) for an engine. */
void cr_report_backtrace(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m,
			 int engine);

/* The last symbol found: frames of a recursion share it. */
struct cr_symmemo {
	uint64_t mod_lo;	/* 0: empty */
	struct cr_sym sym;
};

/* One frame line (exposed for tests).  memo may be NULL. */
void cr_report_frame(struct cr_out *o, const struct cr_mem *m, unsigned idx,
		     const struct cr_frame *f, int print_build_id, struct cr_symmemo *memo);

#endif
