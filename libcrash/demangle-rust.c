/* SPDX-License-Identifier: MIT */
/*
 * Rust symbol names, printed as Rust's own backtraces print them
 * (rustc-demangle's alternate form, "{:#}"): no hash, no crate
 * disambiguators, no integer suffixes on constants.  This file: which
 * mangling, the suffixes, legacy names, and the output and identifiers
 * both manglings share; demangle-rustv0.c and demangle-rustconst.c have v0.
 *
 * Legacy mangling: _ZN <len><element>... E, the last element the hash
 * h<16 hex digits> (dropped); in the elements $LT$ $GT$ $RF$ $BP$ $SP$
 * $LP$ $RP$ $C$ $u<hex>$ stand for < > & * @ ( ) , and a code point, ".."
 * for "::".  v0 mangling (RFC 2603, "Symbol Name Mangling v2"): _R <path>
 * [<instantiating crate>], printed "<T as Trait>::method::<u8>",
 * "::{closure#0}", "&mut [u8; 4]", "dyn Fn(u8) + Send", "for<'a> fn(&'a u8)".
 *
 * Both keep a suffix GCC or LLVM appended (".cold", ".constprop.0"),
 * except ThinLTO's ".llvm.<hex>", as rustc-demangle does.  Not printed
 * (-CR_EINVAL): constants holding non-ASCII characters (escaping them
 * needs Unicode tables), and any name with an error anywhere, where
 * rustc-demangle would print "{invalid syntax}" inside the name.
 */
#include "demangle-int.h"

#include "str.h"

/* Output, unless a path is being skipped (an impl's own path). */
void cr_dm_rput(struct cr_demangle_ws *w, struct cr_dm_sink *o, const char *s, size_t n)
{
	if (!w->skip)
		cr_dm_put(o, s, n);
}

void cr_dm_rputs(struct cr_demangle_ws *w, struct cr_dm_sink *o, const char *s)
{
	cr_dm_rput(w, o, s, cr_strlen(s));
}

void cr_dm_rputu(struct cr_demangle_ws *w, struct cr_dm_sink *o, uint64_t v)
{
	if (!w->skip)
		cr_dm_putu(o, v);
}

