/* SPDX-License-Identifier: MIT */
/*
 * The DW_CFA_* interpreter (DWARF 5 section 6.4.2): the CIE's initial
 * instructions, then the FDE's up to the lookup pc, give the row in force at
 * pc.  Rules only are recorded; nothing is read but the instruction bytes
 * (expression blocks are kept as address + length for cr_row_apply).
 *
 * aarch64 RA_SIGN_STATE (column 34, AADWARF64 "Call frame instructions"; the
 * arch's ra_sign_state): DW_CFA_AARCH64_negate_ra_state (0x2d,
 * GNU_window_save elsewhere) toggles it.  It is kept as reg[34] =
 * CR_VAL_OFFSET with off 1 while the return address is signed; any other
 * rule (the initial CR_SAME) means 0.  On arches without that column 0x2d is
 * SPARC's register-window save: -CR_EINVAL.
 */
/*
 * No jump tables for this file's switches (gcc: compare trees instead): gcc
 * puts them in .rodata, a page that no other part of a process's first
 * capture reads, and the capture paid a page fault for it (~3 us on the test
 * machine: docs/performance.md, issue 20).  Before every function, the
 * headers' inline ones too, so that all have the same options (gcc inlines
 * only between those).  clang has no such pragma: its build keeps them.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-jump-tables")
#endif
#include <string.h>

#include "cache.h"
#include "cfi.h"

enum {
	DW_CFA_nop = 0x00,
	DW_CFA_set_loc,
	DW_CFA_advance_loc1,
	DW_CFA_advance_loc2,
	DW_CFA_advance_loc4,
	DW_CFA_offset_extended,
	DW_CFA_restore_extended,
	DW_CFA_undefined,
	DW_CFA_same_value,
	DW_CFA_register,
	DW_CFA_remember_state,
	DW_CFA_restore_state,
	DW_CFA_def_cfa,
	DW_CFA_def_cfa_register,
	DW_CFA_def_cfa_offset,
	DW_CFA_def_cfa_expression,
	DW_CFA_expression,
	DW_CFA_offset_extended_sf,
	DW_CFA_def_cfa_sf,
	DW_CFA_def_cfa_offset_sf,
	DW_CFA_val_offset,
	DW_CFA_val_offset_sf,
	DW_CFA_val_expression,
	DW_CFA_GNU_window_save = 0x2d,	/* = DW_CFA_AARCH64_negate_ra_state */
	DW_CFA_GNU_args_size = 0x2e,
	DW_CFA_GNU_negative_offset_extended = 0x2f,
	DW_CFA_advance_loc = 0x40,	/* high 2 bits; low 6: delta */
	DW_CFA_offset = 0x80,		/* high 2 bits; low 6: register */
	DW_CFA_restore = 0xc0,		/* high 2 bits; low 6: register */
};

struct state {
	struct cr_row *row;		/* the row being built: the caller's */
	uint64_t cols;			/* columns given a rule (bit n: reg[n]); the others
					   are CR_SAME (in a sparse row, never written) */
	struct cr_rule init[CR_NREGS];	/* after the CIE's initial instructions: the
					   columns in init_set, the others CR_SAME */
	uint64_t init_set;		/* columns the CIE gave a rule (bit n: column n) */
	struct cr_row saved[CR_CFA_STACK];	/* DW_CFA_remember_state: the CFA and */
	uint64_t saved_cols[CR_CFA_STACK];	/* the columns in saved_cols */
	unsigned depth;
	unsigned steps;			/* instructions run, CIE and FDE together */
	uint64_t loc;			/* current location, <= pc */
	uint64_t pc;			/* stop when loc would pass it */
	const struct cr_cie *cie;
	const struct cr_arch *arch;
	int in_cie;			/* running the CIE's initial instructions */
};

_Static_assert(CR_NREGS <= 64, "a column mask is a 64-bit word");

CR_HOT static void put_rule(struct cr_rule *r, uint8_t kind, int64_t off)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->off = off;
}

/* A rule for column reg; columns we do not track are parsed and dropped. */
CR_HOT static void set(struct state *st, uint64_t reg, uint8_t kind, int64_t off)
{
	if (reg >= CR_NREGS)
		return;
	put_rule(&st->row->reg[reg], kind, off);
	st->cols |= 1ull << reg;
}

/* DW_CFA_register: the saved value is in reg2 (clamped: an unknown register
   then fails in cr_row_apply, as it should). */
CR_HOT static void set_reg(struct state *st, uint64_t reg, uint64_t reg2)
{
	if (reg >= CR_NREGS)
		return;
	put_rule(&st->row->reg[reg], CR_REG, 0);
	st->row->reg[reg].reg = reg2 > 0xffff ? 0xffff : (uint16_t)reg2;
	st->cols |= 1ull << reg;
}

