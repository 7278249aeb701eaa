/* SPDX-License-Identifier: MIT */
/*
 * x86_64: the signal handler's entry and the switch to libcrash's own stack.
 *
 * cr_sigentry(sig, si, uc) is what libcrash installs with sigaction.  It adds
 * two arguments and tail-calls cr_handler(sig, si, uc, entry_sp, entry_ra):
 * the sp at entry, which points at the return address, and that address.
 * When the kernel called it, the return address is the sigreturn trampoline
 * (glibc's __restore_rt) and uc lies right above it: arch/x86 rt_sigframe
 * { pretcode; struct ucontext uc; struct siginfo info; }.  cr_handler proves
 * that before it reads uc (context.c cr_ctx_from_kernel).  The tail call
 * leaves no frame of its own: cr_handler returns to the trampoline.
 *
 * cr_on_stack(fn, arg, top) calls fn(arg) with rsp = top (rounded down to
 * 16, psABI 3.2.2) and returns on the stack it was called on.  rbp keeps the
 * old frame, so the CFI (CFA = rbp + 16) unwinds out of fn to the caller.
 */
#if defined(__CET__) && (__CET__ & 1)
#define ENDBR endbr64
#else
#define ENDBR
#endif

	.text
	.globl	cr_sigentry
	.hidden	cr_sigentry
	.type	cr_sigentry, @function
	.p2align 4
cr_sigentry:
	.cfi_startproc
	ENDBR
	movq	%rsp, %rcx
	movq	(%rsp), %r8
	jmp	cr_handler
	.cfi_endproc
	.size	cr_sigentry, .-cr_sigentry

	.globl	cr_on_stack
	.hidden	cr_on_stack
	.type	cr_on_stack, @function
	.p2align 4
cr_on_stack:
	.cfi_startproc
	ENDBR
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-16, %rdx
	movq	%rdx, %rsp
	movq	%rdi, %rax
	movq	%rsi, %rdi
	call	*%rax
	movq	%rbp, %rsp
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	cr_on_stack, .-cr_on_stack

	.section .note.GNU-stack, "", @progbits

#if defined(__CET__)
/* The object is as CET-ready as the C ones (-fcf-protection): the linker keeps
   the library's IBT/SHSTK marking only if every object carries it. */
	.section .note.gnu.property, "a"
	.p2align 3
	.long	4
	.long	16
	.long	5		/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000002	/* GNU_PROPERTY_X86_FEATURE_1_AND */
	.long	4
	.long	__CET__		/* bit 0 IBT, bit 1 SHSTK */
	.p2align 3
#endif
