/* SPDX-License-Identifier: MIT */
/*
 * cr_demangle: which demangler, and the output with its elision.
 *
 * A name is read as Rust v0 when it starts with _R; as Rust legacy when
 * it has the legacy form (_ZN, source names only, the last one the hash
 * h + 16 hex digits, E), tried before C++ as c++filt does; as C++
 * (Itanium ABI) when it starts with _Z, or is _GLOBAL__I_ / _GLOBAL__D_
 * and what the constructors are keyed to.  Anything else, or a name one
 * of them rejects, is -CR_EINVAL: the caller prints it as it is.  GCC's
 * _GLOBAL__sub_I_<file> (static initialisers) is such a name: c++filt
 * leaves it alone too.
 *
 * Each demangler runs twice: a first pass measures the text and finds
 * every error without writing, a second writes it.  So a failure writes
 * nothing and the second pass knows the length before it starts.
 *
 * Elision, when the text does not fit in cap - 1 bytes.  Pieces (an
 * identifier, a number, an operator, "::", ", ", "<") are kept or dropped
 * whole, never cut: a cut range of the text drops every piece that
 * overlaps it, and one CR_DEMANGLE_ELLIPSIS stands for them.  Where the
 * cuts go (plan()): the text is the part up to the end of the innermost
 * name (for C++ "void ns::A::f", for Rust "core::ptr::drop_in_place")
 * and what follows (template arguments, parameters, qualifiers).  If what
 * follows fits in two thirds of the room, one cut: the first third of the
 * room keeps the start, the rest the end, innermost name included.  Else
 * two cuts, half of the room on each side of the end of the name: the
 * first part keeps its start and its end (the name), the second its start
 * and its end.  A piece longer than the room it would need (a giant
 * identifier) is dropped.
 */
#include "demangle-int.h"

#include "str.h"

static void emit(struct cr_dm_sink *o, const char *s, size_t n)
{
	size_t at = o->len;

	o->len += n;
	o->last = s[n - 1];
	if (o->len > CR_DEMANGLE_MAXOUT) {
		o->err = 1;
		return;
	}
	if (!o->buf)
		return;
	for (unsigned k = 0; k < o->ncuts; k++) {
		if (at + n > o->cut[k][0] && at < o->cut[k][1]) {
			/* dropped: the marker stands for the first piece of the cut */
			if (!(o->marked & (1u << k))) {
				o->marked |= (uint8_t)(1u << k);
				for (const char *e = CR_DEMANGLE_ELLIPSIS; *e; e++)
					o->buf[o->w++] = *e;
			}
			return;
		}
	}
	for (size_t i = 0; i < n; i++)
		o->buf[o->w++] = s[i];
}

void cr_dm_put(struct cr_dm_sink *o, const char *s, size_t n)
{
	if (!n)
		return;
	/* Separators owed by lists whose next element turned out to print something. */
	for (; o->pend; o->pend--)
		emit(o, ", ", 2);
	emit(o, s, n);
}

void cr_dm_puts(struct cr_dm_sink *o, const char *s)
{
	cr_dm_put(o, s, cr_strlen(s));
}

void cr_dm_putc(struct cr_dm_sink *o, char c)
{
	cr_dm_put(o, &c, 1);
}

