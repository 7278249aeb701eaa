/* SPDX-License-Identifier: MIT */
/*
 * Rust v0 names (RFC 2603, "Symbol Name Mangling v2"): paths, types,
 * generic arguments, lifetimes and back-references, printed as
 * rustc-demangle's alternate form (demangle-rust.c says which).
 *
 * The grammar is recursive, with back-references to earlier positions:
 * the printer runs on the explicit stack of ws->fr[] (demangle-int.h has
 * the protocol), a back-reference a frame that remembers where to come
 * back.  An impl's own path is parsed, not printed (ws->skip), and
 * back-references met there are not followed, as rustc-demangle.
 */
#include "demangle-int.h"

/* <base-62-number> ::= {0-9a-zA-Z} _ : "_" is 0, else the digits' value + 1.  -1: invalid. */
int cr_dm_base62(struct cr_demangle_ws *w, uint64_t *out)
{
	uint64_t v = 0;

	if (eat(w, '_')) {
		*out = 0;
		return 0;
	}
	for (unsigned i = 0; i < 12; i++) {
		char c = next(w);
		unsigned d;

		if (c == '_') {
			if (v == UINT64_MAX)
				return -1;
			*out = v + 1;
			return 0;
		}
		if (is_digit(c))
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'z')
			d = (unsigned)(c - 'a') + 10;
		else if (c >= 'A' && c <= 'Z')
			d = (unsigned)(c - 'A') + 36;
		else
			return -1;
		if (v > (UINT64_MAX - d) / 62)
			return -1;
		v = v * 62 + d;
	}
	return -1;
}

/* [<tag> <base-62-number>]: 0 if absent, else the number + 1 (s: disambiguator, G: binder). */
int cr_dm_opt62(struct cr_demangle_ws *w, char tag, uint64_t *out)
{
	*out = 0;
	if (!eat(w, tag))
		return 0;
	if (cr_dm_base62(w, out) < 0 || *out == UINT64_MAX)
		return -1;
	(*out)++;
	return 0;
}

/* <basic-type> letters */
static const char *basic_type(char c)
{
	switch (c) {
	case 'a': return "i8";
	case 'b': return "bool";
	case 'c': return "char";
	case 'd': return "f64";
	case 'e': return "str";
	case 'f': return "f32";
	case 'h': return "u8";
	case 'i': return "isize";
	case 'j': return "usize";
	case 'l': return "i32";
	case 'm': return "u32";
	case 'n': return "i128";
	case 'o': return "u128";
	case 's': return "i16";
	case 't': return "u16";
	case 'u': return "()";
	case 'v': return "...";
	case 'x': return "i64";
	case 'y': return "u64";
	case 'z': return "!";
	case 'p': return "_";
	}
	return NULL;
}

/*
 * <backref> ::= B <base-62-number>: print what starts at that earlier
 * position (fn in node, its argument in v0), then come back.  Not
 * followed while skipping, as rustc-demangle.  v1: where to come back.
 */
int cr_dm_backref(struct cr_demangle_ws *w, struct cr_dm_frame *f, int phase, int fn, uint16_t arg)
{
	uint32_t at = w->pos - 1;
	uint64_t i;

	if (cr_dm_base62(w, &i) < 0 || i >= at - 2)
		return CR_DM_FAIL;
	if (w->skip) {
		f->phase = (uint8_t)phase;
		w->ret = 0;
		return CR_DM_CALL;
	}
	if (cr_dm_call(w, f, phase, CR_DM_V_BACKREF, (uint16_t)fn, arg) == CR_DM_FAIL)
		return CR_DM_FAIL;
	w->fr[w->sp - 1].v[1] = (uint16_t)(2 + i);
	return CR_DM_CALL;
}

static int v_backref(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	(void)o;
	if (!f->phase) {
		uint16_t to = f->v[1];

		f->v[1] = (uint16_t)w->pos;
		w->pos = to;
		CALL(1, f->node, f->v[0], 0);
	}
	w->pos = f->v[1];
	return cr_dm_ret(w, w->ret);
}

/* Skip (parse without printing) a path: an impl's own path. */
static int v_skip(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	(void)o;
	if (!f->phase) {
		w->skip++;
		CALL(1, CR_DM_V_PATH, 0, 0);
	}
	w->skip--;
	return cr_dm_ret(w, 0);
}

/*
 * <path>; node: in a value (generic arguments as ::<...>).  v0: namespace
 * tag, v1: list count, v2: tag.
 */
