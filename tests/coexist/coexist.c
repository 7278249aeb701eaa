/* SPDX-License-Identifier: MIT */
/*
 * coexist MODE [ARGS]: an application with its own signal handlers, for
 * tests/coexist/run-coexist.sh, which runs every mode without libcrash, then
 * with it (preloaded, or this file built as coexist-linked, linked with
 * libcrash and calling crash_install()), and compares the two.
 *
 * Output: the program's own lines on stdout, its handlers' "my handler ran"
 * lines on stderr; both must be the same with and without libcrash.  Lines
 * starting "info " may differ (times, what the kernel has, libcrash's
 * alternate stacks): the script checks them one by one.  Lines "ok: ..." and
 * "FAIL: ..." are this program's own checks of the specification.
 * Everything is written with write(2), unbuffered, so that a death by a
 * signal loses nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "coexist.h"
#ifdef COEXIST_LINKED
#include "crash.h"
#endif

#define NOINLINE __attribute__((noinline))
/* Keeps a call out of tail position, so that every caller keeps its frame. */
#define KEEP() __asm__ volatile("" ::: "memory")
#define EXPORT __attribute__((visibility("default")))

/*
 * Flags left out of every comparison of sa_flags: SA_RESTORER (x86_64,
 * aarch64), which glibc adds and reads back and no application sets (an
 * unused bit elsewhere), and SA_INTERRUPT, which glibc's sysv_signal() sets
 * and which the kernel drops (unknown flags, Linux 5.11) but qemu-user keeps.
 */
#define K_SA_RESTORER  0x04000000
#define K_SA_INTERRUPT 0x20000000
#define K_IGNORED      (K_SA_RESTORER | K_SA_INTERRUPT)

/* glibc exports bsd_signal() (signal()'s X/Open name) but declares it only for
   old X/Open levels, not with _GNU_SOURCE; libcrash defines it too. */
sighandler_t bsd_signal(int sig, sighandler_t handler);

/* -------------------- output */

static void vput(int fd, const char *fmt, va_list ap)
{
	char buf[1024];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t off = 0;

	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	while (off < (size_t)n) {
		ssize_t w = write(fd, buf + off, (size_t)n - off);

		if (w <= 0)
			return;
		off += (size_t)w;
	}
}

__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput(1, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 1, 2))) static void yell(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput(2, fmt, ap);
	va_end(ap);
}

/* One check of the specification, as "ok: WHAT" or "FAIL: WHAT". */
__attribute__((format(printf, 2, 3))) static int verdict(int cond, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	say("%s: %s\n", cond ? "ok" : "FAIL", buf);
	return cond;
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return "SIGSEGV";
	case SIGABRT:
		return "SIGABRT";
	case SIGBUS:
		return "SIGBUS";
	case SIGFPE:
		return "SIGFPE";
	case SIGILL:
		return "SIGILL";
	case SIGTRAP:
		return "SIGTRAP";
	case SIGSYS:
		return "SIGSYS";
	case SIGUSR1:
		return "SIGUSR1";
	case SIGUSR2:
		return "SIGUSR2";
	default:
		return "?";
	}
}

/* "{10,12}": the members of a signal set, 1 to 64. */
static const char *maskstr(const sigset_t *set, char *buf, size_t size)
{
	size_t n = 0;

	n += (size_t)snprintf(buf + n, size - n, "{");
	for (int s = 1; s <= 64 && n < size; s++)
		if (sigismember(set, s) == 1)
			n += (size_t)snprintf(buf + n, size - n, "%s%d",
			                      buf[n - 1] == '{' ? "" : ",", s);
	if (n < size)
		snprintf(buf + n, size - n, "}");
	return buf;
}

/* The calling thread's blocked signals. */
static const char *blocked(char *buf, size_t size)
{
	sigset_t cur;

	sigemptyset(&cur);
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	return maskstr(&cur, buf, size);
}

/* -------------------- faults */

static volatile int zero;

/* Writes to address 0: SIGSEGV, SEGV_MAPERR, fault address 0. */
NOINLINE static void fault_null(void)
{
	*(volatile int *)(uintptr_t)zero = 1;
	KEEP();
}

/*
 * A recovery by siglongjmp: the handler jumps back here when guarded is set.
 * One fault at a time in the whole process (threads take turns).
 */
static sigjmp_buf guard_jmp;
static volatile sig_atomic_t guarded;

NOINLINE static int try_fault(void (*fn)(void))
{
	if (sigsetjmp(guard_jmp, 1))
		return 1;
	guarded = 1;
	fn();
	guarded = 0;
	return 0;
}

/* The recovery jump, for the handlers: returns only if no recovery is armed. */
static void recover(void)
{
	if (guarded) {
		guarded = 0;
		siglongjmp(guard_jmp, 1);
	}
}

/*
 * int coexist_load(const int *p): returns *p.  The load is the function's
 * first instruction and its length is known (LOAD_LEN), so that a handler can
 * resume after it by advancing the pc, with -1 as the loaded value, the way
 * a JIT or a garbage collector's barrier recovers.  Written in assembly so
 * that the encoding is ours, not the compiler's.
 */
