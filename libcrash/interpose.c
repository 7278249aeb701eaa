/* SPDX-License-Identifier: MIT */
/*
 * Living with other handlers: the functions libcrash.so takes over from
 * glibc, the way OpenJDK's libjsig does (docs/design.md).  In libcrash.so
 * only, not in the unit tests' libcrash-core.
 *
 * - sigaction, signal, bsd_signal, sysv_signal (and __sysv_signal, strict
 *   ISO C's signal), sigset, sigignore: for a
 *   signal libcrash handles the application reads and writes its own
 *   disposition (disp.h) and the kernel keeps libcrash's handler, which
 *   calls the application's first; every other signal goes to glibc.
 *   Not covered: handlers installed with a raw rt_sigaction system call (Go,
 *   some runtimes), or through glibc's __sigaction or ssignal.  Such a handler replaces libcrash's in the kernel; a
 *   later crash_install() adopts it (calls it first), and one that calls
 *   the handler it found (libcrash's) gets a report and control back
 *   (handler.c).
 * - pthread_create: every new thread gets an alternate signal stack
 *   (altstack.h), freed when the thread ends, so that its stack overflow
 *   is reported.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "altstack.h"
#include "crash-int.h"
#include "disp.h"
#include "mem.h"
#include "sys.h"

#define EXPORT __attribute__((visibility("default")))

/* glibc's own, under exported names libcrash does not take. */
extern int cr_glibc_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
	__asm__("__sigaction");
extern __sighandler_t cr_glibc_signal(int sig, __sighandler_t h) __asm__("ssignal");

EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct cr_disp d, prev;

	if (!cr_disp_handled(sig))
		return cr_glibc_sigaction(sig, act, old);
	if (act) {
		cr_disp_from(sig, &d, act);
		cr_disp_set(sig, &d, &prev);
	} else {
		cr_disp_get(sig, &prev);
	}
	if (old)
		cr_disp_to(&prev, old);
	return 0;
}

/* signal() and sysv_signal() as glibc makes them, on the application's disposition. */
static __sighandler_t set_simple(int sig, __sighandler_t h, int flags, int self_masked)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = h;
	sa.sa_flags = flags;
	if (self_masked) {
		uint64_t m = CR_SIGBIT(sig);	/* the first word of sa_mask */

		memcpy(&sa.sa_mask, &m, sizeof(m));
	}
	sigaction(sig, &sa, &old);
	return old.sa_handler;
}

/*
 * glibc's BSD signal(): SA_RESTART, the signal blocked in its handler.  (One
 * difference: siginterrupt(), glibc-internal state, is not seen here.)
 */
EXPORT __sighandler_t signal(int sig, __sighandler_t h)
{
	if (!cr_disp_handled(sig) || h == SIG_ERR)
		return cr_glibc_signal(sig, h);
	return set_simple(sig, h, SA_RESTART, 1);
}

/* X/Open's name for the BSD signal(); <signal.h> declares it only for older X/Open levels. */
EXPORT __sighandler_t bsd_signal(int sig, __sighandler_t h);
EXPORT __sighandler_t bsd_signal(int sig, __sighandler_t h)
{
	return signal(sig, h);
}

/*
 * System V: reset to SIG_DFL on delivery, not blocked in its handler (glibc
 * also sets the obsolete SA_INTERRUPT, 0x20000000, which the kernel drops).
 * Also under glibc's own name, __sysv_signal: what signal() is in a program
 * built for strict ISO C (-std=c99: <signal.h> redirects it there).  Every
 * signal, as glibc does it, since libcrash takes both of glibc's names.
 */
