/* SPDX-License-Identifier: MIT */
/* The frame loop: the policy's steps, progress checks, stop reason. */
#include "crash.h"
#include "sym.h"
#include "unwind.h"

/*
 * The policies of the public engines: what each tries at a frame, in order.
 * The special steps (special.c) stand before the engine that would misread
 * their frames; every policy takes a kernel signal frame (sig) and an exact
 * frame without an FDE (stub: a linker stub, or assembly, read by evidence)
 * before fp and scan, which cannot restore every register from a signal
 * frame or would misread a stub.
 * - auto: cfi first (glibc's trampolines have 'S' FDEs, so the byte check of
 *   every pc for a trampoline is only needed where CFI has none); before it,
 *   generated code (jit: fp would skip its caller); then, where no FDE
 *   covers pc, scan before fp: a function with a known start is read by its
 *   own prologue (one without a frame pointer leaves in fp an ancestor's
 *   record, and fp would skip the frames between), and fp takes what scan
 *   cannot (no function start, more than SCAN_MAX bytes in, code it cannot
 *   follow); leaf, on link-register arches, before both.
 * - cfi: cfi, then the trampolines without CFI.
 * - fp, scan: the trampolines, then the engine.
 * Before any policy's steps, frame #00 with its pc in no executable mapping
 * takes cr_ra_step alone (cr_unwind), and a cfi-first policy a cached row.
 */
static const struct cr_policy policies[] = {
	[CRASH_ENGINE_AUTO] = { "auto", 1, 8,
				{ CR_STEP_JIT, CR_STEP_CFI, CR_STEP_SIG, CR_STEP_ENTRY, CR_STEP_STUB,
				  CR_STEP_LEAF, CR_STEP_SCAN, CR_STEP_FP } },
	[CRASH_ENGINE_FP] = { "fp", 0, 4, { CR_STEP_SIG, CR_STEP_STUB, CR_STEP_LEAF, CR_STEP_FP } },
	[CRASH_ENGINE_CFI] = { "cfi", 1, 4, { CR_STEP_CFI, CR_STEP_SIG, CR_STEP_ENTRY, CR_STEP_STUB } },
	[CRASH_ENGINE_SCAN] = { "scan", 0, 3, { CR_STEP_SIG, CR_STEP_STUB, CR_STEP_SCAN } },
};

CR_HOT const struct cr_policy *cr_policy(int engine)
{
	if (engine < 0 || (unsigned)engine >= CR_ARRAY_SIZE(policies))
		return NULL;
	return &policies[engine];
}

static const char *const tag_names[CR_TAG_N] = { "ctx", "ra", "fp", "cfi", "scan", "sig" };

const char *cr_tag_name(unsigned tag)
{
	return tag < CR_TAG_N ? tag_names[tag] : "?";
}

int cr_walk_module(struct cr_walk *w, uint64_t pc, const struct cr_module **out)
{
	if (!w->mod_ok || pc < w->mod.lo || pc >= w->mod.hi) {
		w->mod_ok = 0;
		w->scan_h_ok = 0;
		if (!w->find_module || w->find_module(w, pc, &w->mod) < 0)
			return -CR_ENOINFO;
		w->mod_ok = 1;
	}
	*out = &w->mod;
	return 0;
}

static void emit(struct cr_trace *t, const struct cr_regs *r, const struct cr_arch *a,
		 uint8_t tag, uint8_t flags)
{
	cr_trace_emit(t, r->pc, cr_reg_valid(r, a->sp) ? r->r[a->sp] : 0, tag, flags);
}

static void stop(struct cr_trace *t, uint8_t why, uint64_t addr)
{
	t->stop = why;
	t->stop_addr = addr;
}

/*
 * The steps of p in order.  Returns the tag of the step that found the
 * caller, CR_TAG_N for the outermost frame, or the most telling of the
 * engines' errors: an unreadable address (*fault) says more than "no info",
 * and so does "no function start" (special steps fail with -CR_ENOINFO only).
 */
static int try_steps(struct cr_walk *w, const struct cr_policy *p, const struct cr_regs *cur,
		     struct cr_regs *next, uint64_t *fault)
{
	int best = -CR_ENOINFO, ret;

