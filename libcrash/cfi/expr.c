/* SPDX-License-Identifier: MIT */
/*
 * DWARF expression evaluator for CFI rules (DWARF 5 section 2.5): the value
 * operations of 2.5.1 on a stack of 64-bit generic-type values.
 *
 * Not supported, -CR_EINVAL:
 *  - DW_OP_regN/regx (2.6.1.1.3): they are register *location descriptions*,
 *    not operations of a DWARF expression, and 6.4.2 says CFA and register
 *    rules are DWARF expressions (2.5).  Compilers use DW_OP_bregN in CFI.
 *    (libgcc pushes the register's value instead; a producer relying on that
 *    gets -CR_EINVAL here and the walk falls back to another engine.)
 *  - DW_OP_call_frame_cfa, DW_OP_push_object_address, DW_OP_call*: 6.4.2
 *    forbids them in CFI (the CFA is what we are computing).
 *  - DW_OP_piece, DW_OP_stack_value, implicit values: composite or implicit
 *    locations are not addresses or values of a register rule.
 *  - DW_OP_xderef*, DW_OP_fbreg, DW_OP_form_tls_address, vendor operations.
 */
#include "cfi.h"

#define STACK 64
#define STEPS 1000

enum {
	DW_OP_addr = 0x03,
	DW_OP_deref = 0x06,
	DW_OP_const1u = 0x08,
	DW_OP_const1s,
	DW_OP_const2u,
	DW_OP_const2s,
	DW_OP_const4u,
	DW_OP_const4s,
	DW_OP_const8u,
	DW_OP_const8s,
	DW_OP_constu,
	DW_OP_consts,
	DW_OP_dup,
	DW_OP_drop,
	DW_OP_over,
	DW_OP_pick,
	DW_OP_swap,
	DW_OP_rot,
	DW_OP_xderef,
	DW_OP_abs,
	DW_OP_and,
	DW_OP_div,
	DW_OP_minus,
	DW_OP_mod,
	DW_OP_mul,
	DW_OP_neg,
	DW_OP_not,
	DW_OP_or,
	DW_OP_plus,
	DW_OP_plus_uconst,
	DW_OP_shl,
	DW_OP_shr,
	DW_OP_shra,
	DW_OP_xor,
	DW_OP_bra,
	DW_OP_eq,
	DW_OP_ge,
	DW_OP_gt,
	DW_OP_le,
	DW_OP_lt,
	DW_OP_ne,
	DW_OP_skip,
	DW_OP_lit0 = 0x30,
	DW_OP_lit31 = 0x4f,
	DW_OP_reg0 = 0x50,
	DW_OP_reg31 = 0x6f,
	DW_OP_breg0 = 0x70,
	DW_OP_breg31 = 0x8f,
	DW_OP_regx = 0x90,
	DW_OP_bregx = 0x92,
	DW_OP_deref_size = 0x94,
	DW_OP_nop = 0x96,
};

struct stack {
	uint64_t v[STACK];
	unsigned n;
	int err;
};

static void push(struct stack *s, uint64_t v)
{
	if (s->n >= STACK) {
		if (!s->err)
			s->err = -CR_ERANGE;
		return;
	}
	s->v[s->n++] = v;
}

static uint64_t pop(struct stack *s)
{
	if (s->n == 0) {
		if (!s->err)
			s->err = -CR_EINVAL;	/* underflow: malformed expression */
		return 0;
	}
	return s->v[--s->n];
}

/* Entry i from the top (0 = top), or an underflow error. */
static uint64_t peek(struct stack *s, unsigned i)
{
	if (i >= s->n) {
		if (!s->err)
			s->err = -CR_EINVAL;
		return 0;
	}
	return s->v[s->n - 1 - i];
}

/* DW_OP_bregN/bregx: the value of register reg plus a SLEB128 offset operand. */
static void breg(struct stack *s, struct cr_cursor *c, const struct cr_arch *a,
		 const struct cr_regs *regs, uint64_t reg)
{
	int64_t off = cr_sleb(c);

	if (c->err)
		return;
	if (reg >= a->nregs || !cr_reg_valid(regs, (unsigned)reg)) {
		if (!s->err)
			s->err = -CR_EINVAL;
		return;
	}
	push(s, regs->r[reg] + (uint64_t)off);
}