#define SA_INTERRUPT_ 0x20000000
EXPORT __sighandler_t __sysv_signal(int sig, __sighandler_t h);
EXPORT __sighandler_t __sysv_signal(int sig, __sighandler_t h)
{
	struct sigaction sa, old;

	if (h == SIG_ERR)
		return cr_glibc_signal(sig, h);	/* glibc's EINVAL */
	if (cr_disp_handled(sig))
		return set_simple(sig, h, SA_RESETHAND | SA_NODEFER | SA_INTERRUPT_, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = h;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER | SA_INTERRUPT_;
	if (cr_glibc_sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

EXPORT __sighandler_t sysv_signal(int sig, __sighandler_t h)
{
	return __sysv_signal(sig, h);
}

/* glibc's sigignore(): SIG_IGN, empty mask, no flags; every signal. */
EXPORT int sigignore(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	return sigaction(sig, &sa, NULL);
}

/* glibc's sigset(), every signal: SIG_HOLD blocks; anything else sets and unblocks. */
EXPORT __sighandler_t sigset(int sig, __sighandler_t disp)
{
	struct sigaction sa, old;
	uint64_t bit, was;

	if (sigaction(sig, NULL, &old) < 0)	/* an invalid signal: EINVAL */
		return SIG_ERR;
	bit = CR_SIGBIT(sig);
	if (disp == SIG_HOLD) {
		cr_sys_sigprocmask(SIG_BLOCK, &bit, &was);
		return (was & bit) ? SIG_HOLD : old.sa_handler;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = disp;
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	cr_sys_sigprocmask(SIG_UNBLOCK, &bit, &was);
	return (was & bit) ? SIG_HOLD : old.sa_handler;
}

/* ---------------------------------------------------------- pthread_create */

typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* What the new thread needs, at the top of its alternate stack's mapping. */
struct start {
	void *(*fn)(void *);
	void *arg;
	void *map;
	int own;	/* a stack block of glibc's with a guard page (glibc_block) */
};
#define START_ROOM 64	/* sizeof(struct start), rounded to keep the stack aligned */
_Static_assert(sizeof(struct start) <= START_ROOM, "room for struct start");

static create_fn *real_create;
static pthread_key_t key;
static int key_state;	/* 0 none, 1 being made, 2 made, 3 failed */

static void thread_end(void *map)
{
	cr_altstack_release(map);
}

/* One key whose destructor frees a thread's alternate stack when it ends. */
static int have_key(void)
{
	int s = __atomic_load_n(&key_state, __ATOMIC_ACQUIRE), none = 0;

	if (s >= 2)
		return s == 2;
	if (__atomic_compare_exchange_n(&key_state, &none, 1, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		s = pthread_key_create(&key, thread_end) == 0 ? 2 : 3;
		__atomic_store_n(&key_state, s, __ATOMIC_RELEASE);
		return s == 2;
	}
	while ((s = __atomic_load_n(&key_state, __ATOMIC_ACQUIRE)) == 1)
		cr_sys_sched_yield();
	return s == 2;
}

/*
 * The new thread's stack will be a block glibc maps, with a guard page:
 * the attributes give no stack of the application's own and a guard size
 * above 0 (NULL: glibc's defaults).  Only then may the thread's captures
 * remember its stack (cr_mem_own_mark, docs/design.md "Remembered
 * proofs"): the kernel's check below the mapping finds a PROT_NONE page,
 * but only glibc's guard proves nothing of the program's merged into it.
 * Both getters read the attributes' fields (no allocation, no lock); a
 * stack address never set reads as its top 0 (glibc gives the address
 * minus the size), one set never does.
 */
static int glibc_block(const pthread_attr_t *attr)
{
	size_t guard = 0, size = 0;
	void *addr = NULL;

	if (!attr)
		return 1;
	if (pthread_attr_getguardsize(attr, &guard) != 0 || guard == 0 ||
	    pthread_attr_getstack(attr, &addr, &size) != 0)
		return 0;
	return (uintptr_t)addr + size == 0;
}

static void *thread_start(void *p)
{
	struct start s = *(struct start *)p;

	if (s.own)
		cr_mem_own_mark();

	if (cr_altstack_use(s.map, CR_ALT_SIZE - START_ROOM) == 1 &&
	    pthread_setspecific(key, s.map) == 0) {
		/* freed by thread_end */
	} else {
		cr_altstack_release(s.map);	/* the thread had one, or no key */
	}
	return s.fn(s.arg);
}

EXPORT int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
			  void *arg)
{
	create_fn *create = __atomic_load_n(&real_create, __ATOMIC_ACQUIRE);
	struct start *s;
	void *map;
	int ret;

	if (!create) {
		/* glibc's, the next definition after this library's (ordinary code:
		   dlsym is fine here); every caller finds the same one. */
		create = (create_fn *)dlsym(RTLD_NEXT, "pthread_create");
		if (!create)
			return EAGAIN;
		__atomic_store_n(&real_create, create, __ATOMIC_RELEASE);
	}
	/* Without an alternate stack the thread still runs: libcrash never
	   makes pthread_create fail. */
	if (!cr_cfg.thread_altstack || !have_key() || !(map = cr_altstack_map()))
		return create(t, attr, fn, arg);
	s = (struct start *)((char *)map + CR_ALT_GUARD + CR_ALT_SIZE - START_ROOM);
	s->fn = fn;
	s->arg = arg;
	s->map = map;
	s->own = glibc_block(attr);
	ret = create(t, attr, thread_start, s);
	if (ret != 0)
		cr_altstack_release(map);
	return ret;
}
