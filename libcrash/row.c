/* SPDX-License-Identifier: MIT */
/* The one executor: a row (from cfi, scan or fp) plus a frame's registers -> its caller's. */
#include <string.h>

#include "row.h"

void cr_row_init(struct cr_row *row, const struct cr_arch *a)
{
	memset(row, 0, sizeof(*row));
	row->cfa.kind = CR_UNDEF;
	row->ra = a->ra;
}

int cr_row_cfa(const struct cr_row *row, const struct cr_mem *m, const struct cr_arch *a,
	       const struct cr_regs *regs, uint64_t *cfa)
{
	switch (row->cfa.kind) {
	case CR_REG:
		if (!cr_reg_valid(regs, row->cfa.reg))
			return -CR_EINVAL;
		*cfa = regs->r[row->cfa.reg] + (uint64_t)row->cfa.off;
		return 0;
	case CR_EXPR:
		/* DWARF5 6.4.2.2 DW_CFA_def_cfa_expression: nothing pushed first. */
		return cr_expr_eval(m, a, regs, row->cfa.expr, row->cfa.len, NULL, cfa);
	default:
		return -CR_EINVAL;
	}
}

/* The value of register n in the caller, per rule r. 1: no value (CR_UNDEF). */
static int apply_rule(const struct cr_rule *r, unsigned n, uint64_t cfa, const struct cr_mem *m,
		      const struct cr_arch *a, const struct cr_regs *in, uint64_t *v)
{
	uint64_t addr;
	int ret;

	switch (r->kind) {
	case CR_SAME:
		if (!cr_reg_valid(in, n))
			return 1;
		*v = in->r[n];
		return 0;
	case CR_UNDEF:
		return 1;
	case CR_OFFSET:
		return cr_read64(m, cfa + (uint64_t)r->off, v);
	case CR_VAL_OFFSET:
		*v = cfa + (uint64_t)r->off;
		return 0;
	case CR_REG:
		if (!cr_reg_valid(in, r->reg))
			return -CR_EINVAL;
		*v = in->r[r->reg];
		return 0;
	case CR_EXPR:
		if ((ret = cr_expr_eval(m, a, in, r->expr, r->len, &cfa, &addr)) < 0)
			return ret;
		return cr_read64(m, addr, v);
	case CR_VAL_EXPR:
		return cr_expr_eval(m, a, in, r->expr, r->len, &cfa, v);
	}
	return -CR_EINVAL;
}

int cr_row_apply(const struct cr_row *row, const struct cr_mem *m, const struct cr_arch *a,
		 const struct cr_regs *in, struct cr_regs *out)
{
	struct cr_regs tmp;
	uint64_t cfa, v;
	unsigned n;
	int ret;

	if (row->ra >= CR_NREGS)
		return -CR_EINVAL;
	if (row->reg[row->ra].kind == CR_UNDEF)
		return CR_END;	/* DWARF5 6.4.4: undefined return address, outermost frame */
	if ((ret = cr_row_cfa(row, m, a, in, &cfa)) < 0)
		return ret;
	tmp.valid = 0;
	tmp.pc = 0;
	for (n = 0; n < a->nregs; n++) {
		ret = apply_rule(&row->reg[n], n, cfa, m, a, in, &v);
		if (ret < 0)
			return ret;
		if (ret == 0)
			cr_reg_set(&tmp, n, v);
	}
	/* A return-address column past the arch's registers (a CIE may name any
	   column, DWARF5 6.4.1) still gives the caller's pc, as in cr_crow_apply. */
	if (row->ra >= a->nregs) {
		ret = apply_rule(&row->reg[row->ra], row->ra, cfa, m, a, in, &v);
		if (ret < 0)
			return ret;
		if (ret == 0)
			cr_reg_set(&tmp, row->ra, v);
	}
	/* The caller's sp is the CFA unless a rule says otherwise (DWARF5 6.4.1). */
	if (row->reg[a->sp].kind == CR_SAME)
		cr_reg_set(&tmp, a->sp, cfa);
	if (!cr_reg_valid(&tmp, row->ra))
		return -CR_EINVAL;
	tmp.pc = tmp.r[row->ra];
	if (a->strip_ra)
		tmp.pc = a->strip_ra(tmp.pc);
	*out = tmp;
	return 0;
}

_Static_assert(CR_SHAPE_WINDOW == CR_FAST_WINDOW, "one window");

/* Column n's rule in a row whose columns outside cols are CR_SAME. */
CR_HOT static const struct cr_rule *rule_of(const struct cr_row *row, uint64_t cols, unsigned n)
{
	/* CR_SAME; in .data, not .rodata: a first capture reads no page of
	   .rodata for it (a page fault, ~2-3 us: docs/performance.md, issue 20). */
	CR_INSTALL_DATA static struct cr_rule same;

	return cols >> n & 1 ? &row->reg[n] : &same;
}

/* The trace-only shape of a row (struct cr_crow; row.h: cr_crow_set_shape). */
CR_HOT static void set_shape(const struct cr_row *row, uint64_t cols, const struct cr_arch *a,
		      struct cr_crow *c)
{
	const struct cr_rule *ra = rule_of(row, cols, row->ra), *fp = rule_of(row, cols, a->fp);

	cr_crow_set_shape(c, a, row->cfa.reg, row->ra, row->signal, rule_of(row, cols, a->sp)->kind,
			  ra->kind, ra->off, fp->kind, fp->off);
}

