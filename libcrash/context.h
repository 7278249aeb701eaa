/* SPDX-License-Identifier: MIT */
/*
 * Host-only glue (arch/<host>/context.c): the only code that sees ucontext_t
 * and the kernel's signal frame layout.
 */
#ifndef CR_CONTEXT_H
#define CR_CONTEXT_H

#include "mem.h"
#include "regs.h"

/* Frame #00 from a signal handler's third argument.  Reads only uc_mcontext. */
void cr_regs_from_ucontext(const void *uc, struct cr_regs *r);

/*
 * The caller's state as it will be right after this call returns: callee-saved
 * registers, sp after the return, pc = the return address.  Assembly.
 */
int cr_getcontext(struct cr_regs *r);

/*
 * crash_backtrace() and crash_backtrace_with() are assembly stubs (CR_ENTRY in
 * arch/<host>/context.c): each takes its caller's registers as cr_getcontext
 * would at the call (callee-saved registers, sp after the return, pc = the
 * return address) into a struct cr_regs on its own stack, and returns what
 * the body returns, called with the stub's first three arguments untouched
 * and that struct as the fourth.  So a capture starts in the caller, with no
 * frame of libcrash to unwind.
 */
int cr_backtrace_with_at(int engine, void **buffer, int size, const struct cr_regs *caller);
int cr_backtrace_at(void **buffer, int size, long unused, const struct cr_regs *caller);

/*
 * If in->pc is a sigreturn trampoline (glibc __restore_rt, the vDSO's, qemu's),
 * *out = the registers of the interrupted frame from the kernel's signal frame
 * on in's stack.  0, -CR_ENOINFO (not a trampoline), -CR_EFAULT.  AS-safe.
 */
int cr_sigframe(const struct cr_mem *m, const struct cr_regs *in, struct cr_regs *out);

/* Registers of the report that are no DWARF column (flags, fault details). */
struct cr_extra {
	unsigned n;
	const char *name[4];
	uint64_t val[4];
};
void cr_ctx_extra(const void *uc, struct cr_extra *x);

#endif