static int v_path(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	struct cr_dm_ident id;
	uint64_t dis;
	char c;

	switch (f->phase) {
	case 0:
		c = next(w);
		f->v[2] = (uint16_t)c;
		switch (c) {
		case 'C':
			if (cr_dm_opt62(w, 's', &dis) < 0 || cr_dm_rident(w, &id) < 0)
				return CR_DM_FAIL;
			cr_dm_rput_ident(w, o, &id);
			return cr_dm_ret(w, 0);
		case 'M':
		case 'X':
			if (cr_dm_opt62(w, 's', &dis) < 0)
				return CR_DM_FAIL;
			CALL(1, CR_DM_V_SKIP, 0, 0);
		case 'Y':
			cr_dm_rput(w, o, "<", 1);
			CALL(2, CR_DM_V_TYPE, 0, 0);
		case 'N':
			c = next(w);
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
				return CR_DM_FAIL;
			f->v[0] = (uint16_t)c;
			CALL(4, CR_DM_V_PATH, f->node, 0);
		case 'I':
			CALL(5, CR_DM_V_PATH, f->node, 0);
		case 'B':
			return cr_dm_backref(w, f, 7, CR_DM_V_PATH, f->node);
		}
		return CR_DM_FAIL;
	case 1:
		cr_dm_rput(w, o, "<", 1);
		CALL(2, CR_DM_V_TYPE, 0, 0);
	case 2:
		if (f->v[2] == 'M') {
			cr_dm_rput(w, o, ">", 1);
			return cr_dm_ret(w, 0);
		}
		cr_dm_rputs(w, o, " as ");
		CALL(3, CR_DM_V_PATH, 0, 0);
	case 3:
		cr_dm_rput(w, o, ">", 1);
		return cr_dm_ret(w, 0);
	case 4:
		if (cr_dm_opt62(w, 's', &dis) < 0 || cr_dm_rident(w, &id) < 0)
			return CR_DM_FAIL;
		c = (char)f->v[0];
		if (c >= 'A' && c <= 'Z') {
			/* closures and shims: ::{closure#0}, ::{shim:vtable#0} */
			cr_dm_rputs(w, o, "::{");
			if (c == 'C')
				cr_dm_rputs(w, o, "closure");
			else if (c == 'S')
				cr_dm_rputs(w, o, "shim");
			else
				cr_dm_rput(w, o, &c, 1);
			if (id.an || id.pn) {
				cr_dm_rput(w, o, ":", 1);
				cr_dm_rput_ident(w, o, &id);
			}
			cr_dm_rput(w, o, "#", 1);
			cr_dm_rputu(w, o, dis);
			cr_dm_rput(w, o, "}", 1);
		} else if (id.an || id.pn) {
			cr_dm_rputs(w, o, "::");
			cr_dm_rput_ident(w, o, &id);
		}
		/* The innermost name of the whole path ends here (for the elision). */
		if (!w->skip && (w->sp == 1 || (w->sp == 2 && w->fr[0].v[2] == 'I')))
			o->anchor = o->len;
		return cr_dm_ret(w, 0);
	case 5:
		if (f->node)
			cr_dm_rputs(w, o, "::");
		cr_dm_rput(w, o, "<", 1);
		/* fall through */
	case 6:
		if (eat(w, 'E')) {
			cr_dm_rput(w, o, ">", 1);
			return cr_dm_ret(w, 0);
		}
		if (f->v[1]++)
			cr_dm_rputs(w, o, ", ");
		CALL(6, CR_DM_V_GARG, 0, 0);
	default:
		return cr_dm_ret(w, 0);
	}
}

/* <generic-arg> ::= L <lifetime> | K <const> | <type> */
static int print_lifetime(struct cr_demangle_ws *w, struct cr_dm_sink *o, uint64_t lt)
{
	uint64_t depth;

	if (w->skip)
		return 0;
	cr_dm_rput(w, o, "'", 1);
	if (lt == 0) {
		cr_dm_rput(w, o, "_", 1);
		return 0;
	}
	if (lt > w->bld)
		return -1;
	depth = w->bld - lt;
	if (depth < 26) {
		char c = (char)('a' + depth);

		cr_dm_rput(w, o, &c, 1);
	} else {
		cr_dm_rput(w, o, "_", 1);
		cr_dm_rputu(w, o, depth);
	}
	return 0;
}

static int v_garg(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint64_t lt;

	if (f->phase)
		return cr_dm_ret(w, 0);
	if (eat(w, 'L')) {
		if (cr_dm_base62(w, &lt) < 0 || print_lifetime(w, o, lt) < 0)
			return CR_DM_FAIL;
		return cr_dm_ret(w, 0);
	}
	if (eat(w, 'K'))
		CALL(1, CR_DM_V_CONST, 0, 0);
	CALL(1, CR_DM_V_TYPE, 0, 0);
}

