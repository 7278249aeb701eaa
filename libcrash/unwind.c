/* SPDX-License-Identifier: MIT */
/* The frame loop: engine chain, progress checks, stop reason. */
#include <string.h>

#include "cfi/cfi.h"
#include "crash.h"
#include "sym.h"
#include "unwind.h"

static cr_step_fn *const steps[CR_ENG_N] = {
	[CR_ENG_FP] = cr_fp_step,
	[CR_ENG_CFI] = cr_cfi_step,
	[CR_ENG_SCAN] = cr_scan_step,
	[CR_ENG_SIG] = cr_sig_step,
};

static const char *const names[CR_ENG_N] = { "ctx", "ra", "fp", "cfi", "scan", "sig" };

const char *cr_engine_name(unsigned e)
{
	return e < CR_ENG_N ? names[e] : "?";
}

int cr_engine_list(int engine, uint8_t list[8])
{
	unsigned n = 0;

	/* A kernel signal frame is recognised first (but see auto): fp and scan
	   cannot restore every register from it. */
	list[n++] = CR_ENG_SIG;
	switch (engine) {
	case CRASH_ENGINE_AUTO:
		/* CFI first: glibc's trampolines have 'S' FDEs, so the byte check
		   of every pc for a trampoline is only needed where CFI has none. */
		n = 0;
		list[n++] = CR_ENG_CFI;
		list[n++] = CR_ENG_SIG;
		list[n++] = CR_ENG_FP;
		list[n++] = CR_ENG_SCAN;
		break;
	case CRASH_ENGINE_FP:
		list[n++] = CR_ENG_FP;
		break;
	case CRASH_ENGINE_CFI:
		n = 0;	/* as auto: CFI, then trampolines without CFI */
		list[n++] = CR_ENG_CFI;
		list[n++] = CR_ENG_SIG;
		break;
	case CRASH_ENGINE_SCAN:
		list[n++] = CR_ENG_SCAN;
		break;
	default:
		return -1;
	}
	list[n] = CR_ENG_LIST_END;
	return 0;
}

int cr_walk_module(struct cr_walk *w, uint64_t pc, const struct cr_module **out)
{
	if (!w->mod_ok || pc < w->mod.lo || pc >= w->mod.hi) {
		w->mod_ok = 0;
		if (!w->find_module || w->find_module(w, pc, &w->mod) < 0)
			return -CR_ENOINFO;
		w->mod_ok = 1;
	}
	*out = &w->mod;
	return 0;
}

/*
 * A pc in no executable mapping (a call through a bad pointer): the call left
 * the return address at [sp] (x86_64) or in the link register.
 */
static int ra_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	struct cr_regs tmp = *in;
	uint64_t ra;

	if (!cr_reg_valid(in, a->sp))
		return -CR_EINVAL;
	if (a->ra_in_reg) {
		if (!cr_reg_valid(in, a->ra))
			return -CR_EINVAL;
		ra = in->r[a->ra];
	} else {
		if (cr_read64(w->mem, in->r[a->sp], &ra) < 0) {
			w->si.err_addr = in->r[a->sp];
			return -CR_EFAULT;
		}
		cr_reg_set(&tmp, a->sp, in->r[a->sp] + 8);
		cr_reg_set(&tmp, a->ra, ra);
	}
	tmp.pc = a->strip_ra ? a->strip_ra(ra) : ra;
	*out = tmp;
	return 0;
}

/*
 * An exact frame (#00, or interrupted by a signal) in a linker stub, on an
 * arch whose calls leave the return address in a register: the caller is in
 * the link register and sp is unchanged.  Linkers emit no FDE for the PLT on
 * aarch64 and riscv64, and stubs have no symbol; the psABIs let PLT entries and
 * veneers use only the scratch registers (AAPCS64 6.1.1 IP0/IP1 x16/x17;
 * RISC-V psABI "Procedure Linkage Table": t1-t3), never sp or the link
 * register.  So: a pc in a module, with no FDE and no sized symbol around it
 * (an unsized one, like crti's _init before .plt, does not say where it ends).
 * -CR_ENOINFO elsewhere, for the next engine.  Tried by every engine list,
 * after the trampoline check (try_engines).
 */