/*
 * DWARF5 6.4.2.3 DW_CFA_restore: the rule the CIE's initial instructions gave
 * (inside the CIE itself: no rule).
 */
CR_HOT static void restore(struct state *st, uint64_t reg)
{
	if (reg >= CR_NREGS)
		return;
	if (!st->in_cie && (st->init_set >> reg & 1))
		st->row->reg[reg] = st->init[reg];
	else
		memset(&st->row->reg[reg], 0, sizeof(st->row->reg[reg]));
	st->cols |= 1ull << reg;
}

CR_HOT static void def_cfa(struct state *st, uint64_t reg, int64_t off)
{
	memset(&st->row->cfa, 0, sizeof(st->row->cfa));
	st->row->cfa.kind = CR_REG;
	st->row->cfa.reg = reg > 0xffff ? 0xffff : (uint16_t)reg;
	st->row->cfa.off = off;
}

/* A DW_FORM_block operand: ULEB128 length, then the bytes, which we skip. */
static int block(struct cr_cursor *c, struct cr_rule *r, uint8_t kind)
{
	uint64_t len = cr_uleb(c), at = c->pos;

	if (c->err)
		return c->err;
	if (len > c->end - c->pos || len > UINT32_MAX)
		return -CR_EINVAL;
	cr_skip(c, len);
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->expr = at;
	r->len = (uint32_t)len;
	return 0;
}

/* A register rule with an expression; untracked columns still skip the block. */
static int expr_rule(struct state *st, struct cr_cursor *c, uint8_t kind)
{
	uint64_t reg = cr_uleb(c);
	struct cr_rule r;
	int ret;

	if ((ret = block(c, &r, kind)) < 0)
		return ret;
	if (reg < CR_NREGS) {
		st->row->reg[reg] = r;
		st->cols |= 1ull << reg;
	}
	return 0;
}

/*
 * Move the location by delta code units.  CR_END: that passes pc (or the
 * address space), stop here.  loc <= pc holds throughout: it starts at pc_lo
 * and only moves to locations up to pc.
 */
static int advance(struct state *st, uint64_t delta)
{
	uint64_t d;

	if (__builtin_mul_overflow(delta, st->cie->code_align, &d) || d > st->pc - st->loc)
		return CR_END;
	st->loc += d;
	return 0;
}

/* DW_CFA_set_loc: an address in the CIE's FDE pointer encoding (LSB 5.0). */
static int set_loc(struct state *st, struct cr_cursor *c)
{
	uint64_t to = cr_encptr(c, st->cie->fde_enc, &st->cie->bases);

	if (c->err)
		return c->err;
	if (to > st->pc)
		return CR_END;
	st->loc = to;
	return 0;
}

/*
 * The whole row, CFA included: GCC's epilogue pattern remember_state;
 * def_cfa rsp; ret; restore_state relies on it.  Only the columns with a rule
 * are copied: the others are CR_SAME on both sides.
 */
CR_HOT static int remember(struct state *st)
{
	struct cr_row *to;
	uint64_t m;

	if (st->depth == CR_CFA_STACK)
		return -CR_ERANGE;
	to = &st->saved[st->depth];
	to->cfa = st->row->cfa;
	for (m = st->cols; m; m &= m - 1)
		to->reg[__builtin_ctzll(m)] = st->row->reg[__builtin_ctzll(m)];
	st->saved_cols[st->depth++] = st->cols;
	return 0;
}

CR_HOT static int restore_state(struct state *st)
{
	const struct cr_row *from;
	uint64_t m;

	if (st->depth == 0)
		return -CR_EINVAL;
	from = &st->saved[--st->depth];
	/* Columns given a rule since: CR_SAME again (zeroed, as in a full row). */
	for (m = st->cols & ~st->saved_cols[st->depth]; m; m &= m - 1)
		memset(&st->row->reg[__builtin_ctzll(m)], 0, sizeof(struct cr_rule));
	st->cols = st->saved_cols[st->depth];
	st->row->cfa = from->cfa;
	for (m = st->cols; m; m &= m - 1)
		st->row->reg[__builtin_ctzll(m)] = from->reg[__builtin_ctzll(m)];
	return 0;
}

/* DW_CFA_def_cfa_register/offset(_sf): only valid on a register+offset CFA (6.4.2.2). */
static int cfa_reg_only(struct state *st)
{
	return st->row->cfa.kind == CR_REG ? 0 : -CR_EINVAL;
}

