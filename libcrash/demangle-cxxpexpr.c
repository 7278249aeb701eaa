/* SPDX-License-Identifier: MIT */
/*
 * Itanium C++ names, the printer's expressions (demangle-cxxprint.c has
 * the rest): operators and their operands' parentheses, casts, calls,
 * new, folds, designated initializers, sizeof... and pack expansions,
 * and literals ("42u", "true", "(char)97", "(double)[400921fb54442d18]").
 */
#include "demangle-cxx.h"

/* An operand: in parentheses unless a name or a parameter. */
int cr_dm_q_subexpr(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	int k = kind(w, f->node);
	int simple = k == CR_DM_NAME || k == CR_DM_QUAL || k == CR_DM_INITLIST || k == CR_DM_FPARAM;

	if (!f->phase) {
		if (!simple)
			cr_dm_putc(o, '(');
		COMP(1, f->node);
	}
	if (!simple)
		cr_dm_putc(o, ')');
	return cr_dm_ret(w, 0);
}

/* An operator in an expression: its symbol, with no "operator". */
int cr_dm_q_exprop(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	if (f->phase)
		return cr_dm_ret(w, 0);
	if (kind(w, f->node) == CR_DM_OPERATOR) {
		cr_dm_puts(o, cr_dm_ops[N(w, f->node)->a].name);
		return cr_dm_ret(w, 0);
	}
	COMP(1, f->node);
}

/* The children of a component cr_dm_q_findpack() looks under: up to 3, 0 ends. */
static uint16_t child(const struct cr_demangle_ws *w, uint16_t n, unsigned i)
{
	const struct cr_dm_node *x = &w->node[n];

	switch (x->kind) {
	case CR_DM_NAME:
	case CR_DM_STR:
	case CR_DM_SUBSTD:
	case CR_DM_TPARAM:
	case CR_DM_FPARAM:
	case CR_DM_BUILTIN:
	case CR_DM_FLOATN:
	case CR_DM_OPERATOR:
	case CR_DM_LAMBDA:
	case CR_DM_UNNAMED:
	case CR_DM_DEFARG:
	case CR_DM_NUMBER:
	case CR_DM_TAGGED:
	case CR_DM_PACKEXP:
		return 0;
	case CR_DM_EXTOP:
	case CR_DM_CTOR:
	case CR_DM_DTOR:
	case CR_DM_SPECIAL:
	case CR_DM_GLOBAL:
		return i == 0 ? x->a : 0;
	case CR_DM_BINARY:
	case CR_DM_TRINARY:
		return i == 0 ? x->a : i == 1 ? x->b : i == 2 ? x->c : 0;
	default:
		return i == 0 ? x->a : i == 1 ? x->b : 0;
	}
}

/* The first template parameter under node that stands for a pack: that pack, or 0. */
int cr_dm_q_findpack(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint16_t c, a;

	(void)o;
	if (!f->node)
		return cr_dm_ret(w, 0);
	if (!f->phase && kind(w, f->node) == CR_DM_TPARAM) {
		if (cr_dm_lookup(w, f->node, &a) < 0)
			return CR_DM_FAIL;
		return cr_dm_ret(w, a && kind(w, a) == CR_DM_TARGLIST ? a : 0);
	}
	if (f->phase && w->ret)
		return cr_dm_ret(w, w->ret);
	c = child(w, f->node, f->v[0]);
	if (!c || f->v[0] >= 3)
		return cr_dm_ret(w, 0);
	f->v[0]++;
	CALL(1, CR_DM_Q_FINDPACK, c, 0);
}

