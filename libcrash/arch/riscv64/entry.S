/* SPDX-License-Identifier: MIT */
/*
 * riscv64: every entry into libcrash that must be assembly: the signal
 * handler's entry, the switch to libcrash's own stack, the register capture
 * (cr_getcontext) and the public entry stubs (crash_backtrace,
 * crash_backtrace_with; context.h).
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

/*
 * int cr_getcontext(struct cr_regs *r): x0, ra (x1), sp (x2), gp (x3) and tp
 * (x4), which no callee changes, and the callee-saved s0-s11 (x8, x9,
 * x18-x27; psABI "Integer Register Convention"), at r->r[n] = 8 * n; pc = ra.
 * The sp does not change on return.
 */
	.globl	cr_getcontext
	.hidden	cr_getcontext
	.type	cr_getcontext,@function
	.p2align	2
cr_getcontext:
	.cfi_startproc
	sd	zero, 0(a0)
	sd	ra, 8(a0)
	sd	sp, 16(a0)
	sd	gp, 24(a0)
	sd	tp, 32(a0)
	sd	s0, 64(a0)
	sd	s1, 72(a0)
	sd	s2, 144(a0)
	sd	s3, 152(a0)
	sd	s4, 160(a0)
	sd	s5, 168(a0)
	sd	s6, 176(a0)
	sd	s7, 184(a0)
	sd	s8, 192(a0)
	sd	s9, 200(a0)
	sd	s10, 208(a0)
	sd	s11, 216(a0)
	sd	ra, 288(a0)
	li	t0, 0x0ffc031f	/* bits 0-4, 8, 9, 18-27 */
	sd	t0, 280(a0)
	li	a0, 0
	ret
	.cfi_endproc
	.size	cr_getcontext, .-cr_getcontext

/*
 * A public entry point (context.h): the struct cr_regs (296 bytes, 304 with
 * sp 16-byte aligned, psABI "Integer Calling Convention") on the stub's
 * stack, filled as cr_getcontext fills it, with sp = the sp at entry.  ra is
 * kept in the struct across the call.  a0-a2 pass through; a3 is the struct.
 */
.macro CR_ENTRY name, body
	.globl	\name
	.type	\name,@function
	.p2align	2
\name:
	.cfi_startproc
	addi	sp, sp, -304
	.cfi_def_cfa_offset	304
	sd	zero, 0(sp)
	sd	ra, 8(sp)
	.cfi_offset	ra, -296
	addi	t0, sp, 304
	sd	t0, 16(sp)
	sd	gp, 24(sp)
	sd	tp, 32(sp)
	sd	s0, 64(sp)
	sd	s1, 72(sp)
	sd	s2, 144(sp)
	sd	s3, 152(sp)
	sd	s4, 160(sp)
	sd	s5, 168(sp)
	sd	s6, 176(sp)
	sd	s7, 184(sp)
	sd	s8, 192(sp)
	sd	s9, 200(sp)
	sd	s10, 208(sp)
	sd	s11, 216(sp)
	sd	ra, 288(sp)
	li	t0, 0x0ffc031f
	sd	t0, 280(sp)
	mv	a3, sp
	call	\body
	ld	ra, 8(sp)
	.cfi_restore	ra
	addi	sp, sp, 304
	.cfi_def_cfa_offset	0
	ret
	.cfi_endproc
	.size	\name, .-\name
.endm

	/* With the capture's C code (common.h, CR_HOT). */
	.section .text.hot.libcrash, "ax"
	CR_ENTRY crash_backtrace_with, cr_backtrace_with_at
	CR_ENTRY crash_backtrace, cr_backtrace_at

	.section .note.GNU-stack, "", @progbits