/* A code point in UTF-8. */
void cr_dm_rput_cp(struct cr_demangle_ws *w, struct cr_dm_sink *o, uint32_t c)
{
	char b[4];
	size_t n;

	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | c >> 6);
		b[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | c >> 12);
		b[1] = (char)(0x80 | (c >> 6 & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | c >> 18);
		b[1] = (char)(0x80 | (c >> 12 & 0x3f));
		b[2] = (char)(0x80 | (c >> 6 & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	cr_dm_rput(w, o, b, n);
}

/* $...$ escapes of legacy names (rustc's symbol_names/legacy.rs). */
static const struct {
	char code[3];
	char text;
} escapes[] = {
	{ "SP", '@' }, { "BP", '*' }, { "RF", '&' }, { "LT", '<' },
	{ "GT", '>' }, { "LP", '(' }, { "RP", ')' }, { "C", ',' },
};

/* One element: escapes decoded; an escape it does not know ends the decoding, the rest as it is. */
static void legacy_element(struct cr_demangle_ws *w, struct cr_dm_sink *o, const char *p, size_t n)
{
	if (n >= 2 && p[0] == '_' && p[1] == '$') {
		p++;
		n--;
	}
	while (n) {
		size_t i;

		if (p[0] == '.') {
			if (n >= 2 && p[1] == '.') {
				cr_dm_rputs(w, o, "::");
				p += 2;
				n -= 2;
			} else {
				cr_dm_rput(w, o, ".", 1);
				p++;
				n--;
			}
			continue;
		}
		if (p[0] == '$') {
			size_t e = 1;
			uint32_t c = 0;
			int ok = 0;

			while (e < n && p[e] != '$')
				e++;
			if (e >= n)
				break;
			for (unsigned k = 0; e <= 3 && k < CR_ARRAY_SIZE(escapes); k++)
				if (cr_strncmp(escapes[k].code, p + 1, e - 1) == 0 &&
				    !escapes[k].code[e - 1]) {
					c = (unsigned char)escapes[k].text;
					ok = 1;
				}
			/* $u<lower hex>$: a code point (at most 8 digits, as a u32) */
			if (!ok && p[1] == 'u' && e > 2 && e <= 10) {
				ok = 1;
				for (size_t k = 2; k < e; k++) {
					if (!is_hex(p[k]))
						ok = 0;
					else
						c = c << 4 | (uint32_t)hexval(p[k]);
				}
				/* A valid scalar value, not a control character. */
				if (c > 0x10ffff || (c >= 0xd800 && c < 0xe000) || c < 0x20 ||
				    (c >= 0x7f && c < 0xa0))
					ok = 0;
			}
			if (!ok)
				break;
			cr_dm_rput_cp(w, o, c);
			p += e + 1;
			n -= e + 1;
			continue;
		}
		for (i = 0; i < n && p[i] != '$' && p[i] != '.'; i++)
			;
		cr_dm_rput(w, o, p, i);
		p += i;
		n -= i;
	}
	cr_dm_rput(w, o, p, n);
}

/* h and 16 hex digits: the hash rustc appends (ABI-relevant, never shown here). */
static int is_hash(const char *p, size_t n)
{
	if (n != 17 || p[0] != 'h')
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!is_hex(p[i]))
			return 0;
	return 1;
}

/* _ZN <element>+ E: the position after the E, or -1. */
static int32_t legacy(struct cr_demangle_ws *w, struct cr_dm_sink *o)
{
	uint32_t p = 3, last = 0, nelem = 0, end = w->len;

	/* Check the elements first: the hash must be the last one. */
	while (p < end && w->s[p] != 'E') {
		uint32_t n = 0;

		if (!is_digit(w->s[p]))
			return -1;
		while (p < end && is_digit(w->s[p])) {
			n = n * 10 + (uint32_t)(w->s[p++] - '0');
			if (n > CR_DEMANGLE_MAXLEN)
				return -1;
		}
		if (n > end - p)
			return -1;
		last = p;
		p += n;
		nelem++;
	}
	if (p >= end || nelem < 2 || !is_hash(w->s + last, p - last))
		return -1;
	p = 3;
	for (uint32_t e = 0; e + 1 < nelem; e++) {
		uint32_t n = 0;

		while (is_digit(w->s[p]))
			n = n * 10 + (uint32_t)(w->s[p++] - '0');
		if (e)
			cr_dm_rputs(w, o, "::");
		legacy_element(w, o, w->s + p, n);
		p += n;
	}
	while (w->s[p] != 'E')
		p++;
	return (int32_t)p + 1;
}

/* RFC 3492 decoding into ws->puny[]: the number of code points, -1 if invalid or too long. */
static int punycode(struct cr_demangle_ws *w, const struct cr_dm_ident *id)
{
	uint32_t len = 0, i = 0, n = 0x80, bias = 72, damp = 700;
	uint32_t q = id->p, end = id->p + id->pn;

	for (uint32_t k = 0; k < id->an; k++) {
		if (len >= CR_ARRAY_SIZE(w->puny))
			return -1;
		w->puny[len++] = (unsigned char)w->s[id->a + k];
	}
	while (q < end) {
		uint64_t delta = 0, wt = 1;

		for (uint32_t k = 36;; k += 36) {
			uint32_t t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
			char c = q < end ? w->s[q++] : 0;
			uint32_t d;

			if (c >= 'a' && c <= 'z')
				d = (uint32_t)(c - 'a');
			else if (is_digit(c))
				d = 26 + (uint32_t)(c - '0');
			else
				return -1;
			delta += d * wt;
			if (delta > 0xffffffffu)
				return -1;
			if (d < t)
				break;
			wt *= 36 - t;
			if (wt > 0xffffffffu || k > 36 * 8)
				return -1;
		}
		if (len >= CR_ARRAY_SIZE(w->puny))
			return -1;
		len++;
		if (i + delta > 0xffffffffu)
			return -1;
		i += (uint32_t)delta;
		n += i / len;
		i %= len;
		if (n > 0x10ffff || (n >= 0xd800 && n < 0xe000))
			return -1;
		for (uint32_t j = len - 1; j > i; j--)
			w->puny[j] = w->puny[j - 1];
		w->puny[i++] = n;
		if (q >= end)
			break;
		/* bias adaptation */
		delta /= damp;
		damp = 2;
		delta += delta / len;
		{
			uint32_t k = 0;

			while (delta > (35 * 26) / 2) {
				delta /= 35;
				k += 36;
			}
			bias = k + (uint32_t)((36 * delta) / (delta + 38));
		}
	}
	return (int)len;
}

int cr_dm_rident(struct cr_demangle_ws *w, struct cr_dm_ident *id)
{
	int puny = eat(w, 'u');
	uint32_t n;

	if (!is_digit(peek(w)))
		return -1;
	n = (uint32_t)(next(w) - '0');
	if (n)
		while (is_digit(peek(w))) {
			n = n * 10 + (uint32_t)(next(w) - '0');
			if (n > CR_DEMANGLE_MAXLEN)
				return -1;
		}
	eat(w, '_');
	if (n > w->len - w->pos)
		return -1;
	id->a = w->pos;
	id->an = n;
	id->pn = 0;
	w->pos += n;
	if (puny) {
		/* ascii_punycode: the part after the last '_' is Punycode. */
		uint32_t i = n;

		while (i && w->s[id->a + i - 1] != '_')
			i--;
		id->p = id->a + i;
		id->pn = n - i;
		id->an = i ? i - 1 : 0;
		if (!id->pn)
			return -1;
	}
	return 0;
}

void cr_dm_rput_ident(struct cr_demangle_ws *w, struct cr_dm_sink *o, const struct cr_dm_ident *id)
{
	int n;

	if (w->skip)
		return;
	if (!id->pn) {
		cr_dm_rput(w, o, w->s + id->a, id->an);
		return;
	}
	n = punycode(w, id);
	if (n < 0) {
		/* As rustc-demangle: the standard Punycode form. */
		cr_dm_rputs(w, o, "punycode{");
		if (id->an) {
			cr_dm_rput(w, o, w->s + id->a, id->an);
			cr_dm_rput(w, o, "-", 1);
		}
		cr_dm_rput(w, o, w->s + id->p, id->pn);
		cr_dm_rput(w, o, "}", 1);
		return;
	}
	for (int k = 0; k < n; k++)
		cr_dm_rput_cp(w, o, w->puny[k]);
}

/*
 * One pass over a Rust name: 0 with the text in o, -CR_EINVAL if it is
 * none (then the C++ demangler tries it).
 */
int cr_dm_rust(struct cr_demangle_ws *w, struct cr_dm_sink *o)
{
	uint32_t len = w->len;
	int32_t p;

	w->skip = 0;
	for (uint32_t i = 0; i < len; i++)
		if ((unsigned char)w->s[i] >= 0x80)
			return -CR_EINVAL;
	/* ThinLTO's .llvm.<hex>[@...]: gone before the name is read, as rustc-demangle. */
	for (uint32_t i = 0; i + 6 <= len; i++) {
		if (cr_memeq(w->s + i, ".llvm.", 6)) {
			uint32_t j = i + 6;

			while (j < len && ((w->s[j] >= 'A' && w->s[j] <= 'F') ||
			                   is_digit(w->s[j]) || w->s[j] == '@'))
				j++;
			if (j == len)
				w->len = i;
			break;
		}
	}
	if (w->len >= 3 && w->s[0] == '_' && w->s[1] == 'R')
		p = cr_dm_v0(w, o);
	else if (w->len >= 4 && cr_memeq(w->s, "_ZN", 3))
		p = legacy(w, o);
	else
		p = -1;
	/* Another suffix (.cold, .constprop.0) is kept as it is, if it looks like one. */
	if (p >= 0 && (uint32_t)p < w->len) {
		if (w->s[p] != '.')
			p = -1;
		for (uint32_t i = (uint32_t)p; p >= 0 && i < w->len; i++)
			if (w->s[i] <= ' ' || w->s[i] > '~')
				p = -1;
	}
	if (p >= 0)
		cr_dm_rput(w, o, w->s + p, w->len - (uint32_t)p);
	w->len = len;
	return p < 0 ? -CR_EINVAL : 0;
}
