/* SPDX-License-Identifier: MIT */
/* Engine cfi: module -> FDE -> row -> caller. */
#include "cfi/cache.h"
#include "cfi/cfi.h"
#include "module.h"
#include "unwind.h"

/* The source of mod's tables, as the loader maps them. */
static void ehsrc_of(const struct cr_module *mod, struct cr_ehsrc *src)
{
	src->eh_hdr = mod->eh_hdr;
	src->eh_hdr_len = mod->eh_hdr_len;
	src->eh_frame = 0;
	src->eh_frame_end = mod->hi;
	src->bases.text = 0;
	src->bases.data = mod->eh_hdr;
	src->bases.func = 0;
}

int cr_cfi_range(struct cr_walk *w, uint64_t pc, uint64_t *lo, uint64_t *hi)
{
	const struct cr_module *mod;
	struct cr_ehsrc src;
	struct cr_fde fde;
	int ret;

	if (cr_walk_module(w, pc, &mod) < 0 || !mod->eh_hdr)
		return -CR_ENOINFO;
	ehsrc_of(mod, &src);
	if ((ret = cr_eh_find(w->mem, &src, pc, &fde)) < 0)
		return ret;
	*lo = fde.pc_lo;
	*hi = fde.pc_hi;
	return 0;
}

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
	ehsrc_of(mod, &src);
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

int cr_cfi_fast_trace(struct cr_walk *w, const struct cr_regs *start, unsigned max,
		      void (*emit)(void *arg, unsigned i, uint64_t pc), void *arg)
{
	const struct cr_arch *a = w->arch;
	uint64_t pc = start->pc, sp, fp, osp;
	const struct cr_module *mod;
	struct cr_crow c;
	int exact = w->exact;

	if (!w->cache || !cr_reg_valid(start, a->sp) || !cr_reg_valid(start, a->fp))
		return -CR_ENOINFO;
	sp = start->r[a->sp];
	fp = start->r[a->fp];
	for (unsigned n = 0; n < max; n++) {
		uint64_t lookup = exact ? pc : pc - 1;

		emit(arg, n, pc);
		if (n + 1 == max)
			return (int)max;
		if ((!w->mod_ok || lookup < w->mod.lo || lookup >= w->mod.hi) &&
		    cr_walk_module(w, lookup, &mod) < 0)
			return -CR_ENOINFO;
		if (cr_cache_get_shape(lookup, w->mod.lo ^ (w->mod.eh_hdr << 1), &c) < 0)
			return -CR_ENOINFO;
		if (c.shape == CR_SHAPE_END)
			return (int)n + 1;
		osp = sp;
		if (c.shape != CR_SHAPE_STEP || cr_crow_fast(&c, w->mem, a, &pc, &sp, &fp) < 0)
			return -CR_ENOINFO;
		/* cr_unwind's checks; any doubt goes to the full walk. */
		if (sp <= osp || pc < 4096)
			return -CR_ENOINFO;
		exact = 0;
	}
	return (int)max;
}
