/* SPDX-License-Identifier: MIT */
/*
 * The compact row (the cache's form) against the full one: for every FDE of
 * every loaded object, at its first, middle and last pc, expand(compact(row))
 * == row, and cr_crow_apply gives exactly what cr_row_apply gives, on a
 * register file and a stack in a buffer.
 */
#include <link.h>
#include <stdint.h>
#include <stdlib.h>

#include "../tap.h"
#include "cfi/cfi.h"
#include "loadedfde.h"

#define STK 4096
static uint64_t stack[STK / 8];
static struct cr_mem mem;
static long rows, compacted, same_row, same_apply, fdes, shaped, same_shape;
/* The rows at the middle pc of each FDE (function bodies: what callers' frames
   use) that save the return address, described by the host's own arch: how
   many the cache and the trace loop take. */
static long body_rows, body_compacted, body_shaped;

/*
 * What the trace loop (cr_cfi_fast_trace) computes from a row's shape: the
 * caller's pc, sp and fp.  1 if it equals what cr_crow_apply gave (r, o).
 */
static int shape_agrees(const struct cr_crow *c, const struct cr_arch *a, const struct cr_regs *in,
			int r, const struct cr_regs *o)
{
	uint64_t cfa, ra, fp = in->r[a->fp];

	if (c->shape == CR_SHAPE_END)
		return r == CR_END;
	if (c->shape != CR_SHAPE_STEP && c->shape != CR_SHAPE_STEP_FAR)
		return 1;
	shaped++;
	cfa = (c->cfa_fp ? in->r[a->fp] : in->r[a->sp]) + (uint64_t)(int64_t)c->cfa_off;
	if (c->shape == CR_SHAPE_STEP &&
	    (c->ra_off < -CR_SHAPE_WINDOW || c->ra_off > -8 ||
	     (c->fp_saved && (c->fp_off < -CR_SHAPE_WINDOW || c->fp_off > -8))))
		return 0;	/* the loop reads STEP slots inside the window only */
	if (c->shape == CR_SHAPE_STEP &&
	    (c->ra_w != c->ra_off + CR_SHAPE_WINDOW ||
	     (c->fp_saved && c->fp_w != c->fp_off + CR_SHAPE_WINDOW)))
		return 0;	/* ... where it finds them by the bytes */
	if (cr_read64(&mem, cfa + (uint64_t)(int64_t)c->ra_off, &ra) < 0 ||
	    (c->fp_saved && cr_read64(&mem, cfa + (uint64_t)(int64_t)c->fp_off, &fp) < 0))
		return r < 0;
	return r == 0 && o->pc == ra && cr_reg_valid(o, a->sp) && o->r[a->sp] == cfa &&
	       cr_reg_valid(o, a->fp) && o->r[a->fp] == fp;
}

static int same_regs(const struct cr_regs *x, const struct cr_regs *y)
{
	if (x->valid != y->valid || x->pc != y->pc)
		return 0;
	for (unsigned n = 0; n < CR_NREGS; n++)
		if ((x->valid & CR_BIT(n)) && x->r[n] != y->r[n])
			return 0;
	return 1;
}

/* How the host's own arch takes the body row at pc (the trace loop's shapes). */
static void body(const struct cr_fde *fde, uint64_t pc)
{
	struct cr_row row;
	struct cr_crow c;

	if (cr_cfa_run(&cr_mem_self, cr_host, fde, pc, &row) < 0)
		return;
	/* Only a function that saved its return address can be a caller: a leaf
	   (the link register arches' string functions) is frame #00 or nothing. */
	if (row.reg[row.ra].kind != CR_OFFSET)
		return;
	body_rows++;
	if (cr_row_compact(&row, cr_host, &c) < 0)
		return;
	body_compacted++;
	body_shaped += c.shape == CR_SHAPE_STEP || c.shape == CR_SHAPE_STEP_FAR;
}

static void one(const struct cr_fde *fde, uint64_t pc)
{
	/* x86_64's description on every host: on others the CIE's return-address
	   column may lie past its registers, which both executors must handle alike. */
	const struct cr_arch *a = &cr_arch_x86_64;
	struct cr_row row, back;
	struct cr_crow c;
	struct cr_regs in, o1, o2;
	int r1, r2;

	if (cr_cfa_run(&cr_mem_self, a, fde, pc, &row) < 0)
		return;
	rows++;
	if (cr_row_compact(&row, a, &c) < 0)
		return;
	compacted++;
	cr_row_expand(&c, a, &back);
	same_row += memcmp(&row.cfa, &back.cfa, sizeof(row.cfa)) == 0 && row.ra == back.ra &&
		    row.signal == back.signal &&
		    memcmp(row.reg, back.reg, sizeof(row.reg[0]) * a->nregs) == 0;
	/* Registers point into the buffer's middle; the buffer holds a pattern. */
	memset(&in, 0, sizeof(in));
	for (unsigned n = 0; n < a->nregs; n++)
		cr_reg_set(&in, n, 0x10000 + STK / 2 + 8 * n);
	in.pc = 0x400000;
	memset(&o1, 0x11, sizeof(o1));
	memset(&o2, 0x22, sizeof(o2));
	r1 = cr_row_apply(&row, &mem, a, &in, &o1);
	r2 = cr_crow_apply(&c, &mem, a, &in, &o2);
	same_shape += shape_agrees(&c, a, &in, r2, &o2);
	if (r1 == r2 && (r1 != 0 || same_regs(&o1, &o2))) {
		same_apply++;
	} else if (compacted - same_apply <= 5) {
		printf("# apply differs at pc %#llx: row %d, crow %d\n", (unsigned long long)pc, r1,
		       r2);
	}
}

static void each(const struct cr_ehsrc *src, const struct cr_fde *fde, void *arg)
{
	(void)src;
	(void)arg;
	fdes++;
	one(fde, fde->pc_lo);
	one(fde, fde->pc_lo + (fde->pc_hi - fde->pc_lo) / 2);
	body(fde, fde->pc_lo + (fde->pc_hi - fde->pc_lo) / 2);
	one(fde, fde->pc_hi - 1);
}

int main(void)
{
	for (unsigned i = 0; i < STK / 8; i++)
		stack[i] = 0x400000 + 0x100 * i;	/* looks like code addresses */
	cr_mem_buffer(&mem, 0x10000, stack, sizeof(stack));
	each_loaded_fde(each, NULL);
	printf("# %ld FDEs, %ld rows, %ld compact\n", fdes, rows, compacted);
	tap_ok(fdes > 1000, "many real FDEs (libc, ld.so, the test)");
	tap_ok(compacted > rows * 9 / 10, "most rows fit the compact form");
	tap_is_i64(same_row, compacted, "expand(compact(row)) == row, every row");
	tap_is_i64(same_apply, compacted, "cr_crow_apply == cr_row_apply, every row");
	printf("# %s: %ld body rows, %ld compact, %ld of a trace-only shape\n", cr_host->name,
	       body_rows, body_compacted, body_shaped);
	tap_ok(body_compacted > body_rows * 9 / 10, "host arch: most body rows fit the compact form");
	tap_ok(body_shaped > body_compacted * 3 / 4, "host arch: most body rows have a trace-only shape");
	tap_is_i64(same_shape, compacted, "the shape gives cr_crow_apply's pc, sp and fp, every row");
	return tap_done();
}