void cr_dm_putu(struct cr_dm_sink *o, uint64_t v)
{
	char b[20];
	size_t i = sizeof(b);

	do {
		b[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	cr_dm_put(o, b + i, sizeof(b) - i);
}

int cr_dm_call(struct cr_demangle_ws *ws, struct cr_dm_frame *f, int phase, int fn, uint16_t node,
	       uint16_t v0)
{
	struct cr_dm_frame *c;

	if (ws->sp >= CR_DEMANGLE_DEPTH) {
		ws->fatal = 1;
		return CR_DM_FAIL;
	}
	f->phase = (uint8_t)phase;
	c = &ws->fr[ws->sp++];
	c->fn = (uint8_t)fn;
	c->phase = 0;
	c->node = node;
	for (unsigned i = 0; i < CR_ARRAY_SIZE(c->v); i++)
		c->v[i] = 0;
	c->v[0] = v0;
	return CR_DM_CALL;
}

/* One pass of the demangler that took the name (which is ws->ret's meaning for C++). */
static int pass(struct cr_demangle_ws *ws, int rust, struct cr_dm_sink *o)
{
	return rust ? cr_dm_rust(ws, o) : cr_dm_cxx_print(ws, o);
}

/*
 * Where to cut a text of len bytes (more than room) whose innermost name
 * ends at anchor.  What follows the anchor (template arguments,
 * parameters) fits in two thirds of the room: one cut, the first third
 * of the room kept before it.  Else half of the room for each side of
 * the anchor, each side keeping its start and its end (the side before
 * the anchor: the name at its end); a side that fits in its half whole
 * gives the rest to the other, which then has the only cut.  Each cut
 * [from, to) is non-empty and what it keeps fits in room.
 */
static void plan(struct cr_dm_sink *o, size_t len, size_t anchor, size_t room)
{
	const size_t m = sizeof(CR_DEMANGLE_ELLIPSIS) - 1;
	size_t avail = room - m, t = avail - avail / 3, xb, yb, after;

	if (!anchor || anchor > len)
		anchor = len;
	after = len - anchor;
	o->ncuts = 1;
	if (after + 16 <= t || anchor < 16) {
		o->cut[0][0] = avail / 3;
		o->cut[0][1] = len - t;
		return;
	}
	xb = (room - 2 * m) / 2;
	yb = room - 2 * m - xb;
	if (anchor <= xb) {
		/* the start fits whole: cut what follows the anchor */
		yb = avail - anchor;
		o->cut[0][0] = anchor + yb / 2;
		o->cut[0][1] = len - (yb - yb / 2);
		return;
	}
	if (after <= yb) {
		/* what follows fits whole: cut the start */
		xb = avail - after;
		o->cut[0][0] = xb / 3;
		o->cut[0][1] = anchor - (xb - xb / 3);
		return;
	}
	o->ncuts = 2;
	o->cut[0][0] = xb / 3;
	o->cut[0][1] = anchor - (xb - xb / 3);
	o->cut[1][0] = anchor + yb / 2;
	o->cut[1][1] = len - (yb - yb / 2);
}

int cr_demangle_ws(struct cr_demangle_ws *ws, const char *name, char *out, size_t cap)
{
	struct cr_dm_sink o = { 0 };
	size_t len = 0, anchor;
	int rust, r;

	if (!name || !out || cap < CR_DEMANGLE_MINCAP)
		return -CR_EINVAL;
	/* Never past the NUL, never past the bound (a pointer walk: no strlen import, str.h). */
	for (const char *p = name; len <= CR_DEMANGLE_MAXLEN && *p; p++)
		len++;
	if (len > CR_DEMANGLE_MAXLEN || len < 2)
		return -CR_EINVAL;
	ws->s = name;
	ws->len = (uint32_t)len;

	/* Rust first: its legacy names are valid C++ names too (with the hash printed). */
	rust = 1;
	if (cr_dm_rust(ws, &o) < 0 || o.err) {
		rust = 0;
		o = (struct cr_dm_sink){ 0 };
		if (cr_dm_cxx_parse(ws) < 0 || cr_dm_cxx_print(ws, &o) < 0 || o.err)
			return -CR_EINVAL;
	}
	len = o.len;
	anchor = o.anchor;
	o = (struct cr_dm_sink){ .buf = out };
	if (len > cap - 1)
		plan(&o, len, anchor, cap - 1);
	r = pass(ws, rust, &o);
	if (r < 0 || o.err || o.len != len || o.w > cap - 1) {
		/* Cannot happen: the same pass succeeded on the same input. */
		out[0] = 0;
		return -CR_EINVAL;
	}
	out[o.w] = 0;
	return (int)o.w;
}

int cr_demangle(const char *name, char *out, size_t cap)
{
	struct cr_demangle_ws ws;

	return cr_demangle_ws(&ws, name, out, cap);
}