/* [G <base-62-number>]: for<'a, 'b> ; the count to drop from w->bld afterwards, -1 if invalid. */
static int64_t binder(struct cr_demangle_ws *w, struct cr_dm_sink *o)
{
	uint64_t n;

	if (cr_dm_opt62(w, 'G', &n) < 0)
		return -1;
	if (!n || w->skip)
		return 0;
	if (n > 0xffff)
		return -1;
	cr_dm_rputs(w, o, "for<");
	for (uint64_t i = 0; i < n; i++) {
		if (i)
			cr_dm_rputs(w, o, ", ");
		w->bld++;
		print_lifetime(w, o, 1);
	}
	cr_dm_rputs(w, o, "> ");
	return (int64_t)n;
}

/*
 * <type>.  v0: lifetimes bound here, v1: list count, v2: tag,
 * v3: phase to resume a list at.
 */
static int v_type(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	const char *b;
	uint64_t lt;
	char c;

	switch (f->phase) {
	case 0:
		c = next(w);
		f->v[2] = (uint16_t)c;
		b = basic_type(c);
		if (b) {
			cr_dm_rputs(w, o, b);
			return cr_dm_ret(w, 0);
		}
		switch (c) {
		case 'R':
		case 'Q':
			cr_dm_rput(w, o, "&", 1);
			if (eat(w, 'L')) {
				if (cr_dm_base62(w, &lt) < 0)
					return CR_DM_FAIL;
				if (lt) {
					if (print_lifetime(w, o, lt) < 0)
						return CR_DM_FAIL;
					cr_dm_rput(w, o, " ", 1);
				}
			}
			if (c == 'Q')
				cr_dm_rputs(w, o, "mut ");
			CALL(20, CR_DM_V_TYPE, 0, 0);
		case 'P':
		case 'O':
			cr_dm_rputs(w, o, c == 'P' ? "*const " : "*mut ");
			CALL(20, CR_DM_V_TYPE, 0, 0);
		case 'A':
		case 'S':
			cr_dm_rput(w, o, "[", 1);
			CALL(1, CR_DM_V_TYPE, 0, 0);
		case 'T':
			cr_dm_rput(w, o, "(", 1);
			goto tuple;
		case 'F': {
			/* fn-sig ::= [<binder>] [U] [K <abi>] {<type>} E <type> */
			int64_t n = binder(w, o);
			int uns;

			if (n < 0)
				return CR_DM_FAIL;
			f->v[0] = (uint16_t)n;
			uns = eat(w, 'U');
			if (eat(w, 'K')) {
				struct cr_dm_ident id;

				if (uns)
					cr_dm_rputs(w, o, "unsafe ");
				uns = 0;
				cr_dm_rputs(w, o, "extern \"");
				if (eat(w, 'C')) {
					cr_dm_rput(w, o, "C", 1);
				} else {
					/* rustc wrote - as _: "C-unwind" */
					if (cr_dm_rident(w, &id) < 0 || !id.an || id.pn)
						return CR_DM_FAIL;
					for (uint32_t i = 0; i < id.an; i++)
						cr_dm_rput(w, o,
						           w->s[id.a + i] == '_' ? "-"
						                                 : w->s + id.a + i,
						           1);
				}
				cr_dm_rputs(w, o, "\" ");
			}
			if (uns)
				cr_dm_rputs(w, o, "unsafe ");
			cr_dm_rputs(w, o, "fn(");
			goto fnargs;
		}
		case 'D': {
			int64_t n;

			cr_dm_rputs(w, o, "dyn ");
			n = binder(w, o);
			if (n < 0)
				return CR_DM_FAIL;
			f->v[0] = (uint16_t)n;
			goto dyn;
		}
		case 'B':
			return cr_dm_backref(w, f, 20, CR_DM_V_TYPE, 0);
		}
		/* a path: back to the tag */
		w->pos--;
		CALL(20, CR_DM_V_PATH, 0, 0);
	case 1:
		if (f->v[2] == 'A') {
			cr_dm_rputs(w, o, "; ");
			CALL(2, CR_DM_V_CONST, 1, 0);
		}
		/* fall through */
	case 2:
		cr_dm_rput(w, o, "]", 1);
		return cr_dm_ret(w, 0);
	case 3:
	tuple:
		if (eat(w, 'E')) {
			if (f->v[1] == 1)
				cr_dm_rput(w, o, ",", 1);
			cr_dm_rput(w, o, ")", 1);
			return cr_dm_ret(w, 0);
		}
		if (f->v[1]++)
			cr_dm_rputs(w, o, ", ");
		CALL(3, CR_DM_V_TYPE, 0, 0);
	case 4:
	fnargs:
		if (eat(w, 'E')) {
			cr_dm_rput(w, o, ")", 1);
			if (eat(w, 'u'))
				goto fnend;
			cr_dm_rputs(w, o, " -> ");
			CALL(5, CR_DM_V_TYPE, 0, 0);
		}
		if (f->v[1]++)
			cr_dm_rputs(w, o, ", ");
		CALL(4, CR_DM_V_TYPE, 0, 0);
	case 5:
	fnend:
		w->bld -= f->v[0];
		return cr_dm_ret(w, 0);
	case 6:
	dyn:
		if (eat(w, 'E')) {
			w->bld -= f->v[0];
			if (!eat(w, 'L') || cr_dm_base62(w, &lt) < 0)
				return CR_DM_FAIL;
			if (lt) {
				cr_dm_rputs(w, o, " + ");
				if (print_lifetime(w, o, lt) < 0)
					return CR_DM_FAIL;
			}
			return cr_dm_ret(w, 0);
		}
		if (f->v[1]++)
			cr_dm_rputs(w, o, " + ");
		CALL(6, CR_DM_V_DYNTRAIT, 0, 0);
	default:
		return cr_dm_ret(w, 0);
	}
}