/* sizeof...(args): how many, a pack expansion counting its pack's length. v1: count, v2: list. */
int cr_dm_q_argslen(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint16_t e;

	(void)o;
	if (f->phase)
		f->v[1] = (uint16_t)(f->v[1] + cr_dm_pack_length(w, w->ret));
	else
		f->v[2] = f->node;
	for (unsigned g = 0; f->v[2] && g < CR_DEMANGLE_NODES; g++) {
		uint16_t l = f->v[2];

		if (kind(w, l) != CR_DM_TARGLIST || !N(w, l)->a)
			break;
		e = N(w, l)->a;
		f->v[2] = N(w, l)->b;
		if (kind(w, e) == CR_DM_PACKEXP)
			CALL(1, CR_DM_Q_FINDPACK, N(w, e)->a, 0);
		f->v[1]++;
	}
	return cr_dm_ret(w, f->v[1]);
}

/* A designated initializer: .x=v, [i]=v, [a ... b]=v; node a di, dx or dX expression. */
static int is_desig(const struct cr_demangle_ws *w, uint16_t n)
{
	return (kind(w, n) == CR_DM_BINARY && (is_code(w, w->node[n].a, "di") ||
					    is_code(w, w->node[n].a, "dx"))) ||
	       (kind(w, n) == CR_DM_TRINARY && is_code(w, w->node[n].a, "dX"));
}

int cr_dm_q_desig(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint16_t n = f->node;
	int x = kind(w, n) == CR_DM_TRINARY ? 'X' : op_code(w, N(w, n)->a)[1];
	uint16_t init = x == 'X' ? N(w, N(w, n)->c)->b : N(w, n)->c;

	switch (f->phase) {
	case 0:
		cr_dm_putc(o, x == 'i' ? '.' : '[');
		COMP(1, N(w, n)->b);
	case 1:
		if (x == 'X') {
			cr_dm_puts(o, " ... ");
			COMP(2, N(w, N(w, n)->c)->a);
		}
		/* fall through */
	case 2:
		if (x != 'i')
			cr_dm_putc(o, ']');
		if (is_desig(w, init))
			CALL(3, CR_DM_Q_DESIG, init, 0);
		cr_dm_putc(o, '=');
		COMP(3, init);
	default:
		return cr_dm_ret(w, 0);
	}
}

static int is_fold(const struct cr_demangle_ws *w, uint16_t op)
{
	return op_code(w, op)[0] == 'f';
}

/*
 * Expressions (phases 30..59).  Operands in parentheses unless simple;
 * "(a>b)" in parentheses again inside a template argument list.
 * v0: operand, v1: the > parentheses, v5: saved pack index.
 */
