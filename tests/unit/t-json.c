/* SPDX-License-Identifier: MIT */
/*
 * json.c: exact output for every class of character (RFC 8259 escapes, DEL,
 * valid UTF-8 of every length, each kind of invalid byte), nesting, commas,
 * numbers and addresses; and the budget: for every limit from 0 up to the
 * whole document's size, the output is a valid, smaller document: a prefix
 * of the full one with members whole or absent, closed, marked truncated.
 * And Sentry's debug_id of a build-id (json-report.c).
 */
#include "../tap.h"
#include "json.h"

static char text[8192];

/* One string value at the top level. */
static const char *str(const char *s, size_t max)
{
	struct cr_json j;
	struct cr_out o;

	cr_out_mem(&o, text, sizeof(text));
	cr_json_init(&j, &o, 4096);
	cr_json_strn(&j, NULL, s, max);
	cr_out_drain(&o);
	return text;
}

static void t_escape(void)
{
	tap_is_str(str("plain text 123", (size_t)-1), "\"plain text 123\"", "ASCII as it is");
	tap_is_str(str("q\"b\\s/", (size_t)-1), "\"q\\\"b\\\\s/\"", "quote and backslash escaped, / not");
	tap_is_str(str("\b\f\n\r\t", (size_t)-1), "\"\\b\\f\\n\\r\\t\"", "the five short escapes");
	tap_is_str(str("\x01\x1f\x7f", (size_t)-1), "\"\\u0001\\u001f\\u007f\"",
		   "other control characters and DEL as \\u00XX");
	tap_is_str(str("\xc3\xa9\xe2\x80\xa6\xf0\x9f\x98\x80", (size_t)-1),
		   "\"\xc3\xa9\xe2\x80\xa6\xf0\x9f\x98\x80\"", "UTF-8 of 2, 3 and 4 bytes copied");
	tap_is_str(str("a\x80z", (size_t)-1), "\"a\\ufffdz\"", "a lone continuation byte");
	tap_is_str(str("\xc0\xaf", (size_t)-1), "\"\\ufffd\\ufffd\"", "an overlong '/' (C0 AF)");
	tap_is_str(str("\xe0\x80\xaf", (size_t)-1), "\"\\ufffd\\ufffd\\ufffd\"",
		   "an overlong 3-byte form (E0 80 AF)");
	tap_is_str(str("\xed\xa0\x80", (size_t)-1), "\"\\ufffd\\ufffd\\ufffd\"",
		   "a surrogate (ED A0 80)");
	tap_is_str(str("\xf4\x90\x80\x80", (size_t)-1), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
		   "above U+10FFFF (F4 90 80 80)");
	tap_is_str(str("\xf5\xff\xfe", (size_t)-1), "\"\\ufffd\\ufffd\\ufffd\"", "F5, FF, FE");
	tap_is_str(str("x\xe2\x80", (size_t)-1), "\"x\\ufffd\\ufffd\"",
		   "a sequence cut by the string's end");
	tap_is_str(str("\xe2\x80\xa6", 2), "\"\\ufffd\\ufffd\"", "a sequence cut by max");
	tap_is_str(str("abcdef", 3), "\"abc\"", "at most max bytes");
	tap_is_u64(cr_json_escaped_len("a\"\x01\xc3\xa9\xff", (size_t)-1), 1 + 2 + 6 + 2 + 6,
		   "escaped length");
}

/* A document of every kind of value, within limit. */
static size_t doc(size_t limit, int *cut)
{
	static const uint8_t id[] = { 0xde, 0xad, 0xbe, 0xef };
	struct cr_json j;
	struct cr_out o;

	cr_out_mem(&o, text, sizeof(text));
	cr_json_init(&j, &o, limit);
	cr_json_obj(&j, NULL);
	cr_json_str(&j, "schema", "t/1");
	cr_json_u64(&j, "u", 18446744073709551615ull);
	cr_json_i64(&j, "i", -9223372036854775807ll - 1);
	cr_json_i64(&j, "p", 42);
	cr_json_bool(&j, "t", 1);
	cr_json_bool(&j, "f", 0);
	cr_json_null(&j, "n");
	cr_json_addr(&j, "a", 0x1234);
	cr_json_hex(&j, "id", id, sizeof(id));
	cr_json_arr(&j, "list");
	cr_json_obj(&j, NULL);
	cr_json_u64(&j, "k", 1);
	cr_json_end(&j);
	cr_json_obj(&j, NULL);
	cr_json_end(&j);
	cr_json_arr(&j, NULL);
	cr_json_str(&j, NULL, "x\ny");
	cr_json_end(&j);
	cr_json_end(&j);
	cr_json_str(&j, "last", "end");
	cr_json_end(&j);
	*cut = cr_json_finish(&j);
	cr_out_drain(&o);
	return o.memlen;
}