static int negate_ra_state(struct state *st)
{
	unsigned col = st->arch->ra_sign_state;
	struct cr_rule *r = &st->row->reg[col];
	int signed_now = (st->cols >> col & 1) && r->kind == CR_VAL_OFFSET && r->off == 1;

	if (col == 0 || col >= CR_NREGS)
		return -CR_EINVAL;
	st->cols |= 1ull << col;
	memset(r, 0, sizeof(*r));
	if (!signed_now) {
		r->kind = CR_VAL_OFFSET;
		r->off = 1;
	}
	return 0;
}

/* Factored offsets (6.4.1): operand * data_alignment_factor, wrapping. */
CR_HOT static int64_t fac(const struct state *st, uint64_t v)
{
	return (int64_t)(v * (uint64_t)st->cie->data_align);
}

/*
 * The DW_CFA_* with a zero high-2-bit field.  0, CR_END (stop: past pc), or
 * -CR_E*.  Cursor errors are checked by the caller.
 */
static int extended(struct state *st, struct cr_cursor *c, uint8_t op)
{
	uint64_t reg, v;
	int ret;

	switch (op) {
	case DW_CFA_nop:
		return 0;
	case DW_CFA_set_loc:
		return set_loc(st, c);
	case DW_CFA_advance_loc1:
		v = cr_u8(c);
		return c->err ? 0 : advance(st, v);
	case DW_CFA_advance_loc2:
		v = cr_u16(c);
		return c->err ? 0 : advance(st, v);
	case DW_CFA_advance_loc4:
		v = cr_u32(c);
		return c->err ? 0 : advance(st, v);
	case DW_CFA_offset_extended:
		reg = cr_uleb(c);
		set(st, reg, CR_OFFSET, fac(st, cr_uleb(c)));
		return 0;
	case DW_CFA_restore_extended:
		restore(st, cr_uleb(c));
		return 0;
	case DW_CFA_undefined:
		set(st, cr_uleb(c), CR_UNDEF, 0);
		return 0;
	case DW_CFA_same_value:
		set(st, cr_uleb(c), CR_SAME, 0);
		return 0;
	case DW_CFA_register:
		reg = cr_uleb(c);
		set_reg(st, reg, cr_uleb(c));
		return 0;
	case DW_CFA_remember_state:
		return remember(st);
	case DW_CFA_restore_state:
		return restore_state(st);
	case DW_CFA_def_cfa:
		reg = cr_uleb(c);
		def_cfa(st, reg, (int64_t)cr_uleb(c));
		return 0;
	case DW_CFA_def_cfa_register:
		reg = cr_uleb(c);
		if (st->row->cfa.kind == CR_UNDEF) {	/* GCC riscv64/loongarch64 CIEs */
			def_cfa(st, reg, 0);
			return 0;
		}
		if ((ret = cfa_reg_only(st)) == 0)
			def_cfa(st, reg, st->row->cfa.off);
		return ret;
	case DW_CFA_def_cfa_offset:
		v = cr_uleb(c);
		if ((ret = cfa_reg_only(st)) == 0)
			st->row->cfa.off = (int64_t)v;
		return ret;
	case DW_CFA_def_cfa_expression:
		/* The CFA is the value of the expression, nothing pushed first. */
		return block(c, &st->row->cfa, CR_EXPR);
	case DW_CFA_expression:
		return expr_rule(st, c, CR_EXPR);
	case DW_CFA_offset_extended_sf:
		reg = cr_uleb(c);
		set(st, reg, CR_OFFSET, fac(st, (uint64_t)cr_sleb(c)));
		return 0;
	case DW_CFA_def_cfa_sf:
		reg = cr_uleb(c);
		def_cfa(st, reg, fac(st, (uint64_t)cr_sleb(c)));
		return 0;
	case DW_CFA_def_cfa_offset_sf:
		v = (uint64_t)cr_sleb(c);
		if ((ret = cfa_reg_only(st)) == 0)
			st->row->cfa.off = fac(st, v);
		return ret;
	case DW_CFA_val_offset:
		reg = cr_uleb(c);
		set(st, reg, CR_VAL_OFFSET, fac(st, cr_uleb(c)));
		return 0;
	case DW_CFA_val_offset_sf:
		reg = cr_uleb(c);
		set(st, reg, CR_VAL_OFFSET, fac(st, (uint64_t)cr_sleb(c)));
		return 0;
	case DW_CFA_val_expression:
		return expr_rule(st, c, CR_VAL_EXPR);
	case DW_CFA_GNU_window_save:
		return negate_ra_state(st);
	case DW_CFA_GNU_args_size:
		cr_uleb(c);	/* bytes of outgoing arguments: not needed to unwind */
		return 0;
	case DW_CFA_GNU_negative_offset_extended:
		reg = cr_uleb(c);
		/* Negated as unsigned: the factored offset may be INT64_MIN (wraps, as fac does). */
		set(st, reg, CR_OFFSET, (int64_t)(0 - (uint64_t)fac(st, cr_uleb(c))));
		return 0;
	}
	return -CR_EINVAL;
}