static int stub_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	const struct cr_module *mod;
	struct cr_ehsrc src = { 0 };
	struct cr_fde fde;
	struct cr_sym sym;
	int ret;

	if (!w->exact || !a->ra_in_reg || !cr_reg_valid(in, a->ra) || !cr_reg_valid(in, a->sp))
		return -CR_ENOINFO;
	if (cr_walk_module(w, in->pc, &mod) < 0)
		return -CR_ENOINFO;
	if (mod->eh_hdr) {
		src.eh_hdr = mod->eh_hdr;
		src.eh_hdr_len = mod->eh_hdr_len;
		src.eh_frame_end = mod->hi;
		src.bases.data = mod->eh_hdr;
		ret = cr_eh_find(w->mem, &src, in->pc, &fde);
		if (ret != -CR_ENOINFO)
			return -CR_ENOINFO;	/* an FDE (or no answer): not a stub */
	}
	if (cr_sym_find(w->mem, mod, in->pc, &sym) == 0 && sym.size &&
	    in->pc - sym.start < sym.size)
		return -CR_ENOINFO;
	*out = *in;
	out->pc = a->strip_ra ? a->strip_ra(in->r[a->ra]) : in->r[a->ra];
	return 0;
}

/*
 * An exact frame in generated code (a JIT's: executable, but in no module, so
 * no unwind table, symbol or function start).  Two readings of the caller:
 * (A) the function has not moved sp nor saved anything yet, the return
 * address is at [sp] (x86_64) or in the link register; (B) it has set up a
 * frame record, the fp engine's.  Both are common, and B over a function
 * without a record silently skips its caller (or more: past callers without
 * records).  A is taken when its return address is confirmed (it follows a
 * call in a function of known extent, cr_scan_confirm) and either the fp step
 * fails or the CFI walk from A reaches B's frame within JIT_LOOKAHEAD frames
 * (same pc, sp not below B's: the fp engine's sp is a lower bound on aarch64):
 * then the record at fp belongs to one of A's callers and A explains both,
 * while a stale return address left at [sp] by an earlier call does not.
 * -CR_ENOINFO elsewhere: the engines apply, fp among them.
 */
#define JIT_LOOKAHEAD 16
__attribute__((noinline)) static int jit_step(struct cr_walk *w, const struct cr_regs *in,
					    struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	const struct cr_module *mod;
	struct cr_regs ra_caller, fp_caller, r[2];
	struct cr_stepinfo si = w->si;
	int ok = 0;

	if (!w->exact || cr_walk_module(w, in->pc, &mod) == 0 || ra_step(w, in, &ra_caller) < 0 ||
	    !cr_scan_confirm(w, &ra_caller)) {
		w->si = si;
		return -CR_ENOINFO;
	}
	if (cr_fp_step(w, in, &fp_caller) < 0 || !cr_reg_valid(&fp_caller, a->sp)) {
		ok = 1;
	} else {
		w->exact = 0;	/* A's pc, and its callers', are return addresses */
		r[0] = ra_caller;
		for (unsigned k = 0; k < JIT_LOOKAHEAD && !ok; k++) {
			if (cr_cfi_step(w, &r[k & 1], &r[(k + 1) & 1]) != 0 ||
			    !cr_reg_valid(&r[(k + 1) & 1], a->sp) ||
			    r[(k + 1) & 1].r[a->sp] <= r[k & 1].r[a->sp])
				break;
			ok = r[(k + 1) & 1].pc == fp_caller.pc &&
			     r[(k + 1) & 1].r[a->sp] >= fp_caller.r[a->sp];
		}
		w->exact = 1;
	}
	w->si = si;
	if (!ok)
		return -CR_ENOINFO;
	*out = ra_caller;
	return 0;
}

/* The function around pc, for the decoder: a sized symbol containing pc, or an unsized one. */
#define LEAF_MAX 4096	/* as the scan engine: longer distances are not decoded */