/* <dyn-trait> ::= <path> {p <name> <type>}: Trait<Assoc = T>.  v0: "<" open. */
static int v_dyntrait(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	struct cr_dm_ident id;

	switch (f->phase) {
	case 0:
		CALL(1, CR_DM_V_OPENPATH, 0, 0);
	case 1:
		f->v[0] = w->ret;
		/* fall through */
	default:
		if (eat(w, 'p')) {
			cr_dm_rputs(w, o, f->v[0] ? ", " : "<");
			f->v[0] = 1;
			if (cr_dm_rident(w, &id) < 0)
				return CR_DM_FAIL;
			cr_dm_rput_ident(w, o, &id);
			cr_dm_rputs(w, o, " = ");
			CALL(2, CR_DM_V_TYPE, 0, 0);
		}
		if (f->v[0])
			cr_dm_rput(w, o, ">", 1);
		return cr_dm_ret(w, 0);
	}
}

/* A trait path whose generic arguments stay open for its associated types: ret 1 if "<" is open. */
static int v_openpath(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	switch (f->phase) {
	case 0:
		if (eat(w, 'B'))
			return cr_dm_backref(w, f, 1, CR_DM_V_OPENPATH, 0);
		if (eat(w, 'I'))
			CALL(2, CR_DM_V_PATH, 0, 0);
		CALL(1, CR_DM_V_PATH, 0, 0);
	case 1:
		return cr_dm_ret(w, w->ret);
	case 2:
		cr_dm_rput(w, o, "<", 1);
		/* fall through */
	default:
		if (eat(w, 'E'))
			return cr_dm_ret(w, 1);
		if (f->v[1]++)
			cr_dm_rputs(w, o, ", ");
		CALL(3, CR_DM_V_GARG, 0, 0);
	}
}

static int dispatch(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	switch (f->fn) {
	case CR_DM_V_PATH:
		return v_path(w, f, o);
	case CR_DM_V_TYPE:
		return v_type(w, f, o);
	case CR_DM_V_CONST:
		return cr_dm_v_const(w, f, o);
	case CR_DM_V_GARG:
		return v_garg(w, f, o);
	case CR_DM_V_DYNTRAIT:
		return v_dyntrait(w, f, o);
	case CR_DM_V_OPENPATH:
		return v_openpath(w, f, o);
	case CR_DM_V_BACKREF:
		return v_backref(w, f, o);
	case CR_DM_V_SKIP:
		return v_skip(w, f, o);
	}
	return CR_DM_FAIL;
}

/* Run a path from w->pos: 0, or -1. */
static int v0_path(struct cr_demangle_ws *w, struct cr_dm_sink *o, int in_value)
{
	struct cr_dm_frame *f = &w->fr[0];

	w->sp = 1;
	f->fn = CR_DM_V_PATH;
	f->phase = 0;
	f->node = (uint16_t)in_value;
	for (unsigned i = 0; i < CR_ARRAY_SIZE(f->v); i++)
		f->v[i] = 0;
	while (w->sp) {
		if (++w->steps > CR_DEMANGLE_STEPS || o->err)
			return -1;
		if (dispatch(w, &w->fr[w->sp - 1], o) == CR_DM_FAIL)
			return -1;
	}
	return 0;
}

/* _R <path> [<instantiating crate>]: the position after it, or -1. */
int32_t cr_dm_v0(struct cr_demangle_ws *w, struct cr_dm_sink *o)
{
	char c;

	w->pos = 2;
	w->skip = 0;
	w->bld = 0;
	w->steps = 0;
	c = peek(w);
	if (c < 'A' || c > 'Z')
		return -1;
	if (v0_path(w, o, 1) < 0)
		return -1;
	/* The instantiating crate: checked, not printed. */
	c = peek(w);
	if (c >= 'A' && c <= 'Z') {
		w->skip = 1;
		if (v0_path(w, o, 0) < 0)
			return -1;
		w->skip = 0;
	}
	return (int32_t)w->pos;
}