/* Run [start, end) through a cursor until it ends or the location passes st->pc. */
static int run_cursor(const struct cr_mem *m, struct state *st, uint64_t start, uint64_t end,
		      const struct cr_view *v)
{
	struct cr_cursor c;
	uint8_t op;
	int ret;

	cr_cursor_init_view(&c, m, start, end, v);
	while (c.pos < c.end) {
		if (++st->steps > CR_CFA_MAX_INSNS)
			return -CR_ERANGE;
		op = cr_u8(&c);
		if (c.err)
			break;
		switch (op & 0xc0) {
		case DW_CFA_advance_loc:
			ret = advance(st, op & 0x3f);
			break;
		case DW_CFA_offset:
			set(st, op & 0x3f, CR_OFFSET, fac(st, cr_uleb(&c)));
			ret = 0;
			break;
		case DW_CFA_restore:
			restore(st, op & 0x3f);
			ret = 0;
			break;
		default:
			ret = extended(st, &c, op);
		}
		if (c.err)
			break;
		if (ret)
			return ret;
	}
	/* Truncated operands are malformed instructions. */
	return c.err == -CR_ERANGE ? -CR_EINVAL : c.err;
}

/*
 * A ULEB128 operand of one or two bytes at p, before e: its length (*v its
 * value), or 0 if it is longer or truncated (the cursor loop decodes it).
 */
static inline __attribute__((always_inline)) unsigned uleb2(const uint8_t *p, const uint8_t *e,
							     uint64_t *v)
{
	if (e - p >= 1 && !(p[0] & 0x80)) {
		*v = p[0];
		return 1;
	}
	if (e - p >= 2 && !(p[1] & 0x80)) {
		*v = (p[0] & 0x7fu) | (uint64_t)p[1] << 7;
		return 2;
	}
	return 0;
}

/*
 * DW_CFA_advance_loc1 or advance_loc2 at p (its opcode), before e: the
 * advance times ca in *d, and the operand's length (1 or 2), or 0 if it is
 * truncated.  Little-endian, as every arch here.
 */
static inline __attribute__((always_inline)) unsigned adv12(const uint8_t *p, const uint8_t *e,
							     uint64_t ca, uint64_t *d)
{
	if (*p == DW_CFA_advance_loc1) {
		if (e - p < 2)
			return 0;
		*d = p[1] * ca;
		return 1;
	}
	if (e - p < 3)
		return 0;
	*d = (p[1] | (uint64_t)p[2] << 8) * ca;
	return 2;
}

/*
 * The instructions compilers emit in nearly every CIE and FDE (advance_loc,
 * advance_loc1/2, offset, restore, undefined, def_cfa, def_cfa_register,
 * def_cfa_offset, remember_state, restore_state, nop), with ULEB128 operands
 * of up to two bytes, straight from the bytes [p, p + len) in place.  It
 * stops before the first instruction that is anything else, has a longer or
 * truncated operand, or would fail: run_cursor starts there, and nothing of
 * that instruction is applied here.  Each instruction takes a byte at least,
 * so the caller bounds the count by len.  0 (*used: the bytes run) or CR_END
 * (the location passed pc).
 */
