/* SPDX-License-Identifier: MIT */
/*
 * Exact frames without an FDE (issue 19): a function of nofde-asm.S faults;
 * its SIGSEGV handler captures with crash_backtrace_with() under each engine;
 * the frames after the faulting one must be c1, c2 and run, its callers, in
 * that order (dladdr on the executable's exported symbols).  Before the
 * evidence rule, a function with a frame record gave c1 twice and then a
 * stack address (aarch64), and x86_64's leaf skipped c1.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../tap.h"
#include "crash.h"

long nofde_rec(long *p), nofde_leaf(long *p), nofde_call(long *p);
long c1(long (*fn)(long *)), c2(long (*fn)(long *)), run(long (*fn)(long *));

static sigjmp_buf jb;
static void *bt[64];
static int nbt, engine;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	nbt = crash_backtrace_with(engine, bt, 64);
	siglongjmp(jb, 1);
}

/* The compiler barrier after each call keeps it a call (no tail call). */
__attribute__((noinline, visibility("default"))) long c1(long (*fn)(long *))
{
	long r = fn(NULL);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

__attribute__((noinline, visibility("default"))) long c2(long (*fn)(long *))
{
	long r = c1(fn);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

__attribute__((noinline, visibility("default"))) long run(long (*fn)(long *))
{
	long r = c2(fn);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

static const char *name_of(void *pc)
{
	Dl_info di;

	/* A return address: its call is before it. */
	if (!dladdr((char *)pc - 1, &di) || !di.dli_sname)
		return "?";
	return di.dli_sname;
}

/* Apart, so that nothing of one() lives across the longjmp. */
__attribute__((noinline)) static void capture(long (*fn)(long *))
{
	nbt = -1;
	if (sigsetjmp(jb, 1) == 0)
		run(fn);
}

static void one(const char *what, long (*fn)(long *), const char *eng)
{
	static const char *const want[] = { "c1", "c2", "run" };
	char name[160], got[512];
	int k = -1, ok, len = 0;

	capture(fn);
	/* The faulting frame: the pc inside fn (its 64 bytes). */
	for (int i = 0; i < nbt; i++)
		if ((uintptr_t)bt[i] >= (uintptr_t)fn && (uintptr_t)bt[i] < (uintptr_t)fn + 64) {
			k = i;
			break;
		}
	ok = k >= 0 && k + 3 < nbt;
	for (int j = 0; ok && j < 3; j++)
		ok = strcmp(name_of(bt[k + 1 + j]), want[j]) == 0;
	got[0] = 0;
	for (int i = k < 0 ? 0 : k; i < nbt && len < (int)sizeof(got) - 40; i++)
		len += snprintf(got + len, sizeof(got) - (size_t)len, " %p %s", bt[i],
				i == k ? "(fault)" : name_of(bt[i]));
	snprintf(name, sizeof(name), "%s, %s: the fault, then c1 c2 run", what, eng);
	if (!tap_ok(ok, name))
		printf("#  %d frames, the fault at #%d:%s\n", nbt, k, got);
}

int main(void)
{
	static const struct {
		int e;
		const char *name;
	} engines[] = { { CRASH_ENGINE_AUTO, "auto" }, { CRASH_ENGINE_CFI, "cfi" },
			{ CRASH_ENGINE_FP, "fp" } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	for (unsigned i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		engine = engines[i].e;
		one("a frame record", nofde_rec, engines[i].name);
		one("a leaf", nofde_leaf, engines[i].name);
		one("a record and a call of its own", nofde_call, engines[i].name);
	}
	return tap_done();
}
