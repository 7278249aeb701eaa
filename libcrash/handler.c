/* SPDX-License-Identifier: MIT */
/*
 * The signal handler (docs/design.md, "Living with other handlers"):
 *
 *   1. the application's handler first, if it has one (disp.h), on the
 *      stack and with the mask the kernel chose for it: if it recovers
 *      (siglongjmp, or returns after fixing the context), that is all;
 *   2. otherwise (no handler, or it let the process die: SIG_DFL and a
 *      re-fault, abort()): prove the kernel called us, report on libcrash's
 *      own stack, and die by the signal as without libcrash;
 *   3. called by another handler instead of the kernel: report once from our
 *      own registers, without reading si or uc, and return to that caller.
 *
 * Between the signal and the re-raise: no malloc, stdio or locks; every
 * memory read through cr_mem; every loop bounded.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "context.h"
#include "crash-int.h"
#include "disp.h"
#include "json.h"
#include "report.h"
#include "sys.h"
#include "threads.h"

extern int cr_glibc_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
	__asm__("__sigaction");

/* tid of the thread that is reporting, 0 if none. */
static volatile int crash_owner;
/* Storage used only by the owner. */
static struct cr_maps crash_maps;
static struct cr_out crash_out;
static struct cr_sink_io crash_io;
static volatile int reporting;	/* crash_io is open (cr_sink_begin .. cr_sink_end):
				   1 for a text report, 2 for a JSON one */
static const struct cr_threads *crash_threads;	/* the report's capture (threads.h) */
/*
 * The whole report, written at its end in one piece (sink.c: never
 * interleaved with another process's); a longer one goes out a buffer at a
 * time.  .bss: no memory until a crash touches it.
 */
static char report_buf[256 * 1024];

#define WAIT_MS 30000	/* how long another crashing thread waits for the report */

/*
 * libcrash's own stack for the report, mapped at the first report: the stack
 * the signal arrived on may be an application's 8 KiB alternate stack, a
 * 16 KiB thread stack or nearly full.  Only the crash owner uses it.  The
 * guard below is 64 KiB, the largest page size of the four ABIs.
 */
#define REPORT_STACK (128 * 1024)
#define REPORT_GUARD (64 * 1024)
static char *report_stack;	/* the mapping's start (guard first); NULL: not yet */

/* Top of libcrash's report stack, or NULL (no memory: the report runs where it is). */
static void *report_stack_top(void)
{
	if (!report_stack) {
		long r = cr_sys_mmap(NULL, REPORT_GUARD + REPORT_STACK, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

		if (cr_sys_failed(r))
			return NULL;
		if (cr_sys_mprotect((void *)r, REPORT_GUARD, PROT_NONE) < 0) {
			cr_sys_munmap((void *)r, REPORT_GUARD + REPORT_STACK);
			return NULL;
		}
		report_stack = (char *)r;
	}
	return report_stack + REPORT_GUARD + REPORT_STACK;
}

void cr_report_stack_set(void *lo, size_t size)
{
	/* Tests (tests/crash/stackuse.c): a stack they can inspect afterwards. */
	report_stack = (char *)lo + size - REPORT_STACK - REPORT_GUARD;
}

static void set_default(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));	/* an empty sa_mask: glibc's sigemptyset() clears it so */
	sa.sa_handler = SIG_DFL;
	cr_glibc_sigaction(sig, &sa, NULL);
}

