/* SPDX-License-Identifier: MIT */
/*
 * Itanium C++ names, the parser's procedures for types (demangle-cxx.c has
 * the machinery): <type> (builtin, qualified, pointer and reference,
 * function, array, member pointer, vector, template parameter, decltype,
 * pack expansion), <CV-qualifiers>, <function-type>, parameter lists,
 * <template-args>.
 */
#include "demangle-cxx.h"

/* <builtin-type> letters: index in cr_dm_builtin[] or -1. */
static int builtin_letter(char c)
{
	if (!is_lower(c) || c == 'k' || c == 'p' || c == 'q' || c == 'r' || c == 'u')
		return -1;
	return c - 'a';
}

/* Dx: index in cr_dm_builtin[] for D<c>, or -1. */
static int builtin_d(char c)
{
	static const char d[] = "fdehusin";

	for (int i = 0; d[i]; i++)
		if (d[i] == c)
			return CR_DM_B_DF + i;
	return -1;
}

/*
 * <CV-qualifiers> ::= [r] [V] [K], and Dx (transaction_safe), Do / DO <expr> E
 * (noexcept), Dw <type>+ E (throw()).  node: qualifiers of a member
 * function (this).  Returns the outermost; cr_dm_innermost() finds the slot.
 * v0, v1: chain, v2: kind of the one being read.
 */
int cr_dm_p_cvq(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t n, right = 0;
	char c;

	switch (f->phase) {
	case 0:
	loop:
		if (!next_is_qual(w)) {
			/*
			 * Before a function type they qualify its this (c++filt prints them after
			 * the parameters).
			 */
			if (!f->node && peek(w) == 'F') {
				for (n = f->v[0]; n; n = w->node[n].a) {
					int k = kind(w, n);

					if (k == CR_DM_RESTRICT || k == CR_DM_VOLATILE ||
					    k == CR_DM_CONST)
						w->node[n].kind =
						    (uint8_t)(k + CR_DM_RESTRICT_THIS -
						              CR_DM_RESTRICT);
				}
			}
			RET(f->v[0]);
		}
		c = next(w);
		if (c == 'r' || c == 'V' || c == 'K') {
			int k = c == 'r' ? CR_DM_RESTRICT : c == 'V' ? CR_DM_VOLATILE : CR_DM_CONST;

			f->v[2] =
			    (uint16_t)(f->node ? k + CR_DM_RESTRICT_THIS - CR_DM_RESTRICT : k);
			goto link;
		}
		c = next(w);
		if (c == 'x') {
			f->v[2] = CR_DM_TXSAFE;
		} else if (c == 'o' || c == 'O') {
			f->v[2] = CR_DM_NOEXCEPT;
			if (c == 'O')
				CALL(1, CR_DM_P_EXPR, 0, 0);
		} else if (c == 'w') {
			f->v[2] = CR_DM_THROWSPEC;
			CALL(1, CR_DM_P_PARMLIST, 0, 0);
		} else {
			return CR_DM_FAIL;
		}
		goto link;
	case 1:
		if (!eat(w, 'E'))
			return CR_DM_FAIL;
		right = w->ret;
	link:
		n = mk(w, (int)f->v[2], 0, right, 0);
		if (!n)
			return CR_DM_FAIL;
		if (f->v[1])
			w->node[f->v[1]].a = n;
		else
			f->v[0] = n;
		f->v[1] = n;
		goto loop;
	}
	return CR_DM_FAIL;
}

/*
 * <type>.  v0..v5: what a production needs across its sub-parses; the
 * conversion operator's backtracking point keeps its checkpoint there.
 */