CR_HOT static int run_bytes(struct state *st, const uint8_t *p, size_t len, size_t *used)
{
	const uint8_t *start = p, *e = p + len;
	uint64_t ca = st->cie->code_align, left = st->pc - st->loc, d, v, w;
	unsigned n = 0, k, k2;
	int ret = 0;

	/* Advances in registers: left is how far pc lies ahead.  A code
	   alignment factor this large (never seen) is left to advance(). */
	if (ca > UINT32_MAX)
		goto out;
	for (; p < e; p++, n++) {
		uint8_t op = *p;

		switch (op >> 6) {
		case DW_CFA_advance_loc >> 6:
			d = (op & 0x3fu) * ca;
			goto advance;
		case DW_CFA_offset >> 6:
			if (!(k = uleb2(p + 1, e, &v)))
				goto out;
			set(st, op & 0x3f, CR_OFFSET, fac(st, v));
			p += k;
			continue;
		case DW_CFA_restore >> 6:
			restore(st, op & 0x3f);
			continue;
		}
		switch (op) {
		case DW_CFA_nop:
			continue;
		case DW_CFA_advance_loc1:
		case DW_CFA_advance_loc2:
			if (!(k = adv12(p, e, ca, &d)))
				goto out;
			p += k;
			goto advance;
		case DW_CFA_undefined:
			if (!(k = uleb2(p + 1, e, &v)))
				goto out;
			set(st, v, CR_UNDEF, 0);
			p += k;
			continue;
		case DW_CFA_def_cfa:
			if (!(k = uleb2(p + 1, e, &v)) || !(k2 = uleb2(p + 1 + k, e, &w)))
				goto out;
			def_cfa(st, v, (int64_t)w);
			p += k + k2;
			continue;
		case DW_CFA_def_cfa_register:
			if (!(k = uleb2(p + 1, e, &v)) ||
			    (st->row->cfa.kind != CR_REG && st->row->cfa.kind != CR_UNDEF))
				goto out;
			def_cfa(st, v, st->row->cfa.kind == CR_REG ? st->row->cfa.off : 0);
			p += k;
			continue;
		case DW_CFA_def_cfa_offset:
			if (!(k = uleb2(p + 1, e, &v)) || st->row->cfa.kind != CR_REG)
				goto out;
			st->row->cfa.off = (int64_t)v;
			p += k;
			continue;
		case DW_CFA_remember_state:
			if (st->depth == CR_CFA_STACK)
				goto out;
			remember(st);
			continue;
		case DW_CFA_restore_state:
			if (st->depth == 0)
				goto out;
			restore_state(st);
			continue;
		}
		goto out;
advance:	/* d: the advance in bytes (no overflow: ca <= UINT32_MAX) */
		if (d > left) {
			ret = CR_END;
			n++;
			goto out;
		}
		left -= d;
	}
out:
	st->loc = st->pc - left;
	st->steps += n;
	*used = (size_t)(p - start);
	return ret;
}

/*
 * Run [start, end) until it ends or the location passes st->pc: from the
 * bytes in place where they are (v, the FDE's view, or a view of the memory),
 * then by the cursor from the first instruction run_bytes leaves (v: the
 * FDE's view).
 */
CR_HOT static int run(const struct cr_mem *m, struct state *st, uint64_t start, uint64_t end,
	       const struct cr_view *v)
{
	const uint8_t *p = NULL;
	size_t used;
	int ret;

	/* st->steps <= CR_CFA_MAX_INSNS between instructions. */
	if (end > start && end - start <= CR_CFA_MAX_INSNS - st->steps) {
		if (v && v->p && v->mem == m && start >= v->lo && end <= v->hi)
			p = v->p + (start - v->lo);
		else
			p = cr_mem_view(m, start, end - start);
	}
	if (p) {
		if ((ret = run_bytes(st, p, end - start, &used)) != 0)
			return ret;
		if ((start += used) == end)
			return 0;
	}
	return run_cursor(m, st, start, end, v);
}

/*
 * The CIE's initial instructions into st->row, and its rules into st->init
 * for DW_CFA_restore (only the columns the CIE set).  For live memory they
 * come from the CIE memo (cache.h) when it has them, and go to it when not.
 */
CR_HOT static int cie_init(const struct cr_mem *m, struct state *st, const struct cr_fde *fde)
{
	const struct cr_cie *cie = &fde->cie;
	const struct cr_cie_init *cp = NULL;
	struct cr_cie_init ci;
	uint64_t mask;
	unsigned k;
	int ret;

	/* The memo's rules, read with the CIE by the FDE's parser, or now. */
	if (fde->init_ok)
		cp = &fde->init;
	else if (cie->modkey && cr_cie_memo_get(cie->addr, cie->modkey, NULL, &ci) == 0)
		cp = &ci;
	if (cp && cp->n <= CR_CIE_INIT_MAX) {
		for (k = 0; k < cp->n && cp->col[k] < CR_NREGS; k++)
			;
		if (k == cp->n) {
			st->row->cfa = cp->cfa;
			for (k = 0; k < cp->n; k++) {
				st->row->reg[cp->col[k]] = st->init[cp->col[k]] = cp->rule[k];
				st->init_set |= 1ull << cp->col[k];
			}
			st->cols = st->init_set;
			return 0;
		}
	}
	/* The CIE's instructions hold for the whole FDE: no location limit. */
	st->loc = fde->pc_lo;
	st->pc = UINT64_MAX;
	ret = run(m, st, cie->insns, cie->insns_end, &fde->view);
	if (ret < 0)
		return ret;
	st->init_set = mask = st->cols;
	memset(&ci, 0, sizeof(ci));
	ci.cfa = st->row->cfa;
	for (k = 0; mask; k++) {
		unsigned n = (unsigned)__builtin_ctzll(mask);

		st->init[n] = st->row->reg[n];
		if (k < CR_CIE_INIT_MAX) {
			ci.col[k] = (uint8_t)n;
			ci.rule[k] = st->row->reg[n];
		}
		mask &= mask - 1;
	}
	ci.n = (uint8_t)k;
	/* Kept if the rules fit and nothing of the CIE's program carries over
	   but its rules (a remembered state would). */
	if (cie->modkey && k <= CR_CIE_INIT_MAX && st->depth == 0)
		cr_cie_memo_put(cie->addr, cie->modkey, cie, &ci);
	return 0;
}

