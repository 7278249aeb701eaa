/* SPDX-License-Identifier: MIT */
/* Engine cfi: module -> FDE -> row -> caller. */
#include "cfi/cache.h"
#include "cfi/cfi.h"
#include "module.h"
#include "unwind.h"

int cr_cfi_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	/* A caller's pc is a return address: the call may be the last instruction
	   of its function, so look up pc - 1 (DWARF5 6.4.4).  Exact pcs as is. */
	uint64_t pc = w->exact ? in->pc : in->pc - 1;
	const struct cr_module *mod;
	struct cr_ehsrc src;
	struct cr_fde fde;
	struct cr_row row;
	struct cr_crow crow;
	uint64_t key;
	int ret;

	w->si.err_addr = pc;
	if (cr_walk_module(w, pc, &mod) < 0 || !mod->eh_hdr)
		return -CR_ENOINFO;
	src.eh_hdr = mod->eh_hdr;
	src.eh_hdr_len = mod->eh_hdr_len;
	src.eh_frame = 0;
	src.eh_frame_end = mod->hi;
	src.bases.text = 0;
	src.bases.data = mod->eh_hdr;
	src.bases.func = 0;
	key = mod->lo ^ (mod->eh_hdr << 1);
	if (w->cache && cr_cache_get(pc, key, &crow) == 0) {
		w->si.err_addr = 0;
		ret = cr_crow_apply(&crow, w->mem, w->arch, in, out);
		if (ret == 0 && crow.signal)
			w->si.next_exact = 1;
		return ret;
	} else {
		if ((ret = cr_eh_find(w->mem, &src, pc, &fde)) < 0)
			return ret == -CR_EFAULT ? ret : -CR_ENOINFO;
		if ((ret = cr_cfa_run(w->mem, w->arch, &fde, pc, &row)) < 0)
			return ret;
		if (w->cache && cr_row_compact(&row, w->arch, &crow) == 0)
			cr_cache_put(pc, key, &crow);
	}
	w->si.err_addr = 0;
	ret = cr_row_apply(&row, w->mem, w->arch, in, out);
	if (ret == 0 && row.signal)
		w->si.next_exact = 1;
	return ret;
}

int cr_cfi_step_cached(struct cr_walk *w, struct cr_regs *r)
{
	uint64_t pc = w->exact ? r->pc : r->pc - 1;
	const struct cr_module *mod;
	struct cr_crow crow;

	if (!w->cache || cr_walk_module(w, pc, &mod) < 0 ||
	    cr_cache_get(pc, mod->lo ^ (mod->eh_hdr << 1), &crow) < 0)
		return -CR_ENOINFO;
	w->si.err_addr = 0;
	w->si.next_exact = crow.signal;
	return cr_crow_apply(&crow, w->mem, w->arch, r, r) == 0 ? 0 : -CR_ENOINFO;
}