	*fault = 0;
	/* Once for all steps: a step that fails sets no next_exact, and one
	   that fails with -CR_EFAULT always sets err_addr. */
	w->step.err_addr = 0;
	w->step.next_exact = 0;
	for (unsigned i = 0; i < p->n; i++) {
		if (p->step[i].exact && !w->exact)
			continue;
		ret = p->step[i].fn(w, cur, next);
		if (ret >= 0) {
			if (ret == 0)
				return p->step[i].tag;
			if (ret == CR_END)
				return CR_TAG_N;	/* outermost frame */
			return ret - CR_STEP_TAGGED(0);	/* the step's own tag */
		}
		if (ret == -CR_EFAULT && best != -CR_EFAULT) {
			best = ret;
			*fault = w->step.err_addr;
		} else if (ret == -CR_ENOSTART && best == -CR_ENOINFO) {
			best = ret;
		}
	}
	return best;
}

/*
 * A (pc, sp) pair that comes again after more than one step.  The sp grows at
 * every step but those to an exact frame with the same sp (a leaf's caller)
 * and those through a signal frame, which may lead back down to another stack
 * (sigaltstack) or, from a corrupt or hostile ucontext, to a frame already
 * walked.  So every cycle has such a step, and the frame it leads to repeats
 * each lap: the last CR_LOOP_RING of them are remembered, and one seen again
 * is a loop (a cycle with more such steps per lap ends at max frames).
 */
static int loop_seen(struct cr_walk *w, const struct cr_regs *next)
{
	uint64_t nsp = next->r[w->arch->sp];
	unsigned i;

	for (i = 0; i < w->ndown && i < CR_LOOP_RING; i++)
		if (w->down[i].pc == next->pc && w->down[i].sp == nsp)
			return 1;
	i = w->ndown++ % CR_LOOP_RING;
	w->down[i].pc = next->pc;
	w->down[i].sp = nsp;
	return 0;
}

/* The step crossed a signal frame: its caller is exact, and its stack may differ. */
#define SIG_STEP(w, tag) ((tag) == CR_TAG_SIG || ((tag) == CR_TAG_CFI && (w)->step.next_exact))

/* Checks on a step's result.  0 or the stop reason. */
static int check_step(struct cr_walk *w, uint64_t pc, uint64_t sp, const struct cr_regs *next,
		      int tag, uint64_t *addr)
{
	const struct cr_arch *a = w->arch;
	uint64_t nsp = next->r[a->sp];
	int x;

	*addr = next->pc;
	if (!cr_reg_valid(next, a->sp))
		return CR_STOP_BADSP;
	if (next->pc == 0)
		return CR_STOP_BADPC;
	/*
	 * Unknown to is_exec (no maps: crash_backtrace, where generated code is
	 * in no module and must not be refused), a return address is still no
	 * code inside the frames this walk has crossed on this stack, [its
	 * lowest sp, the caller's sp): stack, which code placed there (GCC's
	 * nested-function trampolines) never returns into: it jumps, it does not
	 * call.  A signal frame's pc is exact and may be such code.
	 */
	if (w->is_exec && (x = w->is_exec(w, next->pc)) <= 0 &&
	    (x == 0 || (next->pc >= w->seen_lo && next->pc < nsp && !SIG_STEP(w, tag))))
		return CR_STOP_BADPC;
	if (next->pc == pc && nsp == sp)
		return CR_STOP_LOOP;
	if (SIG_STEP(w, tag)) {
		/* A signal frame may switch stacks (sigaltstack): new bounds, and
		   it may lead back down, to a frame already walked. */
		if (!w->stack_of || w->stack_of(w, nsp, &w->stack_lo, &w->stack_hi) < 0) {
			w->stack_lo = 0;
			w->stack_hi = UINT64_MAX;
		}
		w->seen_lo = nsp;
		return loop_seen(w, next) ? CR_STOP_LOOP : 0;
	}
	*addr = nsp;
	/* The sp grows strictly toward the caller; only the innermost frame (or
	   one interrupted by a signal) may be a leaf that did not move it. */
	if (nsp <= sp) {
		if (nsp < sp || !w->exact)
			return CR_STOP_SP_BACKWARDS;
		if (loop_seen(w, next)) {
			*addr = next->pc;
			return CR_STOP_LOOP;
		}
	}
	if (nsp > w->stack_hi || nsp < w->stack_lo)
		return CR_STOP_BADSP;
	return 0;
}

