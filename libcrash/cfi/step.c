/* SPDX-License-Identifier: MIT */
/*
 * Engine cfi, the step: module -> FDE -> row -> caller, through the row
 * cache (live walks) or the walk's own last rows (the crash path).  Its
 * trace-only twin for crash_backtrace is trace.c.
 */
#include "cache.h"
#include "cfi.h"
#include "../module.h"
#include "../unwind.h"

/*
 * The FDE lookup of a live walk (w->cache) through the gap memo (cache.h):
 * -CR_ENOINFO at once for a pc in a stretch no FDE covers, looked up before;
 * a lookup that finds such a stretch puts it there.  Else cr_eh_find.
 */
static int find(struct cr_walk *w, const struct cr_module *mod, uint64_t pc, struct cr_fde *fde)
{
	struct cr_ehsrc src;
	uint64_t key, gap[2];
	int ret;

	cr_cfi_src(mod, w->cache, &src);
	if (!w->cache)
		return cr_eh_find(w->mem, &src, pc, fde);
	key = cr_module_key(mod);
	if (cr_gap_memo_has(key, pc))
		return -CR_ENOINFO;
	ret = cr_eh_find_gap(w->mem, &src, pc, fde, gap);
	if (ret == -CR_ENOINFO)
		cr_gap_memo_put(key, gap[0], gap[1]);	/* (none if gap is empty) */
	return ret;
}

static int range(struct cr_walk *w, uint64_t pc, uint64_t *lo, uint64_t *hi, uint8_t *frag)
{
	const struct cr_module *mod;
	struct cr_fde fde;
	int ret;

	if (cr_walk_module(w, pc, &mod) < 0 || !mod->eh_hdr)
		return -CR_ENOINFO;
	if ((ret = find(w, mod, pc, &fde)) < 0)
		return ret;
	*lo = fde.pc_lo;
	*hi = fde.pc_hi;
	if (frag)
		*frag = !cr_cfa_entry_row(w->mem, &fde);
	return 0;
}

int cr_cfi_range(struct cr_walk *w, uint64_t pc, uint64_t *lo, uint64_t *hi)
{
	return range(w, pc, lo, hi, NULL);
}

int cr_cfi_function(struct cr_walk *w, uint64_t pc, uint64_t *lo, uint64_t *hi, uint8_t *frag)
{
	return range(w, pc, lo, hi, frag);
}

/* The walk's last rows (unwind.h), for walks without the row cache. */
static const struct cr_crow *last_get(const struct cr_lastrows *m, uint64_t pc, uint64_t key)
{
	for (unsigned i = 0; i < CR_LASTROWS; i++)
		if (m->e[i].pc == pc && m->e[i].key == key && pc)
			return &m->e[i].row;
	return NULL;
}

static void last_put(struct cr_lastrows *m, uint64_t pc, uint64_t key, const struct cr_crow *c)
{
	unsigned i = m->next++ % CR_LASTROWS;

	m->e[i].pc = pc;
	m->e[i].key = key;
	m->e[i].row = *c;
}

/*
 * The row of the FDE around pc in mod, kept when it compacts: in the row
 * cache (live walks) or the walk's last rows.  0, or the lookup's error
 * (-CR_EFAULT kept, "not found" as -CR_ENOINFO).
 */
static int decode(struct cr_walk *w, const struct cr_module *mod, uint64_t pc, uint64_t key,
		  struct cr_row *row)
{
	struct cr_fde fde;
	struct cr_crow crow;
	int ret;

	if ((ret = find(w, mod, pc, &fde)) < 0)
		return ret == -CR_EFAULT ? ret : -CR_ENOINFO;
	if ((ret = cr_cfa_run(w->mem, w->arch, &fde, pc, row)) < 0)
		return ret;
	if (w->cache && cr_row_compact(row, w->arch, &crow) == 0)
		cr_cache_put(pc, key, &crow);
	else if (!w->cache && w->lastrows && cr_row_compact(row, w->arch, &crow) == 0)
		last_put(w->lastrows, pc, key, &crow);
	return 0;
}

/*
 * The step by a row found for in: compact (c, from a cache) or full (row).
 * A row of a signal frame's CIE ('S') makes the caller's pc exact.
 */
static inline __attribute__((always_inline)) int apply(struct cr_walk *w,
							 const struct cr_crow *c,
							 const struct cr_row *row,
							 const struct cr_regs *in,
							 struct cr_regs *out)
{
	int ret;

	w->step.err_addr = 0;
	if (c)
		ret = cr_crow_apply(c, w->mem, w->arch, in, out);
	else
		ret = cr_row_apply(row, w->mem, w->arch, in, out);
	if (ret == 0 && (c ? c->signal : row->signal))
		w->step.next_exact = 1;
	return ret;
}

int cr_cfi_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	/* A caller's pc is a return address: the call may be the last instruction
	   of its function, so look up pc - 1 (DWARF5 6.4.4).  Exact pcs as is. */
	uint64_t pc = w->exact ? in->pc : in->pc - 1;
	const struct cr_module *mod;
	const struct cr_crow *mc;
	struct cr_row row;
	struct cr_crow crow;
	uint64_t key;
	int ret;

	w->step.err_addr = pc;
	if (cr_walk_module(w, pc, &mod) < 0 || !mod->eh_hdr)
		return -CR_ENOINFO;
	key = cr_module_key(mod);
	if (w->cache && cr_cache_get(pc, key, &crow) == 0)
		return apply(w, &crow, NULL, in, out);
	if (!w->cache && w->lastrows && (mc = last_get(w->lastrows, pc, key)) != NULL)
		return apply(w, mc, NULL, in, out);
	if ((ret = decode(w, mod, pc, key, &row)) < 0)
		return ret;
	return apply(w, NULL, &row, in, out);
}

int cr_cfi_step_cached(struct cr_walk *w, struct cr_regs *r)
{
	uint64_t pc = w->exact ? r->pc : r->pc - 1;
	const struct cr_module *mod;
	struct cr_crow crow;

	if (!w->cache || cr_walk_module(w, pc, &mod) < 0 ||
	    cr_cache_get(pc, cr_module_key(mod), &crow) < 0)
		return -CR_ENOINFO;
	/* As try_steps does for the others: a caller is exact only if this row
	   says so, not because the step before crossed a signal frame (the
	   frame after the interrupted one would be looked up at its return
	   address, past the FDE of a call to a noreturn function). */
	w->step.next_exact = 0;
	return apply(w, &crow, NULL, r, r) == 0 ? 0 : -CR_ENOINFO;
}