/* DW_OP_deref_size (2.5.1.3): size bytes at the popped address, zero-extended. */
static void deref(struct stack *s, const struct cr_mem *m, uint64_t size)
{
	uint64_t addr = pop(s), v = 0;

	if (s->err)
		return;
	if (size == 0 || size > 8) {
		s->err = -CR_EINVAL;
		return;
	}
	if (cr_read(m, addr, &v, (size_t)size) < 0) {
		s->err = -CR_EFAULT;
		return;
	}
	push(s, v);	/* little-endian: the low bytes were filled */
}

/* Binary operations (2.5.1.4): second-from-top OP top; signed where DWARF says so. */
static void binop(struct stack *s, uint8_t op)
{
	uint64_t b = pop(s), a = pop(s), r = 0;

	if (s->err)
		return;
	switch (op) {
	case DW_OP_and:
		r = a & b;
		break;
	case DW_OP_or:
		r = a | b;
		break;
	case DW_OP_xor:
		r = a ^ b;
		break;
	case DW_OP_plus:
		r = a + b;
		break;
	case DW_OP_minus:
		r = a - b;
		break;
	case DW_OP_mul:
		r = a * b;
		break;
	case DW_OP_shl:
		r = b >= 64 ? 0 : a << b;
		break;
	case DW_OP_shr:
		r = b >= 64 ? 0 : a >> b;
		break;
	case DW_OP_shra:
		/* Arithmetic shift without relying on implementation-defined >>. */
		if (b >= 64)
			r = (a >> 63) ? ~0ull : 0;
		else
			r = (a >> b) | ((a >> 63) && b ? ~0ull << (64 - b) : 0);
		break;
	case DW_OP_div:
		/* Signed; INT64_MIN / -1 wraps instead of trapping. */
		if (b == 0) {
			s->err = -CR_EINVAL;
			return;
		}
		if (b == ~0ull)
			r = 0 - a;
		else
			r = (uint64_t)((int64_t)a / (int64_t)b);
		break;
	case DW_OP_mod:
		/* Unsigned, as libgcc and LLVM do: DWARF 5 gives no sign for mod. */
		if (b == 0) {
			s->err = -CR_EINVAL;
			return;
		}
		r = a % b;
		break;
	case DW_OP_eq:
		r = a == b;
		break;
	case DW_OP_ne:
		r = a != b;
		break;
	case DW_OP_ge:
		r = (int64_t)a >= (int64_t)b;
		break;
	case DW_OP_gt:
		r = (int64_t)a > (int64_t)b;
		break;
	case DW_OP_le:
		r = (int64_t)a <= (int64_t)b;
		break;
	case DW_OP_lt:
		r = (int64_t)a < (int64_t)b;
		break;
	}
	push(s, r);
}

/* DW_OP_skip/bra: a 2-byte signed offset from the next operation; the target
   must be inside the expression (its end included: that ends it). */
static void jump(struct stack *s, struct cr_cursor *c, uint64_t lo, int taken)
{
	int16_t off = (int16_t)cr_u16(c);
	uint64_t to = c->pos + (uint64_t)(int64_t)off;

	if (c->err || !taken)
		return;
	if (to < lo || to > c->end) {
		s->err = -CR_EINVAL;
		return;
	}
	c->pos = to;
}

/* Stack manipulation (2.5.1.3). */
static void stackop(struct stack *s, struct cr_cursor *c, uint8_t op)
{
	uint64_t a, b, d;

	switch (op) {
	case DW_OP_dup:
		push(s, peek(s, 0));
		break;
	case DW_OP_drop:
		pop(s);
		break;
	case DW_OP_over:
		push(s, peek(s, 1));
		break;
	case DW_OP_pick:
		d = cr_u8(c);
		push(s, peek(s, (unsigned)d));
		break;
	case DW_OP_swap:
		a = pop(s);
		b = pop(s);
		push(s, a);
		push(s, b);
		break;
	case DW_OP_rot:	/* top -> third, second -> top, third -> second */
		a = pop(s);
		b = pop(s);
		d = pop(s);
		push(s, a);
		push(s, d);
		push(s, b);
		break;
	}
}

