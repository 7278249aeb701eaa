/* SPDX-License-Identifier: MIT */
/* Engine fp: the arch's fixed frame-record layout as a constant row. */
#include "unwind.h"

int cr_fp_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	uint64_t fp, sp;
	int ret;

	if (!a->fp_row)
		return -CR_ENOSYS;
	if (!cr_reg_valid(in, a->fp) || !cr_reg_valid(in, a->sp))
		return -CR_ENOINFO;
	fp = in->r[a->fp];
	sp = in->r[a->sp];
	if (fp == 0)
		return CR_END;	/* thread entry clears the frame pointer (psABI) */
	/* A frame record is aligned, inside the stack and above the current sp. */
	if ((fp & 7) || fp < sp || fp < w->stack_lo || fp >= w->stack_hi) {
		w->step.err_addr = fp;
		return -CR_EFAULT;
	}
	ret = cr_row_apply(a->fp_row, w->mem, a, in, out);
	if (ret == -CR_EFAULT)
		w->step.err_addr = fp;
	return ret;
}
