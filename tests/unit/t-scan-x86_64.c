/* SPDX-License-Identifier: MIT */
/* The x86_64 prologue decoder: byte arrays in, exact rows out. Encodings: Intel SDM vol. 2. */
#include "scan-check.h"

enum { RBX = 3, RBP = 6, RSP = 7, R12 = 12, R13 = 13, R14 = 14, R15 = 15, RIP = 16 };

/* A frame-pointer function with an -O2 style epilogue. */
static const uint8_t f1[] = {
	0xf3, 0x0f, 0x1e, 0xfa,		/* 00 endbr64 */
	0x55,				/* 04 push %rbp */
	0x48, 0x89, 0xe5,		/* 05 mov %rsp,%rbp */
	0x41, 0x57,			/* 08 push %r15 */
	0x53,				/* 0a push %rbx */
	0x48, 0x83, 0xec, 0x18,		/* 0b sub $0x18,%rsp */
	0x48, 0x89, 0xfb,		/* 0f mov %rdi,%rbx */
	0xe8, 0x00, 0x00, 0x00, 0x00,	/* 12 call */
	0x48, 0x83, 0xc4, 0x18,		/* 17 add $0x18,%rsp */
	0x5b,				/* 1b pop %rbx */
	0x41, 0x5f,			/* 1c pop %r15 */
	0x5d,				/* 1e pop %rbp */
	0xc3,				/* 1f ret */
};

static void test_f1(void)
{
	const int64_t *body = SAVES(RBP, -16, R15, -24, RBX, -32, RIP, -8);

	sc_row("f1 pc 00 (entry)", f1, sizeof(f1), 0x00, 1, RSP, 8, SAVES(RIP, -8));
	sc_row("f1 pc 04 endbr64", f1, sizeof(f1), 0x04, 1, RSP, 8, SAVES(RIP, -8));
	sc_row("f1 pc 05 push rbp", f1, sizeof(f1), 0x05, 1, RSP, 16, SAVES(RBP, -16, RIP, -8));
	sc_row("f1 pc 08 mov rsp,rbp", f1, sizeof(f1), 0x08, 1, RBP, 16, SAVES(RBP, -16, RIP, -8));
	sc_row("f1 pc 0a push r15 (REX.B)", f1, sizeof(f1), 0x0a, 1, RBP, 16,
	       SAVES(RBP, -16, R15, -24, RIP, -8));
	sc_row("f1 pc 0b push rbx", f1, sizeof(f1), 0x0b, 1, RBP, 16, body);
	sc_row("f1 pc 0f sub imm8", f1, sizeof(f1), 0x0f, 1, RBP, 16, body);
	sc_row("f1 pc 12 body mov", f1, sizeof(f1), 0x12, 1, RBP, 16, body);
	sc_row("f1 pc 17 return address", f1, sizeof(f1), 0x17, 0, RBP, 16, body);
	sc_row("f1 pc 1b add imm8", f1, sizeof(f1), 0x1b, 1, RBP, 16, body);
	sc_row("f1 pc 1c pop rbx", f1, sizeof(f1), 0x1c, 1, RBP, 16,
	       SAVES(RBP, -16, R15, -24, RIP, -8));
	sc_row("f1 pc 1e pop r15", f1, sizeof(f1), 0x1e, 1, RBP, 16, SAVES(RBP, -16, RIP, -8));
	sc_row("f1 pc 1f pop rbp, at ret", f1, sizeof(f1), 0x1f, 1, RSP, 8, SAVES(RIP, -8));
	sc_fail("f1 pc inside an instruction", f1, sizeof(f1), 0x06, 1);
	sc_fail("f1 pc past the end", f1, sizeof(f1), sizeof(f1) + 1, 1);
	/* Bytes after pc are never applied: the same answer with len == pc_off. */
	sc_row("f1 pc 0b, len = pc", f1, 0x0b, 0x0b, 1, RBP, 16, body);
}

/* No frame pointer: callee-saved pushes, sub imm32, the other mov encoding later. */
static const uint8_t f2[] = {
	0x41, 0x54,				/* 00 push %r12 */
	0x55,					/* 02 push %rbp (a general register here) */
	0x53,					/* 03 push %rbx */
	0x48, 0x81, 0xec, 0x00, 0x10, 0x00, 0x00,	/* 04 sub $0x1000,%rsp */
	0x48, 0x89, 0xfd,			/* 0b mov %rdi,%rbp */
	0x31, 0xed,				/* 0e xor %ebp,%ebp */
	0xe8, 0x00, 0x00, 0x00, 0x00,		/* 10 call */
	0x48, 0x81, 0xc4, 0x00, 0x10, 0x00, 0x00,	/* 15 add $0x1000,%rsp */
	0x5b,					/* 1c pop %rbx */
	0x5d,					/* 1d pop %rbp */
	0x41, 0x5c,				/* 1e pop %r12 */
	0xc3,					/* 20 ret */
};

