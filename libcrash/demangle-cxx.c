/* SPDX-License-Identifier: MIT */
/*
 * Itanium C++ ABI names (https://itanium-cxx-abi.github.io/cxx-abi/abi.html,
 * "5.1 External Names"): the parser's machinery and its lexical part
 * (numbers, source names, substitutions).  The grammar's procedures are in
 * demangle-cxxname.c (names, encodings), demangle-cxxtype.c (types,
 * template arguments) and demangle-cxxexpr.c (expressions); they turn the
 * mangled name into components (struct cr_dm_node, kinds in
 * demangle-int.h) that demangle-cxxprint.c prints as GNU c++filt does.
 *
 * The grammar is recursive; this parser is not.  Each nonterminal is a
 * procedure (CR_DM_P_*) that runs in a frame of ws->fr[]: it returns
 * CR_DM_CALL after pushing a frame for a sub-procedure, with its own
 * frame's phase set to where it resumes, or CR_DM_RET with its result in
 * ws->ret (0: failure).  A failure ends the parse, except under a frame
 * marked CR_DM_CATCH: c++filt goes on after a few failed sub-parses
 * (the scope of an unresolved name, an inheriting constructor's base)
 * and backtracks once (a conversion operator's template arguments).
 *
 * Substitution candidates (ABI 5.1.10) are recorded exactly where
 * c++filt records them, or S_ would name something else: prefixes of a
 * nested name but not the whole name, an unscoped template name before
 * its arguments, every type except builtin ones, plain substitutions and
 * the abbreviations St/Sa/...  Quirks of c++filt's kept for the same
 * reason: an unnamed type (Ut_) is a candidate by itself, a lambda (Ul)
 * is not.
 */
#include "demangle-cxx.h"

#include "str.h"

