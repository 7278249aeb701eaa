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
