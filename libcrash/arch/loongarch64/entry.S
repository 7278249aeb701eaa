/* SPDX-License-Identifier: MIT */
/*
 * loongarch64: the signal handler's entry and the switch to libcrash's own
 * stack.
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

	.section .note.GNU-stack, "", @progbits