static unsigned walk(struct cr_walk *w, const struct cr_regs *start, const struct cr_policy *p,
		     struct cr_trace *t)
{
	struct cr_regs regs[2];
	struct cr_regs *cur = &regs[0], *next = &regs[1], *tmp;
	struct cr_fp_run run;
	uint64_t addr, pc, sp;
	int eng, why, fast;
	uint8_t flags = w->exact ? CR_FRAME_EXACT : 0;

	*cur = *start;
	t->n = 0;
	t->unconfirmed = 0;
	w->sig_info = 0;
	/* No sp to start from: no stack range known (until a signal frame's). */
	w->seen_lo = cr_reg_valid(start, w->arch->sp) ? start->r[w->arch->sp] : UINT64_MAX;
	stop(t, CR_STOP_MAXFRAMES, 0);
	if (t->max == 0)
		return 0;
	if (w->exact && w->is_exec && w->is_exec(w, cur->pc) == 0)
		flags |= CR_FRAME_NOEXEC;
	emit(t, cur, w->arch, CR_TAG_CTX, flags);
	w->ndown = 0;
	loop_seen(w, cur);	/* frame #00 may come again too */
	fast = cr_fp_run_init(&run, w, p);
	for (w->depth = 0; t->n < t->max; w->depth++) {
		/* The fp engine's frames that are not exact: its run (fp.c). */
		if (fast && !w->exact) {
			w->depth += cr_fp_run(&run, w, cur, t);
			if (t->n >= t->max)
				break;
		}
		pc = cur->pc;
		sp = cur->r[w->arch->sp];
		if (w->depth == 0 && (flags & CR_FRAME_NOEXEC)) {
			/* No table, no frame: the return address alone, or nothing. */
			eng = cr_ra_step(w, cur, next) == 0 ? CR_TAG_RA : -CR_EFAULT;
			addr = w->step.err_addr;
		} else if (p->cfi_first && cr_cfi_step_cached(w, cur) == 0) {
			/* The warm path: a cached row applied in place, no copy (auto's
			   jit step first would change nothing: a cached row is of a
			   module, generated code is in none). */
			eng = CR_TAG_CFI;
			tmp = cur;
			cur = next;
			next = tmp;
		} else {
			eng = try_steps(w, p, cur, next, &addr);
		}
		if (eng == CR_TAG_N) {
			stop(t, CR_STOP_COMPLETE, 0);
			break;
		}
		if (eng < 0) {
			if (eng == -CR_EFAULT)
				stop(t, CR_STOP_BADMEM, addr);
			else if (eng == -CR_ENOSTART)
				stop(t, CR_STOP_NOSTART, w->exact ? pc : pc - 1);
			else
				stop(t, CR_STOP_NOINFO, w->exact ? pc : pc - 1);
			break;
		}
		if ((why = check_step(w, pc, sp, next, eng, &addr)) != 0) {
			stop(t, (uint8_t)why, addr);
			break;
		}
		flags = 0;
		if (eng == CR_TAG_SIG || w->step.next_exact) {
			flags |= CR_FRAME_EXACT;
			cr_sig_note(w, pc, sp, next, t->n);
		}
		if (eng == CR_TAG_SCAN) {
			if (cr_scan_confirm(w, next))
				flags |= CR_FRAME_CONFIRMED;
			else
				t->unconfirmed++;
		}
		w->exact = (flags & CR_FRAME_EXACT) != 0;
		emit(t, next, w->arch, (uint8_t)eng, flags);
		tmp = cur;	/* double buffer: no copy of the registers */
		cur = next;
		next = tmp;
	}
	return t->n;
}

unsigned cr_unwind(struct cr_walk *w, const struct cr_regs *start, const struct cr_policy *p,
		   struct cr_trace *t)
{
	struct cr_symfiles syms;	/* opened by the first lookup (scan.c) */
	unsigned n;

	w->syms = &syms;
	w->syms_open = 0;
	w->fn_key = 0;
	n = walk(w, start, p, t);
	if (w->syms_open)
		cr_symfiles_close(&syms);
	w->syms = NULL;
	w->syms_open = 0;
	return n;
}
