/* SPDX-License-Identifier: MIT */
/*
 * Itanium C++ names, the printer's declarators (demangle-cxxprint.c has
 * the rest): pointers, references and qualifiers pending as modifiers
 * while the type under them prints, and the function and array types
 * that print them in their own parentheses: "int (*)(char)",
 * "int (&) [4]", "void (A::*)() const".
 */
#include "demangle-cxx.h"

/*
 * Pointers, references, qualifiers, arrays, function and member pointer
 * types: pushed as pending modifiers while the type under them prints.
 * Phases 70..  v0: record, v1: the modifier (a reference may collapse to
 * another), v2: saved list, v3: array records.
 */
int cr_dm_q_modifier(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint16_t dc = f->node, inner = 0, sub, a;
	struct cr_dm_node *x = N(w, dc);
	int k = x->kind;

	switch (f->phase) {
	case 0:
		break;
	case 70:
		/* the type under it printed: the modifier, if nobody did */
		if (!M(w, f->v[0])->printed)
			CALL(71, CR_DM_Q_MOD, f->v[1], 0);
		/* fall through */
	case 71:
		w->mods = M(w, f->v[0])->next;
		w->nmods--;
		if (f->v[4])
			w->tpls = f->v[5];
		return cr_dm_done(w, f, o);
	case 72:
		/* function type: the return type printed */
		w->mods = M(w, f->v[0])->next;
		w->nmods--;
		if (M(w, f->v[0] + 0)->printed)
			return cr_dm_done(w, f, o);
		cr_dm_putc(o, ' ');
		CALL(73, CR_DM_Q_FUNCTYPE, dc, w->mods);
	case 73:
	case 76:
		return cr_dm_done(w, f, o);
	case 74:
		/* array: the element type printed */
		w->mods = f->v[2];
		if (w->mod[f->v[0] - 1].printed) {
			w->nmods = f->v[0] - 1;
			return cr_dm_done(w, f, o);
		}
		/* fall through */
	case 75:
		while (f->v[3] > 1) {
			f->v[3]--;
			CALL(75, CR_DM_Q_MOD, w->mod[f->v[0] - 1 + f->v[3]].node, 0);
		}
		w->nmods = f->v[0] - 1;
		CALL(76, CR_DM_Q_ARRAYTYPE, dc, w->mods);
	}

	if (is_cv(k)) {
		/*
		 * A qualifier already pending just outside (const T with T =
		 * int const, or an array's, copied): print it once.
		 */
		for (uint16_t p = w->mods; p; p = M(w, p)->next) {
			if (M(w, p)->printed)
				continue;
			if (!is_cv(kind(w, M(w, p)->node)))
				break;
			if (kind(w, M(w, p)->node) == k)
				CALL(76, CR_DM_Q_COMP, x->a, 0);
		}
	}
	if (k == CR_DM_LREF || k == CR_DM_RREF) {
		/* Reference collapsing: T& and T&& with T = U& are U&; with T = U&&, T&& is U&&. */
		sub = x->a;
		if (!w->lambda && kind(w, sub) == CR_DM_TPARAM) {
			int sc = cr_dm_find_scope(w, sub);

			if (sc < 0) {
				if (cr_dm_save_scope(w, sub) < 0)
					return CR_DM_FAIL;
			} else if (!cr_dm_printing_under(w, sub, dc)) {
				f->v[4] = 1;
				f->v[5] = w->tpls;
				w->tpls = w->scope[sc][1];
			}
			if (cr_dm_lookup_elt(w, sub, &a) < 0)
				return CR_DM_FAIL;
			sub = a;
		}
		if (kind(w, sub) == CR_DM_LREF || kind(w, sub) == k)
			dc = sub;
		else if (kind(w, sub) == CR_DM_RREF)
			inner = N(w, sub)->a;
	}
	if (k == CR_DM_FUNCTYPE) {
		if (!x->a)
			CALL(76, CR_DM_Q_FUNCTYPE, dc, w->mods);
		f->v[0] = cr_dm_push_mod(w, dc);
		if (!f->v[0])
			return CR_DM_FAIL;
		CALL(72, CR_DM_Q_COMP, x->a, 0);
	}
	if (k == CR_DM_ARRAY) {
		/* The array's own qualifiers are its elements': copy the pending ones after it. */
		uint16_t hold = w->mods, n = 1;

		f->v[2] = hold;
		f->v[0] = cr_dm_push_mod(w, dc);
		if (!f->v[0])
			return CR_DM_FAIL;
		for (uint16_t p = hold; p && is_cv(kind(w, M(w, p)->node)); p = M(w, p)->next) {
			uint16_t c;

			if (M(w, p)->printed)
				continue;
			if (n >= 4)
				return CR_DM_FAIL;
			c = cr_dm_push_mod(w, 0);
			if (!c)
				return CR_DM_FAIL;
			*M(w, c) = *M(w, p);
			M(w, c)->next = c - 1;
			M(w, p)->printed = 1;
			n++;
		}
		f->v[3] = n;
		CALL(74, CR_DM_Q_COMP, x->b, 0);
	}
	f->v[1] = dc;
	f->v[0] = cr_dm_push_mod(w, dc);
	if (!f->v[0])
		return CR_DM_FAIL;
	if (!inner)
		inner = k == CR_DM_PTRMEM || k == CR_DM_VECTOR ? N(w, dc)->b : N(w, dc)->a;
	CALL(70, CR_DM_Q_COMP, inner, 0);
}

