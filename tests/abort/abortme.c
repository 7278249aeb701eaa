/* SPDX-License-Identifier: MIT */
/*
 * abortme MODE: the ways glibc aborts with a message (tests/abort/run-abort.sh).
 * Built -O2 -D_FORTIFY_SOURCE=2 -fstack-protector-all (tests/abort/local.mk):
 *   assert   an assert() that fails
 *   dfree    a double free (malloc's tcache check)
 *   corrupt  free() of a pointer malloc never gave (malloc's pointer check)
 *   fortify  a memcpy past the end of its destination (__memcpy_chk)
 *   strcpy   a strcpy past the end of its destination (__strcpy_chk)
 *   smash    a loop that writes past a local array (the stack protector)
 *   abort    abort() alone: glibc records nothing
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

/* Opaque to the compiler: the sizes and pointers below come from here. */
static volatile size_t big = 64;
static char *volatile hide;
static volatile char sink;

NOINLINE static void do_assert(int argc)
{
	assert(argc == 42 && "the answer");
}

NOINLINE static void do_dfree(void)
{
	char *p = malloc(32);

	hide = p;
	free(p);
	free(hide);
}

NOINLINE static void do_corrupt(void)
{
	char *p = malloc(64);

	hide = p + 8;
	free(hide);
}

NOINLINE static void do_fortify(const char *src)
{
	char dst[8];

	memcpy(dst, src, big);
	sink = dst[big & 7];	/* dst is read: the copy stays */
}

NOINLINE static void do_strcpy(const char *src)
{
	char dst[8];

	strcpy(dst, src);
	sink = dst[big & 7];
}

NOINLINE static void do_smash(void)
{
	char buf[8];

	hide = buf;
	for (size_t i = 0; i < big; i++)
		hide[i] = 'A';
}

int main(int argc, char **argv)
{
	static char src[128];
	const char *m = argc > 1 ? argv[1] : "";

	memset(src, 'x', sizeof(src) - 1);
	fputs("abortme: start\n", stderr);	/* the program's own output, kept */
	if (!strcmp(m, "assert"))
		do_assert(argc);
	else if (!strcmp(m, "dfree"))
		do_dfree();
	else if (!strcmp(m, "corrupt"))
		do_corrupt();
	else if (!strcmp(m, "fortify"))
		do_fortify(src);
	else if (!strcmp(m, "strcpy"))
		do_strcpy(src);
	else if (!strcmp(m, "smash"))
		do_smash();
	else if (!strcmp(m, "abort"))
		abort();
	fputs("abortme: no crash\n", stderr);
	return 0;
}