int cr_dm_q_expr(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint16_t dc = f->node, op = N(w, dc)->a, l = N(w, dc)->b, r = N(w, dc)->c, t;
	const char *code = op_code(w, op);
	int k = kind(w, dc);

	switch (f->phase) {
	case 0:
		break;
	/* unary */
	case 30:
		/* postfix: operand printed */
		CALL(36, CR_DM_Q_EXPROP, op, 0);
	case 31:
		f->v[5] = w->ret;
		cr_dm_putu(o, (uint64_t)(code[1] == 'Z' ? cr_dm_pack_length(w, w->ret) : w->ret));
		return cr_dm_done(w, f, o);
	case 32:
		cr_dm_putc(o, ')');
		/* fall through */
	case 33:
		if (is_code(w, op, "gs"))
			CALL(36, CR_DM_Q_COMP, f->v[0], 0);
		if (is_code(w, op, "st")) {
			cr_dm_putc(o, '(');
			CALL(35, CR_DM_Q_COMP, f->v[0], 0);
		}
		CALL(36, CR_DM_Q_SUBEXPR, f->v[0], 0);
	case 35:
		cr_dm_putc(o, ')');
		/* fall through */
	case 36:
		return cr_dm_done(w, f, o);
	/* binary */
	case 40:
		cr_dm_puts(o, "<");
		CALL(41, CR_DM_Q_COMP, l, 0);
	case 41:
		cr_dm_puts(o, ">(");
		CALL(35, CR_DM_Q_COMP, r, 0);
	case 42:
		if (is_code(w, op, "ix")) {
			cr_dm_putc(o, '[');
			CALL(43, CR_DM_Q_COMP, r, 0);
		}
		if (!is_code(w, op, "cl"))
			CALL(44, CR_DM_Q_EXPROP, op, 0);
		CALL(45, CR_DM_Q_SUBEXPR, r, 0);
	case 43:
		cr_dm_putc(o, ']');
		goto gt;
	case 44:
		CALL(45, CR_DM_Q_SUBEXPR, r, 0);
	case 45:
	gt:
		if (f->v[1])
			cr_dm_putc(o, ')');
		return cr_dm_done(w, f, o);
	/* folds: (... op x), (x op ...), (x op ... op y) */
	case 46:
		CALL(47, CR_DM_Q_SUBEXPR, f->v[0], 0);
	case 47:
		cr_dm_putc(o, ')');
		goto fold_end;
	case 48:
		CALL(49, CR_DM_Q_EXPROP, f->v[2], 0);
	case 49:
		cr_dm_puts(o, "...");
		if (f->v[3] == 'r') {
			cr_dm_putc(o, ')');
			goto fold_end;
		}
		CALL(50, CR_DM_Q_EXPROP, f->v[2], 0);
	case 50:
		CALL(47, CR_DM_Q_SUBEXPR, f->v[4], 0);
	fold_end:
		w->pack = (int16_t)f->v[5];
		return cr_dm_done(w, f, o);
	/* ?: and new */
	case 51:
		CALL(52, CR_DM_Q_EXPROP, op, 0);
	case 52:
		CALL(53, CR_DM_Q_SUBEXPR, N(w, r)->a, 0);
	case 53:
		cr_dm_puts(o, " : ");
		CALL(36, CR_DM_Q_SUBEXPR, N(w, r)->b, 0);
	case 54:
		cr_dm_putc(o, ' ');
		/* fall through */
	case 55:
		CALL(56, CR_DM_Q_COMP, N(w, r)->a, 0);
	case 56:
		if (N(w, r)->b)
			CALL(36, CR_DM_Q_SUBEXPR, N(w, r)->b, 0);
		return cr_dm_done(w, f, o);
	case 57:
		/* sP's operand is a template argument list */
		CALL(31, CR_DM_Q_ARGSLEN, l, 0);
	}

	if (k == CR_DM_UNARY) {
		uint16_t operand = l;

		if (is_code(w, op, "ad") && kind(w, operand) == CR_DM_TYPED &&
		    kind(w, N(w, operand)->a) == CR_DM_QUAL &&
		    kind(w, N(w, operand)->b) == CR_DM_FUNCTYPE)
			operand = N(w, operand)->a; /* &A::f, not &A::f() */
		if (N(w, dc)->flag)
			CALL(30, CR_DM_Q_SUBEXPR, operand, 0);
		if (is_code(w, op, "sZ"))
			CALL(31, CR_DM_Q_FINDPACK, operand, 0);
		if (is_code(w, op, "sP"))
			CALL(31, CR_DM_Q_ARGSLEN, operand, 0);
		f->v[0] = operand;
		if (kind(w, op) != CR_DM_CAST)
			CALL(33, CR_DM_Q_EXPROP, op, 0);
		cr_dm_putc(o, '(');
		CALL(32, CR_DM_Q_COMP, N(w, op)->a, 0);
	}
	if (kind(w, op) != CR_DM_OPERATOR)
		return CR_DM_FAIL;
	if (k == CR_DM_BINARY) {
		if (code[1] == 'c' && (code[0] == 's' || code[0] == 'd' || code[0] == 'c' ||
				       code[0] == 'r'))
			CALL(40, CR_DM_Q_EXPROP, op, 0);
		if (is_fold(w, op)) {
			/* fl, fr: l is the operator, r the pack */
			f->v[5] = (uint16_t)w->pack;
			w->pack = -1;
			f->v[0] = r;
			f->v[2] = l;
			f->v[3] = (uint16_t)code[1];
			if (code[1] == 'l') {
				cr_dm_puts(o, "(...");
				CALL(46, CR_DM_Q_EXPROP, l, 0);
			}
			cr_dm_putc(o, '(');
			CALL(48, CR_DM_Q_SUBEXPR, r, 0);
		}
		if (is_desig(w, dc))
			CALL(36, CR_DM_Q_DESIG, dc, 0);
		/* A > inside a template argument would end it: parentheses. */
		if (cr_dm_ops[N(w, op)->a].name[0] == '>' && !cr_dm_ops[N(w, op)->a].name[1]) {
			f->v[1] = 1;
			cr_dm_putc(o, '(');
		}
		t = l;
		if (is_code(w, op, "cl") && kind(w, l) == CR_DM_TYPED) {
			/* A call: the function's name, not its type. */
			if (kind(w, N(w, l)->b) != CR_DM_FUNCTYPE)
				return CR_DM_FAIL;
			t = N(w, l)->a;
		}
		CALL(42, CR_DM_Q_SUBEXPR, t, 0);
	}
	/* trinary: l first, r = CR_DM_PAIR(second, third) */
	if (is_fold(w, op)) {
		f->v[5] = (uint16_t)w->pack;
		w->pack = -1;
		f->v[2] = l;
		f->v[3] = (uint16_t)code[1];
		f->v[4] = N(w, r)->b;
		cr_dm_putc(o, '(');
		CALL(48, CR_DM_Q_SUBEXPR, N(w, r)->a, 0);
	}
	if (is_desig(w, dc))
		CALL(36, CR_DM_Q_DESIG, dc, 0);
	if (is_code(w, op, "qu"))
		CALL(51, CR_DM_Q_SUBEXPR, l, 0);
	cr_dm_puts(o, "new ");
	if (N(w, l)->a)
		CALL(54, CR_DM_Q_SUBEXPR, l, 0);
	f->phase = 55;
	return cr_dm_q_expr(w, f, o);
}

