/* SPDX-License-Identifier: MIT */
/*
 * The captures' remembered proofs (docs/design.md, "Remembered proofs"):
 * between captures, modules are unloaded and others loaded at the same
 * address, threads are made and joined (their stacks freed, glibc's and the
 * application's own), the process forks, and a signal handler runs on an
 * alternate stack that is then freed; every capture must give what libgcc's
 * unwinder gives (glibc backtrace()) and never fault.  Linked with
 * libcrash.so (its pthread_create wrapper in the path).  Run under ASan and
 * valgrind by the CI as a unit test.
 */
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crash.h"
#include "../tap.h"

#define MAXF 128
typedef int recall_cb(void *);
typedef int chain_fn(int, recall_cb *, void *);

static char dir[4096];
static int bad;	/* captures that differed, in this process */

/*
 * One capture with engine e (-1: crash_backtrace()) against glibc
 * backtrace(), both called from here: frame 0 is each one's call site, the
 * rest must be the same return addresses.  Under ASan, backtrace() is its
 * interceptor's, whose own frame comes first: one more frame at most.
 */
__attribute__((noinline)) static int same(int e)
{
	void *ours[MAXF], *ref[MAXF];
	int n = e < 0 ? crash_backtrace(ours, MAXF) : crash_backtrace_with(e, ours, MAXF);
	int m = backtrace(ref, MAXF);

	if (n < 2 || m < n || m > n + 1 ||
	    memcmp(ours + 1, ref + (m - n) + 1, (size_t)(n - 1) * sizeof(void *)) != 0) {
		fprintf(stderr, "# engine %d: %d frames, backtrace() %d\n", e, n, m);
		for (int i = 0; i < n || i < m; i++)
			fprintf(stderr, "#  %2d %p %p\n", i, i < n ? ours[i] : NULL,
				i < m ? ref[i] : NULL);
		return 0;
	}
	return 1;
}

/* The frames of code built with frame pointers: this program's and its modules'. */
static int with_fp(void *pc)
{
	Dl_info a, self;

	return dladdr(pc, &a) && dladdr((void *)(uintptr_t)with_fp, &self) &&
	       (a.dli_fbase == self.dli_fbase ||
		(a.dli_fname && strstr(a.dli_fname, "/librecall-")));
}

/*
 * The fp engine (its run reads the code at each return address, through the
 * modules' remembered proofs): the frames up to the first caller without
 * frame pointers (glibc's) must be backtrace()'s; past them it may stop.
 */
__attribute__((noinline)) static int same_fp(void)
{
	void *ours[MAXF], *ref[MAXF];
	int n = crash_backtrace_with(CRASH_ENGINE_FP, ours, MAXF);
	int m = backtrace(ref, MAXF), off, k;

	/* ASan's backtrace() interceptor: one frame of its own first, at most. */
	off = m > 2 && n > 1 && ref[2] == ours[1] && ref[1] != ours[1];
	for (k = 1; k + off < m && with_fp(ref[k + off]); k++)
		;
	if (n < k || memcmp(ours + 1, ref + 1 + off, (size_t)(k - 1) * sizeof(void *)) != 0) {
		fprintf(stderr, "# fp: %d frames, backtrace() %d, %d with frame pointers\n", n, m,
			k);
		for (int i = 0; i < n || i < m; i++)
			fprintf(stderr, "#  %2d %p %p\n", i, i < n ? ours[i] : NULL,
				i < m ? ref[i] : NULL);
		return 0;
	}
	return 1;
}

/* Several captures in a row (cold, then warm), with both engines that cache, and fp. */
static int check(void *arg)
{
	int ok = 1;

	(void)arg;
	for (int i = 0; i < 3; i++) {
		ok &= same(CRASH_ENGINE_CFI);
		ok &= same(-1);
		ok &= same_fp();
	}
	if (!ok)
		__atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
	return ok;
}

/* Load module k (a or b), capture through its chain, unload it. */
static int through_module(int k, int depth)
{
	char path[4200];
	void *h;
	chain_fn *fn;
	int r;

	snprintf(path, sizeof(path), "%s/librecall-%c.so", dir, k ? 'b' : 'a');
	if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		return fprintf(stderr, "# %s\n", dlerror()), 0;
	fn = (chain_fn *)(uintptr_t)dlsym(h, "recall_chain");
	r = fn ? fn(depth, check, NULL) : 0;
	dlclose(h);
	return r;
}

static void *thread_main(void *arg)
{
	int k = (int)(intptr_t)arg;

	return (void *)(intptr_t)(check(NULL) & through_module(k & 1, 3 + k % 5));
}

