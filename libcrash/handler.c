/* SPDX-License-Identifier: MIT */
/*
 * The signal handler: capture -> unwind -> report -> chain or re-raise.
 * Between the signal and the re-raise: no malloc, stdio or locks; every
 * memory read through cr_mem; every loop bounded.
 */
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "context.h"
#include "crash-int.h"
#include "report.h"
#include "sys.h"

/* tid of the thread that is reporting, 0 if none. */
static volatile int crash_owner;
/* Storage used only by the owner. */
static struct cr_maps crash_maps;
static struct cr_out crash_out;

#define WAIT_MS 30000	/* how long another crashing thread waits for the report */

static void set_default(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));	/* an empty sa_mask: glibc's sigemptyset() clears it so */
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
}

/* Deliver sig with its default action once the handler returns (or now if unblocked). */
static void reraise(int sig, void *ucv, int now)
{
	ucontext_t *uc = ucv;
	uint64_t set = CR_SIGBIT(sig), mask;

	set_default(sig);
	if (now) {
		cr_sys_sigprocmask(SIG_UNBLOCK, &set, NULL);
		cr_sys_tgkill(cr_sys_getpid(), cr_sys_gettid(), sig);
		return;
	}
	/* Pending now, delivered in the interrupted context after sigreturn, so
	   the core shows that context and not this handler. */
	cr_sys_sigprocmask(SIG_BLOCK, &set, NULL);
	if (uc) {
		/* The mask sigreturn restores: the kernel's sigset leads uc_sigmask
		   (kernel uapi struct ucontext; glibc's sigset_t only adds room). */
		memcpy(&mask, &uc->uc_sigmask, sizeof(mask));
		mask &= ~set;
		memcpy(&uc->uc_sigmask, &mask, sizeof(mask));
	}
	cr_sys_tgkill(cr_sys_getpid(), cr_sys_gettid(), sig);
}

/* A hardware fault that repeats when the instruction is executed again. */
static int refaults(int sig, const siginfo_t *si)
{
	return si->si_code > 0 &&
	       (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL);
}

static void note(const char *msg, int sig)
{
	struct cr_out o;

	cr_out_init(&o, cr_cfg.fd >= 0 ? cr_cfg.fd : 2);
	cr_puts(&o, "libcrash: ");
	cr_puts(&o, msg);
	cr_putu(&o, (uint64_t)sig);
	cr_putc(&o, '\n');
	cr_flush(&o);
}

static volatile int first_sig;

/* A fault inside our own handler: the original signal's default action, now. */
static void nested(int sig)
{
	int orig = first_sig ? first_sig : sig;

	note("fault inside the crash handler; default action for signal ", orig);
	set_default(sig);
	reraise(orig, NULL, 1);
	/* Still alive (orig was ignored or blocked by the kernel?): the fault's own. */
	reraise(sig, NULL, 1);
}

static void chain(int sig, siginfo_t *si, void *uc)
{
	const struct cr_prev *prev = &cr_prev[sig];
	int is_fn = (prev->flags & SA_SIGINFO) ? prev->action != NULL
					       : (prev->handler != SIG_DFL && prev->handler != SIG_IGN);

	if (cr_cfg.chain && is_fn) {
		/* The application may recover (or longjmp): let others report again. */
		__atomic_store_n(&crash_owner, 0, __ATOMIC_RELEASE);
		if (prev->flags & SA_SIGINFO)
			prev->action(sig, si, uc);
		else
			prev->handler(sig);
		return;
	}
	if (prev->handler == SIG_IGN && !(prev->flags & SA_SIGINFO) && !refaults(sig, si)) {
		/* Ignored before us: a sent signal goes on being ignored. */
		__atomic_store_n(&crash_owner, 0, __ATOMIC_RELEASE);
		return;
	}
	/* Keep crash_owner: the process dies, no other thread reports. */
	if (refaults(sig, si))
		set_default(sig);	/* returning re-executes the fault: the kernel's own */
	else
		reraise(sig, uc, 0);
}

/* Another thread is reporting: wait (bounded), then report ourselves if it let go. */
static int wait_turn(int tid)
{
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < WAIT_MS; i++) {
		int free_ = 0;

		if (__atomic_compare_exchange_n(&crash_owner, &free_, tid, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return 1;
		cr_sys_nanosleep(&ms, NULL);
	}
	return 0;
}

static void report(int sig, siginfo_t *si, void *uc)
{
	struct cr_regs regs;
	struct cr_extra extra;
	struct cr_crash c;

	cr_regs_from_ucontext(uc, &regs);
	cr_ctx_extra(uc, &extra);
	c.sig = sig;
	c.si = si;
	c.regs = &regs;
	c.extra = &extra;
	c.maps = cr_maps_open(&crash_maps) > 0 ? &crash_maps : NULL;
	c.engine = cr_cfg.engine;
	c.max_frames = cr_cfg.max_frames;
	c.exact = 1;
	cr_out_init(&crash_out, cr_cfg.fd);
	cr_report(&crash_out, &c);
	cr_maps_close(&crash_maps);
	if (cr_cfg.selftest_fault)
		*(volatile int *)(uintptr_t)cr_cfg.selftest_fault = 0;	/* address 1: faults */
}

/*
 * errno is not saved: nothing here writes it.  System calls are made raw
 * (sys.h); glibc's sigaction() writes errno only when it fails, which it
 * cannot for a signal we caught; _dl_find_object() does not touch it.
 */
void cr_handler(int sig, siginfo_t *si, void *uc)
{
	int tid = cr_sys_gettid(), owner = 0;

	if (!__atomic_compare_exchange_n(&crash_owner, &owner, tid, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED)) {
		if (owner == tid) {
			nested(sig);
			return;
		}
		if (!wait_turn(tid)) {
			/* The reporter never let go: die by our own signal, no report. */
			if (refaults(sig, si))
				set_default(sig);
			else
				reraise(sig, uc, 0);
			return;
		}
	}
	first_sig = sig;
	report(sig, si, uc);
	first_sig = 0;
	chain(sig, si, uc);
}
