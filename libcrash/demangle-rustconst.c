/* SPDX-License-Identifier: MIT */
/*
 * Rust v0 constants (RFC 2603, <const>; demangle-rustv0.c has the rest):
 * integers without their type suffix, true/false, 'c', "str", &x, [a, b],
 * (a,), Path, Path(a), Path { f: a }, in braces outside an expression, as
 * rustc-demangle's alternate form prints them.  ASCII characters only.
 */
#include "demangle-int.h"

/* {hex} _ : start and count of the nibbles. */
static int nibbles(struct cr_demangle_ws *w, uint32_t *start, uint32_t *n)
{
	*start = w->pos;
	for (unsigned g = 0; g <= CR_DEMANGLE_MAXLEN; g++) {
		char c = next(w);

		if (c == '_') {
			*n = w->pos - 1 - *start;
			return 0;
		}
		if (!is_hex(c))
			return -1;
	}
	return -1;
}

/* Their value if it fits 64 bits (leading zeros aside). */
static int nibbles_u64(const struct cr_demangle_ws *w, uint32_t s, uint32_t n, uint64_t *v)
{
	while (n && w->s[s] == '0') {
		s++;
		n--;
	}
	if (n > 16)
		return -1;
	*v = 0;
	for (uint32_t i = 0; i < n; i++)
		*v = *v << 4 | (uint64_t)hexval(w->s[s + i]);
	return 0;
}

/* A character in quotes as Rust's escape_debug writes it; ASCII only. */
static int put_escaped(struct cr_demangle_ws *w, struct cr_dm_sink *o, uint32_t c, char quote)
{
	char b[12];

	if (c >= 0x80)
		return -1;
	if ((quote == '\'' && c == '"') || (quote == '"' && c == '\'')) {
		b[0] = (char)c;
		cr_dm_rput(w, o, b, 1);
		return 0;
	}
	switch (c) {
	case '\t': cr_dm_rputs(w, o, "\\t"); return 0;
	case '\r': cr_dm_rputs(w, o, "\\r"); return 0;
	case '\n': cr_dm_rputs(w, o, "\\n"); return 0;
	case '\\': cr_dm_rputs(w, o, "\\\\"); return 0;
	case '\'': cr_dm_rputs(w, o, "\\'"); return 0;
	case '"': cr_dm_rputs(w, o, "\\\""); return 0;
	case 0: cr_dm_rputs(w, o, "\\0"); return 0;
	}
	if (c < 0x20 || c == 0x7f) {
		cr_dm_rputs(w, o, "\\u{");
		if (c >= 0x10)
			cr_dm_rput(w, o, &"0123456789abcdef"[c >> 4], 1);
		cr_dm_rput(w, o, &"0123456789abcdef"[c & 15], 1);
		cr_dm_rput(w, o, "}", 1);
		return 0;
	}
	b[0] = (char)c;
	cr_dm_rput(w, o, b, 1);
	return 0;
}

/*
 * <const>; node: inside an expression (no braces needed).  Integers
 * without their type suffix, true/false, 'c', "str", &x, [a, b], (a,),
 * Path, Path(a), Path { f: a }.  v0: brace opened, v1: count, v2: tag.
 */
