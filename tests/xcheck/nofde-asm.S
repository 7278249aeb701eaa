/* SPDX-License-Identifier: MIT */
/*
 * Functions with no unwind table (no .cfi directives, so no FDE) and no size,
 * as hand-written assembly in a stripped library has them (OpenSSL's
 * perlasm): each faults on the pointer it is given (NULL), for tests/xcheck/
 * nofde.c.
 * - nofde_rec: a frame with its frame record (and a callee-saved register),
 *   faulting in its body;
 * - nofde_leaf: no frame at all;
 * - nofde_call: a frame record, a call of its own (the link register then
 *   holds a return address inside nofde_call), faulting after it.
 */
#if defined(__aarch64__)
	.text
	.p2align 4
	.globl nofde_rec
	.type nofde_rec, %function
nofde_rec:
	stp x29, x30, [sp, #-48]!
	add x29, sp, #0
	stp x19, x20, [sp, #16]
	mov x19, x0
	ldr x0, [x19]
	ldp x19, x20, [sp, #16]
	ldp x29, x30, [sp], #48
	ret
	.p2align 4
	.globl nofde_leaf
	.type nofde_leaf, %function
nofde_leaf:
	ldr x0, [x0]
	ret
	.p2align 4
	.globl nofde_call
	.type nofde_call, %function
nofde_call:
	stp x29, x30, [sp, #-32]!
	mov x29, sp
	bl nofde_inner
	ldr x0, [x0]
	ldp x29, x30, [sp], #32
	ret
nofde_inner:
	ret
#elif defined(__riscv) && __riscv_xlen == 64
	.text
	.p2align 4
	.globl nofde_rec
	.type nofde_rec, @function
nofde_rec:
	addi sp, sp, -32
	sd ra, 24(sp)
	sd s0, 16(sp)
	sd s1, 8(sp)
	addi s0, sp, 32
	mv s1, a0
	ld a0, 0(s1)
	ld ra, 24(sp)
	ld s0, 16(sp)
	ld s1, 8(sp)
	addi sp, sp, 32
	ret
	.p2align 4
	.globl nofde_leaf
	.type nofde_leaf, @function
nofde_leaf:
	ld a0, 0(a0)
	ret
	.p2align 4
	.globl nofde_call
	.type nofde_call, @function
nofde_call:
	addi sp, sp, -16
	sd ra, 8(sp)
	sd s0, 0(sp)
	addi s0, sp, 16
	call nofde_inner
	ld a0, 0(a0)
	ld ra, 8(sp)
	ld s0, 0(sp)
	addi sp, sp, 16
	ret
nofde_inner:
	ret
#elif defined(__loongarch64)
	.text
	.p2align 4
	.globl nofde_rec
	.type nofde_rec, @function
nofde_rec:
	addi.d $sp, $sp, -32
	st.d $ra, $sp, 24
	st.d $fp, $sp, 16
	st.d $s0, $sp, 8
	addi.d $fp, $sp, 32
	move $s0, $a0
	ld.d $a0, $s0, 0
	ld.d $ra, $sp, 24
	ld.d $fp, $sp, 16
	ld.d $s0, $sp, 8
	addi.d $sp, $sp, 32
	jr $ra
	.p2align 4
	.globl nofde_leaf
	.type nofde_leaf, @function
nofde_leaf:
	ld.d $a0, $a0, 0
	jr $ra
	.p2align 4
	.globl nofde_call
	.type nofde_call, @function
nofde_call:
	addi.d $sp, $sp, -16
	st.d $ra, $sp, 8
	st.d $fp, $sp, 0
	addi.d $fp, $sp, 16
	bl nofde_inner
	ld.d $a0, $a0, 0
	ld.d $ra, $sp, 8
	ld.d $fp, $sp, 0
	addi.d $sp, $sp, 16
	jr $ra
nofde_inner:
	jr $ra
#elif defined(__x86_64__)
	.text
	.p2align 4
	.globl nofde_rec
	.type nofde_rec, @function
nofde_rec:
	push %rbp
	mov %rsp, %rbp
	push %rbx
	push %r12
	mov %rdi, %rbx
	mov (%rbx), %rax
	pop %r12
	pop %rbx
	pop %rbp
	ret
	.p2align 4
	.globl nofde_leaf
	.type nofde_leaf, @function
nofde_leaf:
	mov (%rdi), %rax
	ret
	.p2align 4
	.globl nofde_call
	.type nofde_call, @function
nofde_call:
	push %rbp
	mov %rsp, %rbp
	call nofde_inner
	mov (%rax), %rax
	pop %rbp
	ret
nofde_inner:
	mov %rdi, %rax
	ret
#else
#error "no FDE-less test functions for this arch"
#endif
	.section .note.GNU-stack, "", %progbits
