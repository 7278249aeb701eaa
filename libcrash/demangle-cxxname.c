/* SPDX-License-Identifier: MIT */
/*
 * Itanium C++ names, the parser's procedures for names (demangle-cxx.c has
 * the machinery): <mangled-name>, <encoding>, <special-name> (vtables,
 * typeinfo, thunks, guard variables), <name>, <nested-name> and its
 * prefixes, <local-name>, <unqualified-name> (source names, operators,
 * constructors and destructors, lambdas, unnamed types, ABI tags).
 */
#include "demangle-cxx.h"

/*
 * <mangled-name> ::= _Z <encoding> [. <clone suffix>]*; node: top level (the L_Z of a literal:
 * not).
 */
int cr_dm_p_mangled(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t n;

	switch (f->phase) {
	case 0:
		/* G++ once mangled a literal's _Z as Z alone: c++filt accepts it inside. */
		if (!eat(w, '_') && f->node)
			return CR_DM_FAIL;
		if (!eat(w, 'Z'))
			return CR_DM_FAIL;
		CALL(1, CR_DM_P_ENCODING, f->node, 0);
	default:
		n = w->ret;
		/* GCC's clones: .cold, .constprop.0, .isra.0.part.1 (c++filt prints each as [clone .suffix]). */
		while (f->node && n && peek(w) == '.' &&
		       (is_lower(peek2(w)) || peek2(w) == '_' || is_digit(peek2(w)))) {
			uint32_t p = w->pos + 2, start = w->pos;

			while (p < w->len &&
			       (is_lower(w->s[p]) || is_digit(w->s[p]) || w->s[p] == '_'))
				p++;
			while (p + 1 < w->len && w->s[p] == '.' && is_digit(w->s[p + 1])) {
				p += 2;
				while (p < w->len && is_digit(w->s[p]))
					p++;
			}
			w->pos = p;
			n = mk2(w, CR_DM_CLONE, n,
				mk(w, CR_DM_NAME, (uint16_t)start, (uint16_t)(p - start), 0));
		}
		RET(n);
	}
}

/* <encoding> ::= <name> [<bare-function-type>] | <special-name>; node: top level. */
int cr_dm_p_encoding(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t ft;

	switch (f->phase) {
	case 0:
		if (peek(w) == 'G' || peek(w) == 'T')
			CALL(3, CR_DM_P_SPECIAL, 0, 0);
		CALL(1, CR_DM_P_NAME, 0, 0);
	case 1:
		f->v[0] = w->ret;
		if (!peek(w) || peek(w) == 'E')
			RET(f->v[0]);
		CALL(2, CR_DM_P_BAREFN, cr_dm_has_return_type(w, f->v[0]), 0);
	case 2:
		ft = w->ret;
		/* A function inside a local name: c++filt drops its return type. */
		if (!f->node && kind(w, f->v[0]) == CR_DM_LOCAL && kind(w, ft) == CR_DM_FUNCTYPE)
			w->node[ft].a = 0;
		RET(mk2(w, CR_DM_TYPED, f->v[0], ft));
	default:
		RET(w->ret);
	}
}