#if defined(__x86_64__)
#define LOAD_LEN   2 /* 8b 07: movl (%rdi),%eax */
#define UC_PC(uc)  ((uc)->uc_mcontext.gregs[REG_RIP])
#define UC_RET(uc) ((uc)->uc_mcontext.gregs[REG_RAX])
#define LOAD_BODY  "	movl (%rdi), %eax\n	ret\n"
#elif defined(__aarch64__)
#define LOAD_LEN   4
#define UC_PC(uc)  ((uc)->uc_mcontext.pc)
#define UC_RET(uc) ((uc)->uc_mcontext.regs[0])
#define LOAD_BODY  "	ldr w0, [x0]\n	ret\n"
#elif defined(__riscv) && __riscv_xlen == 64
#define LOAD_LEN   4 /* norvc: no 2-byte c.lw */
#define UC_PC(uc)  ((uc)->uc_mcontext.__gregs[REG_PC])
#define UC_RET(uc) ((uc)->uc_mcontext.__gregs[REG_A0])
#define LOAD_BODY  "	.option push\n	.option norvc\n	lw a0, 0(a0)\n	ret\n	.option pop\n"
#elif defined(__loongarch__) && __loongarch_grlen == 64
#define LOAD_LEN   4
#define UC_PC(uc)  ((uc)->uc_mcontext.__pc)
#define UC_RET(uc) ((uc)->uc_mcontext.__gregs[4]) /* $a0 */
#define LOAD_BODY  "	ld.w $a0, $a0, 0\n	jr $ra\n"
#else
#error "coexist.c: no faulting load for this architecture"
#endif

__asm__("	.text\n"
        "	.globl coexist_load\n"
        "	.hidden coexist_load\n"
        "	.type coexist_load, %function\n"
        "coexist_load:\n"
        "	.cfi_startproc\n" LOAD_BODY "	.cfi_endproc\n"
        "	.size coexist_load, .-coexist_load\n");
__attribute__((visibility("hidden"))) int coexist_load(const volatile int *p);

/* -------------------- the application's handler */

enum end {
	END_ABORT,   /* abort() in the handler */
	END_RAISE,   /* SIG_DFL, raise(), return */
	END_REFAULT, /* SIG_DFL, return into the fault */
	END_RETURN,  /* return (SA_RESETHAND reset the disposition) */
};
static enum end end_how = END_ABORT;

static int parse_end(const char *s)
{
	if (strcmp(s, "abort") == 0)
		end_how = END_ABORT;
	else if (strcmp(s, "raise") == 0)
		end_how = END_RAISE;
	else if (strcmp(s, "refault") == 0)
		end_how = END_REFAULT;
	else
		return -1;
	return 0;
}

/* The application's SIGSEGV handler: recovers a guarded fault, else ends the process. */
static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	recover();
	yell("my handler ran\n");
	switch (end_how) {
	case END_ABORT:
		abort();
	case END_RAISE:
		signal(sig, SIG_DFL);
		raise(sig);
		break;
	case END_REFAULT:
		signal(sig, SIG_DFL);
		break;
	case END_RETURN:
		break;
	}
}

static int install(int sig, void (*fn)(int, siginfo_t *, void *), int flags, const sigset_t *mask)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	if (mask)
		sa.sa_mask = *mask;
	else
		sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

/* sigaction(sig, NULL, &old): does the application read back what it set? */
static void readback_is(int sig, void *fn, int flags, const sigset_t *mask, const char *what)
{
	struct sigaction cur;
	char b1[256], b2[256];
	int r;

	memset(&cur, 0xa5, sizeof(cur));
	r = sigaction(sig, NULL, &cur);
	maskstr(&cur.sa_mask, b1, sizeof(b1));
	maskstr(mask, b2, sizeof(b2));
	verdict(r == 0 && (void *)cur.sa_sigaction == fn && (cur.sa_flags & ~K_IGNORED) == flags &&
	            strcmp(b1, b2) == 0,
	        "%s: %s reads back its handler, flags %#x, mask %s (got flags %#x, mask %s)", what,
	        signame(sig), (unsigned)flags, b2, (unsigned)(cur.sa_flags & ~K_IGNORED), b1);
}

/* The linked build installs libcrash here; the plain build has nothing to do. */
static void lib_install(const char *when)
{
#ifdef COEXIST_LINKED
	say("info crash_install() %s: %d\n", when, crash_install(NULL));
#else
	(void)when;
#endif
}

/* -------------------- A, I: readback */

static void h_one(int sig)
{
	(void)sig;
}

static void h_two(int sig)
{
	(void)sig;
}

static void h_info(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
}

static volatile int usr1_hits, usr1_signo;

static void h_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	usr1_hits++;
	usr1_signo = si->si_signo == sig ? sig : -1;
}

static void style_handler1(int sig);
static void style_handler3(int sig, siginfo_t *si, void *uc);

static const char *hname(void *h)
{
	if (h == (void *)SIG_DFL)
		return "SIG_DFL";
	if (h == (void *)SIG_IGN)
		return "SIG_IGN";
	if (h == (void *)SIG_ERR)
		return "SIG_ERR";
	if (h == (void *)h_one)
		return "h_one";
	if (h == (void *)h_two)
		return "h_two";
	if (h == (void *)h_info)
		return "h_info";
	if (h == (void *)h_usr1)
		return "h_usr1";
	if (h == (void *)on_segv)
		return "on_segv";
	if (h == (void *)style_handler1)
		return "style_handler1";
	if (h == (void *)style_handler3)
		return "style_handler3";
	return "another function";
}

/* What the kernel has, as the script wants to see it: the application's, or not. */
static const char *kname(int sig, void *app)
{
	void *k = coexist_kernel_handler(sig);

	if (k == app)
		return "the application's";
	if (k == NULL)
		return "SIG_DFL";
	if (k == (void *)1)
		return "SIG_IGN";
	return "another handler";
}