static void test_f2(void)
{
	const int64_t *saved = SAVES(R12, -16, RBP, -24, RBX, -32, RIP, -8);

	sc_row("f2 pc 02 push r12", f2, sizeof(f2), 0x02, 1, RSP, 16, SAVES(R12, -16, RIP, -8));
	sc_row("f2 pc 04 push rbx", f2, sizeof(f2), 0x04, 1, RSP, 32, saved);
	sc_row("f2 pc 0b sub imm32", f2, sizeof(f2), 0x0b, 1, RSP, 32 + 0x1000, saved);
	sc_row("f2 pc 15 after call, rbp overwritten", f2, sizeof(f2), 0x15, 0, RSP, 32 + 0x1000,
	       saved);
	sc_row("f2 pc 1c add imm32", f2, sizeof(f2), 0x1c, 1, RSP, 32, saved);
	sc_row("f2 pc 1d pop rbx", f2, sizeof(f2), 0x1d, 1, RSP, 24,
	       SAVES(R12, -16, RBP, -24, RIP, -8));
	sc_row("f2 pc 1e pop rbp", f2, sizeof(f2), 0x1e, 1, RSP, 16, SAVES(R12, -16, RIP, -8));
	sc_row("f2 pc 20 at ret", f2, sizeof(f2), 0x20, 1, RSP, 8, SAVES(RIP, -8));
}

/* mov %rsp,%rbp as 48 8b ec; leave; code after an early ret; a tail call. */
static const uint8_t f3[] = {
	0x55,				/* 00 push %rbp */
	0x48, 0x8b, 0xec,		/* 01 mov %rsp,%rbp (8b form) */
	0x48, 0x8d, 0x64, 0x24, 0xf0,	/* 04 lea -0x10(%rsp),%rsp */
	0x75, 0x02,			/* 09 jne 0d */
	0xc9,				/* 0b leave */
	0xc3,				/* 0c ret */
	0x48, 0x83, 0xec, 0xf0,		/* 0d sub $-16,%rsp (an add) */
	0x5d,				/* 11 pop %rbp */
	0xe9, 0x00, 0x00, 0x00, 0x00,	/* 12 jmp (tail call) */
	0x90,				/* 17 nop */
};

static void test_f3(void)
{
	const int64_t *fr = SAVES(RBP, -16, RIP, -8);

	sc_row("f3 pc 04 mov rsp,rbp (8b ec)", f3, sizeof(f3), 0x04, 1, RBP, 16, fr);
	sc_row("f3 pc 09 lea -16(rsp),rsp", f3, sizeof(f3), 0x09, 1, RBP, 16, fr);
	sc_row("f3 pc 0c leave, at ret", f3, sizeof(f3), 0x0c, 1, RSP, 8, SAVES(RIP, -8));
	sc_row("f3 pc 0d after early ret: body state", f3, sizeof(f3), 0x0d, 1, RBP, 16, fr);
	sc_row("f3 pc 11 sub $-16 undoes lea", f3, sizeof(f3), 0x11, 1, RBP, 16, fr);
	sc_row("f3 pc 12 pop rbp, at tail jmp", f3, sizeof(f3), 0x12, 1, RSP, 8, SAVES(RIP, -8));
	sc_row("f3 pc 17 after tail jmp: body state", f3, sizeof(f3), 0x17, 1, RBP, 16, fr);
}

/* The decoder stops at an instruction outside its subset; frame 0 then reads the epilogue. */
static const uint8_t f4[] = {
	0x55,				/* 00 push %rbp */
	0x48, 0x89, 0xe5,		/* 01 mov %rsp,%rbp */
	0x41, 0x56,			/* 04 push %r14 */
	0x53,				/* 06 push %rbx */
	0x48, 0x0f, 0xaf, 0xd8,		/* 07 imul %rax,%rbx (outside the subset) */
	0x48, 0x83, 0xc4, 0x08,		/* 0b add $8,%rsp (not seen: after imul) */
	0x48, 0x8d, 0x65, 0xf0,		/* 0f lea -0x10(%rbp),%rsp */
	0x5b,				/* 13 pop %rbx */
	0x41, 0x5e,			/* 14 pop %r14 */
	0x5d,				/* 16 pop %rbp */
	0xc3,				/* 17 ret */
};