/* <special-name>: vtables, typeinfo, thunks (ABI 5.1.4), guard variables, ... */
int cr_dm_p_special(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	static const char tletters[] = "VTISFJHWA", tnames[] = { CR_DM_T_VTABLE, CR_DM_T_VTT,
		CR_DM_T_TYPEINFO, CR_DM_T_TYPEINFO_NAME, CR_DM_T_TYPEINFO_FN, CR_DM_T_JAVA_CLASS,
		CR_DM_T_TLS_INIT, CR_DM_T_TLS_WRAPPER, CR_DM_T_TPARM_OBJ };
	uint16_t n;
	char c;

	switch (f->phase) {
	case 0:
		if (eat(w, 'T')) {
			c = next(w);
			for (int i = 0; tletters[i]; i++) {
				if (tletters[i] != c)
					continue;
				f->v[0] = (uint16_t)tnames[i];
				if (c == 'H' || c == 'W')
					CALL(1, CR_DM_P_NAME, 0, 0);
				if (c == 'A')
					CALL(1, CR_DM_P_TARG, 0, 0);
				CALL(1, CR_DM_P_TYPE, 0, 0);
			}
			/* <call-offset> ::= h <number> _ | v <number> _ <number> _ */
			if (c == 'h' || c == 'v' || c == 'c') {
				f->v[0] = c == 'h' ? CR_DM_T_THUNK
					  : c == 'v' ? CR_DM_T_VTHUNK : CR_DM_T_COVTHUNK;
				for (int k = 0; k < (c == 'c' ? 2 : 1); k++) {
					char o = c == 'c' ? next(w) : c;

					if (o != 'h' && o != 'v')
						return CR_DM_FAIL;
					cr_dm_number(w);
					if (o == 'v') {
						if (!eat(w, '_'))
							return CR_DM_FAIL;
						cr_dm_number(w);
					}
					if (!eat(w, '_'))
						return CR_DM_FAIL;
				}
				CALL(1, CR_DM_P_ENCODING, 0, 0);
			}
			if (c == 'C')
				CALL(2, CR_DM_P_TYPE, 0, 0);
			return CR_DM_FAIL;
		}
		if (!eat(w, 'G'))
			return CR_DM_FAIL;
		c = next(w);
		if (c == 'V') {
			f->v[0] = CR_DM_T_GUARD;
			CALL(1, CR_DM_P_NAME, 0, 0);
		}
		if (c == 'R')
			CALL(4, CR_DM_P_NAME, 0, 0);
		if (c == 'A') {
			f->v[0] = CR_DM_T_HIDDEN_ALIAS;
			CALL(1, CR_DM_P_ENCODING, 0, 0);
		}
		if (c == 'T') {
			f->v[0] = next(w) == 'n' ? CR_DM_T_NONTXCLONE : CR_DM_T_TXCLONE;
			CALL(1, CR_DM_P_ENCODING, 0, 0);
		}
		return CR_DM_FAIL;
	case 1:
		n = mk1(w, CR_DM_SPECIAL, w->ret);
		if (n)
			w->node[n].flag = (uint8_t)f->v[0];
		RET(n);
	case 2:
		/*
		 * TC <derived type> <offset> _ <base type>: "construction vtable for
		 * base-in-derived".
		 */
		f->v[0] = w->ret;
		if (cr_dm_number(w) < 0 || !eat(w, '_'))
			return CR_DM_FAIL;
		CALL(3, CR_DM_P_TYPE, 0, 0);
	case 3:
		RET(mk2(w, CR_DM_CTORVT, w->ret, f->v[0]));
	default:
		/* GR <name> [<number>]: c++filt reads a plain number, no seq-id nor _. */
		n = w->ret;
		RET(mk2(w, CR_DM_REFTEMP, n, mknum(w, CR_DM_NUMBER, 0, cr_dm_number(w))));
	}
}

/*
 * <name> ::= <nested-name> | <local-name> | <unscoped-name> [<template-args>]
 *	    | <substitution> <template-args>.  v0: name so far, v1: it came
 * from a substitution, v2: module.
 */
int cr_dm_p_name(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t m;

	switch (f->phase) {
	case 0:
		switch (peek(w)) {
		case 'N':
			CALL(9, CR_DM_P_NESTED, 0, 0);
		case 'Z':
			CALL(9, CR_DM_P_LOCAL, 0, 0);
		case 'U':
			CALL(9, CR_DM_P_UNQUAL, 0, 0);
		case 'S':
			if (peek2(w) == 't') {
				w->pos += 2;
				f->v[0] = mk(w, CR_DM_STR, CR_DM_T_STD, 0, 0);
			}
			if (peek(w) == 'S') {
				m = cr_dm_substitution(w);
				if (!m)
					return CR_DM_FAIL;
				if (kind(w, m) == CR_DM_MODNAME || kind(w, m) == CR_DM_MODPART) {
					f->v[2] = m;
				} else {
					if (f->v[0])
						return CR_DM_FAIL;
					f->v[0] = m;
					f->v[1] = 1;
					goto targs;
				}
			}
			break;
		}
		CALL(1, CR_DM_P_UNQUAL, f->v[0], f->v[2]);
	case 1:
		f->v[0] = w->ret;
	targs:
		if (peek(w) != 'I')
			RET(f->v[0]);
		/* <unscoped-template-name> is a candidate, unless it was one already. */
		if (!f->v[1] && add_sub(w, f->v[0]) < 0)
			return CR_DM_FAIL;
		CALL(2, CR_DM_P_TARGS, 0, 0);
	case 2:
		RET(mk2(w, CR_DM_TEMPLATE, f->v[0], w->ret));
	default:
		RET(w->ret);
	}
}