__attribute__((noinline)) static int leaf_decode_copy(struct cr_walk *w, uint64_t start,
						      size_t off, struct cr_row *row)
{
	uint8_t code[LEAF_MAX];

	if (cr_read(w->mem, start, code, off) < 0)
		return -CR_ENOINFO;
	return w->arch->scan(code, off, off, 1, row);
}

static int leaf_decode(struct cr_walk *w, uint64_t start, uint64_t pc, struct cr_row *row)
{
	size_t off = (size_t)(pc - start);
	const uint8_t *code;

	if (off >= LEAF_MAX)
		return -CR_ENOINFO;
	if ((code = cr_mem_view(w->mem, start, off)) != NULL)	/* in place where it can */
		return w->arch->scan(code, off, off, 1, row);
	return leaf_decode_copy(w, start, off, row);
}

/*
 * The fp engine at an exact frame, on an arch whose calls leave the return
 * address in a register: a function that has not saved it (a leaf never does;
 * or the pc is in a prologue) has no frame record of its own, so the record at
 * fp is its caller's and would skip the caller.  The prologue decoder says
 * whether the link register is saved at pc: if not, its row (ra in the link
 * register, CFA from sp, or from fp where a GCC leaf saved only fp) is the
 * step.  -CR_ENOINFO otherwise, or when the function is not known: the frame
 * record applies.
 */
static int leaf_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	struct cr_row row;
	uint64_t start, size;

	if (!w->exact || !a->ra_in_reg || !a->scan || !cr_reg_valid(in, a->ra) ||
	    cr_scan_function(w, in->pc, &start, &size) < 0 ||
	    leaf_decode(w, start, in->pc, &row) < 0 ||
	    row.ra != a->ra || row.reg[a->ra].kind != CR_SAME)
		return -CR_ENOINFO;
	return cr_row_apply(&row, w->mem, a, in, out) == 0 ? 0 : -CR_ENOINFO;
}

static void emit(struct cr_trace *t, const struct cr_regs *r, const struct cr_arch *a,
		 uint8_t engine, uint8_t flags)
{
	struct cr_frame f = { r->pc, cr_reg_valid(r, a->sp) ? r->r[a->sp] : 0, engine, flags };

	if (t->f)
		t->f[t->n] = f;
	if (t->sink)
		t->sink(t, &f);
	t->n++;
}

static void stop(struct cr_trace *t, uint8_t why, uint64_t addr)
{
	t->stop = why;
	t->stop_addr = addr;
}

static int has_fp(const uint8_t *engines)
{
	for (unsigned i = 0; i < 8 && engines[i] != CR_ENG_LIST_END; i++)
		if (engines[i] == CR_ENG_FP)
			return 1;
	return 0;
}

/* Try the engines in order.  Returns the engine that stepped, or a negative error. */
static int try_engines(struct cr_walk *w, const uint8_t *engines, const struct cr_regs *cur,
		       struct cr_regs *next, uint64_t *fault)
{
	int best = -CR_ENOINFO;

	*fault = 0;
	for (unsigned i = 0; i < 8 && engines[i] != CR_ENG_LIST_END; i++) {
		cr_step_fn *fn = engines[i] < CR_ENG_N ? steps[engines[i]] : NULL;
		int ret;

		if (!fn)
			continue;
		w->si.err_addr = 0;
		w->si.next_exact = 0;
		/* auto (cfi first, fp later): generated code, before any engine
		   (fp would misread it): [ra]. */
		if (i == 0 && engines[0] == CR_ENG_CFI && has_fp(engines) &&
		    jit_step(w, cur, next) == 0)
			return CR_ENG_RA;
		/* The fp engine's frame-#00 rule, by the decoder: tagged [scan]. */
		if (engines[i] == CR_ENG_FP && leaf_step(w, cur, next) == 0)
			return CR_ENG_SCAN;
		ret = fn(w, cur, next);
		if (ret == 0)
			return engines[i];
		if (ret == CR_END)
			return CR_ENG_N;	/* outermost frame */
		/* Every list tries the trampoline check; after it, a linker stub
		   (before fp and scan, which would misread it): tagged [ra]. */
		if (engines[i] == CR_ENG_SIG && stub_step(w, cur, next) == 0)
			return CR_ENG_RA;
		/* An unreadable address says more than "no info": keep the first;
		   "no function start" says more than "no info". */
		if (ret == -CR_EFAULT && best != -CR_EFAULT) {
			best = ret;
			*fault = w->si.err_addr;
		} else if (ret == -CR_ENOSTART && best == -CR_ENOINFO) {
			best = ret;
		}
	}
	return best;
}

