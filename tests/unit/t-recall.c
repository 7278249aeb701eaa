/* SPDX-License-Identifier: MIT */
/*
 * The captures' remembered proofs (docs/design.md, "Remembered proofs"):
 * between captures, modules are unloaded and others loaded at the same
 * address, threads are made and joined (their stacks freed, glibc's and the
 * application's own), the process forks, and a signal handler runs on an
 * alternate stack that is then freed; every capture must give what libgcc's
 * unwinder gives (glibc backtrace()) and never fault.  Then which threads
 * remember their own stack: with the kernel's proofs (process_vm_readv and
 * the signal mask's) denied to a thread (a seccomp filter of its own), only
 * captures through a remembered proof can read its stack.  Linked with
 * libcrash.so (its pthread_create wrapper in the path).  Run under ASan and
 * valgrind by the CI as a unit test.
 */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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
static int quiet;	/* a thread expected to differ (denied, not remembered): no dump */

__attribute__((noinline)) static int same(int e)
{
	void *ours[MAXF], *ref[MAXF];
	int n = e < 0 ? crash_backtrace(ours, MAXF) : crash_backtrace_with(e, ours, MAXF);
	int m = backtrace(ref, MAXF);

	if (n < 2 || m < n || m > n + 1 ||
	    memcmp(ours + 1, ref + (m - n) + 1, (size_t)(n - 1) * sizeof(void *)) != 0) {
		if (__atomic_load_n(&quiet, __ATOMIC_RELAXED))
			return 0;
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

/*
 * The scan engine's cached rows (libcrash/scan.c): through a module without
 * unwind tables, then through its twin loaded at the same address, whose
 * return addresses are the same but whose frames are larger.  Each capture,
 * cold and warm, must give the return addresses the module's functions
 * recorded (scanmod.c); a row kept from the first twin would read the second
 * one's return addresses from the wrong slots.
 */
static void *scan_ra[2][16];
static int scan_bad, scan_twin;

/*
 * Does a capture buf[0..got) taken in a chain's callback hold, after buf[0]
 * (the callback) and buf[1] (in the function that called it), the return
 * addresses ra[0..n) the chain's functions recorded?  If not, says which
 * capture (what, k, engine) and prints its frames.
 */
static int chain_found(const char *what, int k, const char *engine, void *const *buf, int got,
		       void *const *ra, int n)
{
	if (got >= n + 2 && memcmp(buf + 2, ra, (size_t)n * sizeof(void *)) == 0)
		return 1;
	printf("# %s, capture %d (%s): %d frames\n", what, k, engine, got);
	for (int i = 0; i < got && i < n + 2; i++) {
		Dl_info di;

		printf("#   frame %d %p (%s), want %p\n", i, buf[i],
		       dladdr(buf[i], &di) && di.dli_fname ? di.dli_fname : "?",
		       i >= 2 ? ra[i - 2] : NULL);
	}
	return 0;
}

__attribute__((noinline)) static int scan_check(void *const *ra, int n)
{
	void *buf[MAXF];

	for (int i = 0; i < n && i < 16; i++)
		scan_ra[scan_twin][i] = ra[i];
	/* Captures 0 and 1 by the scan engine (decoded, then from the cache),
	   2 and 3 by auto's order: the module has no FDE, and rbp holds what
	   this program's frames left in it, so auto must not take fp's step
	   here (docs/design.md, "A caller without an FDE"). */
	for (int k = 0; k < 4; k++) {
		/* buf[0]: here; buf[1]: in scan_step(0), at its call of us; then
		   scan_step's own return addresses, ra[0] up to ra[n - 1]. */
		int got = crash_backtrace_with(k < 2 ? CRASH_ENGINE_SCAN : CRASH_ENGINE_AUTO, buf,
					       MAXF);

		if (!chain_found(scan_twin ? "scan twin b" : "scan twin a", k,
				 k < 2 ? "scan" : "auto", buf, got, ra, n))
			scan_bad++;
	}
	__asm__ volatile("" ::: "memory");
	return 0;
}

/*
 * A call from a cold fragment (coldmod.c: work.cold, no unwind tables, frame
 * pointers): auto and fp must give cold_call's, work's and cold_chain's
 * return addresses in order.  Before fragments were told apart, auto's scan
 * step decoded work.cold from its first byte and took [sp] for work's
 * return address: the frames after work.cold were wrong.
 */
static int cold_bad;

__attribute__((noinline)) static int cold_check(void *const *ra, int n)
{
	void *buf[MAXF];

	for (int k = 0; k < 4; k++) {	/* auto twice (decoded, cached), fp twice */
		/* buf[0]: here; buf[1]: in cold_call, at its call of us. */
		int got = crash_backtrace_with(k < 2 ? CRASH_ENGINE_AUTO : CRASH_ENGINE_FP, buf, MAXF);

		if (!chain_found("cold fragment", k, k < 2 ? "auto" : "fp", buf, got, ra, n))
			cold_bad++;
	}
	__asm__ volatile("" ::: "memory");
	return 0;
}

/* coldmod.c's chain in the build lib, calling back cb: 1 if it ran. */
static int cold_run(const char *lib, int (*cb)(void *const *, int))
{
	char path[4200];
	void *h;
	int (*fn)(int (*)(void *const *, int), int);

	snprintf(path, sizeof(path), "%s/%s", dir, lib);
	if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		return fprintf(stderr, "# %s\n", dlerror()), 0;
	fn = (int (*)(int (*)(void *const *, int), int))(uintptr_t)dlsym(h, "cold_chain");
	if (fn)
		fn(cb, 4);	/* r reaches 24 at i = 3: the cold call, once */
	dlclose(h);
	return fn != NULL;
}

static int cold_fragment(void)
{
	return cold_run("librecall-cold.so", cold_check) && cold_bad == 0;
}

/*
 * The same call with unwind tables, without frame pointers (librecall-coldeh:
 * GCC gives work.cold an FDE of its own, whose rows start with work's frame
 * already built).  The scan engine takes an FDE's start for the function's,
 * but not that one: its frames must be the true chain's, for as far as they
 * go (up to work.cold, whose frame no prologue describes); auto (cfi) walks
 * it whole.
 */
static int coldeh_bad;

__attribute__((noinline)) static int coldeh_check(void *const *ra, int n)
{
	void *buf[MAXF];

	for (int k = 0; k < 4; k++) {	/* scan twice (decoded, cached), auto twice */
		int got = crash_backtrace_with(k < 2 ? CRASH_ENGINE_SCAN : CRASH_ENGINE_AUTO, buf,
					       MAXF);

		if (k >= 2) {
			if (!chain_found("cold fragment, FDEs", k, "auto", buf, got, ra, n))
				coldeh_bad++;
			continue;
		}
		/* Scan: buf[2 ..] a prefix of ra, and at least cold_call's own. */
		int prefix = got >= 3;

		for (int i = 2; i < got && i < n + 2; i++)
			prefix &= buf[i] == ra[i - 2];
		if (!prefix) {
			chain_found("cold fragment, FDEs", k, "scan", buf, got, ra, n);
			coldeh_bad++;
		}
	}
	__asm__ volatile("" ::: "memory");
	return 0;
}

static int cold_fragment_eh(void)
{
	return cold_run("librecall-coldeh.so", coldeh_check) && coldeh_bad == 0;
}

static int scan_twins(void)
{
	void *base[2] = { NULL, NULL };

	for (int t = 0; t < 4; t++) {
		char path[4200];
		Dl_info info;
		void *h;
		int (*fn)(int (*)(void *const *, int));

		scan_twin = t & 1;
		snprintf(path, sizeof(path), "%s/librecall-scan-%c.so", dir, 'a' + scan_twin);
		if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
			return fprintf(stderr, "# %s\n", dlerror()), 0;
		fn = (int (*)(int (*)(void *const *, int)))(uintptr_t)dlsym(h, "scan_chain");
		if (!fn || !dladdr((void *)(uintptr_t)fn, &info))
			return dlclose(h), 0;
		base[scan_twin] = info.dli_fbase;
		fn(scan_check);
		dlclose(h);
	}
	/* What makes the test: the same address, the same return addresses. */
	tap_ok(base[0] == base[1] && memcmp(scan_ra[0], scan_ra[1], sizeof(scan_ra[0])) == 0,
	       "the scan twins at the same address, their return addresses the same");
	return scan_bad == 0;
}

/*
 * What a thread's remembered proof stands on (docs/design.md): glibc puts
 * the thread's static TLS (libcrash.so's record with it) in its stack block
 * above every frame, TLS variant II (x86_64) and I (aarch64, riscv64,
 * loongarch64) alike: this program's own initial-exec variable is there
 * too, inside the stack glibc reports, above this frame.
 */
static __thread __attribute__((tls_model("initial-exec"))) char tls_mark;
static int layout_bad;

static void tls_above_frames(void)
{
	uintptr_t fp = (uintptr_t)__builtin_frame_address(0), tls = (uintptr_t)&tls_mark;
	pthread_attr_t a;
	void *lo;
	size_t size;

	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return;
	if (pthread_attr_getstack(&a, &lo, &size) != 0 || tls < (uintptr_t)lo ||
	    tls >= (uintptr_t)lo + size || fp < (uintptr_t)lo || fp >= tls) {
		fprintf(stderr, "# stack [%p, +%zu), frame %#lx, TLS %#lx\n", lo, size,
			(unsigned long)fp, (unsigned long)tls);
		__atomic_fetch_add(&layout_bad, 1, __ATOMIC_RELAXED);
	}
	pthread_attr_destroy(&a);
}

static void *thread_main(void *arg)
{
	int k = (int)(intptr_t)arg;

	tls_above_frames();
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

/*
 * Which threads remember their own stack.  The kernel's proofs
 * (process_vm_readv, the signal mask's) denied to the calling thread alone (a seccomp filter is the thread's; no_new_privs too):
 * a capture can then read the stack only through a remembered proof, so it
 * equals backtrace() if the stack is remembered and is cut short if not.
 * 1 if the filter is in place.
 */
static int deny_vmreadv(void)
{
	/* process_vm_readv, and rt_sigprocmask with the proofs' `how` (-1: the
	   signal mask's proofs, mem.c); other rt_sigprocmask calls allowed. */
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 4, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 0, 2),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffu, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(f) / sizeof(f[0])), f };

	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
	       prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0;
}

