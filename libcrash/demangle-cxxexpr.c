/* SPDX-License-Identifier: MIT */
/*
 * Itanium C++ names, the parser's procedures for expressions
 * (ABI 5.1.6; demangle-cxx.c has the machinery): <expression>,
 * <expr-primary> (literals), expression lists; and the operator table
 * (ABI 5.1.5) with the names c++filt gives them.
 */
#include "demangle-cxx.h"

/* The operators (ABI 5.1.5), as c++filt names them; sorted by code. */
const struct cr_dm_op cr_dm_ops[] = {
	{ "aN", "&=", 2 },	   { "aS", "=", 2 },	       { "aa", "&&", 2 },
	{ "ad", "&", 1 },	   { "an", "&", 2 },	       { "at", "alignof ", 1 },
	{ "aw", "co_await ", 1 },  { "az", "alignof ", 1 },    { "cc", "const_cast", 2 },
	{ "cl", "()", 2 },	   { "cm", ",", 2 },	       { "co", "~", 1 },
	{ "dV", "/=", 2 },	   { "dX", "[...]=", 3 },      { "da", "delete[] ", 1 },
	{ "dc", "dynamic_cast", 2 }, { "de", "*", 1 },	       { "di", "=", 2 },
	{ "dl", "delete ", 1 },	   { "ds", ".*", 2 },	       { "dt", ".", 2 },
	{ "dv", "/", 2 },	   { "dx", "]=", 2 },	       { "eO", "^=", 2 },
	{ "eo", "^", 2 },	   { "eq", "==", 2 },	       { "fL", "...", 3 },
	{ "fR", "...", 3 },	   { "fl", "...", 2 },	       { "fr", "...", 2 },
	{ "ge", ">=", 2 },	   { "gs", "::", 1 },	       { "gt", ">", 2 },
	{ "ix", "[]", 2 },	   { "lS", "<<=", 2 },	       { "le", "<=", 2 },
	{ "li", "operator\"\" ", 1 }, { "ls", "<<", 2 },       { "lt", "<", 2 },
	{ "mI", "-=", 2 },	   { "mL", "*=", 2 },	       { "mi", "-", 2 },
	{ "ml", "*", 2 },	   { "mm", "--", 1 },	       { "na", "new[]", 3 },
	{ "ne", "!=", 2 },	   { "ng", "-", 1 },	       { "nt", "!", 1 },
	{ "nw", "new", 3 },	   { "oR", "|=", 2 },	       { "oo", "||", 2 },
	{ "or", "|", 2 },	   { "pL", "+=", 2 },	       { "pl", "+", 2 },
	{ "pm", "->*", 2 },	   { "pp", "++", 1 },	       { "ps", "+", 1 },
	{ "pt", "->", 2 },	   { "qu", "?", 3 },	       { "rM", "%=", 2 },
	{ "rS", ">>=", 2 },	   { "rc", "reinterpret_cast", 2 }, { "rm", "%", 2 },
	{ "rs", ">>", 2 },	   { "sP", "sizeof...", 1 },   { "sZ", "sizeof...", 1 },
	{ "sc", "static_cast", 2 }, { "ss", "<=>", 2 },	       { "st", "sizeof ", 1 },
	{ "sz", "sizeof ", 1 },	   { "tr", "throw", 0 },       { "tw", "throw ", 1 },
};

const unsigned cr_dm_nops = CR_ARRAY_SIZE(cr_dm_ops);

int cr_dm_find_op(char c1, char c2)
{
	for (unsigned i = 0; i < cr_dm_nops; i++)
		if (cr_dm_ops[i].code[0] == c1 && cr_dm_ops[i].code[1] == c2)
			return (int)i;
	return -1;
}

/* <expression> as a whole: names in it are no conversion operators. v0: saved flag. */
int cr_dm_p_expr(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	if (f->phase == 0) {
		f->v[0] = w->is_expr;
		w->is_expr = 1;
		CALL(1, CR_DM_P_EXPR1, 0, 0);
	}
	w->is_expr = (uint8_t)f->v[0];
	RET(w->ret);
}

