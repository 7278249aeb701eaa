/* SPDX-License-Identifier: MIT */
/*
 * loongarch64: every entry into libcrash that must be assembly: the signal
 * handler's entry, the switch to libcrash's own stack, the register capture
 * (cr_getcontext) and the public entry stubs (crash_backtrace,
 * crash_backtrace_with; context.h).
 *
 * cr_sigentry(sig, si, uc) is what libcrash installs with sigaction.  It
 * tail-calls cr_handler(sig, si, uc, entry_sp, entry_ra) with the sp at entry
 * and $ra.  When the kernel called it, $ra is the vDSO's __vdso_rt_sigreturn
 * and $sp the rt_sigframe { siginfo rs_info; ucontext rs_uc; } that si and uc
 * point into (arch/loongarch signal.c setup_rt_frame); cr_handler proves that
 * before it reads uc (context.c cr_ctx_from_kernel).
 *
 * cr_on_stack(fn, arg, top) calls fn(arg) with $sp = top (rounded down to
 * 16, LoongArch ELF psABI) and returns on the stack it was called on; $fp
 * holds the CFA, so the CFI unwinds out of fn.
 */
	.text
	.globl	cr_sigentry
	.hidden	cr_sigentry
	.type	cr_sigentry, @function
	.p2align 2
cr_sigentry:
	.cfi_startproc
	move	$a3, $sp
	move	$a4, $ra
	b	cr_handler
	.cfi_endproc
	.size	cr_sigentry, .-cr_sigentry

	.globl	cr_on_stack
	.hidden	cr_on_stack
	.type	cr_on_stack, @function
	.p2align 2
cr_on_stack:
	.cfi_startproc
	addi.d	$sp, $sp, -16
	.cfi_def_cfa_offset 16
	st.d	$ra, $sp, 8
	st.d	$fp, $sp, 0
	.cfi_offset 1, -8
	.cfi_offset 22, -16
	addi.d	$fp, $sp, 16
	.cfi_def_cfa 22, 0
	bstrins.d $a2, $zero, 3, 0
	move	$sp, $a2
	move	$t0, $a0
	move	$a0, $a1
	jirl	$ra, $t0, 0
	addi.d	$sp, $fp, -16
	.cfi_def_cfa 3, 16
	ld.d	$ra, $sp, 8
	ld.d	$fp, $sp, 0
	.cfi_restore 1
	.cfi_restore 22
	addi.d	$sp, $sp, 16
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	cr_on_stack, .-cr_on_stack

/*
 * int cr_getcontext(struct cr_regs *r): r0, ra (r1), tp (r2) and sp (r3),
 * which no callee changes, the frame pointer r22 and the callee-saved s0-s8
 * (r23-r31; psABI "Register Convention"), at r->r[n] = 8 * n; pc = ra.  r21 is
 * reserved and not saved.  The sp does not change on return.
 */
	.globl	cr_getcontext
	.hidden	cr_getcontext
	.type	cr_getcontext,@function
	.p2align	2
cr_getcontext:
	.cfi_startproc
	st.d	$zero, $a0, 0
	st.d	$ra, $a0, 8
	st.d	$tp, $a0, 16
	st.d	$sp, $a0, 24
	st.d	$fp, $a0, 176
	st.d	$s0, $a0, 184
	st.d	$s1, $a0, 192
	st.d	$s2, $a0, 200
	st.d	$s3, $a0, 208
	st.d	$s4, $a0, 216
	st.d	$s5, $a0, 224
	st.d	$s6, $a0, 232
	st.d	$s7, $a0, 240
	st.d	$s8, $a0, 248
	st.d	$ra, $a0, 288
	/* 0xffc0000f, bits 0-3 and 22-31: lu12i.w sign-extends, lu32i.d clears 32-51 */
	lu12i.w	$t0, -1024
	ori	$t0, $t0, 0xf
	lu32i.d	$t0, 0
	st.d	$t0, $a0, 280
	move	$a0, $zero
	jr	$ra
	.cfi_endproc
	.size	cr_getcontext, .-cr_getcontext

/*
 * A public entry point (context.h): the struct cr_regs (296 bytes, 304 with
 * sp 16-byte aligned, psABI "Stack") on the stub's stack, filled as
 * cr_getcontext fills it, with sp = the sp at entry.  ra is kept in the
 * struct across the call.  a0-a2 pass through; a3 is the struct.
 */
.macro CR_ENTRY name, body
	.globl	\name
	.type	\name,@function
	.p2align	2
\name:
	.cfi_startproc
	addi.d	$sp, $sp, -304
	.cfi_def_cfa_offset	304
	st.d	$zero, $sp, 0
	st.d	$ra, $sp, 8
	.cfi_offset	1, -296
	st.d	$tp, $sp, 16
	addi.d	$t0, $sp, 304
	st.d	$t0, $sp, 24
	st.d	$fp, $sp, 176
	st.d	$s0, $sp, 184
	st.d	$s1, $sp, 192
	st.d	$s2, $sp, 200
	st.d	$s3, $sp, 208
	st.d	$s4, $sp, 216
	st.d	$s5, $sp, 224
	st.d	$s6, $sp, 232
	st.d	$s7, $sp, 240
	st.d	$s8, $sp, 248
	st.d	$ra, $sp, 288
	lu12i.w	$t0, -1024
	ori	$t0, $t0, 0xf
	lu32i.d	$t0, 0
	st.d	$t0, $sp, 280
	move	$a3, $sp
	bl	\body
	ld.d	$ra, $sp, 8
	.cfi_restore	1
	addi.d	$sp, $sp, 304
	.cfi_def_cfa_offset	0
	jr	$ra
	.cfi_endproc
	.size	\name, .-\name
.endm

	/* With the capture's C code (common.h, CR_HOT). */
	.section .text.hot.libcrash, "ax"
	CR_ENTRY crash_backtrace_with, cr_backtrace_with_at
	CR_ENTRY crash_backtrace, cr_backtrace_at

	.section .note.GNU-stack, "", @progbits