static const char full[] =
	"{\"schema\":\"t/1\",\"u\":18446744073709551615,\"i\":-9223372036854775808,\"p\":42,"
	"\"t\":true,\"f\":false,\"n\":null,\"a\":\"0x0000000000001234\",\"id\":\"deadbeef\","
	"\"list\":[{\"k\":1},{},[\"x\\ny\"]],\"last\":\"end\"}\n";

/* Is s (n bytes, a newline at the end) one balanced JSON document, strings aside? */
static int balanced(const char *s, size_t n)
{
	int depth = 0, instr = 0;

	if (n == 0 || s[n - 1] != '\n')
		return 0;
	for (size_t i = 0; i + 1 < n; i++) {
		if (instr) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				instr = 0;
			continue;
		}
		if (s[i] == '"')
			instr = 1;
		else if (s[i] == '{' || s[i] == '[')
			depth++;
		else if (s[i] == '}' || s[i] == ']')
			depth--;
		else if (s[i] == ',' && (s[i + 1] == '}' || s[i + 1] == ']' || s[i - 1] == '{' ||
					 s[i - 1] == '['))
			return 0;	/* a dangling comma */
		if (depth < 0)
			return 0;
	}
	return depth == 0 && !instr;
}

static void t_doc(void)
{
	size_t n, whole;
	int cut, all = 1, prefix = 1;

	whole = doc(4096, &cut);
	tap_is_str(text, full, "every kind of value, nested, with commas");
	tap_ok(!cut, "not cut");
	/* Room for ',"truncated":true' stays free until the end. */
	n = doc(whole + 17, &cut);
	tap_ok(n == whole && !cut, "a limit of its size and the truncation note's: whole");
	n = doc(whole + 16, &cut);
	tap_ok(n <= whole + 16 && cut && balanced(text, n), "one byte less: cut");
	for (size_t limit = 0; limit < whole; limit++) {
		char want[sizeof(full)];
		size_t k;

		n = doc(limit, &cut);
		if (limit < 20) {	/* not even '{' and the truncation note fit */
			if (n != 1 || text[0] != '\n' || !cut)
				all = 0;
			continue;
		}
		if (!cut || n > limit || !balanced(text, n) ||
		    !strstr(text, "\"truncated\":true}\n"))
			all = 0;
		/* What comes before the closers is a prefix of the full document. */
		k = (size_t)(strstr(text, "\"truncated\"") - text);
		if (k && text[k - 1] == ',')
			k--;
		while (k && (text[k - 1] == '}' || text[k - 1] == ']'))
			k--;
		memcpy(want, full, k);
		if (memcmp(want, text, k) != 0)
			prefix = 0;
	}
	tap_ok(all, "every smaller limit: cut, within the limit, balanced, marked truncated");
	tap_ok(prefix, "every smaller limit: a prefix of the whole document, then its closers");
	n = doc(60, &cut);
	tap_is_str(text, "{\"schema\":\"t/1\",\"u\":18446744073709551615,\"truncated\":true}\n",
		   "a cut: members whole or absent");
}

static void t_depth(void)
{
	struct cr_json j;
	struct cr_out o;

	cr_out_mem(&o, text, sizeof(text));
	cr_json_init(&j, &o, 4096);
	for (int i = 0; i < CR_JSON_DEPTH + 4; i++)
		cr_json_arr(&j, NULL);
	for (int i = 0; i < CR_JSON_DEPTH + 4; i++)
		cr_json_end(&j);
	tap_ok(cr_json_finish(&j) == 1, "deeper than CR_JSON_DEPTH: cut");
	cr_out_drain(&o);
	tap_ok(o.memlen == CR_JSON_DEPTH * 2 + 1 && balanced(text, o.memlen),
	       "the containers that fit, closed");
}

/* Sentry's debug_id of an ELF build-id (its documented example, and a short build-id). */
static void t_debug_id(void)
{
	static const uint8_t sentry[20] = { 0x68, 0x22, 0x0a, 0xe2, 0xc6, 0x5d, 0x65, 0xc1, 0xb6, 0xaa,
					    0xa1, 0x2f, 0xa6, 0x76, 0x5a, 0x6e, 0xc2, 0xf5, 0xf4, 0x34 };
	static const uint8_t short_[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	char id[40];

	tap_ok(cr_json_debug_id(id, sizeof(id), sentry, sizeof(sentry)) == 36 &&
		       strcmp(id, "e20a2268-5dc6-c165-b6aa-a12fa6765a6e") == 0,
	       "debug_id: Sentry's example (code_id 68220ae2c65d65c1b6aaa12fa6765a6ec2f5f434)");
	cr_json_debug_id(id, sizeof(id), short_, sizeof(short_));
	tap_is_str(id, "04030201-0605-0807-0000-000000000000", "debug_id: 8 bytes, zero-padded");
	tap_ok(cr_json_debug_id(id, 36, sentry, sizeof(sentry)) == 0, "debug_id: no room, nothing");
}

int main(void)
{
	t_escape();
	t_debug_id();
	t_doc();
	t_depth();
	return tap_done();
}
