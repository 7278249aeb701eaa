/* SPDX-License-Identifier: MIT */
/*
 * aarch64: every entry into libcrash that must be assembly: the signal
 * handler's entry, the switch to libcrash's own stack, the register capture
 * (cr_getcontext) and the public entry stubs (crash_backtrace,
 * crash_backtrace_with; context.h).
 *
 * cr_sigentry(sig, si, uc) is what libcrash installs with sigaction.  It
 * tail-calls cr_handler(sig, si, uc, entry_sp, entry_ra) with the sp at entry
 * and x30.  When the kernel called it, x30 is the sigreturn trampoline (the
 * vDSO's __kernel_rt_sigreturn) and sp the rt_sigframe { siginfo info;
 * ucontext uc; } that si and uc point into (arch/arm64 signal.c
 * setup_rt_frame); cr_handler proves that before it reads uc (context.c
 * cr_ctx_from_kernel).  x30 is the trampoline's own address, never signed.
 *
 * cr_on_stack(fn, arg, top) calls fn(arg) with sp = top (rounded down to 16,
 * AAPCS64 6.4.5.1) and returns on the stack it was called on; x29 keeps the
 * frame record, so the CFI (CFA = x29 + 16) unwinds out of fn.
 *
 * Both start with bti c (hint #34, a no-op without BTI): they are reached
 * by an indirect branch (the kernel's eret is not one, but cr_on_stack's
 * callers may be).
 */
	.text
	.globl	cr_sigentry
	.hidden	cr_sigentry
	.type	cr_sigentry, %function
	.p2align 2
cr_sigentry:
	.cfi_startproc
	hint	#34
	mov	x3, sp
	mov	x4, x30
	b	cr_handler
	.cfi_endproc
	.size	cr_sigentry, .-cr_sigentry

	.globl	cr_on_stack
	.hidden	cr_on_stack
	.type	cr_on_stack, %function
	.p2align 2
cr_on_stack:
	.cfi_startproc
	hint	#34
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	mov	x29, sp
	.cfi_def_cfa_register x29
	and	x2, x2, #-16
	mov	sp, x2
	mov	x3, x0
	mov	x0, x1
	blr	x3
	mov	sp, x29
	.cfi_def_cfa_register sp
	ldp	x29, x30, [sp], #16
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_restore x30
	ret
	.cfi_endproc
	.size	cr_on_stack, .-cr_on_stack

/*
 * int cr_getcontext(struct cr_regs *r): the callee-saved x19-x28 (AAPCS64
 * 6.1.1), the frame pointer x29, the link register x30 and sp (31), at
 * r->r[n] = 8 * n; pc = x30, which bl left unsigned.  The sp does not change
 * on return.  bti c: a valid landing pad where BTI is enforced.
 */
	.globl	cr_getcontext
	.hidden	cr_getcontext
	.type	cr_getcontext,%function
	.p2align	2
cr_getcontext:
	.cfi_startproc
	hint	#34
	stp	x19, x20, [x0, #152]
	stp	x21, x22, [x0, #168]
	stp	x23, x24, [x0, #184]
	stp	x25, x26, [x0, #200]
	stp	x27, x28, [x0, #216]
	stp	x29, x30, [x0, #232]
	mov	x1, sp
	str	x1, [x0, #248]
	str	x30, [x0, #288]
	movz	x1, #0xfff8, lsl #16	/* bits 19-31 */
	str	x1, [x0, #280]
	mov	w0, #0
	ret
	.cfi_endproc
	.size	cr_getcontext, .-cr_getcontext

/*
 * A public entry point (context.h): the struct cr_regs (296 bytes, 304 with
 * sp 16-byte aligned, AAPCS64 6.4.5.1) on the stub's stack, filled as
 * cr_getcontext fills it, with sp = the sp at entry.  x30, the return
 * address that bl left unsigned, is kept in the struct across the call.
 * x0-x2 pass through; x3 is the struct.  bti c as in cr_getcontext.
 */
.macro CR_ENTRY name, body
	.globl	\name
	.type	\name,%function
	.p2align	2
\name:
	.cfi_startproc
	hint	#34
	sub	sp, sp, #304
	.cfi_def_cfa_offset	304
	stp	x19, x20, [sp, #152]
	stp	x21, x22, [sp, #168]
	stp	x23, x24, [sp, #184]
	stp	x25, x26, [sp, #200]
	stp	x27, x28, [sp, #216]
	stp	x29, x30, [sp, #232]
	.cfi_offset	x30, -64
	add	x9, sp, #304
	str	x9, [sp, #248]
	str	x30, [sp, #288]
	movz	x9, #0xfff8, lsl #16
	str	x9, [sp, #280]
	mov	x3, sp
	bl	\body
	ldr	x30, [sp, #240]
	.cfi_restore	x30
	add	sp, sp, #304
	.cfi_def_cfa_offset	0
	ret
	.cfi_endproc
	.size	\name, .-\name
.endm

	/* With the capture's C code (common.h, CR_HOT). */
	.section .text.hot.libcrash, "ax"
	CR_ENTRY crash_backtrace_with, cr_backtrace_with_at
	CR_ENTRY crash_backtrace, cr_backtrace_at

	.section .note.GNU-stack, "", %progbits

#if defined(__ARM_FEATURE_BTI_DEFAULT) || defined(__ARM_FEATURE_PAC_DEFAULT)
/* Marked as BTI-ready as the C objects (-mbranch-protection): the linker keeps
   the library's marking only if every object carries it. */
	.section .note.gnu.property, "a"
	.p2align 3
	.long	4
	.long	16
	.long	5		/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000000	/* GNU_PROPERTY_AARCH64_FEATURE_1_AND */
	.long	4
	.long	3		/* BTI | PAC */
	.long	0
#endif