/*
 * <nested-name> ::= N [<CV-qualifiers>] [<ref-qualifier>] <prefix> <unqualified-name> E
 * v0, v1: qualifier chain (outermost, innermost), v2: ref-qualifier.
 */
int cr_dm_p_nested(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t r;

	switch (f->phase) {
	case 0:
		if (!eat(w, 'N'))
			return CR_DM_FAIL;
		if (next_is_qual(w))
			CALL(1, CR_DM_P_CVQ, 1, 0);
		goto ref;
	case 1:
		f->v[0] = w->ret;
		f->v[1] = cr_dm_innermost(w, w->ret);
	ref:
		if (peek(w) == 'R' || peek(w) == 'O') {
			f->v[2] = mk(w, next(w) == 'R' ? CR_DM_REF_THIS : CR_DM_RREF_THIS, 0, 0, 0);
			if (!f->v[2])
				return CR_DM_FAIL;
		}
		CALL(2, CR_DM_P_PREFIX, 1, 0);
	default:
		if (!eat(w, 'E'))
			return CR_DM_FAIL;
		r = w->ret;
		if (f->v[0]) {
			w->node[f->v[1]].a = r;
			r = f->v[0];
		}
		if (f->v[2]) {
			w->node[f->v[2]].a = r;
			r = f->v[2];
		}
		RET(r);
	}
}

/*
 * <prefix> <unqualified-name>, up to the E (not read): decltype, template
 * parameter, substitution, names and template arguments.  node: record
 * each prefix as a candidate (not in an unresolved name).  v0: so far.
 */
int cr_dm_p_prefix(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t m;
	char c;

	switch (f->phase) {
	case 0:
	loop:
		for (unsigned guard = 0; guard < CR_DEMANGLE_MAXLEN; guard++) {
			c = peek(w);
			if (c == 'D' && (peek2(w) == 'T' || peek2(w) == 't')) {
				if (f->v[0])
					return CR_DM_FAIL;
				CALL(1, CR_DM_P_TYPE, 0, 0);
			} else if (c == 'I') {
				if (!f->v[0])
					return CR_DM_FAIL;
				CALL(2, CR_DM_P_TARGS, 0, 0);
			} else if (c == 'T') {
				if (f->v[0])
					return CR_DM_FAIL;
				f->v[0] = cr_dm_template_param(w);
				goto after;
			} else if (c == 'M') {
				/* A lambda's initializer scope: already a candidate. */
				w->pos++;
				continue;
			}
			m = 0;
			if (c == 'S') {
				m = cr_dm_substitution(w);
				if (!m)
					return CR_DM_FAIL;
				if (kind(w, m) != CR_DM_MODNAME && kind(w, m) != CR_DM_MODPART) {
					if (f->v[0])
						return CR_DM_FAIL;
					f->v[0] = m;
					continue;
				}
			}
			CALL(1, CR_DM_P_UNQUAL, f->v[0], m);
		}
		return CR_DM_FAIL;
	case 1:
		f->v[0] = w->ret;
		goto after;
	default:
		f->v[0] = mk2(w, CR_DM_TEMPLATE, f->v[0], w->ret);
	after:
		if (!f->v[0])
			return CR_DM_FAIL;
		if (peek(w) == 'E')
			RET(f->v[0]);
		if (f->node && add_sub(w, f->v[0]) < 0)
			return CR_DM_FAIL;
		goto loop;
	}
}