static void test_f4(void)
{
	const int64_t *fr = SAVES(RBP, -16, R14, -24, RBX, -32, RIP, -8);

	sc_row("f4 pc 0b caller: stops at imul", f4, sizeof(f4), 0x0b, 0, RBP, 16, fr);
	sc_row("f4 pc 0f caller: prologue state", f4, sizeof(f4), 0x0f, 0, RBP, 16, fr);
	sc_row("f4 pc 0f frame0: epilogue at pc (lea from rbp)", f4, sizeof(f4), 0x0f, 1, RBP, 16,
	       fr);
	sc_row("f4 pc 13 frame0: epilogue pop rbx", f4, sizeof(f4), 0x13, 1, RSP, 32,
	       SAVES(RBX, -32, R14, -24, RBP, -16, RIP, -8));
	sc_row("f4 pc 16 frame0: epilogue pop rbp", f4, sizeof(f4), 0x16, 1, RSP, 16,
	       SAVES(RBP, -16, RIP, -8));
	sc_row("f4 pc 17 frame0: epilogue ret", f4, sizeof(f4), 0x17, 1, RSP, 8, SAVES(RIP, -8));
	sc_row("f4 pc 17 caller: no epilogue look-ahead", f4, sizeof(f4), 0x17, 0, RBP, 16, fr);
	sc_row("f4 pc 17 frame0, len = pc: no look-ahead", f4, 0x17, 0x17, 1, RBP, 16, fr);
}

/* rsp written by an unknown amount: fine with an rbp-based CFA, an error without. */
static const uint8_t sub_reg_fp[] = {
	0x55, 0x48, 0x89, 0xe5,		/* push %rbp; mov %rsp,%rbp */
	0x48, 0x29, 0xc4,		/* 04 sub %rax,%rsp (alloca) */
	0x48, 0x83, 0xe4, 0xf0,		/* 07 and $-16,%rsp */
	0x6a, 0x00,			/* 0b push $0 (fine: CFA is rbp-based) */
	0x53,				/* 0d push %rbx (its slot is unknown: fails) */
	0xc9, 0xc3,			/* 0e leave; ret */
};
static const uint8_t alloca_leave[] = {
	0x55, 0x48, 0x89, 0xe5,		/* push %rbp; mov %rsp,%rbp */
	0x48, 0x29, 0xc4,		/* 04 sub %rax,%rsp */
	0xc9, 0xc3,			/* 07 leave; 08 ret */
};
static const uint8_t sub_reg_nofp[] = {
	0x53,				/* push %rbx */
	0x48, 0x29, 0xc4,		/* 01 sub %rax,%rsp */
	0x5b, 0xc3,			/* 04 pop %rbx; ret */
};
static const uint8_t mov_to_rsp[] = { 0x48, 0x89, 0xc4, 0xc3 };	/* mov %rax,%rsp; ret */
static const uint8_t pop_ra[] = { 0x5b, 0xc3 };	/* pop %rbx: pops the return address */
static const uint8_t leave_nofp[] = { 0xc9, 0xc3 };	/* leave without a frame pointer */
static const uint8_t rbp_clobber[] = {
	0x55, 0x48, 0x89, 0xe5,		/* push %rbp; mov %rsp,%rbp */
	0x48, 0x29, 0xc4,		/* 04 sub %rax,%rsp */
	0x31, 0xed,			/* 07 xor %ebp,%ebp */
	0xc3,				/* 09 */
};
static const uint8_t nops[] = {
	0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00,	/* 00 nopw 0(%rax,%rax,1) */
	0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 06 cs nopw 0(...) */
	0x0f, 0x1f, 0x40, 0x00,			/* 10 nopl 0(%rax) */
	0xb8, 0x01, 0x00, 0x00, 0x00,		/* 14 mov $1,%eax */
	0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8,	/* 19 movabs $...,%rax */
	0x48, 0xc7, 0xc0, 0xff, 0xff, 0xff, 0xff,	/* 23 mov $-1,%rax */
	0x48, 0x8b, 0x44, 0x24, 0x08,		/* 2a mov 8(%rsp),%rax */
	0x48, 0x89, 0x04, 0x24,			/* 2f mov %rax,(%rsp) */
	0x48, 0x8d, 0x05, 0, 0, 0, 0,		/* 33 lea 0(%rip),%rax */
	0x68, 0, 0, 0, 0,			/* 3a push $0 */
	0x0f, 0x84, 0, 0, 0, 0,			/* 3f je rel32 */
	0x48, 0x83, 0xfc, 0x10,			/* 45 cmp $16,%rsp */
	0xc2, 0x08, 0x00,			/* 49 ret $8 */
};

