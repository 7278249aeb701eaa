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
	const siginfo_t *si;		/* NULL if sig == 0, or the handler was called by
					   other code (no signal context) */
	const struct cr_regs *regs;	/* frame #00 */
	const struct cr_extra *extra;	/* may be NULL */
	struct cr_maps *maps;		/* may be NULL */
	int engine;			/* enum crash_engine */
	unsigned max_frames;
	int exact;			/* regs->pc is exact (a ucontext) */
	const struct cr_threads *threads;	/* the other threads (threads.h), or NULL:
						   the crashing thread's report only */
};

void cr_report(struct cr_out *o, const struct cr_crash *c);

/* The registers of c->regs (and c->extra) in the arch's report order. */
void cr_report_regs(struct cr_out *o, const struct cr_crash *c);

/*
 * The sections of the other threads of c->threads, after the crashing
 * thread's (report-threads.c; docs/report-format.md, "Other threads").
 */
void cr_report_threads(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m);

/*
 * One backtrace section ("backtrace: ..." and its frames) walked with policy
 * p; first: the report's first, which has the signal's origin lines before it
 * ("raised in the handler of signal ...", "cause: ...").
 */
void cr_report_backtrace(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m,
			 const struct cr_policy *p, int first);

/*
 * The section's first line, "backtrace: N frames, engine NAME, STOP", for a
 * trace t walked with policy p (docs/report-format.md).
 */
void cr_report_head(struct cr_out *o, const struct cr_policy *p, const struct cr_trace *t);

struct cr_symz;

/* What the frame lines of one backtrace keep from line to line. */
struct cr_btlines {
	/* Where the frame lines look modules up: NULL, cr_module_find (tests
	   give made-up modules). */
	int (*find_module)(const struct cr_mem *m, uint64_t pc, struct cr_module *out);
	uint64_t mod_lo;	/* the last symbol found (0: none): recursions share it */
	struct cr_sym sym;
	uint64_t seen[64];	/* modules whose build-id was printed (their start) */
	unsigned nseen;
	struct cr_symfiles files;	/* the last modules' .symtab files, kept open */
	struct cr_symz *z;		/* NULL, or the report's symbolizer (report.c):
					   whole names, demangled, file:line, inlines */
};

/*
 * The lines of one frame, numbered from idx: the frames inlined at its pc
 * (bl->z's DWARF), innermost first, then the frame's own.  Returns how many.
 * The build-id goes on the first line of each module (bl->seen); bl may be
 * NULL (then it is printed, and there are no inlined frames).
 */
unsigned cr_report_frame(struct cr_out *o, const struct cr_mem *m, unsigned idx,
			 const struct cr_frame *f, struct cr_btlines *bl);

#endif
