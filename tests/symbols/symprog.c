/* tests/symbols: a C program that crashes several frames deep, through inlined functions
 * (static inline and always_inline here, and from symhdr.h), a shared library (symlib.c) and,
 * by mode, libc.  Modes: deep (the default), qsort (a crash in qsort's callback), abort,
 * strlen (a fault inside libc), fdsN (deep with only N descriptors left to open). */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "symhdr.h"
#include "symlib.h"

int *volatile sym_nullp;
char *volatile sym_nulls;

#define NOINLINE __attribute__((noinline))

static inline __attribute__((always_inline)) int inl_mid(int v)
{
	int r = hdr_poke(v + 2);

	return r ^ v;
}

NOINLINE static int mid(int v)
{
	int r = inl_mid(v);

	return r + 7;
}

NOINLINE int lib_cb(int v)
{
	int r = mid(v * 5);

	return r - 3;
}

static inline int inl_outer(int v)
{
	int r = sym_lib_apply(lib_cb, v);

	return r + 11;
}

NOINLINE int outer(int v)
{
	int r = inl_outer(v + 1);

	return r * 3;
}

static int cmp_crash(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return hdr_poke(x - y) - 1;
}

NOINLINE static int do_qsort(int v)
{
	int a[4] = { v, 3, 2, 1 };

	qsort(a, 4, sizeof a[0], cmp_crash);
	return a[0] + a[3];
}

NOINLINE static int do_abort(int v)
{
	if (v >= 0)
		abort();
	return v;
}

NOINLINE static int do_strlen(int v)
{
	return (int)strlen(sym_nulls) + v;
}

/* Every descriptor below 64 in use but the n highest: a process out of descriptors. */
static void fds_left(int n)
{
	struct rlimit rl;
	int fd, last = -1;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	rl.rlim_cur = 64;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	while ((fd = dup(0)) >= 0)
		last = fd;
	for (; n > 0 && last > 2; n--)
		close(last--);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "deep";
	int r;

	if (!strncmp(mode, "fds", 3))
		fds_left(atoi(mode + 3));
	if (!strcmp(mode, "qsort"))
		r = do_qsort(argc);
	else if (!strcmp(mode, "abort"))
		r = do_abort(argc);
	else if (!strcmp(mode, "strlen"))
		r = do_strlen(argc);
	else
		r = outer(argc);
	return r == 12345;
}