/* Dispositions of signals the program never touched: SIG_IGN if inherited so. */
static void initial_dispositions(void *want)
{
	static const int sigs[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		char b[256];
		int r;

		memset(&old, 0xa5, sizeof(old));
		r = sigaction(sigs[i], NULL, &old);
		maskstr(&old.sa_mask, b, sizeof(b));
		/* What was there before libcrash: SIG_DFL unless the test's shell set SIG_IGN
		   for SIGSEGV, which exec keeps. */
		void *w = sigs[i] == SIGSEGV ? want : (void *)SIG_DFL;

		verdict(r == 0 && (void *)old.sa_handler == w && (old.sa_flags & ~K_IGNORED) == 0 &&
		            strcmp(b, "{}") == 0,
		        "first query of %s: %s, flags 0, empty mask (got %s, flags %#x, mask %s)",
		        signame(sigs[i]), hname(w), hname((void *)old.sa_handler),
		        (unsigned)(old.sa_flags & ~K_IGNORED), b);
	}
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static int mode_readback(int argc, char **argv)
{
	struct sigaction sa, old;
	sigset_t m, empty;
	sighandler_t prev;
	int r, e;

	(void)argc;
	(void)argv;
	sigemptyset(&empty);
	initial_dispositions((void *)SIG_DFL);

	/* signal() returns the previous handler. */
	prev = signal(SIGSEGV, h_one);
	verdict(prev == SIG_DFL, "signal(SIGSEGV, h_one) returns SIG_DFL (got %s)",
	        hname((void *)prev));
	prev = signal(SIGSEGV, h_two);
	verdict(prev == h_one, "signal(SIGSEGV, h_two) returns h_one (got %s)",
	        hname((void *)prev));
	/* glibc's signal(): BSD semantics, SA_RESTART and the signal itself in the mask. */
	sigemptyset(&m);
	sigaddset(&m, SIGSEGV);
	readback_is(SIGSEGV, (void *)h_two, SA_RESTART, &m, "after signal()");

	/* sigaction() with flags and a mask: the old action, then exactly the new one. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = h_info;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR1);
	memset(&old, 0xa5, sizeof(old));
	r = sigaction(SIGSEGV, &sa, &old);
	verdict(r == 0 && old.sa_handler == h_two,
	        "sigaction(SIGSEGV) returns the old action h_two (got %s)",
	        hname((void *)old.sa_handler));
	readback_is(SIGSEGV, (void *)h_info, SA_SIGINFO | SA_RESTART, &sa.sa_mask,
	            "SA_SIGINFO|SA_RESTART, mask {SIGUSR1}");
	say("info kernel's SIGSEGV handler: %s\n", kname(SIGSEGV, (void *)h_info));

	/* The other interfaces that libcrash defines: their return values. */
	prev = bsd_signal(SIGSEGV, h_one);
	verdict((void *)prev == (void *)h_info,
	        "bsd_signal() returns the previous handler h_info (got %s)", hname((void *)prev));
	readback_is(SIGSEGV, (void *)h_one, SA_RESTART, &m, "after bsd_signal()");
	prev = sysv_signal(SIGSEGV, h_two);
	verdict(prev == h_one, "sysv_signal() returns h_one (got %s)", hname((void *)prev));
	readback_is(SIGSEGV, (void *)h_two, SA_RESETHAND | SA_NODEFER, &empty,
	            "after sysv_signal()");
	prev = sigset(SIGSEGV, h_one);
	verdict(prev == h_two, "sigset() returns h_two (got %s)", hname((void *)prev));
	readback_is(SIGSEGV, (void *)h_one, 0, &empty, "after sigset()");
	r = sigignore(SIGSEGV);
	verdict(r == 0, "sigignore() returns 0 (got %d)", r);
	readback_is(SIGSEGV, (void *)SIG_IGN, 0, &empty, "after sigignore()");

	/* Every flag that changes how the handler runs, on another signal of libcrash's. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = h_info;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESETHAND | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaddset(&sa.sa_mask, SIGABRT);
	r = sigaction(SIGBUS, &sa, NULL);
	verdict(r == 0, "sigaction(SIGBUS, SA_NODEFER|SA_RESETHAND|SA_ONSTACK) returns 0");
	readback_is(SIGBUS, (void *)h_info, sa.sa_flags, &sa.sa_mask,
	            "SA_SIGINFO|SA_NODEFER|SA_RESETHAND|SA_ONSTACK");

	/* Back to SIG_DFL. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	r = sigaction(SIGSEGV, &sa, NULL);
	readback_is(SIGSEGV, (void *)SIG_DFL, 0, &empty, "after sigaction(SIG_DFL)");
	/* A null action and a null old action: nothing, 0. */
	r = sigaction(SIGSEGV, NULL, NULL);
	verdict(r == 0, "sigaction(SIGSEGV, NULL, NULL) returns 0 (got %d)", r);

	/* Errors, as glibc's. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = h_one;
	errno = 0;
	r = sigaction(SIGKILL, &sa, NULL);
	e = errno;
	verdict(r == -1 && e == EINVAL, "sigaction(SIGKILL) fails with EINVAL (got %d, errno %d)",
	        r, e);
	errno = 0;
	r = sigaction(0, &sa, NULL);
	e = errno;
	verdict(r == -1 && e == EINVAL, "sigaction(0) fails with EINVAL (got %d, errno %d)", r, e);
	errno = 0;
	r = sigaction(65, NULL, &old);
	e = errno;
	verdict(r == -1 && e == EINVAL, "sigaction(65) fails with EINVAL (got %d, errno %d)", r, e);
	errno = 0;
	prev = signal(SIGSTOP, h_one);
	e = errno;
	verdict(prev == SIG_ERR && e == EINVAL,
	        "signal(SIGSTOP) returns SIG_ERR, EINVAL (errno %d)", e);
	errno = 1234;
	signal(SIGSEGV, h_one);
	verdict(errno == 1234, "a successful signal() leaves errno alone (errno %d)", errno);

	/* SIGUSR1 is not libcrash's: plain glibc, the kernel calls the handler itself. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = h_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	r = sigaction(SIGUSR1, &sa, &old);
	verdict(r == 0 && old.sa_handler == SIG_DFL, "sigaction(SIGUSR1): old action SIG_DFL");
	readback_is(SIGUSR1, (void *)h_usr1, SA_SIGINFO, &sa.sa_mask, "SIGUSR1");
	verdict(coexist_kernel_handler(SIGUSR1) == (void *)h_usr1,
	        "SIGUSR1: the kernel has the application's handler itself");
	raise(SIGUSR1);
	verdict(usr1_hits == 1 && usr1_signo == SIGUSR1,
	        "raise(SIGUSR1) reaches the handler once (%d)", usr1_hits);
	return 0;
}

/* Started with SIGSEGV ignored (the script's shell: trap '' SEGV; exec keeps SIG_IGN). */
static int mode_ignored(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	initial_dispositions((void *)SIG_IGN);
	/* A sent SIGSEGV stays ignored. */
	kill(getpid(), SIGSEGV);
	say("survived kill(SIGSEGV)\n");
	/* A fault: the kernel's default action, ignored or not. */
	fault_null();
	say("survived the fault\n");
	return 1;
}

/* sigignore(SIGSEGV): the same, set by the application. */
static int mode_sigignore(int argc, char **argv)
{
	sigset_t empty;

	(void)argc;
	(void)argv;
	sigemptyset(&empty);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	sigignore(SIGSEGV);
#pragma GCC diagnostic pop
	readback_is(SIGSEGV, (void *)SIG_IGN, 0, &empty, "after sigignore()");
	kill(getpid(), SIGSEGV);
	say("survived kill(SIGSEGV)\n");
	fault_null();
	say("survived the fault\n");
	return 1;
}
#pragma GCC diagnostic pop

/* -------------------- B: recovery */

static volatile long faults;

static void on_segv_ctx(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	if ((uintptr_t)UC_PC(uc) != (uintptr_t)coexist_load) {
		yell("fault at an unexpected pc %#lx\n", (unsigned long)UC_PC(uc));
		_exit(99);
	}
	UC_PC(uc) += LOAD_LEN; /* past the load ... */
	UC_RET(uc) = -1;       /* ... which "loaded" -1 */
	faults++;
}

static volatile char *map_page;
static size_t pagesize;

static void on_segv_map(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if ((uintptr_t)si->si_addr != (uintptr_t)map_page) {
		yell("fault at an unexpected address\n");
		_exit(99);
	}
	mprotect((void *)(uintptr_t)map_page, pagesize, PROT_READ | PROT_WRITE);
	faults++;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* recover jmp|ctx|map N: N faults, each recovered by the application's handler. */
static int mode_recover(int argc, char **argv)
{
	long n, ok = 0;
	long long t0, t1;

	if (argc < 4)
		return 2;
	n = atol(argv[3]);
	pagesize = (size_t)sysconf(_SC_PAGESIZE);
	if (strcmp(argv[2], "jmp") == 0) {
		install(SIGSEGV, on_segv, 0, NULL);
		t0 = now_ns();
		for (long i = 0; i < n; i++)
			ok += try_fault(fault_null);
		t1 = now_ns();
	} else if (strcmp(argv[2], "ctx") == 0) {
		install(SIGSEGV, on_segv_ctx, 0, NULL);
		t0 = now_ns();
		for (long i = 0; i < n; i++)
			ok += coexist_load(NULL) == -1;
		t1 = now_ns();
		ok = ok == faults ? ok : -1;
	} else if (strcmp(argv[2], "map") == 0) {
		map_page = mmap(NULL, pagesize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map_page == MAP_FAILED)
			return 2;
		install(SIGSEGV, on_segv_map, 0, NULL);
		t0 = now_ns();
		for (long i = 0; i < n; i++) {
			map_page[0] = (char)i; /* faults; the handler maps the page; again */
			ok += map_page[0] == (char)i;
			mprotect((void *)(uintptr_t)map_page, pagesize, PROT_NONE);
		}
		t1 = now_ns();
		ok = ok == faults ? ok : -1;
	} else {
		return 2;
	}
	say("recovered %ld of %ld\n", ok, n);
	say("info ns %lld\n", t1 - t0);
	return 0;
}

/* -------------------- C, D: the handler ends the process */

/* end abort|raise|refault|resethand: one fault, the application's handler ends it. */
NOINLINE static int mode_end(int argc, char **argv)
{
	int flags = 0;

	if (argc < 3)
		return 2;
	if (strcmp(argv[2], "resethand") == 0) {
		flags = SA_RESETHAND;
		end_how = END_RETURN;
	} else if (parse_end(argv[2]) < 0) {
		return 2;
	}
	install(SIGSEGV, on_segv, flags, NULL);
	say("faulting\n");
	fault_null();
	say("survived the fault\n");
	return 1;
}

/* infault: a handler without SA_NODEFER faults itself: the kernel's default action. */
static void on_segv_infault(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	yell("my handler ran\n");
	fault_null();
	yell("my handler survived its own fault\n");
	_exit(3);
}

static int mode_infault(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	install(SIGSEGV, on_segv_infault, 0, NULL);
	fault_null();
	say("survived the fault\n");
	return 1;
}

/* -------------------- E: libcrash's handler called by others */

static union coexist_kold foreign_old;
static int foreign_how;
static unsigned char junk[512];

/*
 * A real one-argument call: sig is the first argument; the second and third
 * argument registers still hold what this function received (pointers into
 * junk), as they would after any other code.
 */
NOINLINE static void call1(int sig, void *g1, void *g2, void (*fn)(int))
{
	__asm__ volatile("" ::"r"(g1), "r"(g2));
	fn(sig);
	KEEP();
}

/* Installed with a raw rt_sigaction: the kernel calls it, not libcrash. */
static void on_segv_foreign(int sig, siginfo_t *si, void *uc)
{
	void *old = foreign_old.k.handler;

	if ((uintptr_t)old > 1) { /* a function, not SIG_DFL or SIG_IGN */
		switch (foreign_how) {
		case 1:
			call1(sig, junk, junk + 128, (void (*)(int))old);
			break;
		case 3:
			((void (*)(int, siginfo_t *, void *))old)(sig, si, uc);
			break;
		default:
			((void (*)(int, siginfo_t *, void *))old)(sig, NULL, NULL);
			break;
		}
	}
	yell("runtime fatal report\n");
	_exit(42);
}

/* foreign 1arg|3arg|null: a runtime that takes over SIGSEGV behind libcrash's back. */
static int mode_foreign(int argc, char **argv)
{
	struct coexist_ksigaction k;
	union coexist_kold rest;

	if (argc < 3)
		return 2;
	if (strcmp(argv[2], "1arg") == 0)
		foreign_how = 1;
	else if (strcmp(argv[2], "3arg") == 0)
		foreign_how = 3;
	else if (strcmp(argv[2], "null") == 0)
		foreign_how = 0;
	else
		return 2;
	memset(junk, 0x5a, sizeof(junk));
	/* The installed handler, past every wrapper: libcrash's (or SIG_DFL without it). */
	if (syscall(SYS_rt_sigaction, SIGSEGV, NULL, &foreign_old, sizeof(foreign_old.k.mask)) != 0)
		return 2;
	say("info previous kernel handler: %s\n",
	    (uintptr_t)foreign_old.k.handler > 1 ? "a function" : "SIG_DFL or SIG_IGN");
	/* glibc's sa_restorer (x86_64 needs one): what glibc gives SIGUSR2's action. */
	install(SIGUSR2, h_info, 0, NULL);
	memset(&rest, 0, sizeof(rest));
	if (syscall(SYS_rt_sigaction, SIGUSR2, NULL, &rest, sizeof(rest.k.mask)) != 0)
		return 2;
	k = rest.k;
	k.handler = (void *)on_segv_foreign;
	k.flags = (rest.k.flags & K_SA_RESTORER) | SA_SIGINFO;
	k.mask = 0;
	if (syscall(SYS_rt_sigaction, SIGSEGV, &k, NULL, sizeof(k.mask)) != 0)
		return 2;
	fault_null();
	say("survived the fault\n");
	return 1;
}

/* -------------------- F: chaining orders */

/* libcoexist-early.so's constructor calls this before libcrash's constructor. */
EXPORT void coexist_early_install(void);
int coexist_early_state(void);

EXPORT void coexist_early_install(void)
{
	install(SIGSEGV, on_segv, 0, NULL);
}

/*
 * order after|before|twice|early abort|refault: the application's handler
 * and libcrash installed in some order; three faults recovered, then one that
 * the handler ends.
 *   after:  plain build, preloaded (libcrash's constructor, then main);
 *           linked build (its constructor, then main).
 *   before: linked build with CRASH_DISABLE=1: main installs, then crash_install().
 *   twice:  linked build: constructor, main installs, crash_install() twice.
 *   early:  plain build with COEXIST_EARLY=1, preloaded: libcoexist-early.so's
 *           constructor installs before libcrash's.
 */
NOINLINE static int mode_order(int argc, char **argv)
{
	sigset_t empty;
	int n = 0;

	if (argc < 4 || parse_end(argv[3]) < 0)
		return 2;
	sigemptyset(&empty);
	if (strcmp(argv[2], "early") == 0) {
#ifndef COEXIST_LINKED
		int st = coexist_early_state();

		say("info early: %s\n", st == 1   ? "the application's handler came first"
		                        : st == 2 ? "a handler was there before it"
		                                  : "not run");
#endif
	} else if (strcmp(argv[2], "before") == 0) {
		install(SIGSEGV, on_segv, 0, NULL);
		lib_install("after the application's sigaction()");
	} else if (strcmp(argv[2], "twice") == 0) {
		install(SIGSEGV, on_segv, 0, NULL);
		lib_install("first");
		lib_install("second");
	} else if (strcmp(argv[2], "after") == 0) {
		install(SIGSEGV, on_segv, 0, NULL);
	} else {
		return 2;
	}
	readback_is(SIGSEGV, (void *)on_segv, SA_SIGINFO, &empty, "the application's handler");
	for (int i = 0; i < 3; i++)
		n += try_fault(fault_null);
	say("recovered %d of 3\n", n);
	fault_null();
	say("survived the fault\n");
	return 1;
}

/* -------------------- H: handler styles */

/*
 * Does the kernel apply sa_mask at all?  Probed on SIGUSR2, which libcrash
 * does not handle.  qemu-user 7.2 for riscv64 does not: it treats riscv64's
 * struct sigaction as one with an sa_restorer (coexist.h), and its handlers
 * get a mask of garbage.  There, the handler's mask is an "info " line.
 */
static volatile int probe_blocked;

static void probe_handler(int sig)
{
	sigset_t cur;

	(void)sig;
	sigemptyset(&cur);
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	probe_blocked = sigismember(&cur, SIGUSR1) == 1;
}

static int sa_mask_applies(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = probe_handler;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR1);
	sigaction(SIGUSR2, &sa, &old);
	raise(SIGUSR2);
	sigaction(SIGUSR2, &old, NULL);
	return probe_blocked;
}

static int mask_applies;

enum style { ST_SIGNAL, ST_BSD, ST_SIGINFO, ST_RESETHAND, ST_NODEFER, ST_SYSV, ST_SIGSET };
static enum style style;
static volatile int style_calls;
static sigjmp_buf nested_jmp;
static volatile sig_atomic_t nested_guard;

static void style_install(void);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void style_common(int sig, siginfo_t *si)
{
	int first = style_calls++ == 0;
	struct sigaction cur;
	char b[256];

	if (nested_guard) { /* the nested fault of the SA_NODEFER check */
		nested_guard = 0;
		siglongjmp(nested_jmp, 1);
	}
	if (first) {
		/* What the kernel does for this style: the mask, the reset, the siginfo. */
		say("%sin the handler: blocked %s\n", mask_applies ? "" : "info ",
		    blocked(b, sizeof(b)));
		sigaction(sig, NULL, &cur);
		say("in the handler: disposition %s\n", hname((void *)cur.sa_handler));
		if (si)
			say("in the handler: si_signo %d, si_code %d, si_addr %p\n", si->si_signo,
			    si->si_code, si->si_addr);
	}
	if (guarded) {
		if (style == ST_NODEFER && first) {
			/* Not blocked: a fault in the handler reaches it again. */
			if (sigsetjmp(nested_jmp, 1) == 0) {
				nested_guard = 1;
				fault_null();
			}
			say("in the handler: a nested fault was recovered\n");
		}
		if (style == ST_RESETHAND || style == ST_SYSV)
			style_install(); /* one-shot: the handler installs itself again */
		recover();
	}
	yell("my handler ran\n");
	switch (style) {
	case ST_SIGNAL:
		signal(sig, SIG_DFL);
		break; /* returns into the fault */
	case ST_BSD:
		bsd_signal(sig, SIG_DFL);
		break;
	case ST_SIGINFO:
		abort();
	case ST_RESETHAND:
	case ST_SYSV:
		break; /* already reset: returns into the fault */
	case ST_NODEFER:
		signal(sig, SIG_DFL);
		raise(sig); /* not blocked: delivered now */
		yell("raise() returned\n");
		break;
	case ST_SIGSET:
		sigset(sig, SIG_DFL); /* also unblocks sig */
		raise(sig);
		yell("raise() returned\n");
		break;
	}
}

static void style_handler1(int sig)
{
	style_common(sig, NULL);
}

static void style_handler3(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	style_common(sig, si);
}

static void style_install(void)
{
	sigset_t m;

	sigemptyset(&m);
	sigaddset(&m, SIGUSR1);
	switch (style) {
	case ST_SIGNAL:
		signal(SIGSEGV, style_handler1);
		break;
	case ST_BSD:
		bsd_signal(SIGSEGV, style_handler1);
		break;
	case ST_SIGINFO:
		install(SIGSEGV, style_handler3, 0, &m);
		break;
	case ST_RESETHAND:
		install(SIGSEGV, style_handler3, SA_RESETHAND, &m);
		break;
	case ST_NODEFER:
		install(SIGSEGV, style_handler3, SA_NODEFER, &m);
		break;
	case ST_SYSV:
		sysv_signal(SIGSEGV, style_handler1);
		break;
	case ST_SIGSET:
		sigset(SIGSEGV, style_handler1);
		break;
	}
}
#pragma GCC diagnostic pop

/* style STYLE recover|end: three faults recovered, or one that the handler ends. */
NOINLINE static int mode_style(int argc, char **argv)
{
	static const char *const names[] = {"signal",  "bsd_signal",  "siginfo", "resethand",
	                                    "nodefer", "sysv_signal", "sigset"};
	char b[256];
	int n = 0, i;

	if (argc < 4)
		return 2;
	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strcmp(argv[2], names[i]) == 0)
			break;
	if (i == (int)(sizeof(names) / sizeof(names[0])))
		return 2;
	style = (enum style)i;
	mask_applies = sa_mask_applies();
	if (!mask_applies)
		say("info sa_mask is not applied by this kernel (emulator): masks not compared\n");
	style_install();
	if (strcmp(argv[3], "recover") == 0) {
		for (i = 0; i < 3; i++)
			n += try_fault(fault_null);
		say("recovered %d of 3\n", n);
		say("after the recoveries: blocked %s\n", blocked(b, sizeof(b)));
		return 0;
	}
	fault_null();
	say("survived the fault\n");
	return 1;
}

/* -------------------- G, H: alternate stacks */

static uintptr_t app_alt_lo, app_alt_hi; /* the application's alternate stack */

static int on_app_alt(void)
{
	char here;
	uintptr_t p = (uintptr_t)&here;

	__asm__ volatile("" ::"r"(&here) : "memory");
	return p >= app_alt_lo && p < app_alt_hi;
}

static void on_segv_where(int sig, siginfo_t *si, void *uc)
{
	stack_t ss;

	(void)sig;
	(void)si;
	(void)uc;
	sigaltstack(NULL, &ss);
	say("in the handler: SS_ONSTACK %d, on the application's alternate stack: %s\n",
	    !!(ss.ss_flags & SS_ONSTACK), on_app_alt() ? "yes" : "no");
	recover();
	_exit(3);
}

/*
 * onstack app|none on|off: a handler with or without SA_ONSTACK, with or
 * without an alternate stack of the application's; where does it run?
 */
static int mode_onstack(int argc, char **argv)
{
	size_t size = 64 * 1024;
	int n;

	if (argc < 4)
		return 2;
	if (strcmp(argv[2], "app") == 0) {
		char *p = malloc(size);
		stack_t ss = {.ss_sp = p, .ss_size = size, .ss_flags = 0};

		if (!p || sigaltstack(&ss, NULL) != 0)
			return 2;
		app_alt_lo = (uintptr_t)p;
		app_alt_hi = (uintptr_t)p + size;
	}
	install(SIGSEGV, on_segv_where, strcmp(argv[3], "on") == 0 ? SA_ONSTACK : 0, NULL);
	n = try_fault(fault_null);
	say("recovered %d of 1\n", n);
	return 0;
}

#define CANARY      0x5a
#define CANARY_SIZE 4096

static void on_segv_alt_abort(int sig, siginfo_t *si, void *uc)
{
	char here;

	(void)sig;
	(void)si;
	(void)uc;
	__asm__ volatile("" ::"r"(&here) : "memory");
	/* What one signal frame (and this handler's own) takes of the stack. */
	say("info handler entered %lu bytes below the top of the alternate stack\n",
	    (unsigned long)(app_alt_hi - (uintptr_t)&here));
	yell("my handler ran, on the alternate stack: %s\n", on_app_alt() ? "yes" : "no");
	abort();
}

static void print_status(const char *who, int st)
{
	if (WIFSIGNALED(st))
		say("%s: signal %d core %d\n", who, WTERMSIG(st), WCOREDUMP(st) ? 1 : 0);
	else
		say("%s: exit %d\n", who, WEXITSTATUS(st));
}

/*
 * altstack KIB guard|canary none|abort: the application's small alternate
 * stack, and a crash with no handler of its own or an SA_ONSTACK one that
 * calls abort().
 *
 * How the canary is checked after libcrash's report code ran: the crash
 * happens in a child.  The canary and the alternate stack are one
 * MAP_SHARED mapping made before fork(), laid out as a malloc'd stack is:
 * 4 KiB of canary immediately below the stack, writable, no guard.  Anything
 * the child writes there (a handler or a report running on this small stack
 * and going past its bottom) stays visible to the parent after the child is
 * dead, so the parent checks the canary once everything the child did,
 * report and death included, is over.  The child's wait status is printed
 * for the script.  With "guard", the page below is PROT_NONE instead: going
 * past the bottom faults inside the handler, which the report and the wait
 * status show.
 */
static int mode_altstack(int argc, char **argv)
{
	size_t size, below, ps = (size_t)sysconf(_SC_PAGESIZE);
	int canary, handler, st, bad = 0, lowest = -1;
	unsigned char *p;
	pid_t pid;

	if (argc < 5)
		return 2;
	size = (size_t)atoi(argv[2]) * 1024;
	canary = strcmp(argv[3], "canary") == 0;
	handler = strcmp(argv[4], "abort") == 0;
	below = canary ? CANARY_SIZE : ps;
	p = mmap(NULL, below + size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 2;
	if (canary)
		memset(p, CANARY, below);
	else if (mprotect(p, below, PROT_NONE) != 0)
		return 2;
	app_alt_lo = (uintptr_t)p + below;
	app_alt_hi = app_alt_lo + size;
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		stack_t ss = {.ss_sp = p + below, .ss_size = size, .ss_flags = 0};

		if (sigaltstack(&ss, NULL) != 0) {
			say("sigaltstack(%zu bytes) failed: %s\n", size, strerror(errno));
			_exit(2);
		}
		if (handler)
			install(SIGSEGV, on_segv_alt_abort, SA_ONSTACK, NULL);
		fault_null();
		_exit(1);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 2;
	print_status("child", st);
	if (canary) {
		for (size_t i = 0; i < below; i++) {
			if (p[i] != CANARY) {
				bad++;
				if (lowest < 0)
					lowest = (int)i;
			}
		}
		if (bad)
			say("canary: %d bytes changed, the lowest %zu bytes below the stack\n", bad,
			    below - (size_t)lowest);
		else
			say("canary intact\n");
	}
	return 0;
}

/* -------------------- G: threads */

NOINLINE static void *small_thread(void *arg)
{
	fault_null();
	KEEP();
	return arg;
}

static volatile int overflow_stop = -1;

/* Unbounded recursion with 1 KiB of locals a frame, until the guard page. */
NOINLINE static int overflow(int n)
{
	volatile char buf[1024];

	buf[0] = (char)n;
	buf[sizeof(buf) - 1] = 1;
	if (n == overflow_stop)
		return buf[0];
	return overflow(n + 1) + buf[sizeof(buf) - 1];
}

NOINLINE static void *overflow_thread(void *arg)
{
	overflow(0);
	KEEP();
	return arg;
}

static size_t thread_min(size_t want)
{
	long min = sysconf(_SC_THREAD_STACK_MIN);

	return min > 0 && (size_t)min > want ? (size_t)min : want;
}

static int run_thread(void *(*fn)(void *), size_t stack)
{
	pthread_attr_t a;
	pthread_t t;
	int r;

	pthread_attr_init(&a);
	if (stack && (r = pthread_attr_setstacksize(&a, stack)) != 0) {
		say("pthread_attr_setstacksize(%zu): %s\n", stack, strerror(r));
		return 2;
	}
	if ((r = pthread_create(&t, &a, fn, NULL)) != 0) {
		say("pthread_create: %s\n", strerror(r));
		return 2;
	}
	pthread_join(t, NULL);
	pthread_attr_destroy(&a);
	return 0;
}

/* smallthread: a thread with a 16 KiB stack (the arch's minimum if larger) crashes. */
static int mode_smallthread(int argc, char **argv)
{
	size_t s = thread_min(16384);

	(void)argc;
	(void)argv;
	say("info thread stack %zu bytes\n", s);
	if (run_thread(small_thread, s))
		return 2;
	say("survived the fault\n");
	return 1;
}

/* overflow main|thread: unbounded recursion. */
static int mode_overflow(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	if (strcmp(argv[2], "main") == 0)
		overflow(0);
	else if (run_thread(overflow_thread, thread_min(1024 * 1024)))
		return 2;
	say("survived the recursion\n");
	return 1;
}

static void *probe_thread(void *arg)
{
	stack_t ss;

	if (sigaltstack(NULL, &ss) != 0)
		say("info thread alternate stack: sigaltstack failed\n");
	else
		say("info thread alternate stack: %s, %zu bytes\n",
		    (ss.ss_flags & SS_DISABLE) ? "disabled" : "enabled", ss.ss_size);
	return arg;
}

#define OWN_ALT (64 * 1024)
static char *own_alt;

static void *own_alt_thread(void *arg)
{
	stack_t ss = {.ss_sp = own_alt, .ss_size = OWN_ALT, .ss_flags = 0}, cur;
	int r;

	r = sigaltstack(&ss, NULL);
	memset(&cur, 0, sizeof(cur));
	sigaltstack(NULL, &cur);
	verdict(r == 0 && cur.ss_sp == own_alt && cur.ss_size == OWN_ALT &&
	            !(cur.ss_flags & SS_DISABLE),
	        "a thread's own alternate stack reads back");
	/* The SA_ONSTACK handler runs on it (on_segv_where says so). */
	r = try_fault(fault_null);
	say("thread: recovered %d of 1\n", r);
	memset(&cur, 0, sizeof(cur));
	sigaltstack(NULL, &cur);
	verdict(cur.ss_sp == own_alt && cur.ss_size == OWN_ALT && !(cur.ss_flags & SS_DISABLE),
	        "after a signal, the thread's own alternate stack is still there");
	if ((uintptr_t)arg & 1)
		pthread_exit(arg);
	return arg;
}

static void *nop_thread(void *arg)
{
	if ((uintptr_t)arg & 1)
		pthread_exit(arg); /* half of them: no return through the start routine */
	return arg;
}

/* The process's mappings: how many, and their total size in KiB. */
static int maps_count(unsigned long *kib)
{
	char buf[4096];
	unsigned long lo = 0, hi = 0, *cur = &lo;
	int fd = open("/proc/self/maps", O_RDONLY), lines = 0, at_start = 1;
	ssize_t n;

	*kib = 0;
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			char c = buf[i];

			if (c == '\n') {
				lines++;
				*kib += (hi - lo) / 1024;
				lo = hi = 0;
				cur = &lo;
				at_start = 1;
			} else if (at_start && c == '-') {
				cur = &hi;
			} else if (at_start && c == ' ') {
				at_start = 0;
			} else if (at_start) {
				*cur =
				    *cur * 16 + (unsigned long)(c <= '9' ? c - '0' : c - 'a' + 10);
			}
		}
	}
	close(fd);
	return lines;
}

