/* SPDX-License-Identifier: MIT */
/* The report text; docs/report-format.md is its specification. AS-safe. */
#ifndef CR_REPORT_H
#define CR_REPORT_H

#include <signal.h>
#include <sys/utsname.h>
#include <time.h>

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
	const struct timespec *when;	/* CLOCK_REALTIME of the crash; NULL: now */
	struct cr_repsym *sym;		/* the report's symbolizer, shared by all its
					   backtraces; NULL: each its own */
};

/*
 * One symbolizer for a whole report: the text and the JSON twin, the crashing
 * thread and every other, read each module's tables and debug files (and
 * inflate their compressed sections) once, and look each pc's DWARF up once.
 * begin takes the symbolizer's workspace (none when another report holds it:
 * then each backtrace tries for its own, as without); end gives it back and
 * closes what it opened.  AS-safe.
 */
struct cr_repsym {
	struct cr_symz *z;		/* NULL: not held */
	struct cr_symfiles files;	/* the .symtab files kept open */
};
void cr_report_sym_begin(struct cr_repsym *s);
void cr_report_sym_end(struct cr_repsym *s);
/*
 * Around the memory map's listing: its mappings (debug files, indexes) let go
 * of, so that the listing shows the process's own, then taken again (what it
 * had read is read again once).  s may be NULL: nothing.
 */
void cr_report_sym_pause(struct cr_repsym *s);
void cr_report_sym_resume(struct cr_repsym *s);

/* Who crashed: pid and tid (-1: refused, seccomp), the thread's name, the executable. */
struct cr_ids {
	long pid, tid;
	char name[64];			/* "": unknown */
	char exe[256];			/* "": unknown */
};
void cr_report_ids(struct cr_ids *d);

/* The process lines' facts (docs/report-format.md, line 3). */
struct cr_proc {
	char time[CR_UTC_LEN + 1];	/* ISO 8601 UTC; "": unknown */
	int64_t uptime_ms;		/* -1: unknown */
	char cmdline[1024];		/* /proc/self/cmdline: NUL-separated arguments */
	size_t cmdlen;			/* without the last NULs */
	int cmdcut;			/* longer than the buffer */
	long uid, euid;			/* -1: unknown */
	int have_uname;
	struct utsname u;
};
void cr_report_proc(struct cr_proc *p, const struct cr_crash *c);

/* Frame #00's registers in the report's order (line 5), extras last; valid 0: unknown. */
typedef void cr_reg_fn(void *arg, const char *name, int valid, uint64_t v);
void cr_report_regs(const struct cr_crash *c, cr_reg_fn *fn, void *arg);

void cr_report(struct cr_out *o, const struct cr_crash *c);

/*
 * The abort message of a SIGABRT the process raised itself (abortmsg.h,
 * cr_abort_message: escaped, NUL-terminated) into buf; returns its length, 0
 * for none.  AS-safe.
 */
#define CR_REPORT_ABORT_MAX (3 * 1024)
size_t cr_report_abort(const struct cr_crash *c, const struct cr_mem *m, char *buf, size_t cap);

/* The register lines of c->regs (and c->extra): cr_report_regs printed as text. */
void cr_report_regs_text(struct cr_out *o, const struct cr_crash *c);

/*
 * The sections of the other threads of c->threads, after the crashing
 * thread's (report-threads.c; docs/report-format.md, "Other threads").
 */
void cr_report_threads(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m);

struct cr_threads;
struct cr_thread;
/*
 * What the text and the JSON report of another thread share (report-threads.c):
 * the crash as seen from captured thread t of c (its interrupted context,
 * exact; no signal or extras of its own; CRASH_ENGINE=all: the auto walk), the
 * number of captured threads of ts, and the reason why ts has no count (NULL
 * for none).
 */
void cr_report_thread_crash(const struct cr_crash *c, const struct cr_thread *t,
			    struct cr_crash *out);
unsigned cr_report_threads_captured(const struct cr_threads *ts);
const char *cr_report_threads_error(const struct cr_threads *ts);

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

/* What a walk found about where the signal came from (docs/report-format.md, line 6). */
struct cr_origin {
	int nested;		/* raised in the handler of si's signal */
	siginfo_t si;		/* nested: the first signal's, from its signal frame */
	unsigned line;		/* nested: the frame line (#NN) that signal interrupted */
	char cause[128];	/* the cause line's text; "": none */
};

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

/*
 * The facts of one frame line, as cr_report_frame_lines() finds them: the
 * text report prints them (cr_report_frame), the JSON report too (json.h),
 * so both say the same.  Pointers are valid during the callback only.
 */
struct cr_fline {
	unsigned idx;			/* #NN */
	uint64_t pc;			/* the lookup pc, absolute (exact, or return address - 1) */
	const struct cr_module *mod;	/* the pc's module; NULL: none (<unknown>, noexec) */
	int noexec;			/* frame #00 in no executable mapping (pc: as it is) */
	const char *name;		/* the function as printed (demangled), NULL: none */
	const char *raw;		/* the same as the symbol table or DWARF has it */
	int has_off;			/* off and sym_start are known */
	uint64_t off, sym_start;	/* pc - sym_start; sym_start absolute */
	int first_of_module;		/* the backtrace's first line in mod (BuildId printed) */
	int is_inline;			/* an inlined frame: [inline] */
	unsigned tag;			/* enum cr_tag of the frame (not for inlined lines) */
	const char *file;		/* " at FILE:LINE", NULL: none */
	uint64_t line;
};
typedef void cr_fline_fn(void *arg, const struct cr_fline *l);

/*
 * One backtrace, walked by cr_bt_prepare(): its frame count (inlined lines
 * included), the origin facts for the report's first, then its lines
 * (cr_bt_lines, once), then cr_bt_done().  cr_report_backtrace() prints it as
 * text; the JSON report (json-report.c) prints the same facts.
 */
struct cr_bt {
	const struct cr_crash *c;
	const struct cr_mem *m;
	const struct cr_policy *p;
	struct cr_btlines bl;
	struct cr_trace t;		/* the walk; t.f NULL: walked again to print */
	struct cr_walk w;
	unsigned lines;			/* frame lines, inlined frames' included */
	unsigned sig_frame, sig_line;	/* the frame a signal interrupted, and its line */
	int have_sig_pc;
	uint64_t sig_pc;
	cr_fline_fn *fn;		/* the printing walk's (frame buffer held elsewhere) */
	void *arg;
};
void cr_bt_prepare(struct cr_bt *b, const struct cr_crash *c, const struct cr_mem *m,
		   const struct cr_policy *p);
void cr_bt_origin(const struct cr_bt *b, struct cr_origin *out);
/* The trace as its header line reports it: n is the number of frame lines. */
void cr_bt_head(const struct cr_bt *b, struct cr_trace *head);
void cr_bt_lines(struct cr_bt *b, cr_fline_fn *fn, void *arg);
void cr_bt_done(struct cr_bt *b);

/* cr_report_frame's facts, each line given to fn in order.  Returns how many. */
unsigned cr_report_frame_lines(const struct cr_mem *m, unsigned idx, const struct cr_frame *f,
			       struct cr_btlines *bl, cr_fline_fn *fn, void *arg);

#endif