/* Deliver sig with its default action once the handler returns (or now if unblocked). */
static void reraise(int sig, void *ucv, int now)
{
	ucontext_t *uc = ucv;
	uint64_t set = CR_SIGBIT(sig), mask;

	set_default(sig);
	if (now) {
		cr_sys_sigprocmask(SIG_UNBLOCK, &set, NULL);
		cr_sys_raise(sig);
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
	cr_sys_raise(sig);
}

/* A hardware fault that repeats when the instruction is executed again. */
static int refaults(int sig, const siginfo_t *si)
{
	return si->si_code > 0 &&
	       (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL);
}

static volatile int first_sig;

/* A fault inside our own handler: the original signal's default action, now. */
__attribute__((noinline)) static void nested(int sig)
{
	static int once;
	int orig = first_sig ? first_sig : sig;

	/* What the report has so far, and a line that says why it ends there;
	   once: a fault in the writing itself must not come back here forever. */
	if (reporting && !__atomic_exchange_n(&once, 1, __ATOMIC_ACQ_REL)) {
		char line[128];
		struct cr_out o;

		/* Not on a cut JSON line: a line of its own. */
		int nl = reporting == 2 && crash_out.n && crash_out.buf[crash_out.n - 1] != '\n';

		cr_out_drain(&crash_out);
		cr_out_mem(&o, line, sizeof(line));
		if (nl)
			cr_putc(&o, '\n');
		cr_puts(&o, "libcrash: fault inside the crash handler; default action for signal ");
		cr_putu(&o, (uint64_t)orig);
		cr_putc(&o, '\n');
		cr_out_drain(&o);
		cr_sink_write(&crash_io, line, o.memlen);
		cr_sink_end(&crash_io, report_buf, crash_out.n);
		reporting = 0;
	}
	/* The other threads back in their own code before the process dies:
	   the core shows them there. */
	cr_threads_release(crash_threads);
	set_default(sig);
	reraise(orig, NULL, 1);
	/* Still alive (orig was ignored or blocked by the kernel?): the fault's own. */
	reraise(sig, NULL, 1);
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

/* What the fatal path needs, built on the arrival stack, used on libcrash's. */
struct job {
	int sig;
	siginfo_t *si;
	void *uc;
	uint64_t entry_sp, entry_ra;	/* cr_sigentry's, for cr_ctx_from_kernel */
	const struct cr_disp *d;
	struct cr_regs own;		/* called by other code: the walk starts here */
	int release;			/* out: let other threads report again */
	int on_report_stack;		/* fatal_body runs on libcrash's report stack */
	int alt_swapped;		/* out: the report stack was the alternate stack;
					   old_alt is the thread's own, to put back */
	stack_t old_alt;
};

static struct cr_sink_io twin_io;	/* both: the text report's, for the JSON's */

/* One report of c to crash_io (begun), text or JSON; last: the selftest's fault after it. */
static void report_to(const struct cr_crash *c, int json, int last)
{
	cr_out_sink(&crash_out, &crash_io, report_buf, sizeof(report_buf));
	reporting = json ? 2 : 1;
	if (json)
		cr_report_json(&crash_out, c, CR_JSON_LIMIT);
	else
		cr_report(&crash_out, c);
	if (cr_cfg.selftest_fault && last)
		*(volatile int *)(uintptr_t)cr_cfg.selftest_fault = 0;	/* address 1: faults */
	if (!crash_io.journal)
		cr_out_drain(&crash_out);
	cr_sink_end(&crash_io, report_buf, crash_out.n);
	reporting = 0;
}

/* The report of j (si NULL: called by other code, from j->own). */
static void report(const struct job *j, const siginfo_t *si)
{
	struct cr_regs regs;
	struct cr_extra extra;
	struct cr_crash c;
	struct timespec when;
	static struct cr_repsym sym;	/* the owner's */
	int format = cr_cfg.format;

	if (si) {
		cr_regs_from_ucontext(j->uc, &regs);
		cr_ctx_extra(j->uc, &extra);
	} else {
		regs = j->own;
		extra.n = 0;
	}
	c.sig = j->sig;
	c.si = si;
	c.regs = &regs;
	c.extra = &extra;
	c.maps = cr_maps_open(&crash_maps) > 0 ? &crash_maps : NULL;
	c.engine = cr_cfg.engine;
	c.max_frames = cr_cfg.max_frames;
	c.exact = si != NULL;
	/* Before the first line: the other threads stop where they are (their
	   registers at the crash, their stacks as they were) for the report,
	   both of its formats. */
	c.threads = NULL;
	if (cr_cfg.threads == CRASH_THREADS_ALL)
		crash_threads = c.threads = cr_threads_capture(cr_cfg.sink.timeout_ms);
	/* Both reports of CRASH_FORMAT=both say the same time. */
	c.when = cr_sys_clock_gettime(CLOCK_REALTIME, &when) == 0 ? &when : NULL;
	/* One symbolizer for every backtrace of both reports. */
	cr_report_sym_begin(&sym);
	c.sym = &sym;
	if (format != CRASH_FORMAT_JSON) {
		cr_sink_begin(&crash_io, &cr_cfg.sink, j->sig);
		report_to(&c, 0, format == CRASH_FORMAT_TEXT);
		/* The JSON twin after it, as a report of its own: the same
		   destination (in a directory, the .txt's name with .json),
		   within the same CRASH_TIMEOUT. */
		twin_io = crash_io;
	}
	if (format != CRASH_FORMAT_TEXT) {
		cr_sink_begin_json(&crash_io, &cr_cfg.sink, j->sig,
				   format == CRASH_FORMAT_BOTH ? &twin_io : NULL);
		report_to(&c, 1, 1);
	}
	cr_report_sym_end(&sym);
	cr_threads_release(c.threads);
	crash_threads = NULL;
	cr_maps_close(&crash_maps);
}

/* The kernel's disposition is ours and it entered us with a signal frame:
   only then are si and uc what they claim to be. */
static int from_kernel(const struct job *j)
{
	uint64_t installed = 0;

	return cr_sys_sighandler(j->sig, &installed) == 0 &&
	       installed == (uintptr_t)cr_sigentry &&
	       cr_ctx_from_kernel(&cr_mem_self, j->si, j->uc, j->entry_sp, j->entry_ra);
}

/* Die by the signal as without libcrash: the kernel's default action. */
static void die(const struct job *j)
{
	if (refaults(j->sig, j->si))
		set_default(j->sig);	/* returning re-executes the fault: the kernel's own */
	else
		reraise(j->sig, j->uc, 0);
}

/*
 * On libcrash's stack, as the crash owner.  Called by another handler (Go's
 * forwarding, a runtime that chains to the handler it found, one calling it
 * as old(sig)): si and uc are unproven and never read; one report per
 * process, then back to the caller, whose crash handling goes on as it would
 * without libcrash.  Else: a signal the application ignores stays ignored;
 * anything else is reported, and the process dies.
 */
static void fatal_body(void *p)
{
	/* A fault in the report must reach us (nested), whatever the mask the
	   application's handler left: these are the signals a fault raises. */
	static const uint64_t faults = CR_SIGBIT(SIGSEGV) | CR_SIGBIT(SIGBUS) |
				       CR_SIGBIT(SIGILL) | CR_SIGBIT(SIGFPE) | CR_SIGBIT(SIGTRAP);
	static int foreign_done;
	struct job *j = p;

	j->release = 1;
	/*
	 * A signal the report itself raises and handles (a seccomp trap's
	 * SIGSYS: cr_handler) is delivered with SA_ONSTACK: the kernel puts its
	 * frame at the top of the alternate stack unless the thread already runs
	 * on it, and this thread runs on the report stack, not on the alternate
	 * stack, whose top holds the frame of the signal being reported: the new
	 * frame would overwrite it, and the return from this handler would
	 * resume the report instead of the program.  So, while the report runs,
	 * the report stack is the thread's alternate stack: nested frames go
	 * below the report's own (sigaltstack(2): changing it is refused only
	 * while running on it; fatal() puts the thread's own back).
	 */
	if (j->on_report_stack) {
		stack_t rs = { .ss_sp = report_stack + REPORT_GUARD, .ss_flags = 0,
			       .ss_size = REPORT_STACK };

		j->alt_swapped = cr_sys_sigaltstack(&rs, &j->old_alt) == 0;
	}
	if (!from_kernel(j)) {
		if (__atomic_exchange_n(&foreign_done, 1, __ATOMIC_ACQ_REL))
			return;
		cr_sys_sigprocmask(SIG_UNBLOCK, &faults, NULL);
		report(j, NULL);
		return;
	}
	/* The kernel forces the default on a fault it cannot deliver; a sent
	   signal is dropped. */
	if (j->d->fn == (void *)SIG_IGN && !refaults(j->sig, j->si))
		return;
	cr_sys_sigprocmask(SIG_UNBLOCK, &faults, NULL);
	report(j, j->si);
	j->release = 0;	/* the process dies: no other thread reports */
	die(j);
}

/*
 * No handler of the application's took the signal (or it let go).  Here on
 * the stack the signal arrived on (an 8 KiB alternate stack, a nearly full
 * thread stack) only this frame: the crash lock, then everything else on
 * libcrash's own stack.
 */
__attribute__((noinline)) static void fatal(int sig, siginfo_t *si, void *uc, uint64_t entry_sp,
					    uint64_t entry_ra, const struct cr_disp *d)
{
	struct job j = { .sig = sig, .si = si, .uc = uc, .entry_sp = entry_sp,
			 .entry_ra = entry_ra, .d = d };
	int tid = cr_sys_gettid(), owner = 0;
	uint64_t rt;
	void *top;

	/* Here, on the caller's stack: a walk from other code's call goes up
	   through its callers. */
	cr_getcontext(&j.own);
	if (!__atomic_compare_exchange_n(&crash_owner, &owner, tid, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED) &&
	    !wait_turn(tid)) {
		/* The reporter never let go: no report; die by our own signal. */
		if (from_kernel(&j))
			die(&j);
		return;
	}
	/* No other report's capture signal while this thread reports on
	   libcrash's stack (threads.h, cr_threads_block); until here one is
	   delivered on this alternate stack below this frame, and the thread
	   that waits for its turn shows in that report. */
	cr_threads_block(&rt);
	first_sig = sig;
	if ((top = report_stack_top())) {
		j.on_report_stack = 1;
		cr_on_stack(fatal_body, &j, top);
		/* Off the report stack again: the thread's own alternate stack back. */
		if (j.alt_swapped)
			cr_sys_sigaltstack(&j.old_alt, NULL);
	} else {
		fatal_body(&j);
	}
	first_sig = 0;
	if (j.release)
		__atomic_store_n(&crash_owner, 0, __ATOMIC_RELEASE);
	/* Back to the mask before (only what was blocked here: a re-raised
	   signal stays blocked until sigreturn). */
	cr_sys_sigprocmask(SIG_UNBLOCK, &rt, NULL);
}

/*
 * errno is not saved: nothing here writes it.  System calls are made raw
 * (sys.h); glibc's sigaction() writes errno only when it fails, which it
 * cannot for a signal we caught; _dl_find_object() does not touch it.  The
 * application's handler, called first, is the application's business.
 */
void cr_handler(int sig, siginfo_t *si, void *uc, uint64_t entry_sp, uint64_t entry_ra)
{
	int owner = __atomic_load_n(&crash_owner, __ATOMIC_ACQUIRE);
	struct cr_disp d;

	/* A fault inside our own report is never the application's to handle. */
	if (owner && owner == cr_sys_gettid()) {
		/*
		 * A seccomp filter trapped one of the report's own system calls
		 * (SECCOMP_RET_TRAP: SIGSYS, SYS_SECCOMP, the call skipped): it
		 * fails with EPERM and the report goes on without that piece.
		 * This thread runs only libcrash's code while it owns the report.
		 */
		if (sig == SIGSYS && si && si->si_code == 1 /* SYS_SECCOMP */ && uc) {
			cr_ctx_set_ret(uc, -EPERM);
			return;
		}
		nested(sig);
		return;
	}
	cr_disp_get(sig, &d);
	if (cr_cfg.chain && cr_disp_is_fn(&d)) {
		if (d.flags & SA_RESETHAND) {
			/* What the kernel does for the application's SA_RESETHAND. */
			struct cr_disp dfl = d;

			dfl.fn = (void *)SIG_DFL;
			cr_disp_set(sig, &dfl, NULL);
		}
		if (d.flags & SA_SIGINFO)
			((void (*)(int, siginfo_t *, void *))d.fn)(sig, si, uc);
		else
			((void (*)(int))d.fn)(sig);
		return;
	}
	fatal(sig, si, uc, entry_sp, entry_ra, &d);
}