/* One operation.  Errors go to s->err or c->err. */
static void step(struct stack *s, struct cr_cursor *c, uint64_t lo, const struct cr_mem *m,
		 const struct cr_arch *a, const struct cr_regs *regs)
{
	uint8_t op = cr_u8(c);
	uint64_t v;

	if (c->err)
		return;
	if (op >= DW_OP_lit0 && op <= DW_OP_lit31) {
		push(s, op - DW_OP_lit0);
		return;
	}
	if (op >= DW_OP_breg0 && op <= DW_OP_breg31) {
		breg(s, c, a, regs, op - DW_OP_breg0);
		return;
	}
	switch (op) {
	case DW_OP_addr:
		push(s, cr_u64(c));
		break;
	case DW_OP_deref:
		deref(s, m, 8);
		break;
	case DW_OP_deref_size:
		v = cr_u8(c);
		if (!c->err)
			deref(s, m, v);
		break;
	case DW_OP_const1u:
		push(s, cr_u8(c));
		break;
	case DW_OP_const1s:
		push(s, (uint64_t)(int64_t)(int8_t)cr_u8(c));
		break;
	case DW_OP_const2u:
		push(s, cr_u16(c));
		break;
	case DW_OP_const2s:
		push(s, (uint64_t)(int64_t)(int16_t)cr_u16(c));
		break;
	case DW_OP_const4u:
		push(s, cr_u32(c));
		break;
	case DW_OP_const4s:
		push(s, (uint64_t)(int64_t)(int32_t)cr_u32(c));
		break;
	case DW_OP_const8u:
	case DW_OP_const8s:
		push(s, cr_u64(c));
		break;
	case DW_OP_constu:
		push(s, cr_uleb(c));
		break;
	case DW_OP_consts:
		push(s, (uint64_t)cr_sleb(c));
		break;
	case DW_OP_dup:
	case DW_OP_drop:
	case DW_OP_over:
	case DW_OP_pick:
	case DW_OP_swap:
	case DW_OP_rot:
		stackop(s, c, op);
		break;
	case DW_OP_abs:
		v = pop(s);
		push(s, (v >> 63) ? 0 - v : v);	/* INT64_MIN stays INT64_MIN */
		break;
	case DW_OP_neg:
		push(s, 0 - pop(s));
		break;
	case DW_OP_not:
		push(s, ~pop(s));
		break;
	case DW_OP_plus_uconst:
		v = cr_uleb(c);
		push(s, pop(s) + v);
		break;
	case DW_OP_and:
	case DW_OP_div:
	case DW_OP_minus:
	case DW_OP_mod:
	case DW_OP_mul:
	case DW_OP_or:
	case DW_OP_plus:
	case DW_OP_shl:
	case DW_OP_shr:
	case DW_OP_shra:
	case DW_OP_xor:
	case DW_OP_eq:
	case DW_OP_ge:
	case DW_OP_gt:
	case DW_OP_le:
	case DW_OP_lt:
	case DW_OP_ne:
		binop(s, op);
		break;
	case DW_OP_skip:
		jump(s, c, lo, 1);
		break;
	case DW_OP_bra:
		v = pop(s);
		jump(s, c, lo, !s->err && v != 0);
		break;
	case DW_OP_bregx:
		v = cr_uleb(c);
		if (!c->err)
			breg(s, c, a, regs, v);
		break;
	case DW_OP_nop:
		break;
	default:
		/* regN/regx, xderef, piece, call_frame_cfa, stack_value, ...: see the top. */
		s->err = -CR_EINVAL;
	}
}

int cr_expr_eval(const struct cr_mem *m, const struct cr_arch *a, const struct cr_regs *regs,
		 uint64_t expr, uint64_t len, const uint64_t *initial, uint64_t *result)
{
	struct cr_cursor c;
	struct stack s;
	unsigned n;

	if (expr + len < expr)
		return -CR_EINVAL;
	cr_cursor_init(&c, m, expr, expr + len);
	s.n = 0;
	s.err = 0;
	if (initial)
		push(&s, *initial);
	for (n = 0; c.pos < c.end; n++) {
		if (n == STEPS)
			return -CR_ERANGE;
		step(&s, &c, expr, m, a, regs);
		if (c.err)
			return c.err == -CR_ERANGE ? -CR_EINVAL : c.err;	/* truncated */
		if (s.err)
			return s.err;
	}
	if (s.n == 0)
		return -CR_EINVAL;	/* an empty stack has no result */
	*result = s.v[s.n - 1];
	return 0;
}
