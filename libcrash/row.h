/* SPDX-License-Identifier: MIT */
/*
 * The common output of the cfi, scan and fp engines, and the one executor that
 * turns a row plus the registers of a frame into the registers of its caller.
 *
 * The rows, all in this header:
 * - struct cr_row: a rule for the CFA and one per register.  CFI gives it at
 *   a pc (cfi/cfa.c), the prologue decoders from the code (arch/<arch>/scan.c),
 *   the fp engine as a constant (arch/<arch>/desc.c).  Its executor is
 *   cr_row_apply(), the one the engines use.
 * - struct cr_crow, the compact row: a cr_row whose CFA is register + offset,
 *   with at most CR_CROW_MAX rules and no expression, made by
 *   cr_row_compact() (cr_row_expand() gives the full row back).  What the
 *   caches keep (the row cache, cfi/cache.h; a crash walk's last rows).  Its
 *   executor cr_crow_apply() is cr_row_apply's twin: tests/unit/t-crow proves
 *   them equal on every compactable row of the loaded libraries.
 * - the shape, the first 16 bytes of a cr_crow: a frame that needs only pc,
 *   sp and fp (CFA = sp or fp + N, the return address and fp at CFA offsets;
 *   or the outermost frame), for crash_backtrace's trace loop, whose
 *   trace_step (cfi/trace.c) is the third executor; t-crow checks every row's
 *   shape against cr_crow_apply.
 */
#ifndef CR_ROW_H
#define CR_ROW_H

#include "mem.h"
#include "regs.h"

/* CR_SAME is 0 so that a zeroed row means "every register keeps its value". */
enum cr_rule_kind {
	CR_SAME = 0,	/* register unchanged (DW_CFA_same_value, or no rule) */
	CR_UNDEF,	/* DW_CFA_undefined: on the ra column, the outermost frame */
	CR_OFFSET,	/* saved at CFA + off */
	CR_VAL_OFFSET,	/* value is CFA + off */
	CR_REG,		/* value is in register reg */
	CR_EXPR,	/* saved at the address that expr computes (CFA pushed first) */
	CR_VAL_EXPR,	/* value is what expr computes (CFA pushed first) */
};

struct cr_rule {
	uint8_t kind;		/* enum cr_rule_kind; for the CFA: CR_REG or CR_EXPR */
	uint16_t reg;		/* CR_REG; the CFA's base register */
	uint32_t len;		/* CR_EXPR/CR_VAL_EXPR: length of the DW_OP bytes */
	union {
		int64_t off;	/* CR_OFFSET/CR_VAL_OFFSET; the CFA's offset */
		uint64_t expr;	/* CR_EXPR/CR_VAL_EXPR: address of the DW_OP bytes (via cr_mem) */
	};
};

struct cr_row {
	struct cr_rule cfa;		/* CR_REG (reg + off) or CR_EXPR (no initial push) */
	struct cr_rule reg[CR_NREGS];
	uint16_t ra;			/* return-address column */
	uint8_t signal;			/* CIE 'S': the caller's pc is exact (no pc-1) */
};

/*
 * Caller's registers from a row: out->r[sp] = CFA unless the row has a rule for
 * sp, out->pc = value of the ra column (arch->strip_ra applied).  Registers
 * without a rule keep their values (callee-saved convention).
 * Returns 0; CR_END if the ra column is undefined (outermost frame); -CR_EFAULT
 * if a saved slot is unreadable; -CR_EINVAL if a rule needs an unknown register.
 * Writes *out only on success (CR_END leaves it untouched too).  AS-safe.
 */
int cr_row_apply(const struct cr_row *row, const struct cr_mem *m, const struct cr_arch *a,
		 const struct cr_regs *in, struct cr_regs *out);

/* The CFA that row gives for regs, or -CR_E*. */
int cr_row_cfa(const struct cr_row *row, const struct cr_mem *m, const struct cr_arch *a,
	       const struct cr_regs *regs, uint64_t *cfa);

/*
 * A compact row for caches: the CFA as register + offset and at most
 * CR_CROW_MAX registers with rules other than CR_SAME, none an expression.
 */
#define CR_CROW_MAX 13	/* riscv64: ra, s0-s11 */
#define CR_SHAPE_WINDOW 256	/* = CR_FAST_WINDOW: one proof covers a STEP frame's slots */
enum { CR_SHAPE_NONE, CR_SHAPE_STEP, CR_SHAPE_END, CR_SHAPE_STEP_FAR };
struct __attribute__((aligned(8))) cr_crow {
	/* The frame's shape for trace-only walks (pc, sp, fp), set by cr_row_compact:
	   STEP: CFA = sp or fp + cfa_off, return address at CFA + ra_off, fp kept
	   or at CFA + fp_off, sp = CFA, and the saved slots within the
	   CR_SHAPE_WINDOW bytes below the CFA; STEP_FAR: the same with a slot
	   further away; END: the outermost frame; NONE: none of these.
	   STEP also has ra_w = ra_off + CR_SHAPE_WINDOW and fp_w the same of
	   fp_off (0 otherwise): whatever byte a reader of a row being rewritten
	   gets, CFA - CR_SHAPE_WINDOW + it is a slot in [CFA - 256, CFA + 7),
	   all inside one proof (mem.h: cr_mem_fast's window). */
	uint8_t shape, cfa_fp, fp_saved, pad;
	int32_t cfa_off, ra_off, fp_off;
	uint16_t cfa_reg, ra;
	uint8_t n, signal, ra_w, fp_w;
	uint8_t col[CR_CROW_MAX];
	uint8_t kind[CR_CROW_MAX];
	int32_t off[CR_CROW_MAX];	/* CR_OFFSET/CR_VAL_OFFSET offset, CR_REG register */
};

