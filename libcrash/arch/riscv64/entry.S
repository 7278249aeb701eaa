/* SPDX-License-Identifier: MIT */
/*
 * riscv64: the signal handler's entry and the switch to libcrash's own stack.
 *
 * cr_sigentry(sig, si, uc) is what libcrash installs with sigaction.  It
 * tail-calls cr_handler(sig, si, uc, entry_sp, entry_ra) with the sp at entry
 * and ra.  When the kernel called it, ra is the vDSO's __vdso_rt_sigreturn and
 * sp the rt_sigframe { siginfo info; ucontext uc; } that si and uc point into
 * (arch/riscv signal.c setup_rt_frame); cr_handler proves that before it
 * reads uc (context.c cr_ctx_from_kernel).
 *
 * cr_on_stack(fn, arg, top) calls fn(arg) with sp = top (rounded down to 16,
 * psABI "Integer Calling Convention") and returns on the stack it was called
 * on; s0 holds the CFA, so the CFI unwinds out of fn.
 */
	.text
	.globl	cr_sigentry
	.hidden	cr_sigentry
	.type	cr_sigentry, @function
	.p2align 2
cr_sigentry:
	.cfi_startproc
	mv	a3, sp
	mv	a4, ra
	tail	cr_handler
	.cfi_endproc
	.size	cr_sigentry, .-cr_sigentry

	.globl	cr_on_stack
	.hidden	cr_on_stack
	.type	cr_on_stack, @function
	.p2align 2
cr_on_stack:
	.cfi_startproc
	addi	sp, sp, -16
	.cfi_def_cfa_offset 16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	.cfi_offset ra, -8
	.cfi_offset s0, -16
	addi	s0, sp, 16
	.cfi_def_cfa s0, 0
	andi	sp, a2, -16
	mv	t0, a0
	mv	a0, a1
	jalr	t0
	addi	sp, s0, -16
	.cfi_def_cfa sp, 16
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	.cfi_restore ra
	.cfi_restore s0
	addi	sp, sp, 16
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	cr_on_stack, .-cr_on_stack

	.section .note.GNU-stack, "", @progbits