/* Column n's rule into c (k rules so far).  0, or -CR_ERANGE: it does not fit. */
static inline __attribute__((always_inline)) int compact_col(const struct cr_row *row, unsigned n,
							      struct cr_crow *c, unsigned *k)
{
	const struct cr_rule *r = &row->reg[n];
	uint8_t kind = r->kind;
	int32_t v;

	if (kind == CR_REG) {
		if (r->reg >= CR_NREGS)
			return -CR_ERANGE;
		v = r->reg;
	} else {
		if (kind == CR_EXPR || kind == CR_VAL_EXPR || !cr_fits32(r->off))
			return -CR_ERANGE;
		v = (int32_t)r->off;
	}
	if (*k == CR_CROW_MAX)
		return -CR_ERANGE;
	c->col[*k] = (uint8_t)n;
	c->kind[*k] = kind;
	c->off[*k] = v;
	(*k)++;
	return 0;
}

_Static_assert(CR_NREGS < 64, "a column mask is a 64-bit word");

CR_HOT int cr_row_compact_cols(const struct cr_row *row, uint64_t cols, const struct cr_arch *a,
			struct cr_crow *c)
{
	unsigned n, k = 0, top = a->nregs < CR_NREGS ? a->nregs : CR_NREGS;
	uint64_t m;

	if (row->cfa.kind != CR_REG || !cr_fits32(row->cfa.off) || row->ra >= CR_NREGS)
		return -CR_ERANGE;
	c->cfa_reg = row->cfa.reg;
	c->cfa_off = (int32_t)row->cfa.off;
	c->ra = row->ra;
	c->signal = row->signal;
	/* The arch's columns, then the return-address column if it lies past
	   them: cr_row_apply ignores the others too.  Most columns keep their
	   value: only those that may have a rule are visited, in order. */
	for (m = cols & (CR_BIT(top) - 1); m; m &= m - 1) {
		n = (unsigned)__builtin_ctzll(m);
		if (row->reg[n].kind != CR_SAME && compact_col(row, n, c, &k) < 0)
			return -CR_ERANGE;
	}
	if (row->ra >= top && (cols >> row->ra & 1) && row->reg[row->ra].kind != CR_SAME &&
	    compact_col(row, row->ra, c, &k) < 0)
		return -CR_ERANGE;
	c->n = (uint8_t)k;
	set_shape(row, cols, a, c);
	return 0;
}

int cr_row_compact(const struct cr_row *row, const struct cr_arch *a, struct cr_crow *c)
{
	return cr_row_compact_cols(row, ~0ull, a, c);
}

void cr_row_expand(const struct cr_crow *c, const struct cr_arch *a, struct cr_row *row)
{
	cr_row_init(row, a);
	row->cfa.kind = CR_REG;
	row->cfa.reg = c->cfa_reg;
	row->cfa.off = c->cfa_off;
	row->ra = c->ra;
	row->signal = c->signal;
	for (unsigned k = 0; k < c->n && k < CR_CROW_MAX; k++) {
		struct cr_rule *r = &row->reg[c->col[k]];

		r->kind = c->kind[k];
		if (r->kind == CR_REG)
			r->reg = (uint16_t)c->off[k];
		else
			r->off = c->off[k];
	}
}

int cr_crow_apply(const struct cr_crow *c, const struct cr_mem *m, const struct cr_arch *a,
		  const struct cr_regs *in, struct cr_regs *out)
{
	uint64_t cfa, v[CR_CROW_MAX], undef = 0;
	unsigned k, n = c->n;
	int ret;

	if (c->ra >= CR_NREGS || n > CR_CROW_MAX)
		return -CR_EINVAL;
	/* An undefined return address ends the walk before any read, as in
	   cr_row_apply (a read that fails must not turn CR_END into -CR_EFAULT). */
	for (k = 0; k < n; k++)
		if (c->kind[k] == CR_UNDEF && c->col[k] == c->ra)
			return CR_END;
	if (!cr_reg_valid(in, c->cfa_reg))
		return -CR_EINVAL;
	cfa = in->r[c->cfa_reg] + (uint64_t)(int64_t)c->cfa_off;
	for (k = 0; k < n; k++) {
		if (c->kind[k] == CR_OFFSET) {	/* the common case, inline */
			if (cr_read64(m, cfa + (uint64_t)(int64_t)c->off[k], &v[k]) < 0)
				return -CR_EFAULT;
			continue;
		}
		struct cr_rule r = { .kind = c->kind[k] };

		if (r.kind == CR_REG)
			r.reg = (uint16_t)c->off[k];
		else
			r.off = c->off[k];
		if ((ret = apply_rule(&r, c->col[k], cfa, m, a, in, &v[k])) < 0)
			return ret;
		if (ret)
			undef |= CR_BIT(c->col[k]);
	}
	/* Everything read: now the output (written only on success; out may be in). */
	if (out != in)
		*out = *in;
	cr_reg_set(out, a->sp, cfa);	/* the CFA, unless a rule below says otherwise */
	for (k = 0; k < n; k++)
		cr_reg_set(out, c->col[k], v[k]);
	out->valid &= ~undef;
	/* Columns past the arch's registers are not kept (as cr_row_apply does). */
	out->valid &= a->nregs < 64 ? (CR_BIT(a->nregs) - 1) | CR_BIT(c->ra) : ~0ull;
	if (!cr_reg_valid(out, c->ra))
		return -CR_EINVAL;
	out->pc = a->strip_ra ? a->strip_ra(out->r[c->ra]) : out->r[c->ra];
	return 0;
}