/*
 * A pending modifier printed as a suffix.  Pointer "*",
 * reference "&", qualifiers " const", member pointer " C::*", a
 * function's name (pushed by its encoding) as itself.
 */
int cr_dm_q_mod(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint16_t m = f->node;

	if (f->phase) {
		switch (kind(w, m)) {
		case CR_DM_NOEXCEPT:
		case CR_DM_THROWSPEC:
			cr_dm_putc(o, ')');
			break;
		case CR_DM_PTRMEM:
			cr_dm_puts(o, "::*");
			break;
		case CR_DM_VECTOR:
			cr_dm_putc(o, ')');
			break;
		}
		return cr_dm_ret(w, 0);
	}
	switch (kind(w, m)) {
	case CR_DM_RESTRICT:
	case CR_DM_RESTRICT_THIS:
		cr_dm_puts(o, " restrict");
		break;
	case CR_DM_VOLATILE:
	case CR_DM_VOLATILE_THIS:
		cr_dm_puts(o, " volatile");
		break;
	case CR_DM_CONST:
	case CR_DM_CONST_THIS:
		cr_dm_puts(o, " const");
		break;
	case CR_DM_TXSAFE:
		cr_dm_puts(o, " transaction_safe");
		break;
	case CR_DM_NOEXCEPT:
	case CR_DM_THROWSPEC:
		cr_dm_puts(o, kind(w, m) == CR_DM_NOEXCEPT ? " noexcept" : " throw");
		if (N(w, m)->b) {
			cr_dm_putc(o, '(');
			COMP(1, N(w, m)->b);
		}
		break;
	case CR_DM_VENDOR_QUAL:
		cr_dm_putc(o, ' ');
		CALL(2, CR_DM_Q_COMP, N(w, m)->b, 0);
	case CR_DM_POINTER:
		cr_dm_putc(o, '*');
		break;
	case CR_DM_REF_THIS:
		cr_dm_puts(o, " &");
		break;
	case CR_DM_LREF:
		cr_dm_putc(o, '&');
		break;
	case CR_DM_RREF_THIS:
		cr_dm_puts(o, " &&");
		break;
	case CR_DM_RREF:
		cr_dm_puts(o, "&&");
		break;
	case CR_DM_COMPLEX:
		cr_dm_puts(o, " _Complex");
		break;
	case CR_DM_IMAGINARY:
		cr_dm_puts(o, " _Imaginary");
		break;
	case CR_DM_PTRMEM:
		if (o->last != '(')
			cr_dm_putc(o, ' ');
		COMP(1, N(w, m)->a);
	case CR_DM_TYPED:
		CALL(2, CR_DM_Q_COMP, N(w, m)->a, 0);
	case CR_DM_VECTOR:
		cr_dm_puts(o, " __vector(");
		COMP(1, N(w, m)->a);
	default:
		CALL(2, CR_DM_Q_COMP, m, 0);
	}
	return cr_dm_ret(w, 0);
}

/*
 * Print the pending modifiers from node (a record index
 * + 1) on that are not printed yet; v0: suffix pass (this-qualifiers
 * print only then).  A function or array type among them prints the rest
 * inside itself.  v1: next record, v2: saved scope, v3: saved list.
 */