/* Checks on a step's result.  0 or the stop reason. */
static int check_step(struct cr_walk *w, uint64_t pc, uint64_t sp, const struct cr_regs *next,
		      int engine, uint64_t *addr)
{
	const struct cr_arch *a = w->arch;
	uint64_t nsp = next->r[a->sp];

	*addr = next->pc;
	if (!cr_reg_valid(next, a->sp))
		return CR_STOP_BADSP;
	if (next->pc == 0 || (w->is_exec && w->is_exec(w, next->pc) == 0))
		return CR_STOP_BADPC;
	if (next->pc == pc && nsp == sp)
		return CR_STOP_LOOP;
	*addr = nsp;
	if (engine == CR_ENG_SIG || (engine == CR_ENG_CFI && w->si.next_exact)) {
		/* A signal frame may switch stacks (sigaltstack): new bounds. */
		if (!w->stack_of || w->stack_of(w, nsp, &w->stack_lo, &w->stack_hi) < 0) {
			w->stack_lo = 0;
			w->stack_hi = UINT64_MAX;
		}
		return 0;
	}
	/* The sp grows strictly toward the caller; only the innermost frame (or
	   one interrupted by a signal) may be a leaf that did not move it. */
	if (nsp < sp || (nsp == sp && !w->exact))
		return CR_STOP_SP_BACKWARDS;
	if (nsp > w->stack_hi || nsp < w->stack_lo)
		return CR_STOP_BADSP;
	return 0;
}

unsigned cr_unwind(struct cr_walk *w, const struct cr_regs *start, const uint8_t *engines,
		   struct cr_trace *t)
{
	struct cr_regs regs[2];
	struct cr_regs *cur = &regs[0], *next = &regs[1], *tmp;
	uint64_t addr, pc, sp;
	int eng, why;
	uint8_t flags = w->exact ? CR_FRAME_EXACT : 0;

	*cur = *start;
	t->n = 0;
	t->unconfirmed = 0;
	w->sig_info = 0;
	stop(t, CR_STOP_MAXFRAMES, 0);
	if (t->max == 0)
		return 0;
	if (w->exact && w->is_exec && w->is_exec(w, cur->pc) == 0)
		flags |= CR_FRAME_NOEXEC;
	emit(t, cur, w->arch, CR_ENG_CTX, flags);
	for (w->depth = 0; t->n < t->max; w->depth++) {
		pc = cur->pc;
		sp = cur->r[w->arch->sp];
		if (w->depth == 0 && (flags & CR_FRAME_NOEXEC)) {
			eng = ra_step(w, cur, next) == 0 ? CR_ENG_RA : -CR_EFAULT;
			addr = w->si.err_addr;
		} else if (engines[0] == CR_ENG_CFI && cr_cfi_step_cached(w, cur) == 0) {
			/* The warm path: a cached row applied in place, no copy. */
			eng = CR_ENG_CFI;
			tmp = cur;
			cur = next;
			next = tmp;
		} else {
			eng = try_engines(w, engines, cur, next, &addr);
		}
		if (eng == CR_ENG_N) {
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
		if (eng == CR_ENG_SIG || w->si.next_exact) {
			flags |= CR_FRAME_EXACT;
			cr_sig_note(w, pc, sp, next, t->n);
		}
		if (eng == CR_ENG_SCAN) {
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
