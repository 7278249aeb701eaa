/* SPDX-License-Identifier: MIT */
/*
 * The application's dispositions of the signals libcrash handles (disp.c).
 *
 * For such a signal the kernel has libcrash's handler (cr_sigentry) and this
 * table has what the application set, or what was there before libcrash:
 * the interposed sigaction() family (interpose.c) reads and writes here, and
 * the handler calls the application's handler from here first
 * (docs/design.md, "Living with other handlers").
 */
#ifndef CR_DISP_H
#define CR_DISP_H

#include <signal.h>
#include <stdint.h>

struct cr_disp {
	void *fn;		/* sa_handler or sa_sigaction (one union): SIG_DFL, SIG_IGN
				   or a function; SA_SIGINFO in flags says which kind */
	void *restorer;		/* sa_restorer, as glibc reports it back */
	uint64_t mask;		/* sa_mask: signal n is bit n - 1 (the kernel's sigset) */
	int flags;		/* sa_flags, as glibc reports them back */
};

/* Signals 1-64 with libcrash's handler in the kernel (bit CR_SIGBIT(sig)). */
extern uint64_t cr_disp_installed;

static inline int cr_disp_handled(int sig)
{
	return sig >= 1 && sig <= 64 &&
	       (__atomic_load_n(&cr_disp_installed, __ATOMIC_ACQUIRE) & (1ull << (sig - 1)));
}

static inline int cr_disp_is_fn(const struct cr_disp *d)
{
	return d->fn != (void *)SIG_DFL && d->fn != (void *)SIG_IGN;
}

/* The application's disposition of sig.  Lock-free, AS-safe (the handler's read). */
void cr_disp_get(int sig, struct cr_disp *d);

/*
 * Set it to *d (old: the one it replaces, if not NULL) and, if libcrash is
 * installed for sig, the kernel's action to match (cr_disp_kernel).  Writers
 * are serialised with every signal blocked, so a handler that calls
 * sigaction() cannot deadlock on an interrupted writer.  AS-safe.
 */
void cr_disp_set(int sig, const struct cr_disp *d, struct cr_disp *old);

/*
 * *d from a struct sigaction for sig (a handled signal), with what glibc adds
 * to it (SA_RESTORER ...).
 */
void cr_disp_from(int sig, struct cr_disp *d, const struct sigaction *sa);
/* ... and back, as glibc reports it: the kernel's 64 signals in sa_mask, the rest 0. */
void cr_disp_to(const struct cr_disp *d, struct sigaction *sa);

/*
 * Install libcrash's handler for the signals in sigs (CRASH_SIGMASK bits).
 * Unless the kernel already has it, what the kernel has becomes the
 * application's disposition: whoever installed it (before libcrash was
 * loaded, with a raw system call, or through glibc's internal __sigaction)
 * is the one libcrash calls first.  One system call per signal when that is
 * not a handler.  0 or -EINVAL (the signals before the bad one installed).
 */
int cr_disp_install(unsigned long long sigs);

/* Give the kernel the application's dispositions back and stop handling sigs. */
void cr_disp_uninstall(unsigned long long sigs);

/*
 * The kernel action libcrash keeps for sig, derived from the application's:
 * its sa_mask, SA_NODEFER, SA_RESTART and SA_ONSTACK when it has a handler
 * (so the kernel blocks, restarts and picks the stack as it would for that
 * handler), SA_ONSTACK | SA_NODEFER otherwise.  SA_RESETHAND never: the
 * handler resets this table instead.  *old (if not NULL): the kernel's
 * action before.  0 or -EINVAL.
 */
int cr_disp_kernel(int sig, struct sigaction *old);

#endif