/*
 * threads: every thread gets libcrash's alternate stack (info line); a
 * thread's own one is kept; 1000 threads created and joined leave no mapping
 * behind.
 */
static int mode_threads(int argc, char **argv)
{
	unsigned long kib0, kib1;
	int n0, n1;
	pthread_t t;

	(void)argc;
	(void)argv;
	if (run_thread(probe_thread, 0))
		return 2;
	own_alt = malloc(OWN_ALT);
	if (!own_alt)
		return 2;
	app_alt_lo = (uintptr_t)own_alt;
	app_alt_hi = app_alt_lo + OWN_ALT;
	install(SIGSEGV, on_segv_where, SA_ONSTACK, NULL);
	for (uintptr_t i = 0; i < 2; i++) { /* returns, then pthread_exit() */
		if (pthread_create(&t, NULL, own_alt_thread, (void *)i) != 0)
			return 2;
		pthread_join(t, NULL);
	}
	/* The thread's stack is the application's memory still (not unmapped, not reused). */
	memset(own_alt, 0x11, OWN_ALT);
	free(own_alt);
	say("the thread's own alternate stack is still the application's\n");

	for (uintptr_t i = 0; i < 20; i++) { /* the stack cache, the arenas: warmed up */
		if (pthread_create(&t, NULL, nop_thread, (void *)i) != 0)
			return 2;
		pthread_join(t, NULL);
	}
	n0 = maps_count(&kib0);
	for (uintptr_t i = 0; i < 1000; i++) {
		if (pthread_create(&t, NULL, nop_thread, (void *)i) != 0)
			return 2;
		pthread_join(t, NULL);
	}
	n1 = maps_count(&kib1);
	say("info mappings before %d (%lu KiB), after 1000 threads %d (%lu KiB)\n", n0, kib0, n1,
	    kib1);
	verdict(n0 > 0 && n1 - n0 < 20 && kib1 < kib0 + 4096,
	        "1000 threads created and joined leave no mapping behind");
	return 0;
}

/* -------------------- main */

static const struct {
	const char *name;
	int (*fn)(int, char **);
} modes[] = {
    {"readback", mode_readback}, {"ignored", mode_ignored},   {"sigignore", mode_sigignore},
    {"recover", mode_recover},   {"end", mode_end},           {"infault", mode_infault},
    {"foreign", mode_foreign},   {"order", mode_order},       {"style", mode_style},
    {"onstack", mode_onstack},   {"altstack", mode_altstack}, {"smallthread", mode_smallthread},
    {"overflow", mode_overflow}, {"threads", mode_threads},
};

int main(int argc, char **argv)
{
	for (size_t i = 0; argc > 1 && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(argv[1], modes[i].name) == 0) {
			int r = modes[i].fn(argc, argv);

			KEEP(); /* not a tail call: main stays in every backtrace */
			return r;
		}
	}
	yell("usage: coexist MODE [ARGS] (see tests/coexist/coexist.c)\n");
	return 2;
}
