/* SPDX-License-Identifier: MIT */
/*
 * The few string functions libcrash needs, inline: the option parser, the
 * signal names and the ELF magic checks call them a handful of times on
 * short strings, where a libc call costs an import the loader binds at
 * every start-up (-z now) more than it saves.  memcpy/memset/memmove stay
 * libc's: the compiler emits them anyway.  Pure, AS-safe.
 */
#ifndef CR_STR_H
#define CR_STR_H

#include <stddef.h>
#include <stdint.h>

/*
 * A pointer walk: GCC 12's loop distribution turns the indexed loop
 * (while (s[n]) n++) back into a call to strlen, an import again
 * (tests/abi/check-symbols.sh fails the build that does).
 */
static inline size_t cr_strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

/* As strncmp(3): < 0, 0, > 0 by the first differing byte as unsigned char, within n. */
static inline int cr_strncmp(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];

		if (x != y)
			return x - y;
		if (x == 0)
			break;
	}
	return 0;
}

static inline int cr_strcmp(const char *a, const char *b)
{
	return cr_strncmp(a, b, (size_t)-1);
}

/* As strcspn(3): the length of s's prefix with no byte of reject. */
static inline size_t cr_strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	for (; s[n]; n++)
		for (const char *r = reject; *r; r++)
			if (s[n] == *r)
				return n;
	return n;
}

/* 1 if the n bytes at a and b are equal (memcmp(a, b, n) == 0), else 0. */
static inline int cr_memeq(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

/*
 * Up to 16 lower-case hex digits of [s, end) into *v (the kernel's /proc
 * numbers): past the last digit, or NULL if there is none.
 */
static inline const char *cr_parse_hex(const char *s, const char *end, uint64_t *v)
{
	uint64_t x = 0;
	int n = 0;

	for (; s < end && n < 16; s++, n++) {
		unsigned c = (unsigned char)*s, d;

		if (c - '0' < 10)
			d = c - '0';
		else if (c - 'a' < 6)
			d = c - 'a' + 10;
		else
			break;
		x = x << 4 | d;
	}
	*v = x;
	return n ? s : NULL;
}

#endif
