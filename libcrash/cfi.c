/* SPDX-License-Identifier: MIT */
/* Engine cfi: module -> FDE -> row -> caller. */
#include "cfi/cfi.h"
#include "module.h"
#include "unwind.h"

int cr_cfi_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	/* A caller's pc is a return address: the call may be the last instruction
	   of its function, so look up pc - 1 (DWARF5 6.4.4).  Exact pcs as is. */
	uint64_t pc = w->exact ? in->pc : in->pc - 1;
	struct cr_module mod;
	struct cr_ehsrc src;
	struct cr_fde fde;
	struct cr_row row;
	int ret;

	w->si.err_addr = pc;
	if (!w->find_module || w->find_module(w, pc, &mod) < 0 || !mod.eh_hdr)
		return -CR_ENOINFO;
	src.eh_hdr = mod.eh_hdr;
	src.eh_hdr_len = mod.eh_hdr_len;
	src.eh_frame = 0;
	src.eh_frame_end = mod.hi;
	src.bases.text = 0;
	src.bases.data = mod.eh_hdr;
	src.bases.func = 0;
	if ((ret = cr_eh_find(w->mem, &src, pc, &fde)) < 0)
		return ret == -CR_EFAULT ? ret : -CR_ENOINFO;
	if ((ret = cr_cfa_run(w->mem, w->arch, &fde, pc, &row)) < 0)
		return ret;
	w->si.err_addr = 0;
	ret = cr_row_apply(&row, w->mem, w->arch, in, out);
	if (ret == 0 && row.signal)
		w->si.next_exact = 1;
	return ret;
}