/*
 * The row at pc into *row, built in place: only its cfa, ra, signal and the
 * columns in *cols are written (a caller that wants the rest CR_SAME zeroes
 * them first).  *row is partly written on failure.
 */
CR_HOT static int build(const struct cr_mem *m, const struct cr_arch *a, const struct cr_fde *fde,
		 uint64_t pc, struct cr_row *row, uint64_t *cols)
{
	struct state st;
	int ret;

	if (pc < fde->pc_lo || pc >= fde->pc_hi)
		return -CR_ENOINFO;
	memset(&row->cfa, 0, sizeof(row->cfa));
	row->cfa.kind = CR_UNDEF;
	row->ra = fde->cie.ra;
	row->signal = fde->cie.signal;
	st.row = row;
	st.cols = 0;
	st.init_set = 0;
	st.in_cie = 1;
	st.depth = 0;
	st.steps = 0;
	st.cie = &fde->cie;
	st.arch = a;
	if ((ret = cie_init(m, &st, fde)) < 0)
		return ret;
	st.in_cie = 0;
	st.loc = fde->pc_lo;
	st.pc = pc;
	ret = run(m, &st, fde->insns, fde->insns_end, &fde->view);
	if (ret < 0)
		return ret;
	*cols = st.cols;	/* CR_END: stopped at pc, the row is complete */
	return 0;
}

int cr_cfa_run(const struct cr_mem *m, const struct cr_arch *a, const struct cr_fde *fde,
	       uint64_t pc, struct cr_row *row)
{
	struct cr_row r;
	uint64_t cols;
	int ret;

	cr_row_init(&r, a);
	if ((ret = build(m, a, fde, pc, &r, &cols)) < 0)
		return ret;
	*row = r;
	return 0;
}

CR_HOT int cr_cfa_run_compact(const struct cr_mem *m, const struct cr_arch *a, const struct cr_fde *fde,
		       uint64_t pc, struct cr_crow *c)
{
	struct cr_row r;
	uint64_t cols;
	int ret;

	if ((ret = build(m, a, fde, pc, &r, &cols)) < 0)
		return ret;
	return cr_row_compact_cols(&r, cols, a, c);
}

/*
 * cr_cfa_shape's row is a struct cr_lite (cfi.h): the other columns'
 * offsets are not kept, a row's shape does not depend on them (their
 * offsets are 0 where their rule is no CR_OFFSET, as in a full row).
 */
/* Column reg's rule (kind CR_SAME, CR_OFFSET or CR_UNDEF) into r: set() and
   restore()'s.  0, or 1: an offset that would not compact (not a shape). */
static inline __attribute__((always_inline)) int lite_set(struct cr_lite *r, uint64_t reg, uint8_t kind, int64_t off, uint16_t ra,
			   uint8_t fp)
{
	uint64_t bit;

	if (reg >= CR_NREGS)
		return 0;	/* parsed and dropped, as set() does */
	bit = 1ull << reg;
	if (kind != CR_OFFSET)
		off = 0;
	else if (!cr_fits32(off))
		return 1;
	r->live = kind == CR_SAME ? r->live & ~bit : r->live | bit;
	r->undef = kind == CR_UNDEF ? r->undef | bit : r->undef & ~bit;
	if (reg == ra)
		r->ra_off = off;
	if (reg == fp)
		r->fp_off = off;
	return 0;
}

/* Column n's rule kind in r (n < CR_NREGS). */
static inline uint8_t lite_kind(const struct cr_lite *r, unsigned n)
{
	return !(r->live >> n & 1) ? CR_SAME : (r->undef >> n & 1) ? CR_UNDEF : CR_OFFSET;
}

/* The state after the CIE's initial rules, as cie_init gives them from the
   memo, into *r.  0, or 1: not a shape's. */
CR_HOT static __attribute__((noinline)) int lite_base(const struct cr_fde_lite *fl,
						       const struct cr_arch *a, struct cr_lite *r)
{
	const struct cr_cie_init *ci = &fl->init;

	if (fl->ra >= CR_NREGS || fl->code_align > UINT32_MAX || ci->n > CR_CIE_INIT_MAX ||
	    ci->cfa.kind != CR_REG)
		return 1;
	memset(r, 0, sizeof(*r));
	r->cfa_reg = ci->cfa.reg;
	r->cfa_off = ci->cfa.off;
	for (unsigned k = 0; k < ci->n; k++) {
		uint8_t kind = ci->rule[k].kind;

		if (ci->col[k] >= CR_NREGS ||
		    (kind != CR_SAME && kind != CR_OFFSET && kind != CR_UNDEF) ||
		    lite_set(r, ci->col[k], kind, ci->rule[k].off, fl->ra, a->fp))
			return 1;
	}
	return 0;
}

