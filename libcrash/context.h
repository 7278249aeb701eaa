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