/* The kernel answers PROCMAP_QUERY (Linux 6.11; not qemu-user): else no
   stack is remembered, and every capture proves its pages. */
static int have_query(void)
{
	uint64_t q[13] = { 104, 0, (uintptr_t)&have_query };	/* size, flags, address */
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	ok = ioctl(fd, 0xc0686611ul, q) == 0;	/* _IOWR('f', 17, 104 bytes) */
	close(fd);
	return ok;
}

struct probe {
	int deny;	/* 0: warm the rows up, captures as usual */
	int own;	/* expected: the stack is remembered */
	int ok;		/* 1 as expected, 0 not, -1 no filter here */
	int alt;	/* a capture on an alternate stack (mmap, outside the record) */
};

static volatile sig_atomic_t alt_same;

static void on_usr2(int sig)
{
	(void)sig;
#ifdef __loongarch__
	alt_same = same_tail(-1);	/* backtrace() faults in a handler there (above) */
#else
	alt_same = same(-1);
#endif
}

static void *probe_main(void *arg)
{
	struct probe *p = arg;
	int first, second, third;

	if (p->deny && !deny_vmreadv()) {
		p->ok = -1;
		return NULL;
	}
	/* A thread's first capture never asks: nothing remembered yet (its
	   storage is new, whatever thread had the same block before), so
	   its stack cannot be read. */
	first = same(-1);
	second = same(-1);	/* asks the kernel (not denied): remembered or not */
	third = same(CRASH_ENGINE_CFI);
	if (getenv("RECALL_DEBUG"))
		fprintf(stderr, "# deny %d own %d: %d %d %d\n", p->deny, p->own, first, second, third);
	/* Not denied (the captures that warm the rows up): all equal. */
	p->ok = p->deny ? !first && (p->own ? second && third : !second && !third)
			: first && second && third;
	if (p->alt) {
		size_t size = 64 * 1024;
		void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0);
		stack_t ss = { .ss_sp = mem, .ss_size = size }, off = { .ss_flags = SS_DISABLE };
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr2;
		sa.sa_flags = SA_ONSTACK;
		if (mem == MAP_FAILED || sigaltstack(&ss, NULL) != 0 ||
		    sigaction(SIGUSR2, &sa, NULL) != 0)
			return p->ok = 0, NULL;
		alt_same = 1;
#ifdef __loongarch__
		npre = backtrace(pre, MAXF);
#endif
		raise(SIGUSR2);
		/* On the alternate stack the record does not serve: denied, the
		   capture is cut short. */
		p->ok &= p->deny ? !alt_same : alt_same;
		sigaltstack(&off, NULL);
		munmap(mem, size);
	}
	return NULL;
}

