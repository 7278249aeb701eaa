/* SPDX-License-Identifier: MIT */
/*
 * The report's sections of the other threads (docs/report-format.md, line
 * 9), printed from the table the capture filled (threads.h).  AS-safe.
 */
#include <errno.h>

#include "crash-int.h"
#include "report.h"
#include "threads.h"

static const char separator[] =
	"--- --- --- --- --- --- --- --- --- --- --- --- --- --- --- ---\n";

unsigned cr_report_threads_captured(const struct cr_threads *ts)
{
	unsigned ok = 0;

	for (unsigned i = 0; i < ts->n; i++)
		ok += ts->t[i].state == CR_THREAD_OK;
	return ok;
}

const char *cr_report_threads_error(const struct cr_threads *ts)
{
	if (!ts->err)
		return NULL;
	return ts->err == -EBUSY ? "another report is capturing them"
				 : "/proc/self/task cannot be read";
}

void cr_report_thread_crash(const struct cr_crash *c, const struct cr_thread *t,
			    struct cr_crash *out)
{
	/* The interrupted context of a signal: its pc is exact, as the
	   crashing thread's.  No extras: a sibling has no fault of its own.
	   CRASH_ENGINE=all: the crashing thread's four walks; the others' auto. */
	*out = *c;
	out->sig = 0;
	out->si = NULL;
	out->regs = &t->regs;
	out->extra = NULL;
	out->exact = 1;
	if (out->engine == CRASH_ENGINE_ALL)
		out->engine = CRASH_ENGINE_AUTO;
}

static void put_count(struct cr_out *o, const struct cr_threads *ts)
{
	unsigned ok = cr_report_threads_captured(ts);

	cr_puts(o, "\nother threads: ");
	cr_putu(o, ts->n + ts->more);
	cr_puts(o, " (");
	cr_putu(o, ok);
	cr_puts(o, " captured, ");
	cr_putu(o, ts->n - ok);
	cr_puts(o, " not captured, ");
	cr_putu(o, ts->more);
	cr_puts(o, " over the limit of ");
	cr_putu(o, CR_THREADS_MAX);
	cr_puts(o, ")\n");
}

static void put_thread(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m,
		       const struct cr_threads *ts, const struct cr_thread *t)
{
	const struct cr_policy *p;
	struct cr_crash tc;

	cr_puts(o, separator);
	cr_puts(o, "pid: ");
	cr_putu(o, (uint64_t)ts->pid);
	cr_puts(o, ", tid: ");
	cr_putu(o, (uint64_t)t->tid);
	cr_puts(o, ", name: ");
	cr_puts(o, t->name[0] ? t->name : "?");
	cr_putc(o, '\n');
	if (t->state != CR_THREAD_OK) {
		cr_puts(o, "not captured: ");
		cr_puts(o, cr_thread_state_text(t->state));
		cr_putc(o, '\n');
		return;
	}
	cr_report_thread_crash(c, t, &tc);
	cr_report_regs_text(o, &tc);
	p = cr_policy(tc.engine);
	if (p)
		cr_report_backtrace(o, &tc, m, p, 0);
}

void cr_report_threads(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m)
{
	const struct cr_threads *ts = c->threads;

	if (!ts)
		return;	/* CRASH_THREADS=crashing */
	if (ts->err) {
		cr_puts(o, "\nother threads: ? (");
		cr_puts(o, cr_report_threads_error(ts));
		cr_puts(o, ")\n");
		if (!ts->n)
			return;
	} else {
		put_count(o, ts);
	}
	for (unsigned i = 0; i < ts->n; i++) {
		put_thread(o, c, m, ts, &ts->t[i]);
		cr_flush(o);
	}
}
