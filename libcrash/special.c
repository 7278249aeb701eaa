/* SPDX-License-Identifier: MIT */
/*
 * The special steps: exact frames (frame #00, or one interrupted by a signal)
 * that no engine reads right.  Each is a cr_step_fn that answers
 * -CR_ENOINFO where it does not apply, so a policy (unwind.c) lists it before
 * the engine that would misread the frame; cr_ra_step is also the whole step
 * of frame #00 when its pc is in no executable mapping.  Frames they find are
 * tagged [ra], or [scan] for cr_leaf_step.  docs/design.md, "One row type,
 * one executor".
 */
#include "cfi/cfi.h"
#include "sym.h"
#include "unwind.h"

int cr_ra_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
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
			w->step.err_addr = in->r[a->sp];
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
 * Linkers emit no FDE for the PLT on aarch64 and riscv64, and stubs have no
 * symbol; the psABIs let PLT entries and veneers use only the scratch
 * registers (AAPCS64 6.1.1 IP0/IP1 x16/x17; RISC-V psABI "Procedure Linkage
 * Table": t1-t3), never sp or the link register.  So: a pc in a module, with
 * no FDE and no sized symbol around it (an unsized one, like crti's _init
 * before .plt, does not say where it ends).
 */
__attribute__((noinline)) static int stub(struct cr_walk *w, const struct cr_regs *in,
					  struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	const struct cr_module *mod;
	struct cr_ehsrc src = { 0 };
	struct cr_fde fde;
	struct cr_sym sym;
	int ret;

	if (!cr_reg_valid(in, a->ra) || !cr_reg_valid(in, a->sp))
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

/* Most frames are not exact: they pay only this test (the body is out of line). */
int cr_stub_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	if (!w->exact || !w->arch->ra_in_reg)
		return -CR_ENOINFO;
	return stub(w, in, out);
}

/*
 * Two readings of the caller of generated code (no unwind table, symbol or
 * function start): (A) the function has not moved sp nor saved anything yet,
 * the return address is at [sp] (x86_64) or in the link register; (B) it has
 * set up a frame record, the fp engine's.  Both are common, and B over a
 * function without a record silently skips its caller (or more: past
 * callers without records).  A is taken when its return address is confirmed
 * (it follows a call in a function of known extent, cr_scan_confirm) and
 * either the fp step fails or the CFI walk from A reaches B's frame within
 * JIT_LOOKAHEAD frames (same pc, sp not below B's: the fp engine's sp is a
 * lower bound on aarch64): then the record at fp belongs to one of A's
 * callers and A explains both, while a stale return address left at [sp] by
 * an earlier call does not.
 */
#define JIT_LOOKAHEAD 16
__attribute__((noinline)) static int jit(struct cr_walk *w, const struct cr_regs *in,
					 struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	const struct cr_module *mod;
	struct cr_regs ra_caller, fp_caller, r[2];
	struct cr_stepinfo saved = w->step;
	int ok = 0;

	if (cr_walk_module(w, in->pc, &mod) == 0 || cr_ra_step(w, in, &ra_caller) < 0 ||
	    !cr_scan_confirm(w, &ra_caller)) {
		w->step = saved;
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
	w->step = saved;
	if (!ok)
		return -CR_ENOINFO;
	*out = ra_caller;
	return 0;
}

int cr_jit_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	return w->exact ? jit(w, in, out) : -CR_ENOINFO;
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
 * A function that has not saved its return address (a leaf never does; or
 * the pc is in a prologue) has no frame record of its own, so the record at
 * fp is its caller's and the fp engine would skip the caller.  The prologue
 * decoder says whether the link register is saved at pc: if not, its row (ra
 * in the link register, CFA from sp, or from fp where a GCC leaf saved only
 * fp) is the step.  -CR_ENOINFO otherwise, or when the function is not known:
 * the frame record applies.
 */
__attribute__((noinline)) static int leaf(struct cr_walk *w, const struct cr_regs *in,
					  struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	struct cr_row row;
	uint64_t start, size;

	if (!a->scan || !cr_reg_valid(in, a->ra) ||
	    cr_scan_function(w, in->pc, &start, &size) < 0 ||
	    leaf_decode(w, start, in->pc, &row) < 0 || row.ra != a->ra ||
	    row.reg[a->ra].kind != CR_SAME)
		return -CR_ENOINFO;
	return cr_row_apply(&row, w->mem, a, in, out) == 0 ? 0 : -CR_ENOINFO;
}

int cr_leaf_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	if (!w->exact || !w->arch->ra_in_reg)
		return -CR_ENOINFO;
	return leaf(w, in, out);
}