/* <expression>* up to the terminator in node ('E' or '_'); an empty list is one empty cell. */
int cr_dm_p_exprlist(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t n;

	switch (f->phase) {
	case 0:
		if (eat(w, (char)f->node))
			RET(mk(w, CR_DM_ARGLIST, 0, 0, 0));
		CALL(1, CR_DM_P_EXPR1, 0, 0);
	default:
		n = mk(w, CR_DM_ARGLIST, w->ret, 0, 0);
		if (!n)
			return CR_DM_FAIL;
		if (f->v[1])
			w->node[f->v[1]].b = n;
		else
			f->v[0] = n;
		f->v[1] = n;
		if (!eat(w, (char)f->node))
			CALL(1, CR_DM_P_EXPR1, 0, 0);
		RET(f->v[0]);
	}
}

/* <expr-primary> ::= L <type> [n] <value> E | L <mangled-name> E | L Dn E */
int cr_dm_p_primary(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t n;
	uint32_t s;
	int neg;

	switch (f->phase) {
	case 0:
		if (!eat(w, 'L'))
			return CR_DM_FAIL;
		if (peek(w) == '_' || peek(w) == 'Z')
			CALL(1, CR_DM_P_MANGLED, 0, 0);
		CALL(2, CR_DM_P_TYPE, 0, 0);
	case 1:
		n = w->ret;
		break;
	default:
		n = w->ret;
		if (kind(w, n) == CR_DM_BUILTIN && w->node[n].a == CR_DM_B_NULLPTR &&
		    peek(w) == 'E')
			break;
		neg = eat(w, 'n');
		s = w->pos;
		while (peek(w) != 'E') {
			if (!peek(w))
				return CR_DM_FAIL;
			w->pos++;
		}
		if (w->pos == s)
			return CR_DM_FAIL;
		n = mk2(w, CR_DM_LITERAL, n,
		        mk(w, CR_DM_NAME, (uint16_t)s, (uint16_t)(w->pos - s), 0));
		if (n)
			w->node[n].flag = (uint8_t)neg;
		break;
	}
	if (!eat(w, 'E'))
		return CR_DM_FAIL;
	RET(n);
}

static int is_new_cast(const struct cr_demangle_ws *w, uint16_t op)
{
	const char *c = op_code(w, op);

	return c[1] == 'c' && (c[0] == 's' || c[0] == 'd' || c[0] == 'c' || c[0] == 'r');
}

/*
 * <expression> (ABI 5.1.6), the forms c++filt reads.  v0: operator,
 * v1..v3: operands; v4: postfix ++/--.
 */