/*
 * A literal: 42, 42u, 42l, 42ul, 42ll, 42ull, -42 for the integer types,
 * true/false, otherwise "(type)value" ("(double)[hex]" for floating point).
 */
int cr_dm_q_literal(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint16_t dc = f->node, t = N(w, dc)->a, v = N(w, dc)->b;
	int tp = kind(w, t) == CR_DM_BUILTIN ? cr_dm_builtin[N(w, t)->a].print : CR_DM_PR_DEFAULT;
	int neg = N(w, dc)->flag;
	static const char suffix[][4] = { [CR_DM_PR_UNSIGNED] = "u", [CR_DM_PR_LONG] = "l",
					  [CR_DM_PR_ULONG] = "ul", [CR_DM_PR_LLONG] = "ll",
					  [CR_DM_PR_ULLONG] = "ull" };

	switch (f->phase) {
	case 0:
		if (tp >= CR_DM_PR_INT && tp <= CR_DM_PR_ULLONG && kind(w, v) == CR_DM_NAME) {
			if (neg)
				cr_dm_putc(o, '-');
			CALL(60, CR_DM_Q_COMP, v, 0);
		}
		if (tp == CR_DM_PR_BOOL && kind(w, v) == CR_DM_NAME && N(w, v)->b == 1 && !neg &&
		    (w->s[N(w, v)->a] == '0' || w->s[N(w, v)->a] == '1')) {
			cr_dm_puts(o, w->s[N(w, v)->a] == '1' ? "true" : "false");
			return cr_dm_done(w, f, o);
		}
		cr_dm_putc(o, '(');
		CALL(61, CR_DM_Q_COMP, t, 0);
	case 60:
		if (suffix[tp][0])
			cr_dm_puts(o, suffix[tp]);
		return cr_dm_done(w, f, o);
	case 61:
		cr_dm_putc(o, ')');
		if (neg)
			cr_dm_putc(o, '-');
		if (tp == CR_DM_PR_FLOAT)
			cr_dm_putc(o, '[');
		CALL(62, CR_DM_Q_COMP, v, 0);
	default:
		if (tp == CR_DM_PR_FLOAT)
			cr_dm_putc(o, ']');
		return cr_dm_done(w, f, o);
	}
}