/* A probe thread: stack size (0: glibc's default), guard size (-1: default),
   user: a stack of our own (1: posix_memalign, 2: mmap under a guard page). */
static int probe(int deny, size_t size, long guard, int user, int own, int alt)
{
	struct probe p = { deny, own, 0, alt };
	pthread_attr_t a;
	pthread_t t;
	void *mem = NULL;
	size_t len = size + 4096;

	pthread_attr_init(&a);
	if (size && !user)
		pthread_attr_setstacksize(&a, size);
	if (guard >= 0)
		pthread_attr_setguardsize(&a, (size_t)guard);
	if (user == 1 && posix_memalign(&mem, 4096, size) == 0)
		pthread_attr_setstack(&a, mem, size);
	if (user == 2) {
		mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED || mprotect(mem, 4096, PROT_NONE) != 0)
			return 0;
		pthread_attr_setstack(&a, (char *)mem + 4096, size);
	}
	if (pthread_create(&t, &a, probe_main, &p) != 0)
		return 0;
	pthread_join(t, NULL);
	pthread_attr_destroy(&a);
	if (user == 1)
		free(mem);
	if (user == 2)
		munmap(mem, len);
	if (p.ok < 0)
		fprintf(stderr, "# no seccomp filter in a thread: not checked\n");
	return p.ok != 0;
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
	tap_is_i64(layout_bad, 0, "every thread's static TLS inside its stack, above its frames");
	tap_is_i64(bad, 0, "no capture differed from glibc backtrace()");
	tap_ok(scan_twins(), "scan: the return addresses of a module and of its twin loaded "
			     "at the same address, decoded and cached");
	tap_ok(cold_fragment(), "auto and fp: a call from a cold fragment without unwind tables "
				"(work.cold), every return address");
	tap_ok(cold_fragment_eh(), "scan: a cold fragment's FDE is no function start (its "
				   "frames a prefix of the chain); auto: every return address");

	{
		int q = have_query(), k, ok;

		quiet = 1;
		ok = probe(0, 0, -1, 0, 0, 1);	/* the rows of probe_main's frames, cached */
		tap_ok(ok, "a thread's captures, for the cache");
		tap_ok(probe(1, 0, -1, 0, q, 1),
		       "glibc's default stack: remembered from the second capture, not on an altstack");
		for (ok = 1, k = 0; k < 3; k++) {
			/* 48 MiB: more than glibc caches, unmapped at the join; the
			   smaller block after it is mapped at the top of the hole,
			   where the bigger one's thread pointer was. */
			ok &= probe(1, 48u << 20, -1, 0, q, 0);
			ok &= probe(1, 256 * 1024, -1, 0, q, 0);
			ok &= probe(1, 1024 * 1024, -1, 0, q, 0);
			ok &= probe(1, 512 * 1024, -1, 0, q, 1);	/* the 1 MiB block, from the cache */
		}
		tap_ok(ok, "stacks of several sizes, freed or reused at the same thread pointer");
		tap_ok(probe(1, 256 * 1024, 0, 0, 0, 0), "guard size 0: not remembered");
		tap_ok(probe(1, 256 * 1024, -1, 1, 0, 0), "a stack of the program's own: not remembered");
		tap_ok(probe(1, 256 * 1024, -1, 2, 0, 0),
		       "a stack of the program's own under a guard page: not remembered");
		quiet = 0;
	}
	return tap_done();
}