int cr_dm_v_const(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint32_t s, n;
	uint64_t v;
	char c;

	switch (f->phase) {
	case 0:
		c = next(w);
		f->v[2] = (uint16_t)c;
		switch (c) {
		case 'p':
			cr_dm_rput(w, o, "_", 1);
			return cr_dm_ret(w, 0);
		case 'a':
		case 's':
		case 'l':
		case 'x':
		case 'n':
		case 'i':
			if (eat(w, 'n'))
				cr_dm_rput(w, o, "-", 1);
			/* fall through */
		case 'h':
		case 't':
		case 'm':
		case 'y':
		case 'o':
		case 'j':
			if (nibbles(w, &s, &n) < 0)
				return CR_DM_FAIL;
			if (nibbles_u64(w, s, n, &v) == 0) {
				cr_dm_rputu(w, o, v);
			} else {
				cr_dm_rputs(w, o, "0x");
				cr_dm_rput(w, o, w->s + s, n);
			}
			return cr_dm_ret(w, 0);
		case 'b':
			if (nibbles(w, &s, &n) < 0 || nibbles_u64(w, s, n, &v) < 0 || v > 1)
				return CR_DM_FAIL;
			cr_dm_rputs(w, o, v ? "true" : "false");
			return cr_dm_ret(w, 0);
		case 'c':
			if (nibbles(w, &s, &n) < 0 || nibbles_u64(w, s, n, &v) < 0 ||
			    v > 0x10ffff || (v >= 0xd800 && v < 0xe000))
				return CR_DM_FAIL;
			cr_dm_rput(w, o, "'", 1);
			if (put_escaped(w, o, (uint32_t)v, '\'') < 0)
				return CR_DM_FAIL;
			cr_dm_rput(w, o, "'", 1);
			return cr_dm_ret(w, 0);
		case 'e':
			if (!f->node) {
				cr_dm_rput(w, o, "{", 1);
				f->v[0] = 1;
			}
			cr_dm_rput(w, o, "*", 1);
			goto str;
		case 'R':
		case 'Q':
			if (c == 'R' && eat(w, 'e'))
				goto str;
			if (!f->node) {
				cr_dm_rput(w, o, "{", 1);
				f->v[0] = 1;
			}
			cr_dm_rputs(w, o, c == 'R' ? "&" : "&mut ");
			CALL(9, CR_DM_V_CONST, 1, 0);
		case 'A':
		case 'T':
			if (!f->node) {
				cr_dm_rput(w, o, "{", 1);
				f->v[0] = 1;
			}
			cr_dm_rput(w, o, c == 'A' ? "[" : "(", 1);
			goto list;
		case 'V':
			if (!f->node) {
				cr_dm_rput(w, o, "{", 1);
				f->v[0] = 1;
			}
			CALL(3, CR_DM_V_PATH, 1, 0);
		case 'B':
			return cr_dm_backref(w, f, 9, CR_DM_V_CONST, f->node);
		}
		return CR_DM_FAIL;
	str:
		/* a string literal: UTF-8 bytes in hex; ASCII only here */
		if (nibbles(w, &s, &n) < 0 || n % 2)
			return CR_DM_FAIL;
		cr_dm_rput(w, o, "\"", 1);
		for (uint32_t i = 0; i < n; i += 2) {
			uint32_t ch =
			    (uint32_t)(hexval(w->s[s + i]) << 4 | hexval(w->s[s + i + 1]));

			if (put_escaped(w, o, ch, '"') < 0)
				return CR_DM_FAIL;
		}
		cr_dm_rput(w, o, "\"", 1);
		goto end;
	case 2:
	list:
		if (eat(w, 'E')) {
			if (f->v[2] == 'T' && f->v[1] == 1)
				cr_dm_rput(w, o, ",", 1);
			cr_dm_rput(w, o, f->v[2] == 'A' || f->v[2] == 'S' ? "]" : ")", 1);
			goto end;
		}
		if (f->v[1]++)
			cr_dm_rputs(w, o, ", ");
		CALL(2, CR_DM_V_CONST, 1, 0);
	case 3:
		/* a variant: U (unit), T (tuple), S (struct) */
		c = next(w);
		if (c == 'U')
			goto end;
		if (c == 'T') {
			cr_dm_rput(w, o, "(", 1);
			f->v[2] = 'V';
			goto list;
		}
		if (c != 'S')
			return CR_DM_FAIL;
		cr_dm_rputs(w, o, " { ");
		f->v[2] = 'S';
		/* fall through */
	case 4:
		if (eat(w, 'E')) {
			cr_dm_rputs(w, o, " }");
			goto end;
		}
		if (f->v[1]++)
			cr_dm_rputs(w, o, ", ");
		{
			struct cr_dm_ident id;
			uint64_t dis;

			if (cr_dm_opt62(w, 's', &dis) < 0 || cr_dm_rident(w, &id) < 0)
				return CR_DM_FAIL;
			cr_dm_rput_ident(w, o, &id);
		}
		cr_dm_rputs(w, o, ": ");
		CALL(4, CR_DM_V_CONST, 1, 0);
	default:
	end:
		if (f->v[0])
			cr_dm_rput(w, o, "}", 1);
		return cr_dm_ret(w, 0);
	}
}
