/* SPDX-License-Identifier: MIT */
/*
 * The application's dispositions of the signals libcrash handles (disp.h).
 *
 * One record per signal under a sequence count: the handler reads it
 * lock-free (retrying while a writer is in the middle), writers take one
 * spin lock with every signal blocked, so no handler can interrupt a writer
 * on its own thread and a writer on another thread finishes in a few stores.
 */
#include <errno.h>
#include <string.h>

#include "context.h"
#include "crash-int.h"
#include "disp.h"
#include "sys.h"

/* glibc's own sigaction under its other exported name, which libcrash does not interpose. */
extern int cr_glibc_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
	__asm__("__sigaction");

/* Written at install: in .data, whose page the loader has written (common.h). */
CR_INSTALL_DATA uint64_t cr_disp_installed;

static struct {
	unsigned seq;		/* odd: a writer is in the middle */
	struct cr_disp d;
} tab[65];
CR_INSTALL_DATA static int wlock;

/*
 * What glibc's sigaction adds to every action it installs and reports back
 * (x86_64: SA_RESTORER and its __restore_rt; nothing on the other arches),
 * learnt from libcrash's own first install, so the application reads back
 * what it would have read without libcrash.
 */
static int glibc_flags, glibc_learnt;
static void *glibc_restorer;

/* glibc's internal signals (SIGCANCEL 32, SIGSETXID 33) stay deliverable. */
#define ALL_BUT_GLIBC (~(CR_SIGBIT(32) | CR_SIGBIT(33)))

static void lock(uint64_t *saved)
{
	uint64_t all = ALL_BUT_GLIBC;

	cr_sys_sigprocmask(SIG_BLOCK, &all, saved);
	/* The holder runs with signals blocked and holds it for a few stores. */
	while (__atomic_exchange_n(&wlock, 1, __ATOMIC_ACQUIRE))
		cr_sys_sched_yield();
}

static void unlock(const uint64_t *saved)
{
	__atomic_store_n(&wlock, 0, __ATOMIC_RELEASE);
	cr_sys_sigprocmask(SIG_SETMASK, saved, NULL);
}

static void put(int sig, const struct cr_disp *d)
{
	unsigned s = tab[sig].seq;

	__atomic_store_n(&tab[sig].seq, s + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&tab[sig].d.fn, d->fn, __ATOMIC_RELAXED);
	__atomic_store_n(&tab[sig].d.restorer, d->restorer, __ATOMIC_RELAXED);
	__atomic_store_n(&tab[sig].d.mask, d->mask, __ATOMIC_RELAXED);
	__atomic_store_n(&tab[sig].d.flags, d->flags, __ATOMIC_RELAXED);
	__atomic_store_n(&tab[sig].seq, s + 2, __ATOMIC_RELEASE);
}

void cr_disp_get(int sig, struct cr_disp *d)
{
	if (sig < 1 || sig > 64) {
		memset(d, 0, sizeof(*d));	/* SIG_DFL */
		return;
	}
	/* Bounded: a writer on another thread is a few stores from done, and
	   none on this one can be interrupted by us (signals blocked). */
	for (unsigned i = 0; i < 100000; i++) {
		unsigned s = __atomic_load_n(&tab[sig].seq, __ATOMIC_ACQUIRE);

		d->fn = __atomic_load_n(&tab[sig].d.fn, __ATOMIC_RELAXED);
		d->restorer = __atomic_load_n(&tab[sig].d.restorer, __ATOMIC_RELAXED);
		d->mask = __atomic_load_n(&tab[sig].d.mask, __ATOMIC_RELAXED);
		d->flags = __atomic_load_n(&tab[sig].d.flags, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(s & 1) && __atomic_load_n(&tab[sig].seq, __ATOMIC_RELAXED) == s)
			return;
	}
}

int cr_disp_kernel(int sig, struct sigaction *old)
{
	const struct cr_disp *d = &tab[sig].d;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));	/* an empty sa_mask, as sigemptyset() makes it */
	sa.sa_sigaction = cr_sigentry;
	if (cr_cfg.chain && cr_disp_is_fn(d)) {
		sa.sa_flags = SA_SIGINFO | (d->flags & (SA_ONSTACK | SA_NODEFER | SA_RESTART));
		memcpy(&sa.sa_mask, &d->mask, sizeof(d->mask));
	} else {
		/* SA_NODEFER: a fault inside the report re-enters the handler,
		   which ends it (handler.c nested). */
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	}
	/* sigaction(2) ERRORS: EFAULT (not with these pointers) or EINVAL (a
	   signal that cannot be caught, or glibc's own): no errno to read. */
	return cr_glibc_sigaction(sig, &sa, old) < 0 ? -EINVAL : 0;
}

void cr_disp_set(int sig, const struct cr_disp *d, struct cr_disp *old)
{
	uint64_t saved;

	lock(&saved);
	if (old)
		*old = tab[sig].d;
	put(sig, d);
	if (cr_disp_handled(sig))
		cr_disp_kernel(sig, NULL);
	unlock(&saved);
}