int cr_dm_q_modlist(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	struct cr_dm_mod *m;
	uint16_t dc;

	switch (f->phase) {
	case 0:
		f->v[1] = f->node;
		break;
	case 1:
		w->tpls = f->v[2];
		return cr_dm_ret(w, 0);
	case 2:
		w->mods = f->v[3];
		cr_dm_puts(o, "::");
		dc = N(w, M(w, f->v[4])->node)->b;
		if (kind(w, dc) == CR_DM_DEFARG) {
			cr_dm_puts(o, "{default arg#");
			cr_dm_putu(o, (uint64_t)num(w, dc) + 1);
			cr_dm_puts(o, "}::");
			dc = N(w, dc)->a;
		}
		for (unsigned g = 0; dc && cr_dm_is_fnqual(kind(w, dc)) && g < CR_DEMANGLE_NODES;
		     g++)
			dc = N(w, dc)->a;
		COMP(1, dc);
	case 3:
		w->tpls = f->v[2];
		break;
	}
	for (unsigned g = 0; f->v[1] && g < CR_DEMANGLE_MODS; g++) {
		m = M(w, f->v[1]);
		if (m->printed || (!f->v[0] && cr_dm_is_fnqual(kind(w, m->node)))) {
			f->v[1] = m->next;
			continue;
		}
		m->printed = 1;
		f->v[2] = w->tpls;
		w->tpls = m->tpl;
		switch (kind(w, m->node)) {
		case CR_DM_FUNCTYPE:
			CALL(1, CR_DM_Q_FUNCTYPE, m->node, m->next);
		case CR_DM_ARRAY:
			CALL(1, CR_DM_Q_ARRAYTYPE, m->node, m->next);
		case CR_DM_LOCAL:
			/* A local function's name: its qualifiers were pushed apart. */
			f->v[3] = w->mods;
			f->v[4] = f->v[1];
			w->mods = 0;
			COMP(2, N(w, m->node)->a);
		}
		f->v[1] = m->next;
		CALL(3, CR_DM_Q_MOD, m->node, 0);
	}
	return cr_dm_ret(w, 0);
}

/*
 * A function type: node the function type, v0 its pending
 * modifiers.  "ret (mods)(params) quals": parentheses when a pointer,
 * reference or qualifier is among the modifiers.  v1: need parentheses,
 * v2: saved list.
 */
int cr_dm_q_functype(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	int paren = 0, space = 0;

	switch (f->phase) {
	case 0:
		for (uint16_t p = f->v[0]; p && !paren; p = M(w, p)->next) {
			int k = kind(w, M(w, p)->node);

			if (M(w, p)->printed)
				break;
			if (k == CR_DM_POINTER || k == CR_DM_LREF || k == CR_DM_RREF)
				paren = 1;
			else if (is_cv(k) || k == CR_DM_VENDOR_QUAL || k == CR_DM_COMPLEX ||
				 k == CR_DM_IMAGINARY || k == CR_DM_PTRMEM)
				paren = space = 1;
		}
		if (paren) {
			if (!space && o->last != '(' && o->last != '*')
				space = 1;
			if (space && o->last != ' ')
				cr_dm_putc(o, ' ');
			cr_dm_putc(o, '(');
		}
		f->v[1] = (uint16_t)paren;
		f->v[2] = w->mods;
		w->mods = 0;
		CALL(1, CR_DM_Q_MODLIST, f->v[0], 0);
	case 1:
		if (f->v[1])
			cr_dm_putc(o, ')');
		cr_dm_putc(o, '(');
		if (N(w, f->node)->b)
			COMP(2, N(w, f->node)->b);
		/* fall through */
	case 2:
		cr_dm_putc(o, ')');
		CALL(3, CR_DM_Q_MODLIST, f->v[0], 1);
	default:
		w->mods = f->v[2];
		return cr_dm_ret(w, 0);
	}
}

/* An array type: node the array type, v0 its pending modifiers: "int (*) [10]". */
int cr_dm_q_arraytype(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	int paren = 0;

	switch (f->phase) {
	case 0:
		f->v[1] = 1; /* space before [ */
		if (f->v[0]) {
			for (uint16_t p = f->v[0]; p; p = M(w, p)->next) {
				if (M(w, p)->printed)
					continue;
				if (kind(w, M(w, p)->node) == CR_DM_ARRAY)
					f->v[1] = 0;
				else
					paren = 1;
				break;
			}
			f->v[2] = (uint16_t)paren;
			if (paren)
				cr_dm_puts(o, " (");
			CALL(1, CR_DM_Q_MODLIST, f->v[0], 0);
		}
		goto dims;
	case 1:
		if (f->v[2])
			cr_dm_putc(o, ')');
	dims:
		if (f->v[1])
			cr_dm_putc(o, ' ');
		cr_dm_putc(o, '[');
		if (N(w, f->node)->a)
			COMP(2, N(w, f->node)->a);
		/* fall through */
	default:
		cr_dm_putc(o, ']');
		return cr_dm_ret(w, 0);
	}
}