CR_HOT int cr_cfa_shape(struct cr_fde_lite *fl, uint64_t pc, const struct cr_arch *a,
			struct cr_crow *c)
{
	struct cr_lite r, saved[CR_CFA_STACK];
	const struct cr_cie_init *ci = &fl->init;
	const uint8_t *p = fl->insns, *e = fl->insns + fl->len;
	uint64_t ca = fl->code_align, left, d, v, w, cols;
	unsigned k, k2, depth = 0, top = a->nregs < CR_NREGS ? a->nregs : CR_NREGS;
	uint16_t ra = fl->ra;
	uint8_t fp = a->fp;

	if (pc < fl->pc_lo || pc >= fl->pc_hi || fl->len > CR_CFA_MAX_INSNS)
		return 1;
	/* The CIE's rules: kept from the CIE's last FDE, else applied (and
	   kept: whoever changes the CIE's fields clears base_arch). */
	if (fl->base_arch != a) {
		fl->base_arch = NULL;
		if (lite_base(fl, a, &fl->base))
			return 1;
		fl->base_arch = a;
	}
	r = fl->base;
	/* run_bytes's instructions, with its advances; anything else: 1. */
	left = pc - fl->pc_lo;
	for (; p < e; p++) {
		uint8_t op = *p;

		/* The most frequent first (an FDE is mostly advances and CFA
		   offsets): tests in that order, no jump table (above). */
		if ((op & 0xc0) == DW_CFA_advance_loc) {
			d = (op & 0x3fu) * ca;
			goto advance;
		}
		if (op == DW_CFA_def_cfa_offset) {
			if (!(k = uleb2(p + 1, e, &v)))
				return 1;
			r.cfa_off = (int64_t)v;
			p += k;
			continue;
		}
		switch (op >> 6) {
		case DW_CFA_offset >> 6:
			if (!(k = uleb2(p + 1, e, &v)) ||
			    lite_set(&r, op & 0x3f, CR_OFFSET, (int64_t)(v * (uint64_t)fl->data_align),
				     ra, fp))
				return 1;
			p += k;
			continue;
		case DW_CFA_restore >> 6:
			/* The CIE's rule for the column, else none (restore()). */
			for (k = 0; k < ci->n && ci->col[k] != (op & 0x3f); k++)
				;
			if (k < ci->n ? lite_set(&r, op & 0x3f, ci->rule[k].kind, ci->rule[k].off, ra, fp)
				      : lite_set(&r, op & 0x3f, CR_SAME, 0, ra, fp))
				return 1;
			continue;
		}
		switch (op) {
		case DW_CFA_nop:
			continue;
		case DW_CFA_advance_loc1:
		case DW_CFA_advance_loc2:
			if (!(k = adv12(p, e, ca, &d)))
				return 1;
			p += k;
			goto advance;
		case DW_CFA_undefined:
			if (!(k = uleb2(p + 1, e, &v)) || lite_set(&r, v, CR_UNDEF, 0, ra, fp))
				return 1;
			p += k;
			continue;
		case DW_CFA_def_cfa:
			if (!(k = uleb2(p + 1, e, &v)) || !(k2 = uleb2(p + 1 + k, e, &w)))
				return 1;
			r.cfa_reg = v > 0xffff ? 0xffff : (uint16_t)v;
			r.cfa_off = (int64_t)w;
			p += k + k2;
			continue;
		case DW_CFA_def_cfa_register:
			if (!(k = uleb2(p + 1, e, &v)))
				return 1;
			r.cfa_reg = v > 0xffff ? 0xffff : (uint16_t)v;
			p += k;
			continue;
		case DW_CFA_remember_state:
			if (depth == CR_CFA_STACK)
				return 1;
			saved[depth++] = r;
			continue;
		case DW_CFA_restore_state:
			if (depth == 0)
				return 1;
			r = saved[--depth];
			continue;
		}
		return 1;
advance:	/* d: the advance in bytes (no overflow: ca <= UINT32_MAX) */
		if (d > left)
			break;	/* past pc: the row is complete */
		left -= d;
	}
	/* What cr_row_compact_cols would refuse, then the shape (row.h). */
	cols = r.live & ((CR_BIT(top) - 1) | CR_BIT(ra));
	for (k = 0; cols; cols &= cols - 1)	/* (no popcount: a libgcc call on x86_64) */
		k++;
	if (!cr_fits32(r.cfa_off) || k > CR_CROW_MAX)
		return 1;
	c->cfa_reg = r.cfa_reg;
	c->cfa_off = (int32_t)r.cfa_off;
	c->ra = ra;
	c->signal = fl->signal;
	c->n = 0;
	cr_crow_set_shape(c, a, r.cfa_reg, ra, fl->signal, lite_kind(&r, a->sp), lite_kind(&r, ra),
			  r.ra_off, lite_kind(&r, fp), r.fp_off);
	return c->shape == CR_SHAPE_NONE;
}

