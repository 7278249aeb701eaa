/* SPDX-License-Identifier: MIT */
/* crash_backtrace, crash_backtrace_with, crash_report_fd; the live walk. */
#include <errno.h>

#include "context.h"
#include "crash-int.h"
#include "module.h"
#include "json.h"
#include "options.h"
#include "report.h"
#include "sys.h"
#include "threads.h"

static int live_module(const struct cr_walk *w, uint64_t pc, struct cr_module *out)
{
	return cr_module_find(w->mem, pc, out);
}

CR_HOT static int live_module_quick(const struct cr_walk *w, uint64_t pc, struct cr_module *out)
{
	(void)w;
	return cr_module_quick(pc, out);
}

/* Crash path only: is pc executable, which stack holds sp (w->ctx: the maps). */
static int maps_exec(const struct cr_walk *w, uint64_t pc)
{
	const struct cr_map *m = cr_maps_find(w->ctx, pc);

	return m && (m->flags & CR_MAP_X);
}

/* Without the maps only the first page is known: it is never mapped (mmap_min_addr). */
static int low_exec(const struct cr_walk *w, uint64_t pc)
{
	(void)w;
	return pc < 4096 ? 0 : -1;
}

static int maps_stack(const struct cr_walk *w, uint64_t sp, uint64_t *lo, uint64_t *hi)
{
	return cr_maps_stack(w->ctx, sp, lo, hi);
}

CR_HOT void cr_walk_live(struct cr_walk *w, struct cr_maps *maps, uint64_t sp, int exact)
{
	w->arch = cr_host;
	w->mem = &cr_mem_self;
	w->depth = 0;
	w->exact = (uint8_t)exact;
	/* Not merged with w->cache's store below: gcc then loads the pair's
	   constant from .rodata, a page no other part of a capture reads (a
	   first capture's page fault, ~2-3 us: docs/performance.md, issue 20). */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	w->find_module = live_module;
	w->module_quick = live_module_quick;	/* -CR_ENOSYS without _dl_find_object */
	w->step.err_addr = 0;
	w->step.next_exact = 0;
	w->mod_ok = 0;
	w->cache = 1;
	w->lastrows = NULL;
	w->syms = NULL;	/* cr_unwind's */
	w->syms_open = 0;
	w->fn_key = 0;
	w->stack_lo = sp;
	w->stack_hi = UINT64_MAX;
	w->is_exec = low_exec;
	w->stack_of = NULL;
	w->ctx = maps;
	if (maps) {
		/*
		 * The crash path (one owner): not the row cache, whose 128 KiB a
		 * dying process would fault in a page per row (~2 us each on a
		 * virtual machine), but this walk's own last rows.
		 */
		static struct cr_lastrows crash_rows;

		crash_rows.next = 0;
		for (unsigned i = 0; i < CR_LASTROWS; i++)
			crash_rows.e[i].pc = 0;
		w->cache = 0;
		w->lastrows = &crash_rows;
		w->is_exec = maps_exec;
		w->stack_of = maps_stack;
		if (cr_maps_stack(maps, sp, &w->stack_lo, &w->stack_hi) < 0) {
			w->stack_lo = sp;
			w->stack_hi = UINT64_MAX;
		}
	}
}

/*
 * The walk starts in the caller of the public entry point: its registers
 * come from the entry point's assembly stub (context.h), so frame #00 is the
 * caller at the return address (a return address: looked up at pc - 1) and
 * buffer[0] that return address, as glibc backtrace() gives.  No frame of
 * libcrash is walked: a frame of its own would cost every capture one more
 * frame, and a first capture one more FDE to decode.  caller is the stub's
 * struct, alive until the body returns: read in place, not copied.
 */
static inline __attribute__((always_inline)) int backtrace_engine(int engine, void **buffer,
								   int size,
								   const struct cr_regs *caller)
{
	struct cr_mem_fast fast;
	struct cr_walk w;
	/* The pcs straight into the buffer (t.max <= size): no call per frame. */
	struct cr_trace t = { .f = NULL, .sink = NULL, .pcs = buffer };
	const struct cr_policy *p = cr_policy(engine);
	int n;

	if (!p)
		return -EINVAL;
	if (engine == CRASH_ENGINE_SCAN && !cr_host->scan)
		return -ENOSYS;
	if (size <= 0)
		return 0;
	cr_walk_live(&w, NULL, caller->r[cr_host->sp], 0);
	cr_mem_fast_init(&fast);
	/* The stacks proven for good (mem.h): a warm capture on them makes no
	   system call. */
	cr_mem_fast_stacks(&fast, caller->r[cr_host->sp]);
	w.mem = &fast.m;	/* not the crash path: proven pages are read directly */
	t.max = (unsigned)(size < CR_MAX_FRAMES ? size : CR_MAX_FRAMES);
	/* Warm: cached simple rows only; else (or on any doubt) the full walk. */
	if (p->cfi_first && (n = cr_cfi_fast_trace(&w, &fast, caller, t.max, buffer)) >= 0)
		return n;
	w.mod_ok = 0;
	return (int)cr_unwind(&w, caller, p, &t);
}

/* crash_backtrace_with(): the body behind its stub (context.h). */
CR_HOT int cr_backtrace_with_at(int engine, void **buffer, int size, const struct cr_regs *caller)
{
	if (engine == CRASH_ENGINE_ALL || (!buffer && size > 0))
		return -EINVAL;
	return backtrace_engine(engine, buffer, size, caller);
}

/* crash_backtrace(): the body behind its stub (context.h). */
CR_HOT int cr_backtrace_at(void **buffer, int size, long unused, const struct cr_regs *caller)
{
	int engine = cr_cfg.engine == CRASH_ENGINE_ALL ? CRASH_ENGINE_AUTO : cr_cfg.engine;
	int n;

	(void)unused;
	if (!buffer || size <= 0)
		return 0;
	n = backtrace_engine(engine, buffer, size, caller);
	return n < 0 ? 0 : n;
}

__attribute__((noinline)) void crash_report_fd(int fd)
{
	struct cr_regs regs;
	struct cr_crash c;
	struct cr_out o;
	struct timespec when;
	struct cr_repsym sym;

	cr_getcontext(&regs);
	c.sig = 0;
	c.si = NULL;
	c.regs = &regs;
	c.extra = NULL;
	c.maps = NULL;
	c.engine = cr_cfg.engine;
	c.max_frames = cr_cfg.max_frames;
	c.exact = 0;
	c.threads = NULL;
	if (cr_cfg.threads == CRASH_THREADS_ALL)
		c.threads = cr_threads_capture(cr_cfg.sink.timeout_ms);
	/* Both reports of CRASH_FORMAT=both say the same time. */
	c.when = cr_sys_clock_gettime(CLOCK_REALTIME, &when) == 0 ? &when : NULL;
	cr_out_init(&o, fd);
	/* One symbolizer for every backtrace of the report(s). */
	cr_report_sym_begin(&sym);
	c.sym = &sym;
	if (cr_cfg.format != CRASH_FORMAT_JSON)
		cr_report(&o, &c);
	if (cr_cfg.format != CRASH_FORMAT_TEXT)
		cr_report_json(&o, &c, CR_JSON_LIMIT);
	cr_report_sym_end(&sym);
	cr_threads_release(c.threads);
}
