/* SPDX-License-Identifier: MIT */
/* Engine sig: a kernel signal frame, recognised by its trampoline's bytes. */
#include "context.h"
#include "unwind.h"

int cr_sig_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	int ret;

	/* The trampoline is the host's: an offline walk of another arch has none. */
	if (w->arch != cr_host)
		return -CR_ENOINFO;
	ret = cr_sigframe(w->mem, in, out);
	if (ret == 0)
		w->step.next_exact = 1;
	else if (ret == -CR_EFAULT)
		w->step.err_addr = in->pc;
	return ret;
}

void cr_sig_note(struct cr_walk *w, uint64_t pc, uint64_t sp, const struct cr_regs *next,
		 unsigned idx)
{
	uint64_t info;

	if (w->sig_info || w->arch != cr_host || cr_sigframe_info(w->mem, pc, sp, &info) < 0)
		return;
	w->sig_info = info;
	w->sig_frame = idx;
	w->sig_sp = next->r[w->arch->sp];
}