int cr_dm_p_expr1(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	const char *code;
	int32_t idx;
	int args;
	char c;

	switch (f->phase) {
	case 0:
		c = peek(w);
		if (c == 'L')
			CALL(99, CR_DM_P_PRIMARY, 0, 0);
		if (c == 'T')
			RET(cr_dm_template_param(w));
		if (c == 's' && peek2(w) == 'r') {
			/*
			 * <unresolved-name>: sr <unresolved-type> <name>, or (since
			 * GCC 10) sr <qualifier>+ E <name>, which the older sr <type>
			 * reads differently (sr1A1x, now sr1AE1x): the new reading
			 * first, and if the whole name then fails, again with the old
			 * one (ws->unres 0), as c++filt.
			 */
			w->pos += 2;
			c = peek(w);
			/* A scope that does not parse is no scope: c++filt goes on with the name.
			 */
			f->fn |= CR_DM_CATCH;
			f->v[5] = (uint16_t)(w->is_expr | w->is_conv << 1);
			if (w->unres &&
			    (is_digit(c) || is_lower(c) || c == 'C' || c == 'U' || c == 'L')) {
				w->unres = -1;
				CALL(9, CR_DM_P_PREFIX, 0, 0);
			}
			CALL(10, CR_DM_P_TYPE, 0, 0);
		}
		if (c == 's' && peek2(w) == 'p') {
			w->pos += 2;
			CALL(13, CR_DM_P_EXPR1, 0, 0);
		}
		if (c == 'f' && peek2(w) == 'p') {
			/* fp [<cv>] <number>? _ (the n-th parameter), fpT (this) */
			w->pos += 2;
			if (eat(w, 'T')) {
				idx = 0;
			} else {
				idx = cr_dm_compact_number(w);
				if (idx == INT32_MAX || idx < 0)
					return CR_DM_FAIL;
				idx++;
			}
			RET(mknum(w, CR_DM_FPARAM, 0, idx));
		}
		if (is_digit(c) || (c == 'o' && peek2(w) == 'n')) {
			if (c == 'o')
				w->pos += 2;
			CALL(14, CR_DM_P_UNQUAL, 0, 0);
		}
		if ((c == 'i' || c == 't') && peek2(w) == 'l') {
			/* il <expr>* E, tl <type> <expr>* E: braced initializers */
			w->pos += 2;
			if (c == 't')
				CALL(16, CR_DM_P_TYPE, 0, 0);
			goto initlist;
		}
		CALL(20, CR_DM_P_OPNAME, 0, 0);
	case 9:
	case 10:
		f->fn &= (uint8_t)~CR_DM_CATCH;
		w->is_expr = f->v[5] & 1;
		w->is_conv = f->v[5] >> 1;
		if (f->phase == 9)
			eat(w, 'E');
		CALL(11, CR_DM_P_UNQUAL, w->ret, 0);
	case 11:
		f->v[2] = w->ret;
		if (peek(w) != 'I')
			RET(f->v[2]);
		CALL(12, CR_DM_P_TARGS, 0, 0);
	case 12:
		RET(mk2(w, CR_DM_TEMPLATE, f->v[2], w->ret));
	case 13:
		RET(mk1(w, CR_DM_PACKEXP, w->ret));
	case 14:
		f->v[1] = w->ret;
		if (peek(w) != 'I')
			RET(f->v[1]);
		CALL(15, CR_DM_P_TARGS, 0, 0);
	case 15:
		RET(mk2(w, CR_DM_TEMPLATE, f->v[1], w->ret));
	case 16:
		f->v[1] = w->ret;
	initlist:
		if (!peek(w) || !peek2(w))
			return CR_DM_FAIL;
		CALL(17, CR_DM_P_EXPRLIST, 'E', 0);
	case 17:
		RET(mk(w, CR_DM_INITLIST, f->v[1], w->ret, 0));
	case 20:
		f->v[0] = w->ret;
		code = op_code(w, f->v[0]);
		if (code[0] == 's' && code[1] == 't')
			CALL(21, CR_DM_P_TYPE, 0, 0);
		args = kind(w, f->v[0]) == CR_DM_OPERATOR ? cr_dm_ops[w->node[f->v[0]].a].args
		       : kind(w, f->v[0]) == CR_DM_EXTOP	 ? w->node[f->v[0]].c
		       : kind(w, f->v[0]) == CR_DM_CAST	 ? 1
							 : -1;
		if (args == 0)
			RET(mk1(w, CR_DM_NULLARY, f->v[0]));
		if (args == 1) {
			/* pp_ / mm_: prefix; pp / mm: postfix */
			if ((code[0] == 'p' || code[0] == 'm') && code[1] == code[0])
				f->v[4] = !eat(w, '_');
			if (kind(w, f->v[0]) == CR_DM_CAST && eat(w, '_'))
				CALL(21, CR_DM_P_EXPRLIST, 'E', 0);
			if (code[0] == 's' && code[1] == 'P')
				CALL(21, CR_DM_P_TARGS, 1, 0);
			CALL(21, CR_DM_P_EXPR1, 0, 0);
		}
		if (!code[0])
			return CR_DM_FAIL;
		if (args == 2) {
			if (is_new_cast(w, f->v[0]))
				CALL(30, CR_DM_P_TYPE, 0, 0);
			if (code[0] == 'f')
				CALL(30, CR_DM_P_OPNAME, 0, 0);
			if (code[0] == 'd' && code[1] == 'i')
				CALL(30, CR_DM_P_UNQUAL, 0, 0);
			CALL(30, CR_DM_P_EXPR1, 0, 0);
		}
		if (args == 3) {
			if ((code[0] == 'q' && code[1] == 'u') ||
			    (code[0] == 'd' && code[1] == 'X'))
				CALL(40, CR_DM_P_EXPR1, 0, 0);
			if (code[0] == 'f')
				CALL(40, CR_DM_P_OPNAME, 0, 0);
			if (code[0] == 'n' && (code[1] == 'w' || code[1] == 'a'))
				CALL(50, CR_DM_P_EXPRLIST, '_', 0);
		}
		return CR_DM_FAIL;
	case 21: {
		uint16_t n = mk2(w, CR_DM_UNARY, f->v[0], w->ret);

		if (n)
			w->node[n].flag = (uint8_t)f->v[4];
		RET(n);
	}
	case 30:
		f->v[1] = w->ret;
		code = op_code(w, f->v[0]);
		if (code[0] == 'c' && code[1] == 'l')
			CALL(31, CR_DM_P_EXPRLIST, 'E', 0);
		if ((code[0] == 'd' || code[0] == 'p') && code[1] == 't') {
			/* . and ->: a member name, or a qualified name (gs, sr) */
			if ((peek(w) == 'g' && peek2(w) == 's') ||
			    (peek(w) == 's' && peek2(w) == 'r'))
				CALL(31, CR_DM_P_EXPR1, 0, 0);
			CALL(32, CR_DM_P_UNQUAL, 0, 0);
		}
		CALL(31, CR_DM_P_EXPR1, 0, 0);
	case 32:
		if (peek(w) != 'I')
			goto binary;
		f->v[2] = w->ret;
		CALL(33, CR_DM_P_TARGS, 0, 0);
	case 33:
		w->ret = mk2(w, CR_DM_TEMPLATE, f->v[2], w->ret);
		goto binary;
	case 31:
	binary:
		if (!f->v[1] || !w->ret)
			return CR_DM_FAIL;
		RET(mk(w, CR_DM_BINARY, f->v[0], f->v[1], w->ret));
	case 40:
		f->v[1] = w->ret;
		CALL(41, CR_DM_P_EXPR1, 0, 0);
	case 41:
		f->v[2] = w->ret;
		CALL(42, CR_DM_P_EXPR1, 0, 0);
	case 42:
		f->v[3] = w->ret;
		goto trinary;
	case 50:
		/* nw / na: <expression>* _ <type> (E | pi <expression>* E | il ... E) */
		f->v[1] = w->ret;
		CALL(51, CR_DM_P_TYPE, 0, 0);
	case 51:
		f->v[2] = w->ret;
		if (eat(w, 'E'))
			goto trinary;
		if (peek(w) == 'p' && peek2(w) == 'i') {
			w->pos += 2;
			CALL(42, CR_DM_P_EXPRLIST, 'E', 0);
		}
		if (peek(w) == 'i' && peek2(w) == 'l')
			CALL(42, CR_DM_P_EXPR1, 0, 0);
		return CR_DM_FAIL;
	trinary:
		if (!f->v[1] || !f->v[2])
			return CR_DM_FAIL;
		f->v[2] = mk(w, CR_DM_PAIR, f->v[2], f->v[3], 0);
		RET(f->v[2] ? mk(w, CR_DM_TRINARY, f->v[0], f->v[1], f->v[2]) : 0);
	default:
		RET(w->ret);
	}
}