static void test_edges(void)
{
	sc_row("alloca: sub reg,rsp with rbp", sub_reg_fp, sizeof(sub_reg_fp), 0x07, 1, RBP, 16,
	       SAVES(RBP, -16, RIP, -8));
	sc_row("and $-16,rsp with rbp", sub_reg_fp, sizeof(sub_reg_fp), 0x0b, 1, RBP, 16,
	       SAVES(RBP, -16, RIP, -8));
	sc_row("push imm after sp became unknown", sub_reg_fp, sizeof(sub_reg_fp), 0x0d, 1, RBP,
	       16, SAVES(RBP, -16, RIP, -8));
	sc_fail("push rbx after sp became unknown", sub_reg_fp, sizeof(sub_reg_fp), 0x0e, 1);
	sc_row("leave after sp became unknown", alloca_leave, sizeof(alloca_leave), 0x08, 1, RSP,
	       8, SAVES(RIP, -8));
	sc_fail("sub reg,rsp without rbp", sub_reg_nofp, sizeof(sub_reg_nofp), 0x04, 1);
	sc_fail("mov rax,rsp", mov_to_rsp, sizeof(mov_to_rsp), 0x03, 1);
	sc_fail("pop of the return address", pop_ra, sizeof(pop_ra), 0x01, 1);
	sc_fail("leave without rbp", leave_nofp, sizeof(leave_nofp), 0x01, 1);
	sc_fail("rbp overwritten while sp unknown", rbp_clobber, sizeof(rbp_clobber), 0x09, 1);
	sc_row("nops, movs, push imm, jcc, cmp: lengths", nops, sizeof(nops), 0x49, 1, RSP, 16,
	       SAVES(RIP, -8));
	sc_row("ret imm16 at pc", nops, sizeof(nops), 0x49, 1, RSP, 16, SAVES(RIP, -8));
	sc_row("empty function, pc 0", nops, 0, 0, 1, RSP, 8, SAVES(RIP, -8));
	sc_row("truncated: 0f at the end", (const uint8_t[]){ 0x90, 0x0f }, 2, 2, 1, RSP, 8,
	       SAVES(RIP, -8));
}

static void test_apply(void)
{
	uint64_t stack[32] = { 0 };
	const uint64_t base = 0x7ffe0000;	/* stack[i] lives at base + 8 * i */
	struct cr_regs in = { .valid = 0 }, out;

	/* f1 stopped after the call at 0x17: CFA = rbp + 16 = base + 0x80. */
	stack[15] = 0x401234;		/* CFA - 8: return address */
	stack[14] = base + 0xc0;	/* CFA - 16: caller's rbp */
	stack[13] = 0x1515;		/* CFA - 24: r15 */
	stack[12] = 0x3333;		/* CFA - 32: rbx */
	cr_reg_set(&in, RSP, base + 0x80 - 56);
	cr_reg_set(&in, RBP, base + 0x70);
	cr_reg_set(&in, RBX, 0xdead);
	cr_reg_set(&in, R15, 0xbeef);
	cr_reg_set(&in, R12, 0x1212);
	sc_apply("f1 apply at 0x17", f1, sizeof(f1), 0x17, 0, stack, sizeof(stack), base, &in,
		 0x401234, base + 0x80, &out);
	tap_is_u64(out.r[RBP], base + 0xc0, "f1 apply: caller rbp");
	tap_is_u64(out.r[RBX], 0x3333, "f1 apply: caller rbx");
	tap_is_u64(out.r[R15], 0x1515, "f1 apply: caller r15");
	tap_is_u64(out.r[R12], 0x1212, "f1 apply: r12 unchanged");

	/* f2 at pc 0x1d (rbx popped): CFA = rsp + 24. */
	cr_reg_set(&in, RSP, base + 0x80 - 24);
	sc_apply("f2 apply at 0x1d", f2, sizeof(f2), 0x1d, 1, stack, sizeof(stack), base, &in,
		 0x401234, base + 0x80, &out);
	tap_is_u64(out.r[RBP], 0x1515, "f2 apply: caller rbp from CFA-24");
	tap_is_u64(out.r[R12], base + 0xc0, "f2 apply: caller r12 from CFA-16");
}

int main(void)
{
	sc_arch = &cr_arch_x86_64;
	test_f1();
	test_f2();
	test_f3();
	test_f4();
	test_edges();
	test_apply();
	return tap_done();
}