/*
 * <local-name> ::= Z <encoding> E <entity name> [<discriminator>]
 *		  | Z <encoding> E s [<discriminator>] | Z <encoding> E d [<number>] _ <name>
 * v0: the function, v1: default argument number + 1.
 */
int cr_dm_p_local(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t n, ft;
	int32_t num;

	switch (f->phase) {
	case 0:
		if (!eat(w, 'Z'))
			return CR_DM_FAIL;
		CALL(1, CR_DM_P_ENCODING, 0, 0);
	case 1:
		f->v[0] = w->ret;
		if (!eat(w, 'E'))
			return CR_DM_FAIL;
		if (eat(w, 's')) {
			if (cr_dm_discriminator(w) < 0)
				return CR_DM_FAIL;
			n = mk(w, CR_DM_STR, CR_DM_T_STRING_LITERAL, 0, 0);
			goto out;
		}
		if (eat(w, 'd')) {
			num = cr_dm_compact_number(w);
			if (num < 0 || num > 0xfffe)
				return CR_DM_FAIL;
			f->v[1] = (uint16_t)(num + 1);
		}
		CALL(2, CR_DM_P_NAME, 0, 0);
	case 2:
		n = w->ret;
		/* Lambdas and unnamed types carry their own numbers. */
		if (kind(w, n) != CR_DM_LAMBDA && kind(w, n) != CR_DM_UNNAMED &&
		    cr_dm_discriminator(w) < 0)
			return CR_DM_FAIL;
		if (f->v[1])
			n = mknum(w, CR_DM_DEFARG, n, f->v[1] - 1);
	out:
		/*
		 * The return type of the enclosing function would read as the entity's: c++filt
		 * drops it.
		 */
		ft = w->node[f->v[0]].b;
		if (kind(w, f->v[0]) == CR_DM_TYPED && kind(w, ft) == CR_DM_FUNCTYPE)
			w->node[ft].a = 0;
		RET(mk2(w, CR_DM_LOCAL, f->v[0], n));
	}
	return CR_DM_FAIL;
}

/*
 * <unqualified-name>: source name, operator, constructor or destructor,
 * L <source-name> [<discriminator>], lambda, unnamed type, structured
 * binding; then ABI tags.  node: scope (then a::name), v0: module.
 * v1: saved is_expr, v2: the name.
 */