/*
 * Whatever glibc added to the flags libcrash asked for, from libcrash's own
 * action for sig read back; once, at the application's first write (start-up
 * does without the system call).
 */
static void learn(int sig)
{
	struct sigaction back;

	if (cr_glibc_sigaction(sig, NULL, &back) == 0) {
		glibc_flags = back.sa_flags & ~(SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART);
		glibc_restorer = (void *)back.sa_restorer;
	}
	__atomic_store_n(&glibc_learnt, 1, __ATOMIC_RELEASE);
}

void cr_disp_from(int sig, struct cr_disp *d, const struct sigaction *sa)
{
	if (!__atomic_load_n(&glibc_learnt, __ATOMIC_ACQUIRE))
		learn(sig);
	d->fn = (void *)sa->sa_sigaction;
	d->flags = sa->sa_flags | glibc_flags;
	/* x86_64 glibc sets its own restorer on every action; elsewhere the
	   kernel keeps what it was given (riscv64, loongarch64: nothing). */
	d->restorer = glibc_restorer ? glibc_restorer : (void *)sa->sa_restorer;
	memcpy(&d->mask, &sa->sa_mask, sizeof(d->mask));
	/* The kernel drops these from every sa_mask (kernel/signal.c do_sigaction). */
	d->mask &= ~(CR_SIGBIT(SIGKILL) | CR_SIGBIT(SIGSTOP));
}

void cr_disp_to(const struct cr_disp *d, struct sigaction *sa)
{
	sa->sa_sigaction = (void (*)(int, siginfo_t *, void *))d->fn;
	sa->sa_flags = d->flags;
	sa->sa_restorer = (void (*)(void))d->restorer;
	memset(&sa->sa_mask, 0, sizeof(sa->sa_mask));	/* the kernel's 64 signals, then 0 */
	memcpy(&sa->sa_mask, &d->mask, sizeof(d->mask));
}

/* The kernel had old for sig before libcrash: the application's disposition now. */
static void adopt(int sig, const struct sigaction *old)
{
	uint64_t mask;
	struct cr_disp d;

	/* SIG_DFL as the kernel starts every signal, over an entry never
	   written: the table has it already (.bss), and start-up does not pay
	   a page fault to write zeros. */
	memcpy(&mask, &old->sa_mask, sizeof(mask));
	if (old->sa_handler == SIG_DFL && !old->sa_flags && !mask && !old->sa_restorer &&
	    !tab[sig].seq)
		return;
	/* Read back from glibc: exactly what the application would read. */
	d.fn = (void *)old->sa_sigaction;
	d.flags = old->sa_flags;
	d.restorer = (void *)old->sa_restorer;
	memcpy(&d.mask, &old->sa_mask, sizeof(d.mask));
	put(sig, &d);
}

int cr_disp_install(unsigned long long sigs)
{
	struct sigaction old;
	uint64_t saved;
	int ret = 0;

	lock(&saved);
	for (int sig = 1; sig < 64; sig++) {	/* a 64-bit mask: signals 1-63 */
		if (!(sigs & (1ull << sig)))
			continue;
		/*
		 * One system call: libcrash's action for what the table says, and
		 * what the kernel had.  Not libcrash's: it becomes the table's,
		 * and a handler there needs the kernel action made for it (a
		 * second call).  Until then a fault on another thread would find
		 * the table's older entry: only a crash_install() that adopts a
		 * handler installed behind libcrash's back has that window.
		 */
		if (cr_disp_kernel(sig, &old) < 0) {
			ret = -EINVAL;
			break;
		}
		if (old.sa_sigaction != cr_sigentry) {
			adopt(sig, &old);
			if (cr_disp_is_fn(&tab[sig].d) && cr_disp_kernel(sig, NULL) < 0) {
				ret = -EINVAL;
				break;
			}
		}
		__atomic_or_fetch(&cr_disp_installed, CR_SIGBIT(sig), __ATOMIC_RELEASE);
	}
	unlock(&saved);
	return ret;
}

void cr_disp_uninstall(unsigned long long sigs)
{
	struct sigaction sa;
	uint64_t saved;

	lock(&saved);
	for (int sig = 1; sig < 64; sig++) {	/* a 64-bit mask: signals 1-63 */
		if (!(sigs & (1ull << sig)) || !cr_disp_handled(sig))
			continue;
		memset(&sa, 0, sizeof(sa));
		cr_disp_to(&tab[sig].d, &sa);
		sa.sa_flags &= ~glibc_flags;	/* glibc adds them again */
		__atomic_and_fetch(&cr_disp_installed, ~CR_SIGBIT(sig), __ATOMIC_RELEASE);
		cr_glibc_sigaction(sig, &sa, NULL);
	}
	unlock(&saved);
}
