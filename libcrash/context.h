/* SPDX-License-Identifier: MIT */
/*
 * Host-only glue (arch/<host>/context.c): the only code that sees ucontext_t
 * and the kernel's signal frame layout.
 */
#ifndef CR_CONTEXT_H
#define CR_CONTEXT_H

#include <signal.h>

#include "mem.h"
#include "regs.h"

/* Frame #00 from a signal handler's third argument.  Reads only uc_mcontext. */
void cr_regs_from_ucontext(const void *uc, struct cr_regs *r);

/*
 * The caller's state as it will be right after this call returns: callee-saved
 * registers, sp after the return, pc = the return address.  Assembly
 * (arch/<host>/entry.S).
 */
int cr_getcontext(struct cr_regs *r);

/*
 * crash_backtrace() and crash_backtrace_with() are assembly stubs (CR_ENTRY in
 * arch/<host>/entry.S): each takes its caller's registers as cr_getcontext
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

/*
 * A filter for the trampoline, on the 8 bytes at a pc read as a little-endian
 * word: (word & cr_sigreturn_mask) != cr_sigreturn_head means no trampoline
 * starts at pc (cr_sigframe would give -CR_ENOINFO); equal means it may.
 */
extern const uint64_t cr_sigreturn_head, cr_sigreturn_mask;

/*
 * The address of the siginfo_t of the kernel's signal frame whose trampoline
 * frame has this pc and (exact) sp, the sp a handler returns to it with.
 * 0 or -CR_ENOINFO (pc is no trampoline).  AS-safe.
 */
int cr_sigframe_info(const struct cr_mem *m, uint64_t pc, uint64_t sp, uint64_t *info);

/*
 * The handler libcrash installs (arch/<host>/entry.S): it tail-calls
 * cr_handler(sig, si, uc, entry_sp, entry_ra) with the sp and the return
 * address it was entered with.
 */
void cr_sigentry(int sig, siginfo_t *si, void *uc);

/*
 * Was the handler entered by the kernel's signal delivery?  1 if entry_ra is
 * the sigreturn trampoline and si and uc are where this arch's rt_sigframe
 * puts them relative to entry_sp; 0 if not (another handler called ours, with
 * whatever arguments).  Reads entry_ra's code through m, never si or uc.
 * AS-safe.
 */
int cr_ctx_from_kernel(const struct cr_mem *m, const void *si, const void *uc, uint64_t entry_sp,
		       uint64_t entry_ra);

/*
 * Call fn(arg) with the stack pointer at top (rounded down to the ABI's
 * alignment), and return on the caller's stack (arch/<host>/entry.S).
 */
void cr_on_stack(void (*fn)(void *), void *arg, void *top);

/*
 * Make the system call that raised a SIGSYS (seccomp SECCOMP_RET_TRAP) return
 * v (-errno) when the handler returns: the kernel skipped it and left its
 * number in the result register.
 */
void cr_ctx_set_ret(void *uc, long v);

/* Registers of the report that are no DWARF column (flags, fault details). */
struct cr_extra {
	unsigned n;
	const char *name[4];
	uint64_t val[4];
};
void cr_ctx_extra(const void *uc, struct cr_extra *x);

#endif