int cr_dm_p_unqual(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	uint16_t n = 0, m;
	int32_t num;
	char c;

	switch (f->phase) {
	case 0:
		/* Module names (C++20): W <source-name>, WP <source-name>; each a candidate. */
		while (eat(w, 'W')) {
			int k = eat(w, 'P') ? CR_DM_MODPART : CR_DM_MODNAME;

			m = cr_dm_source_name(w);
			f->v[0] = m ? mk(w, k, f->v[0], m, 0) : 0;
			if (add_sub(w, f->v[0]) < 0)
				return CR_DM_FAIL;
		}
		c = peek(w);
		if (is_digit(c)) {
			n = cr_dm_source_name(w);
		} else if (is_lower(c)) {
			f->v[1] = w->is_expr;
			if (c == 'o' && peek2(w) == 'n') {
				w->pos += 2;
				w->is_expr = 0;
			}
			CALL(1, CR_DM_P_OPNAME, 0, 0);
		} else if (c == 'D' && peek2(w) == 'C') {
			/* Structured binding: DC <source-name>+ E, "[a, b]". */
			uint16_t prev = 0;

			w->pos += 2;
			do {
				m = mk1(w, CR_DM_BINDING, cr_dm_source_name(w));
				if (!m)
					return CR_DM_FAIL;
				if (prev)
					w->node[prev].b = m;
				else
					n = m;
				prev = m;
			} while (peek(w) != 'E' && peek(w));
			if (!eat(w, 'E'))
				return CR_DM_FAIL;
		} else if (c == 'C' || c == 'D') {
			/* C1..C5, CI1..CI5 <base type> (inheriting), D0 D1 D2 D4 D5 */
			int inheriting = c == 'C' && peek2(w) == 'I';
			char d;

			if (inheriting)
				w->pos++;
			d = peek2(w);
			if (c == 'C' ? d < '1' || d > '5'
				     : d != '0' && d != '1' && d != '2' && d != '4' && d != '5')
				return CR_DM_FAIL;
			f->v[2] = c == 'C' ? CR_DM_CTOR : CR_DM_DTOR;
			w->pos += 2;
			if (inheriting) {
				/*
				 * The base's type is not printed, nor checked: c++filt goes on if
				 * it fails.
				 */
				f->fn |= CR_DM_CATCH;
				f->v[3] = (uint16_t)(w->is_expr | w->is_conv << 1);
				CALL(3, CR_DM_P_TYPE, 0, 0);
			}
			n = mk1(w, (int)f->v[2], w->last_name);
		} else if (c == 'L') {
			w->pos++;
			n = cr_dm_source_name(w);
			if (!n || cr_dm_discriminator(w) < 0)
				return CR_DM_FAIL;
		} else if (c == 'U' && peek2(w) == 'l') {
			w->pos += 2;
			CALL(2, CR_DM_P_PARMLIST, 0, 0);
		} else if (c == 'U' && peek2(w) == 't') {
			w->pos += 2;
			num = cr_dm_compact_number(w);
			if (num < 0)
				return CR_DM_FAIL;
			n = mknum(w, CR_DM_UNNAMED, 0, num);
			if (add_sub(w, n) < 0)
				return CR_DM_FAIL;
		}
		goto out;
	case 1:
		w->is_expr = (uint8_t)f->v[1];
		n = w->ret;
		/* operator"" _suffix */
		if (is_code(w, n, "li"))
			n = mk2(w, CR_DM_UNARY, n, cr_dm_source_name(w));
		goto out;
	case 2:
		/* Ul <lambda-sig> E [<number>] _ */
		if (!eat(w, 'E'))
			return CR_DM_FAIL;
		num = cr_dm_compact_number(w);
		if (num < 0)
			return CR_DM_FAIL;
		n = mknum(w, CR_DM_LAMBDA, w->ret, num);
		goto out;
	case 3:
		f->fn &= (uint8_t)~CR_DM_CATCH;
		w->is_expr = f->v[3] & 1;
		w->is_conv = f->v[3] >> 1;
		n = mk1(w, (int)f->v[2], w->last_name);
	out:
		if (!n)
			return CR_DM_FAIL;
		if (f->v[0])
			n = mk2(w, CR_DM_MODENT, n, f->v[0]);
		if (peek(w) == 'B')
			n = cr_dm_abi_tags(w, n);
		if (f->node)
			n = mk2(w, CR_DM_QUAL, f->node, n);
		RET(n);
	}
	return CR_DM_FAIL;
}

/*
 * <operator-name>: the table, cv <type> (conversion, or a cast in an expression), v <digit>
 * <source-name>.
 */
int cr_dm_p_opname(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	char c1, c2;
	int i;

	switch (f->phase) {
	case 0:
		c1 = next(w);
		c2 = next(w);
		if (c1 == 'v' && is_digit(c2)) {
			uint16_t n = cr_dm_source_name(w);

			RET(n ? mk(w, CR_DM_EXTOP, n, 0, (uint16_t)(c2 - '0')) : 0);
		}
		if (c1 == 'c' && c2 == 'v') {
			f->v[0] = w->is_conv;
			w->is_conv = !w->is_expr;
			CALL(1, CR_DM_P_TYPE, 0, 0);
		}
		i = cr_dm_find_op(c1, c2);
		RET(i < 0 ? 0 : mk(w, CR_DM_OPERATOR, (uint16_t)i, 0, 0));
	default:
		i = w->is_conv ? CR_DM_CONVERSION : CR_DM_CAST;
		w->is_conv = (uint8_t)f->v[0];
		RET(mk1(w, i, w->ret));
	}
}