/* A thread with a stack of `size` (0: glibc's default), or on memory of our own. */
static int one_thread(int k, size_t size, int own)
{
	pthread_attr_t a;
	pthread_t t;
	void *mem = NULL, *ret = NULL;

	pthread_attr_init(&a);
	if (own) {
		if (posix_memalign(&mem, 4096, size) != 0)
			return 0;
		pthread_attr_setstack(&a, mem, size);
	} else if (size) {
		pthread_attr_setstacksize(&a, size);
	}
	if (pthread_create(&t, &a, thread_main, (void *)(intptr_t)k) != 0)
		return 0;
	pthread_join(t, &ret);
	pthread_attr_destroy(&a);
	if (own) {
		memset(mem, 0xa5, size);	/* what the next capture must not take for a stack */
		free(mem);
	}
	return ret != NULL;
}

static volatile sig_atomic_t alt_ok;	/* set by the handler */

#ifdef __loongarch__
/*
 * loongarch64: libgcc's unwinder (glibc backtrace(), the reference) faults
 * when it steps through the signal frame under qemu-user 10, so the
 * handler's captures are checked against the frames below the signal
 * instead: on_altstack's callers, taken by backtrace() in ordinary code
 * before the signal, must end each capture made in the handler.
 */
static void *pre[MAXF];
static int npre;

static int same_tail(int e)
{
	void *ours[MAXF];
	int n = e < 0 ? crash_backtrace(ours, MAXF) : crash_backtrace_with(e, ours, MAXF);

	if (npre < 2 || n < npre + 1 ||
	    memcmp(ours + n - (npre - 1), pre + 1, (size_t)(npre - 1) * sizeof(void *)) != 0) {
		fprintf(stderr, "# engine %d in the handler: %d frames, %d below the signal\n", e, n,
			npre);
		return 0;
	}
	return 1;
}

static void on_usr1(int sig)
{
	int ok = 1;

	(void)sig;
	for (int i = 0; i < 3; i++) {
		ok &= same_tail(CRASH_ENGINE_CFI);
		ok &= same_tail(-1);
	}
	if (!ok)
		__atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
	alt_ok = ok;
}
#else
static void on_usr1(int sig)
{
	(void)sig;
	alt_ok = check(NULL);
}
#endif

/* A capture in a handler on an alternate stack, which is then unmapped. */
static int on_altstack(void)
{
	size_t size = 64 * 1024;
	void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack_t ss = { .ss_sp = mem, .ss_size = size }, off = { .ss_flags = SS_DISABLE };
	struct sigaction sa;

	if (mem == MAP_FAILED)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	sigaltstack(&ss, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	alt_ok = 0;
#ifdef __loongarch__
	npre = backtrace(pre, MAXF);
#endif
	raise(SIGUSR1);
	sigaltstack(&off, NULL);
	munmap(mem, size);
	return alt_ok;
}

/* A child forked here captures (its pid is not ours) and reports by its status. */
static int in_child(int k)
{
	pid_t p = fork();
	int st = 0;

	if (p == 0)
		_exit(check(NULL) && through_module(k & 1, 2) && one_thread(k, 0, 0) ? 0 : 1);
	if (p < 0 || waitpid(p, &st, 0) != p)
		return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 0, 64 * 1024, 256 * 1024, 1024 * 1024, 96 * 1024 };
	int mods = 1, threads = 1, owns = 1, alts = 1, forks = 1;
	const char *slash = strrchr(argv[0], '/');

	(void)argc;
	/* The modules are beside the program (tests/unit/). */
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - argv[0]) : 1,
		 slash ? argv[0] : ".");
	tap_ok(check(NULL), "captures in the main thread");
	for (int k = 0; k < 12; k++) {
		mods &= through_module(k & 1, 2 + k % 7);
		threads &= one_thread(k, sizes[k % 5], 0);
		owns &= one_thread(k, 256 * 1024 + (size_t)(k % 3) * 65536, 1);
		mods &= check(NULL);
		alts &= on_altstack();
		if (k % 4 == 0)
			forks &= in_child(k);
	}
	tap_ok(mods, "modules unloaded and others loaded at the same address between captures");
	tap_ok(threads, "threads on glibc's stacks of several sizes, made and joined between captures");
	tap_ok(owns, "threads on stacks of their own, freed and overwritten between captures");
	tap_ok(alts, "captures on an alternate signal stack, unmapped between captures");
	tap_ok(forks, "captures in forked children, with a module and a thread");
	tap_is_i64(bad, 0, "no capture differed from glibc backtrace()");
	return tap_done();
}
