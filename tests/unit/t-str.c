/* SPDX-License-Identifier: MIT */
/* libcrash/str.h: the string helpers against libc, on edge cases. */
#include "../tap.h"
#include "common.h"
#include "str.h"

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

int main(void)
{
	static const char *const pairs[][2] = {
		{ "", "" }, { "a", "" }, { "", "a" }, { "abc", "abc" }, { "abc", "abd" },
		{ "abd", "abc" }, { "ab", "abc" }, { "abc", "ab" }, { "\x80", "a" },
		{ "a", "\xff" }, { "SIGSEGV", "SIGSEGV" }, { "fd:", "fd:3" },
	};
	static const char *const spans[][2] = {
		{ "", "," }, { "abc", "," }, { ",a", "," }, { "a,b", "," }, { "ab;c,d", ",;" },
		{ "abc", "" }, { "SEGV,ABRT,", "," }, { "\x80x", "x" },
	};
	char name[64];

	tap_is_i64((int64_t)cr_strlen(""), 0, "strlen of \"\": 0");
	tap_is_i64((int64_t)cr_strlen("abc"), 3, "strlen of abc: 3");
	tap_is_i64((int64_t)cr_strlen("ab\0cd"), 2, "strlen stops at the first NUL");
	for (unsigned i = 0; i < CR_ARRAY_SIZE(pairs); i++) {
		const char *a = pairs[i][0], *b = pairs[i][1];

		snprintf(name, sizeof(name), "strcmp(\"%s\", \"%s\"): libc's sign", a, b);
		tap_is_i64(sign(cr_strcmp(a, b)), sign(strcmp(a, b)), name);
		for (size_t n = 0; n <= 5; n++) {
			snprintf(name, sizeof(name), "strncmp(\"%s\", \"%s\", %zu): libc's sign", a, b,
				 n);
			tap_is_i64(sign(cr_strncmp(a, b, n)), sign(strncmp(a, b, n)), name);
		}
	}
	tap_ok(cr_strcmp("\x80", "a") > 0, "strcmp compares bytes as unsigned char");
	tap_is_i64(cr_strncmp("abcX", "abcY", 3), 0, "strncmp: equal within n");
	tap_ok(cr_strncmp("abcX", "abcY", 4) < 0, "strncmp: differs at n");
	tap_is_i64(cr_strncmp("ab\0x", "ab\0y", 4), 0, "strncmp: nothing compared past a NUL");
	tap_is_i64(cr_strncmp("a", "b", 0), 0, "strncmp of 0 bytes: equal");
	for (unsigned i = 0; i < CR_ARRAY_SIZE(spans); i++) {
		const char *s = spans[i][0], *r = spans[i][1];

		snprintf(name, sizeof(name), "strcspn(\"%s\", \"%s\"): libc's", s, r);
		tap_is_i64((int64_t)cr_strcspn(s, r), (int64_t)strcspn(s, r), name);
	}
	tap_is_i64((int64_t)cr_strcspn("ab;c,d", ",;"), 2, "strcspn: the first of several rejects");
	tap_is_i64((int64_t)cr_strcspn("abc", ""), 3, "strcspn with no rejects: the length");
	tap_is_i64(cr_memeq("abc", "abd", 0), 1, "memeq of 0 bytes: equal");
	tap_is_i64(cr_memeq("abc", "abd", 2), 1, "memeq: equal prefix");
	tap_is_i64(cr_memeq("abc", "abd", 3), 0, "memeq: differs in the last byte");
	tap_is_i64(cr_memeq("\0\0x", "\0\0x", 3), 1, "memeq: NULs are bytes like others");
	tap_is_i64(cr_memeq("\x7f" "ELF", "\x7f" "ELG", 4), 0, "memeq: ELF magic differs");
	return tap_done();
}