/* <number> ::= [n] digits; -1 when it overflows an int (c++filt reads no more either). */
int32_t cr_dm_number(struct cr_demangle_ws *w)
{
	int neg = eat(w, 'n');
	int32_t v = 0;

	while (is_digit(peek(w))) {
		int d = peek(w) - '0';

		if (v > (INT32_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
		w->pos++;
	}
	return neg ? -v : v;
}

/* <number>? _ : 0 for "_", number + 1 otherwise; -1 for none. */
int32_t cr_dm_compact_number(struct cr_demangle_ws *w)
{
	int32_t v;

	if (peek(w) == '_')
		v = 0;
	else if (peek(w) == 'n')
		return -1;
	else
		v = cr_dm_number(w) + 1;
	if (v < 0 || !eat(w, '_'))
		return -1;
	return v;
}

/* <source-name> ::= <positive length number> <identifier> */
uint16_t cr_dm_source_name(struct cr_demangle_ws *w)
{
	int32_t n = cr_dm_number(w);
	uint16_t r;

	if (n <= 0 || (uint32_t)n > w->len - w->pos)
		return 0;
	/* GCC's anonymous namespace: _GLOBAL_ then [._$] then N. */
	if (n >= 10 && cr_memeq(w->s + w->pos, "_GLOBAL_", 8) &&
	    (w->s[w->pos + 8] == '.' || w->s[w->pos + 8] == '_' || w->s[w->pos + 8] == '$') &&
	    w->s[w->pos + 9] == 'N')
		r = mk(w, CR_DM_STR, CR_DM_T_ANON, 0, 0);
	else
		r = mk(w, CR_DM_NAME, (uint16_t)w->pos, (uint16_t)n, 0);
	w->pos += (uint32_t)n;
	w->last_name = r;
	return r;
}

/* <discriminator> ::= _ <digit> | __ <number> _ (absent is fine). */
int cr_dm_discriminator(struct cr_demangle_ws *w)
{
	int two = 0;
	int32_t d;

	if (!eat(w, '_'))
		return 0;
	if (eat(w, '_'))
		two = 1;
	d = cr_dm_number(w);
	if (d < 0)
		return -1;
	if (two && d >= 10 && !eat(w, '_'))
		return -1;
	return 0;
}

uint16_t cr_dm_template_param(struct cr_demangle_ws *w)
{
	int32_t n;

	if (!eat(w, 'T'))
		return 0;
	n = cr_dm_compact_number(w);
	if (n < 0)
		return 0;
	return mknum(w, CR_DM_TPARAM, 0, n);
}

uint16_t cr_dm_abi_tags(struct cr_demangle_ws *w, uint16_t n)
{
	uint16_t hold = w->last_name;

	while (n && eat(w, 'B'))
		n = mk2(w, CR_DM_TAGGED, n, cr_dm_source_name(w));
	w->last_name = hold;
	return n;
}

/*
 * The abbreviations (ABI 5.1.10), expanded in full as c++filt (which
 * passes DMGL_VERBOSE) does; each but St also names the class for a
 * constructor that follows.
 */
static const struct {
	char code;
	uint8_t text, simple;
} std_subs[] = {
	{ 't', CR_DM_T_STD, 0 },
	{ 'a', CR_DM_T_ALLOCATOR, CR_DM_T_ALLOCATOR_S },
	{ 'b', CR_DM_T_BASIC_STRING, CR_DM_T_BASIC_STRING_S },
	{ 's', CR_DM_T_STRING, CR_DM_T_BASIC_STRING_S },
	{ 'i', CR_DM_T_ISTREAM, CR_DM_T_ISTREAM_S },
	{ 'o', CR_DM_T_OSTREAM, CR_DM_T_OSTREAM_S },
	{ 'd', CR_DM_T_IOSTREAM, CR_DM_T_IOSTREAM_S },
};

/* <substitution>: S_, S<seq-id>_ (base 36), or an abbreviation. */
uint16_t cr_dm_substitution(struct cr_demangle_ws *w)
{
	char c;

	if (!eat(w, 'S'))
		return 0;
	c = next(w);
	if (c == '_' || is_digit(c) || is_upper(c)) {
		uint32_t id = 0;

		if (c != '_') {
			do {
				uint32_t v;

				if (is_digit(c))
					v = id * 36 + (uint32_t)(c - '0');
				else if (is_upper(c))
					v = id * 36 + (uint32_t)(c - 'A') + 10;
				else
					return 0;
				if (v < id || v > 0xffff)
					return 0;
				id = v;
				c = next(w);
			} while (c != '_');
			id++;
		}
		return id < w->nsubs ? w->sub[id] : 0;
	}
	for (unsigned i = 0; i < CR_ARRAY_SIZE(std_subs); i++) {
		uint16_t n;

		if (std_subs[i].code != c)
			continue;
		if (std_subs[i].simple)
			w->last_name = mk(w, CR_DM_SUBSTD, std_subs[i].simple, 0, 0);
		n = mk(w, CR_DM_SUBSTD, std_subs[i].text, std_subs[i].simple, 0);
		if (peek(w) == 'B') {
			/* With ABI tags the abbreviation becomes a candidate. */
			n = cr_dm_abi_tags(w, n);
			if (add_sub(w, n) < 0)
				return 0;
		}
		return n;
	}
	return 0;
}

/* The innermost qualifier of a chain built by CR_DM_P_CVQ (its a is the slot to fill). */
uint16_t cr_dm_innermost(const struct cr_demangle_ws *w, uint16_t n)
{
	for (unsigned i = 0; i < CR_DEMANGLE_NODES && w->node[n].a; i++)
		n = w->node[n].a;
	return n;
}

int cr_dm_is_fnqual(int k)
{
	return k == CR_DM_RESTRICT_THIS || k == CR_DM_VOLATILE_THIS || k == CR_DM_CONST_THIS ||
	       k == CR_DM_REF_THIS || k == CR_DM_RREF_THIS || k == CR_DM_TXSAFE ||
	       k == CR_DM_NOEXCEPT || k == CR_DM_THROWSPEC;
}

/*
 * Whether an encoding's name takes a return type: a template that is no constructor, destructor or
 * conversion.
 */
int cr_dm_has_return_type(const struct cr_demangle_ws *w, uint16_t n)
{
	for (unsigned i = 0; n && i < CR_DEMANGLE_NODES; i++) {
		int k = kind(w, n);

		if (k == CR_DM_LOCAL) {
			n = w->node[n].b;
		} else if (cr_dm_is_fnqual(k)) {
			n = w->node[n].a;
		} else if (k == CR_DM_TEMPLATE) {
			n = w->node[n].a;
			for (unsigned j = 0; n && j < CR_DEMANGLE_NODES; j++) {
				k = kind(w, n);
				if (k == CR_DM_QUAL || k == CR_DM_LOCAL)
					n = w->node[n].b;
				else
					return !(k == CR_DM_CTOR || k == CR_DM_DTOR ||
					         k == CR_DM_CONVERSION);
			}
			return 1;
		} else {
			return 0;
		}
	}
	return 0;
}

static int dispatch(struct cr_demangle_ws *w, struct cr_dm_frame *f)
{
	switch (f->fn & ~CR_DM_CATCH) {
	case CR_DM_P_MANGLED:
		return cr_dm_p_mangled(w, f);
	case CR_DM_P_ENCODING:
		return cr_dm_p_encoding(w, f);
	case CR_DM_P_SPECIAL:
		return cr_dm_p_special(w, f);
	case CR_DM_P_NAME:
		return cr_dm_p_name(w, f);
	case CR_DM_P_NESTED:
		return cr_dm_p_nested(w, f);
	case CR_DM_P_PREFIX:
		return cr_dm_p_prefix(w, f);
	case CR_DM_P_LOCAL:
		return cr_dm_p_local(w, f);
	case CR_DM_P_UNQUAL:
		return cr_dm_p_unqual(w, f);
	case CR_DM_P_OPNAME:
		return cr_dm_p_opname(w, f);
	case CR_DM_P_TYPE:
		return cr_dm_p_type(w, f);
	case CR_DM_P_CVQ:
		return cr_dm_p_cvq(w, f);
	case CR_DM_P_FUNCTYPE:
		return cr_dm_p_functype(w, f);
	case CR_DM_P_BAREFN:
		return cr_dm_p_barefn(w, f);
	case CR_DM_P_PARMLIST:
		return cr_dm_p_parmlist(w, f);
	case CR_DM_P_TARGS:
		return cr_dm_p_targs(w, f);
	case CR_DM_P_TARG:
		return cr_dm_p_targ(w, f);
	case CR_DM_P_EXPR:
		return cr_dm_p_expr(w, f);
	case CR_DM_P_EXPR1:
		return cr_dm_p_expr1(w, f);
	case CR_DM_P_EXPRLIST:
		return cr_dm_p_exprlist(w, f);
	case CR_DM_P_PRIMARY:
		return cr_dm_p_primary(w, f);
	}
	return CR_DM_FAIL;
}

/* Run procedure fn to completion: its result, 0 on failure. */
static uint16_t run(struct cr_demangle_ws *w, int fn, uint16_t node)
{
	struct cr_dm_frame *f;

	w->sp = 1;
	f = &w->fr[0];
	f->fn = (uint8_t)fn;
	f->phase = 0;
	f->node = node;
	for (unsigned i = 0; i < CR_ARRAY_SIZE(f->v); i++)
		f->v[i] = 0;
	while (w->sp) {
		int r;

		if (++w->steps > CR_DEMANGLE_STEPS)
			return 0;
		r = dispatch(w, &w->fr[w->sp - 1]);
		if (r != CR_DM_FAIL)
			continue;
		/* Unwind to a frame that catches, if any; a bound hit is no parse error. */
		if (w->fatal)
			return 0;
		while (w->sp && !(w->fr[w->sp - 1].fn & CR_DM_CATCH))
			w->sp--;
		if (!w->sp)
			return 0;
		w->ret = 0;
	}
	return w->ret;
}

/*
 * The whole name: _Z <encoding> [clone suffixes] and nothing after, or
 * _GLOBAL_ [._$] (I|D) _ <what>: "global constructors keyed to <what>",
 * <what> an encoding after _Z (whatever follows it ignored, as c++filt
 * does) or any text.  The root is in ws->ret.
 */
int cr_dm_cxx_parse(struct cr_demangle_ws *w)
{
	uint16_t n;

	w->nnodes = 1;
	w->nsubs = 0;
	w->last_name = 0;
	w->is_expr = w->is_conv = 0;
	w->steps = 0;
	w->pos = 0;
	w->unres = 1;
	w->fatal = 0;
	if (w->len >= 2 && w->s[0] == '_' && w->s[1] == 'Z') {
		n = run(w, CR_DM_P_MANGLED, 1);
		if ((!n || w->pos != w->len) && w->unres < 0 && !w->fatal) {
			w->nnodes = 1;
			w->nsubs = 0;
			w->last_name = 0;
			w->is_expr = w->is_conv = 0;
			w->pos = 0;
			w->unres = 0;
			n = run(w, CR_DM_P_MANGLED, 1);
		}
		if (!n || w->pos != w->len)
			return -CR_EINVAL;
	} else if (w->len >= 11 && cr_memeq(w->s, "_GLOBAL_", 8) &&
		   (w->s[8] == '.' || w->s[8] == '_' || w->s[8] == '$') &&
		   (w->s[9] == 'I' || w->s[9] == 'D') && w->s[10] == '_') {
		w->pos = 11;
		if (w->len >= 13 && w->s[11] == '_' && w->s[12] == 'Z') {
			w->pos = 13;
			n = run(w, CR_DM_P_ENCODING, 0);
		} else {
			n = w->len > 11 ? mk(w, CR_DM_NAME, 11, (uint16_t)(w->len - 11), 0) : 0;
		}
		n = mk1(w, CR_DM_GLOBAL, n);
		if (!n)
			return -CR_EINVAL;
		w->node[n].flag = (uint8_t)w->s[9];
	} else {
		return -CR_EINVAL;
	}
	w->ret = n;
	return 0;
}