int cr_dm_p_type(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t n = 0, t;
	int i;
	char c;

	switch (f->phase) {
	case 0:
		/*
		 * The qualified type and the bare type are candidates, a type
		 * with part of the qualifiers is not: all of them at once.
		 */
		if (next_is_qual(w))
			CALL(1, CR_DM_P_CVQ, 0, 0);
		c = peek(w);
		i = builtin_letter(c);
		if (i >= 0) {
			w->pos++;
			RET(mk(w, CR_DM_BUILTIN, (uint16_t)i, 0, 0));
		}
		switch (c) {
		case 'u':
			w->pos++;
			n = mk1(w, CR_DM_VENDOR_TYPE, cr_dm_source_name(w));
			goto sub;
		case 'F':
			CALL(9, CR_DM_P_FUNCTYPE, 0, 0);
		case 'A':
			/* A [<number> | <expression>] _ <element type> */
			w->pos++;
			if (is_digit(peek(w))) {
				uint32_t s = w->pos;

				while (is_digit(peek(w)))
					w->pos++;
				f->v[0] = mk(w, CR_DM_NAME, (uint16_t)s, (uint16_t)(w->pos - s), 0);
				goto array;
			}
			if (peek(w) == '_')
				goto array;
			CALL(2, CR_DM_P_EXPR, 0, 0);
		case 'M':
			w->pos++;
			CALL(4, CR_DM_P_TYPE, 0, 0);
		case 'T':
			n = cr_dm_template_param(w);
			if (!n)
				return CR_DM_FAIL;
			if (peek(w) != 'I')
				goto sub;
			f->v[0] = n;
			if (!w->is_conv) {
				/* <template-template-param> <template-args> */
				if (add_sub(w, n) < 0)
					return CR_DM_FAIL;
				CALL(6, CR_DM_P_TARGS, 0, 0);
			}
			/*
			 * In a conversion operator's type the arguments may be
			 * the operator's own (cv T_ I...E I...E): take them as
			 * T_'s only if a second list follows, else back off.
			 */
			f->v[1] = (uint16_t)w->pos;
			f->v[2] = w->nnodes;
			f->v[3] = w->nsubs;
			f->v[4] = (uint16_t)(w->is_expr | w->is_conv << 1);
			f->fn |= CR_DM_CATCH;
			CALL(7, CR_DM_P_TARGS, 0, 0);
		case 'O':
		case 'P':
		case 'R':
		case 'C':
		case 'G':
			w->pos++;
			f->v[0] = c == 'O'   ? CR_DM_RREF
			          : c == 'P' ? CR_DM_POINTER
			          : c == 'R' ? CR_DM_LREF
			          : c == 'C' ? CR_DM_COMPLEX
			                     : CR_DM_IMAGINARY;
			CALL(8, CR_DM_P_TYPE, 0, 0);
		case 'U':
			/* U <source-name> [<template-args>] <type>: a vendor qualifier. */
			w->pos++;
			f->v[0] = cr_dm_source_name(w);
			if (!f->v[0])
				return CR_DM_FAIL;
			if (peek(w) == 'I')
				CALL(10, CR_DM_P_TARGS, 0, 0);
			CALL(11, CR_DM_P_TYPE, 0, 0);
		case 'D':
			w->pos++;
			c = next(w);
			if (c == 'T' || c == 't')
				CALL(12, CR_DM_P_EXPR, 0, 0);
			if (c == 'p')
				CALL(13, CR_DM_P_TYPE, 0, 0);
			if (c == 'a' || c == 'c')
				RET(mk(w, CR_DM_STR,
				       c == 'a' ? CR_DM_T_AUTO : CR_DM_T_DECLTYPE_AUTO, 0, 0));
			if (c == 'v') {
				/* Dv <number> _ <type> | Dv _ <expression> _ <type>: vector */
				if (!eat(w, '_')) {
					f->v[0] = mknum(w, CR_DM_NUMBER, 0, cr_dm_number(w));
					goto vector;
				}
				CALL(14, CR_DM_P_EXPR, 0, 0);
			}
			if (c == 'F') {
				/*
				 * DF <number> _ : _FloatN, DF <number> x : _FloatNx, DF16b:
				 * std::bfloat16_t
				 */
				int32_t bits;

				if (peek(w) == '1' && peek2(w) == '6' && w->pos + 2 < w->len &&
				    w->s[w->pos + 2] == 'b') {
					w->pos += 3;
					RET(mk(w, CR_DM_BUILTIN, CR_DM_B_BF16, 0, 0));
				}
				bits = cr_dm_number(w);
				if (bits <= 0 || bits > 0xffff)
					return CR_DM_FAIL;
				n = mknum(w, CR_DM_FLOATN, 0, bits);
				if (eat(w, 'x'))
					w->node[n].flag = 'x';
				else if (!eat(w, '_'))
					return CR_DM_FAIL;
				RET(n);
			}
			i = builtin_d(c);
			if (i < 0)
				return CR_DM_FAIL;
			RET(mk(w, CR_DM_BUILTIN, (uint16_t)i, 0, 0));
		case 'S':
			c = peek2(w);
			if (is_digit(c) || c == '_' || is_upper(c)) {
				n = cr_dm_substitution(w);
				if (!n)
					return CR_DM_FAIL;
				if (peek(w) != 'I')
					RET(n);
				f->v[0] = n;
				CALL(6, CR_DM_P_TARGS, 0, 0);
			}
			CALL(15, CR_DM_P_NAME, 0, 0);
		default:
			CALL(16, CR_DM_P_NAME, 0, 0);
		}
	case 1:
		/* qualifiers read: the type they qualify */
		f->v[0] = w->ret;
		f->v[1] = cr_dm_innermost(w, w->ret);
		if (peek(w) == 'F')
			CALL(17, CR_DM_P_FUNCTYPE, 0, 0);
		CALL(17, CR_DM_P_TYPE, 0, 0);
	case 2:
		f->v[0] = w->ret;
	array:
		if (!eat(w, '_'))
			return CR_DM_FAIL;
		CALL(3, CR_DM_P_TYPE, 0, 0);
	case 3:
		n = mk(w, CR_DM_ARRAY, f->v[0], w->ret, 0);
		goto sub;
	case 4:
		f->v[0] = w->ret;
		CALL(5, CR_DM_P_TYPE, 0, 0);
	case 5:
		n = mk2(w, CR_DM_PTRMEM, f->v[0], w->ret);
		goto sub;
	case 6:
		n = mk2(w, CR_DM_TEMPLATE, f->v[0], w->ret);
		goto sub;
	case 7:
		f->fn &= (uint8_t)~CR_DM_CATCH;
		n = f->v[0];
		if (w->ret && peek(w) == 'I') {
			if (add_sub(w, n) < 0)
				return CR_DM_FAIL;
			n = mk2(w, CR_DM_TEMPLATE, n, w->ret);
		} else {
			w->pos = f->v[1];
			w->nnodes = f->v[2];
			w->nsubs = f->v[3];
			w->is_expr = f->v[4] & 1;
			w->is_conv = f->v[4] >> 1;
		}
		goto sub;
	case 8:
		n = mk1(w, (int)f->v[0], w->ret);
		goto sub;
	case 9:
		n = w->ret;
		goto sub;
	case 10:
		f->v[0] = mk2(w, CR_DM_TEMPLATE, f->v[0], w->ret);
		CALL(11, CR_DM_P_TYPE, 0, 0);
	case 11:
		n = mk2(w, CR_DM_VENDOR_QUAL, w->ret, f->v[0]);
		goto sub;
	case 12:
		if (!eat(w, 'E'))
			return CR_DM_FAIL;
		n = mk1(w, CR_DM_DECLTYPE, w->ret);
		goto sub;
	case 13:
		n = mk1(w, CR_DM_PACKEXP, w->ret);
		goto sub;
	case 14:
		f->v[0] = w->ret;
	vector:
		if (!eat(w, '_'))
			return CR_DM_FAIL;
		CALL(18, CR_DM_P_TYPE, 0, 0);
	case 18:
		n = mk2(w, CR_DM_VECTOR, f->v[0], w->ret);
		goto sub;
	case 15:
		/* An abbreviation (Sa, Ss, ...) alone is no new candidate. */
		if (kind(w, w->ret) == CR_DM_SUBSTD)
			RET(w->ret);
		/* fall through */
	case 16:
		n = w->ret;
		goto sub;
	case 17:
		t = w->ret;
		if (!t)
			return CR_DM_FAIL;
		n = f->v[0];
		w->node[f->v[1]].a = t;
		if (kind(w, t) == CR_DM_REF_THIS || kind(w, t) == CR_DM_RREF_THIS) {
			/*
			 * A function's ref-qualifier prints after its cv-qualifiers: move it
			 * outside.
			 */
			w->node[f->v[1]].a = w->node[t].a;
			w->node[t].a = n;
			n = t;
		}
	sub:
		if (add_sub(w, n) < 0)
			return CR_DM_FAIL;
		RET(n);
	}
	return CR_DM_FAIL;
}

