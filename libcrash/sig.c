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
		w->si.next_exact = 1;
	else if (ret == -CR_EFAULT)
		w->si.err_addr = in->pc;
	return ret;
}