CR_HOT int cr_cfa_cie_rules(const uint8_t *p, size_t len, const struct cr_cie *cie,
			    struct cr_cie_init *ci)
{
	struct cr_rule rule[CR_NREGS];
	const uint8_t *e = p + len;
	uint64_t cols = 0, v, w, m;
	unsigned k, k2, n;

	if (len > CR_CFA_MAX_INSNS)
		return 1;
	memset(ci, 0, sizeof(*ci));
	ci->cfa.kind = CR_UNDEF;	/* build()'s start */
	for (; p < e; p++) {
		uint8_t op = *p;

		if ((op & 0xc0) == DW_CFA_offset || op == DW_CFA_undefined) {
			n = op & 0x3f;
			if (op == DW_CFA_undefined) {
				if (!(k = uleb2(p + 1, e, &v)) || v >= 64)
					return 1;
				n = (unsigned)v;
			} else if (!(k = uleb2(p + 1, e, &v))) {
				return 1;
			}
			p += k;
			if (n >= CR_NREGS)
				continue;	/* parsed and dropped, as set() does */
			memset(&rule[n], 0, sizeof(rule[n]));
			rule[n].kind = op == DW_CFA_undefined ? CR_UNDEF : CR_OFFSET;
			if (op != DW_CFA_undefined)
				rule[n].off = (int64_t)(v * (uint64_t)cie->data_align);
			cols |= 1ull << n;
			continue;
		}
		switch (op) {
		case DW_CFA_nop:
			continue;
		case DW_CFA_def_cfa:
			if (!(k = uleb2(p + 1, e, &v)) || !(k2 = uleb2(p + 1 + k, e, &w)))
				return 1;
			memset(&ci->cfa, 0, sizeof(ci->cfa));
			ci->cfa.kind = CR_REG;
			ci->cfa.reg = v > 0xffff ? 0xffff : (uint16_t)v;
			ci->cfa.off = (int64_t)w;
			p += k + k2;
			continue;
		case DW_CFA_def_cfa_register:
			if (!(k = uleb2(p + 1, e, &v)))
				return 1;
			w = ci->cfa.kind == CR_REG ? (uint64_t)ci->cfa.off : 0;
			memset(&ci->cfa, 0, sizeof(ci->cfa));
			ci->cfa.kind = CR_REG;
			ci->cfa.reg = v > 0xffff ? 0xffff : (uint16_t)v;
			ci->cfa.off = (int64_t)w;
			p += k;
			continue;
		case DW_CFA_def_cfa_offset:
			if (!(k = uleb2(p + 1, e, &v)) || ci->cfa.kind != CR_REG)
				return 1;
			ci->cfa.off = (int64_t)v;
			p += k;
			continue;
		}
		return 1;
	}
	/* The columns in order, as cie_init keeps them; too many: not kept. */
	for (k = 0, m = cols; m; m &= m - 1, k++) {
		n = (unsigned)__builtin_ctzll(m);
		if (k == CR_CIE_INIT_MAX)
			return 1;
		ci->col[k] = (uint8_t)n;
		ci->rule[k] = rule[n];
	}
	ci->n = (uint8_t)k;
	return 0;
}

/* (cfi.h) What an FDE says at its first location, up to its first advance. */
int cr_cfa_entry_row(const struct cr_mem *m, const struct cr_fde *fde)
{
	struct cr_cursor c;
	uint8_t op;

	cr_cursor_init_view(&c, m, fde->insns, fde->insns_end, &fde->view);
	for (unsigned i = 0; i < 64 && c.pos < c.end; i++) {
		op = cr_u8(&c);
		if (c.err)
			return 0;
		if (op == DW_CFA_nop)
			continue;
		if (op == DW_CFA_undefined) {	/* the outermost frame's mark (_start) */
			cr_uleb(&c);
			continue;
		}
		return (op & 0xc0) == DW_CFA_advance_loc || op == DW_CFA_set_loc ||
		       op == DW_CFA_advance_loc1 || op == DW_CFA_advance_loc2 ||
		       op == DW_CFA_advance_loc4;
	}
	return c.err == 0 && c.pos >= c.end;
}
