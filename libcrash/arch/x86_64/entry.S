/* SPDX-License-Identifier: MIT */
/*
 * x86_64: every entry into libcrash that must be assembly: the signal
 * handler's entry, the switch to libcrash's own stack, the register capture
 * (cr_getcontext) and the public entry stubs (crash_backtrace,
 * crash_backtrace_with; context.h).
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

/*
 * int cr_getcontext(struct cr_regs *r): the caller's callee-saved registers
 * (rbx 3, rbp 6, r12-r15), its sp after our return (rsp 7) and the return
 * address as pc and column 16.
 */
	.globl	cr_getcontext
	.hidden	cr_getcontext
	.type	cr_getcontext,@function
cr_getcontext:
	.cfi_startproc
	movq	%rbx, 24(%rdi)
	movq	%rbp, 48(%rdi)
	leaq	8(%rsp), %rax
	movq	%rax, 56(%rdi)
	movq	%r12, 96(%rdi)
	movq	%r13, 104(%rdi)
	movq	%r14, 112(%rdi)
	movq	%r15, 120(%rdi)
	movq	(%rsp), %rax
	movq	%rax, 128(%rdi)
	movq	%rax, 288(%rdi)
	movq	$0x1f0c8, 280(%rdi)	/* bits 3, 6, 7, 12-15, 16 */
	xorl	%eax, %eax
	ret
	.cfi_endproc
	.size	cr_getcontext, .-cr_getcontext

/*
 * A public entry point (context.h): the struct cr_regs (296 bytes) on the
 * stub's stack, filled as cr_getcontext fills it but for the stub's caller
 * (sp = the sp at entry + 8, pc = the return address at [sp]); rsp is then
 * 16-byte aligned for the call (psABI 3.2.2).  rdi, rsi, rdx pass through;
 * rcx is the struct.  Callers reach it through the PLT, an indirect branch:
 * where the compiler marks the object IBT-compatible (-fcf-protection, which
 * defines __CET__ bit 0) the stub starts with endbr64, as its functions do.
 */
.macro CR_ENTRY name, body
	.globl	\name
	.type	\name,@function
	.p2align	4
\name:
	.cfi_startproc
	ENDBR
	subq	$296, %rsp
	.cfi_adjust_cfa_offset	296
	movq	%rbx, 24(%rsp)
	movq	%rbp, 48(%rsp)
	leaq	304(%rsp), %rax
	movq	%rax, 56(%rsp)
	movq	%r12, 96(%rsp)
	movq	%r13, 104(%rsp)
	movq	%r14, 112(%rsp)
	movq	%r15, 120(%rsp)
	movq	296(%rsp), %rax
	movq	%rax, 128(%rsp)
	movq	%rax, 288(%rsp)
	movq	$0x1f0c8, 280(%rsp)
	movq	%rsp, %rcx
	call	\body
	addq	$296, %rsp
	.cfi_adjust_cfa_offset	-296
	ret
	.cfi_endproc
	.size	\name, .-\name
.endm

	/* With the capture's C code (common.h, CR_HOT). */
	.section .text.hot.libcrash, "ax"
	CR_ENTRY crash_backtrace_with, cr_backtrace_with_at
	CR_ENTRY crash_backtrace, cr_backtrace_at

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