/* An offset or value a compact row can hold (32 bits). */
static inline int cr_fits32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/* A saved slot at CFA + off within the window below the CFA (8-byte slots). */
static inline int cr_shape_near(int64_t off)
{
	return off >= -CR_SHAPE_WINDOW && off <= -8;
}

/*
 * The trace-only shape of a row (struct cr_crow's shape, cfa_fp, fp_saved,
 * ra_off, fp_off, ra_w, fp_w) from what it depends on: its CFA register,
 * return-address column and 'S', the kinds of the rules of sp, of the
 * return address and of fp (CR_SAME where none), and the offsets of the
 * last two (0 where their rule is no CR_OFFSET, as in a full row).  The one
 * rule of both decoders that give shapes: cr_row_compact_cols (row.c) and
 * cr_cfa_shape (cfi/cfa.c).
 */
static inline __attribute__((always_inline)) void
cr_crow_set_shape(struct cr_crow *c, const struct cr_arch *a, uint16_t cfa_reg, uint16_t ra,
		  uint8_t signal, uint8_t sp_kind, uint8_t ra_kind, int64_t ra_off, uint8_t fp_kind,
		  int64_t fp_off)
{
	c->shape = CR_SHAPE_NONE;
	c->cfa_fp = cfa_reg == a->fp;
	c->fp_saved = fp_kind == CR_OFFSET;
	c->ra_off = (int32_t)ra_off;
	c->fp_off = c->fp_saved ? (int32_t)fp_off : 0;
	if (ra_kind == CR_UNDEF)
		c->shape = CR_SHAPE_END;
	else if ((cfa_reg == a->sp || cfa_reg == a->fp) && ra_kind == CR_OFFSET &&
		 (fp_kind == CR_SAME || fp_kind == CR_OFFSET) && sp_kind == CR_SAME && !signal &&
		 ra != a->sp && ra != a->fp)
		c->shape = cr_shape_near(ra_off) && (!c->fp_saved || cr_shape_near(fp_off))
				   ? CR_SHAPE_STEP
				   : CR_SHAPE_STEP_FAR;
	c->ra_w = c->shape == CR_SHAPE_STEP ? (uint8_t)(c->ra_off + CR_SHAPE_WINDOW) : 0;
	c->fp_w = c->shape == CR_SHAPE_STEP && c->fp_saved
			  ? (uint8_t)(c->fp_off + CR_SHAPE_WINDOW)
			  : 0;
}

/* Compact form of row.  0, or -CR_ERANGE if it does not fit (it is not cached). */
int cr_row_compact(const struct cr_row *row, const struct cr_arch *a, struct cr_crow *c);

/*
 * cr_row_compact of a row whose columns outside cols (bit n: reg[n]) are
 * CR_SAME and are not read (a row the CFA interpreter built in place): the
 * same result, visiting only the columns in cols.
 */
int cr_row_compact_cols(const struct cr_row *row, uint64_t cols, const struct cr_arch *a,
			struct cr_crow *c);

/* The full row of a compact one (exactly the row it was made from). */
void cr_row_expand(const struct cr_crow *c, const struct cr_arch *a, struct cr_row *row);

/*
 * cr_row_apply for a compact row: the same result as applying its expanded
 * row (tested on every row of the loaded libraries), visiting only the
 * registers that have rules.  out may be in (a step in place).
 */
int cr_crow_apply(const struct cr_crow *c, const struct cr_mem *m, const struct cr_arch *a,
		  const struct cr_regs *in, struct cr_regs *out);

/* Reset a row: every register CR_SAME, CFA undefined (kind CR_UNDEF), ra = a->ra. */
void cr_row_init(struct cr_row *row, const struct cr_arch *a);

/*
 * DWARF expression evaluator for CFI (DWARF 5 section 2.5, the operations
 * compilers and glibc emit in .eh_frame).  Bytes [expr, expr+len) read through
 * m; registers from regs (DW_OP_regN/bregN/bregx need r[n] valid).  If initial
 * is not NULL its value is pushed first.  Result: the top of the stack.
 * Bounded: stack depth 64, 1000 steps (branches included).  Returns 0 or
 * -CR_EINVAL (bad/unsupported opcode, stack underflow, division by zero),
 * -CR_ERANGE (stack overflow, step limit), -CR_EFAULT (unreadable).  AS-safe.
 */
int cr_expr_eval(const struct cr_mem *m, const struct cr_arch *a, const struct cr_regs *regs,
		 uint64_t expr, uint64_t len, const uint64_t *initial, uint64_t *result);

#endif