/* <function-type> ::= F [Y] <bare-function-type> [<ref-qualifier>] E */
int cr_dm_p_functype(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t n;

	switch (f->phase) {
	case 0:
		if (!eat(w, 'F'))
			return CR_DM_FAIL;
		/* Y: extern "C", which c++filt does not print. */
		eat(w, 'Y');
		CALL(1, CR_DM_P_BAREFN, 1, 0);
	default:
		n = w->ret;
		if (peek(w) == 'R' || peek(w) == 'O')
			n = mk1(w, next(w) == 'R' ? CR_DM_REF_THIS : CR_DM_RREF_THIS, n);
		if (!eat(w, 'E'))
			return CR_DM_FAIL;
		RET(n);
	}
}

/* <bare-function-type> ::= [J] [<return type>] <parameter type>+; node: has a return type. */
int cr_dm_p_barefn(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	switch (f->phase) {
	case 0:
		if (eat(w, 'J'))
			f->node = 1;
		if (f->node)
			CALL(1, CR_DM_P_TYPE, 0, 0);
		CALL(2, CR_DM_P_PARMLIST, 0, 0);
	case 1:
		f->v[0] = w->ret;
		CALL(2, CR_DM_P_PARMLIST, 0, 0);
	default:
		RET(mk(w, CR_DM_FUNCTYPE, f->v[0], w->ret, 0));
	}
}

