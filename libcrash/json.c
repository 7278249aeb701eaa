/* SPDX-License-Identifier: MIT */
/* The JSON writer: json.h. */
#include <string.h>

#include "json.h"
#include "str.h"

/* ,"truncated":true and the newline: kept free for cr_json_finish. */
#define TRUNC ",\"truncated\":true"
#define RESERVE (sizeof(TRUNC) - 1 + 1)

void cr_json_init(struct cr_json *j, struct cr_out *o, size_t limit)
{
	j->o = o;
	j->limit = limit;
	j->len = 0;
	j->depth = j->skip = 0;
	j->cut = 0;
}

/*
 * Does a value of n bytes fit, with opens more containers after it?  Room
 * stays for every closer and the truncation note.  No: the cut, for good.
 */
static int fits(struct cr_json *j, size_t n, unsigned opens)
{
	size_t need = n + j->depth + opens + RESERVE;

	if (!j->cut && (j->depth + opens > CR_JSON_DEPTH || j->len + need > j->limit))
		j->cut = 1;
	return !j->cut;
}

static void raw(struct cr_json *j, const char *s, size_t n)
{
	cr_putsn(j->o, s, n);
	j->len += n;
}

/* The bytes before a value: a comma after an earlier member, and "key":. */
static size_t prefix_len(const struct cr_json *j, const char *key)
{
	size_t n = j->depth && j->member[j->depth - 1] ? 1 : 0;

	return key ? n + cr_strlen(key) + 3 : n;
}

static void prefix(struct cr_json *j, const char *key)
{
	if (j->depth && j->member[j->depth - 1])
		raw(j, ",", 1);
	if (j->depth)
		j->member[j->depth - 1] = 1;
	if (key) {
		raw(j, "\"", 1);
		raw(j, key, cr_strlen(key));
		raw(j, "\":", 2);
	}
}

static void open_(struct cr_json *j, const char *key, int array)
{
	if (j->cut || !fits(j, prefix_len(j, key) + 1, 1)) {
		j->skip++;
		return;
	}
	prefix(j, key);
	raw(j, array ? "[" : "{", 1);
	j->member[j->depth] = 0;
	j->array[j->depth++] = (uint8_t)array;
}

void cr_json_obj(struct cr_json *j, const char *key)
{
	open_(j, key, 0);
}

void cr_json_arr(struct cr_json *j, const char *key)
{
	open_(j, key, 1);
}

void cr_json_end(struct cr_json *j)
{
	if (j->skip) {
		j->skip--;
		return;
	}
	if (!j->depth)
		return;
	if (j->depth == 1 && j->cut && !j->array[0])
		raw(j, &TRUNC[!j->member[0]], sizeof(TRUNC) - 1 - !j->member[0]);
	j->depth--;
	raw(j, j->array[j->depth] ? "]" : "}", 1);
}

int cr_json_finish(struct cr_json *j)
{
	int cut = j->cut;

	j->skip = 0;
	for (unsigned i = 0; i < CR_JSON_DEPTH && j->depth; i++)
		cr_json_end(j);
	raw(j, "\n", 1);
	return cut;
}

/*
 * The length of the valid UTF-8 sequence at s[0..n) (RFC 3629 section 4's
 * table: the second byte's range depends on the first, which rules out
 * overlong forms, surrogates and code points above U+10FFFF), or 0.
 */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/*
 * s[0..n) (up to a NUL) escaped; written when j is not NULL.  Returns the
 * escaped length.  One pass measures, a second writes: a string is written
 * whole or not at all.
 */
static size_t escape(struct cr_json *j, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t out = 0, i = 0;

	while (i < n && s[i]) {
		char e[8];
		size_t k = 0, len = 1;
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			e[k++] = '\\';
			e[k++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			e[k++] = '\\';
			switch (c) {
			case '\b': e[k++] = 'b'; break;
			case '\f': e[k++] = 'f'; break;
			case '\n': e[k++] = 'n'; break;
			case '\r': e[k++] = 'r'; break;
			case '\t': e[k++] = 't'; break;
			default:
				memcpy(e + k, "u00", 3);
				k += 3;
				e[k++] = "0123456789abcdef"[c >> 4];
				e[k++] = "0123456789abcdef"[c & 15];
			}
		} else if (c < 0x80) {
			e[k++] = (char)c;
		} else if ((len = utf8_seq(s + i, n - i)) != 0) {
			if (j)
				raw(j, str + i, len);
			out += len;
			i += len;
			continue;
		} else {
			memcpy(e, "\\ufffd", 6);	/* one replacement per invalid byte */
			k = 6;
			len = 1;
		}
		if (j)
			raw(j, e, k);
		out += k;
		i += len;
	}
	return out;
}

size_t cr_json_escaped_len(const char *s, size_t n)
{
	return escape(NULL, s, n);
}

void cr_json_strn(struct cr_json *j, const char *key, const char *s, size_t max)
{
	if (j->cut || !fits(j, prefix_len(j, key) + 2 + escape(NULL, s, max), 0))
		return;
	prefix(j, key);
	raw(j, "\"", 1);
	escape(j, s, max);
	raw(j, "\"", 1);
}

void cr_json_str(struct cr_json *j, const char *key, const char *s)
{
	cr_json_strn(j, key, s, (size_t)-1);
}

/* A value whose text needs no escaping (numbers, literals). */
static void literal(struct cr_json *j, const char *key, const char *s, size_t n)
{
	if (j->cut || !fits(j, prefix_len(j, key) + n, 0))
		return;
	prefix(j, key);
	raw(j, s, n);
}

void cr_json_u64(struct cr_json *j, const char *key, uint64_t v)
{
	char t[24];

	literal(j, key, t, cr_fmt_u(t, sizeof(t), v));
}

void cr_json_i64(struct cr_json *j, const char *key, int64_t v)
{
	char t[24];

	t[0] = '-';
	if (v < 0)
		literal(j, key, t, 1 + cr_fmt_u(t + 1, sizeof(t) - 1, (uint64_t)0 - (uint64_t)v));
	else
		cr_json_u64(j, key, (uint64_t)v);
}

void cr_json_bool(struct cr_json *j, const char *key, int v)
{
	literal(j, key, v ? "true" : "false", v ? 4 : 5);
}

void cr_json_null(struct cr_json *j, const char *key)
{
	literal(j, key, "null", 4);
}

void cr_json_addr(struct cr_json *j, const char *key, uint64_t v)
{
	char t[24] = "\"0x";

	cr_fmt_x(t + 3, sizeof(t) - 3, v, 16);
	t[19] = '"';
	literal(j, key, t, 20);
}

void cr_json_hex(struct cr_json *j, const char *key, const uint8_t *b, size_t n)
{
	char t[2 * 64 + 3];
	size_t k = 0;

	t[k++] = '"';
	for (size_t i = 0; i < n && i < 64; i++) {
		t[k++] = "0123456789abcdef"[b[i] >> 4];
		t[k++] = "0123456789abcdef"[b[i] & 15];
	}
	t[k++] = '"';
	literal(j, key, t, k);
}