/* Parameter types up to E, the end or a clone suffix; (void) is (). v0, v1: list head, tail. */
int cr_dm_p_parmlist(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t n, first;
	char c;

	switch (f->phase) {
	default:
		n = mk(w, CR_DM_ARGLIST, w->ret, 0, 0);
		if (!n)
			return CR_DM_FAIL;
		if (f->v[1])
			w->node[f->v[1]].b = n;
		else
			f->v[0] = n;
		f->v[1] = n;
		/* fall through */
	case 0:
		c = peek(w);
		/* R E, O E: the function's ref-qualifier, not a reference parameter. */
		if (c && c != 'E' && c != '.' && !((c == 'R' || c == 'O') && peek2(w) == 'E'))
			CALL(1, CR_DM_P_TYPE, 0, 0);
		first = f->v[0];
		if (!first)
			return CR_DM_FAIL;
		if (!w->node[first].b && kind(w, w->node[first].a) == CR_DM_BUILTIN &&
		    w->node[w->node[first].a].a == 'v' - 'a')
			w->node[first].a = 0;
		RET(first);
	}
}

/* <template-args> ::= I <template-arg>+ E (J for a pack); node: the I is already read (sP). */
int cr_dm_p_targs(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t n;

	switch (f->phase) {
	case 0:
		if (!f->node && !eat(w, 'I') && !eat(w, 'J'))
			return CR_DM_FAIL;
		/* The arguments' names must not become the class name of a constructor after them.
		 */
		f->v[2] = w->last_name;
		if (eat(w, 'E'))
			RET(mk(w, CR_DM_TARGLIST, 0, 0, 0));
		CALL(1, CR_DM_P_TARG, 0, 0);
	default:
		n = mk(w, CR_DM_TARGLIST, w->ret, 0, 0);
		if (!n)
			return CR_DM_FAIL;
		if (f->v[1])
			w->node[f->v[1]].b = n;
		else
			f->v[0] = n;
		f->v[1] = n;
		if (!eat(w, 'E'))
			CALL(1, CR_DM_P_TARG, 0, 0);
		w->last_name = f->v[2];
		RET(f->v[0]);
	}
}

/* <template-arg> ::= <type> | X <expression> E | <expr-primary> | J <template-arg>* E */
int cr_dm_p_targ(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	switch (f->phase) {
	case 0:
		switch (peek(w)) {
		case 'X':
			w->pos++;
			f->v[0] = w->is_expr;
			w->is_expr = 1;
			CALL(1, CR_DM_P_EXPR, 0, 0);
		case 'L':
			CALL(2, CR_DM_P_PRIMARY, 0, 0);
		case 'I':
		case 'J':
			CALL(2, CR_DM_P_TARGS, 0, 0);
		default:
			CALL(2, CR_DM_P_TYPE, 0, 0);
		}
	case 1:
		w->is_expr = (uint8_t)f->v[0];
		if (!eat(w, 'E'))
			return CR_DM_FAIL;
		/* fall through */
	default:
		RET(w->ret);
	}
}
