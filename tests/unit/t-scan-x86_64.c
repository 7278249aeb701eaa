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

/* An -O2 style body between prologue and epilogue: every instruction is walked. */
static const uint8_t f4[] = {
	0x55,				/* 00 push %rbp */
	0x48, 0x89, 0xe5,		/* 01 mov %rsp,%rbp */
	0x41, 0x56,			/* 04 push %r14 */
	0x53,				/* 06 push %rbx */
	0x48, 0x0f, 0xaf, 0xd8,		/* 07 imul %rax,%rbx */
	0x48, 0x83, 0xc4, 0x08,		/* 0b add $8,%rsp */
	0x48, 0x8d, 0x65, 0xf0,		/* 0f lea -0x10(%rbp),%rsp */
	0x5b,				/* 13 pop %rbx */
	0x41, 0x5e,			/* 14 pop %r14 */
	0x5d,				/* 16 pop %rbp */
	0xc3,				/* 17 ret */
};

static void test_f4(void)
{
	const int64_t *fr = SAVES(RBP, -16, R14, -24, RBX, -32, RIP, -8);

	sc_row("f4 pc 0b after imul", f4, sizeof(f4), 0x0b, 0, RBP, 16, fr);
	sc_row("f4 pc 0f after add: rbp-based", f4, sizeof(f4), 0x0f, 1, RBP, 16, fr);
	sc_row("f4 pc 13 after lea from rbp", f4, sizeof(f4), 0x13, 1, RBP, 16, fr);
	sc_row("f4 pc 14 pop rbx", f4, sizeof(f4), 0x14, 1, RBP, 16,
	       SAVES(RBP, -16, R14, -24, RIP, -8));
	sc_row("f4 pc 16 pop r14", f4, sizeof(f4), 0x16, 1, RBP, 16, SAVES(RBP, -16, RIP, -8));
	sc_row("f4 pc 17 pop rbp, at ret", f4, sizeof(f4), 0x17, 1, RSP, 8, SAVES(RIP, -8));
}

/*
 * An instruction without a size (3DNow! 0f 0f) in an rbp frame ends the walk:
 * the rbp row holds in the body, and frame 0 reads the epilogue at pc.
 */
static const uint8_t f5[] = {
	0x55,				/* 00 push %rbp */
	0x48, 0x89, 0xe5,		/* 01 mov %rsp,%rbp */
	0x41, 0x56,			/* 04 push %r14 */
	0x53,				/* 06 push %rbx */
	0x0f, 0x0f, 0xc1, 0x9e,		/* 07 pfadd %mm1,%mm0 (no size here) */
	0x48, 0x83, 0xc4, 0x08,		/* 0b add $8,%rsp (not seen) */
	0x48, 0x8d, 0x65, 0xf0,		/* 0f lea -0x10(%rbp),%rsp */
	0x5b,				/* 13 pop %rbx */
	0x41, 0x5e,			/* 14 pop %r14 */
	0x5d,				/* 16 pop %rbp */
	0xc3,				/* 17 ret */
};
static const uint8_t f5_nofp[] = {
	0x53,				/* 00 push %rbx */
	0x0f, 0x0f, 0xc1, 0x9e,		/* 01 pfadd: no size, CFA rsp-based */
	0x5b, 0xc3,			/* 05 pop %rbx; ret */
};

static void test_f5(void)
{
	const int64_t *fr = SAVES(RBP, -16, R14, -24, RBX, -32, RIP, -8);

	sc_row("f5 pc 07 before the unknown insn", f5, sizeof(f5), 0x07, 1, RBP, 16, fr);
	sc_row("f5 pc 0b caller: rbp row holds", f5, sizeof(f5), 0x0b, 0, RBP, 16, fr);
	sc_row("f5 pc 0f caller: prologue state", f5, sizeof(f5), 0x0f, 0, RBP, 16, fr);
	sc_row("f5 pc 0f frame0: epilogue at pc (lea from rbp)", f5, sizeof(f5), 0x0f, 1, RBP, 16,
	       fr);
	sc_row("f5 pc 13 frame0: epilogue pop rbx", f5, sizeof(f5), 0x13, 1, RSP, 32,
	       SAVES(RBX, -32, R14, -24, RBP, -16, RIP, -8));
	sc_row("f5 pc 16 frame0: epilogue pop rbp", f5, sizeof(f5), 0x16, 1, RSP, 16,
	       SAVES(RBP, -16, RIP, -8));
	sc_row("f5 pc 17 frame0: epilogue ret", f5, sizeof(f5), 0x17, 1, RSP, 8, SAVES(RIP, -8));
	sc_row("f5 pc 17 caller: no epilogue look-ahead", f5, sizeof(f5), 0x17, 0, RBP, 16, fr);
	sc_row("f5 pc 17 frame0, len = pc: no look-ahead", f5, 0x17, 0x17, 1, RBP, 16, fr);
	sc_fail("f5 unknown insn with an rsp-based CFA", f5_nofp, sizeof(f5_nofp), 0x05, 1);
	sc_fail("f5 unknown insn, caller", f5_nofp, sizeof(f5_nofp), 0x05, 0);
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
	sc_fail("truncated: 0f at the end", (const uint8_t[]){ 0x90, 0x0f }, 2, 2, 1);
}

/*
 * Instruction lengths, one class each: bytes from llvm-mc-19 --triple=x86_64
 * -show-encoding (branch targets filled in by hand).  Walking code[0..n) with
 * pc at n must succeed and with pc at any 0 < k < n must fail (pc inside the
 * instruction): the decoder's length is exactly n.  The truncated twin,
 * code[0..n-1) with pc at n-1, cannot be sized: it fails (the CFA is rsp-based).
 */
struct lcase {
	const char *as;
	uint8_t b[16];
	uint8_t n;
};
#define L(as, ...) { as, { __VA_ARGS__ }, sizeof((uint8_t[]){ __VA_ARGS__ }) }
static const struct lcase lcases[] = {
	L("add %eax,%ebx", 0x01, 0xc3),
	L("add 0x12345678(%rax,%rbx,4),%ecx", 0x03, 0x8c, 0x98, 0x78, 0x56, 0x34, 0x12),
	L("add 0x12(%rsp),%eax", 0x03, 0x44, 0x24, 0x12),
	L("add 0(%rbp),%eax", 0x03, 0x45, 0x00),
	L("mov 0x1000(%rip),%rax", 0x48, 0x8b, 0x05, 0x00, 0x10, 0x00, 0x00),
	L("mov 0x1234(,%rax,8),%eax", 0x8b, 0x04, 0xc5, 0x34, 0x12, 0x00, 0x00),
	L("mov 0x1234,%eax", 0x8b, 0x04, 0x25, 0x34, 0x12, 0x00, 0x00),
	L("add $1,%al", 0x04, 0x01),
	L("add $0x12345678,%eax", 0x05, 0x78, 0x56, 0x34, 0x12),
	L("add $0x1234,%ax", 0x66, 0x05, 0x34, 0x12),
	L("add $0x12345678,%rax", 0x48, 0x05, 0x78, 0x56, 0x34, 0x12),
	L("addw $0x1234,(%rax)", 0x66, 0x81, 0x00, 0x34, 0x12),
	L("addq $-2,8(%rsp)", 0x48, 0x83, 0x44, 0x24, 0x08, 0xfe),
	L("cmpb $7,-1(%rbp,%rcx,2)", 0x80, 0x7c, 0x4d, 0xff, 0x07),
	L("imul $0x12345,%ebx,%ecx", 0x69, 0xcb, 0x45, 0x23, 0x01, 0x00),
	L("imul $5,%ebx,%ecx", 0x6b, 0xcb, 0x05),
	L("movslq %edi,%rax", 0x48, 0x63, 0xc7),
	L("movabs 0x1122334455667788,%al", 0xa0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11),
	L("movabs %rax,0x1122334455667788", 0x48, 0xa3, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11),
	L("addr32 mov 0x11223344,%eax", 0x67, 0xa1, 0x44, 0x33, 0x22, 0x11),
	L("mov $1,%al", 0xb0, 0x01),
	L("mov $1,%r9b", 0x41, 0xb1, 0x01),
	L("mov $0x12345678,%eax", 0xb8, 0x78, 0x56, 0x34, 0x12),
	L("movabs $0x1122334455667788,%r11", 0x49, 0xbb, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11),
	L("mov $0x1234,%cx", 0x66, 0xb9, 0x34, 0x12),
	L("shl $3,%rax", 0x48, 0xc1, 0xe0, 0x03),
	L("sar %cl,%edx", 0xd3, 0xfa),
	L("shr %eax", 0xd1, 0xe8),
	L("testb $1,%bl", 0xf6, 0xc3, 0x01),
	L("notb %bl", 0xf6, 0xd3),
	L("testl $0x12345678,%ebx", 0xf7, 0xc3, 0x78, 0x56, 0x34, 0x12),
	L("testw $0x1234,%bx", 0x66, 0xf7, 0xc3, 0x34, 0x12),
	L("negq 8(%rsp)", 0x48, 0xf7, 0x5c, 0x24, 0x08),
	L("mull %ecx", 0xf7, 0xe1),
	L("incl (%rax)", 0xff, 0x00),
	L("decq %r10", 0x49, 0xff, 0xca),
	L("fldt 0x10(%rsp)", 0xdb, 0x6c, 0x24, 0x10),
	L("fstp %st(1)", 0xdd, 0xd9),
	L("faddl 8(%rax)", 0xdc, 0x40, 0x08),
	L("rep movsb", 0xf3, 0xa4),
	L("rep stosq", 0xf3, 0x48, 0xab),
	L("lock cmpxchg %ecx,(%rdx)", 0xf0, 0x0f, 0xb1, 0x0a),
	L("lock xadd %rax,(%rdi)", 0xf0, 0x48, 0x0f, 0xc1, 0x07),
	L("mov %fs:0x28,%rax", 0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00),
	L("xchg %rax,%rcx", 0x48, 0x91),
	L("cqto", 0x48, 0x99),
	L("cltq", 0x48, 0x98),
	L("int $0x80", 0xcd, 0x80),
	L("int3", 0xcc),
	L("hlt", 0xf4),
	L("pause", 0xf3, 0x90),
	L("nopw 0x0(%rax,%rax,1)", 0x66, 0x0f, 0x1f, 0x04, 0x00),
	L("cs nopw 0x0(%rax,%rax,1)", 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	L("endbr64", 0xf3, 0x0f, 0x1e, 0xfa),
	L("cmove %rcx,%rax", 0x48, 0x0f, 0x44, 0xc1),
	L("sete %al", 0x0f, 0x94, 0xc0),
	L("movzbl (%rdi),%eax", 0x0f, 0xb6, 0x07),
	L("movsbq %al,%rdx", 0x48, 0x0f, 0xbe, 0xd0),
	L("bsf %rax,%rcx", 0x48, 0x0f, 0xbc, 0xc8),
	L("popcnt %rax,%rcx", 0xf3, 0x48, 0x0f, 0xb8, 0xc8),
	L("tzcnt %eax,%ecx", 0xf3, 0x0f, 0xbc, 0xc8),
	L("bt $5,%eax", 0x0f, 0xba, 0xe0, 0x05),
	L("btsq $63,(%rax)", 0x48, 0x0f, 0xba, 0x28, 0x3f),
	L("shld $4,%rax,%rdx", 0x48, 0x0f, 0xa4, 0xc2, 0x04),
	L("shrd %cl,%eax,%edx", 0x0f, 0xad, 0xc2),
	L("cpuid", 0x0f, 0xa2),
	L("rdtsc", 0x0f, 0x31),
	L("syscall", 0x0f, 0x05),
	L("ud2", 0x0f, 0x0b),
	L("pshufd $0x1b,%xmm1,%xmm2", 0x66, 0x0f, 0x70, 0xd1, 0x1b),
	L("pextrw $3,%xmm1,%eax", 0x66, 0x0f, 0xc5, 0xc1, 0x03),
	L("shufps $0x44,%xmm1,%xmm2", 0x0f, 0xc6, 0xd1, 0x44),
	L("cmpltps %xmm1,%xmm2", 0x0f, 0xc2, 0xd1, 0x01),
	L("movaps %xmm0,0x10(%rsp)", 0x0f, 0x29, 0x44, 0x24, 0x10),
	L("movups (%rdi),%xmm1", 0x0f, 0x10, 0x0f),
	L("pxor %xmm0,%xmm0", 0x66, 0x0f, 0xef, 0xc0),
	L("movq %xmm0,%rax", 0x66, 0x48, 0x0f, 0x7e, 0xc0),
	L("movd %eax,%xmm1", 0x66, 0x0f, 0x6e, 0xc8),
	L("movq %xmm1,%xmm2", 0xf3, 0x0f, 0x7e, 0xd1),
	L("cvttsd2si %xmm0,%rax", 0xf2, 0x48, 0x0f, 0x2c, 0xc0),
	L("pmovmskb %xmm0,%eax", 0x66, 0x0f, 0xd7, 0xc0),
	L("psrldq $8,%xmm3", 0x66, 0x0f, 0x73, 0xdb, 0x08),
	L("pshufb %xmm1,%xmm2", 0x66, 0x0f, 0x38, 0x00, 0xd1),
	L("crc32q %rax,%rcx", 0xf2, 0x48, 0x0f, 0x38, 0xf1, 0xc8),
	L("movbe (%rdi),%eax", 0x0f, 0x38, 0xf0, 0x07),
	L("movbe %eax,(%rdi)", 0x0f, 0x38, 0xf1, 0x07),
	L("palignr $4,%xmm1,%xmm2", 0x66, 0x0f, 0x3a, 0x0f, 0xd1, 0x04),
	L("pextrd $1,%xmm1,%eax", 0x66, 0x0f, 0x3a, 0x16, 0xc8, 0x01),
	L("roundsd $4,%xmm1,%xmm2", 0x66, 0x0f, 0x3a, 0x0b, 0xd1, 0x04),
	L("vzeroupper", 0xc5, 0xf8, 0x77),
	L("vmovdqu (%rdi),%ymm0", 0xc5, 0xfe, 0x6f, 0x07),
	L("vpxor %ymm1,%ymm2,%ymm3", 0xc5, 0xed, 0xef, 0xd9),
	L("vpshufd $0x1b,%ymm1,%ymm2", 0xc5, 0xfd, 0x70, 0xd1, 0x1b),
	L("vpshufb %ymm1,%ymm2,%ymm3", 0xc4, 0xe2, 0x6d, 0x00, 0xd9),
	L("vpalignr $4,%ymm1,%ymm2,%ymm3", 0xc4, 0xe3, 0x6d, 0x0f, 0xd9, 0x04),
	L("vmovdqu %ymm8,0x20(%rsp)", 0xc5, 0x7e, 0x7f, 0x44, 0x24, 0x20),
	L("andn %rax,%rbx,%rcx", 0xc4, 0xe2, 0xe0, 0xf2, 0xc8),
	L("shlx %rax,%rbx,%rcx", 0xc4, 0xe2, 0xf9, 0xf7, 0xcb),
	L("rorx $7,%rax,%rbx", 0xc4, 0xe3, 0xfb, 0xf0, 0xd8, 0x07),
	L("vmovd %xmm0,%eax", 0xc5, 0xf9, 0x7e, 0xc0),
	L("vpextrq $1,%xmm0,%rax", 0xc4, 0xe3, 0xf9, 0x16, 0xc0, 0x01),
	L("kmovw %k1,%eax", 0xc5, 0xf8, 0x93, 0xc1),
	L("vmovdqu64 (%rdi),%zmm0", 0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x07),
	L("vmovdqu64 %zmm1,0x40(%rsp)", 0x62, 0xf1, 0xfe, 0x48, 0x7f, 0x4c, 0x24, 0x01),
	L("vpaddd 0x40(%rsp),%zmm1,%zmm2", 0x62, 0xf1, 0x75, 0x48, 0xfe, 0x54, 0x24, 0x01),
	L("vpternlogd $0xff,%zmm0,%zmm0,%zmm0", 0x62, 0xf3, 0x7d, 0x48, 0x25, 0xc0, 0xff),
	L("vpshufd $0x1b,%zmm1,%zmm2", 0x62, 0xf1, 0x7d, 0x48, 0x70, 0xd1, 0x1b),
	L("vaddph %zmm1,%zmm2,%zmm3", 0x62, 0xf5, 0x6c, 0x48, 0x58, 0xd9),
	L("vfmadd132ph %zmm1,%zmm2,%zmm3", 0x62, 0xf6, 0x6d, 0x48, 0x98, 0xd9),
	L("vmovw %xmm0,%eax", 0x62, 0xf5, 0x7d, 0x08, 0x7e, 0xc0),
	L("vcvttsd2usi %xmm0,%rax", 0x62, 0xf1, 0xff, 0x08, 0x78, 0xc0),
	L("vpxord %zmm16,%zmm16,%zmm16", 0x62, 0xa1, 0x7d, 0x40, 0xef, 0xc0),
	L("jne .+0x10", 0x75, 0x0e),
	L("jne .+0x1000", 0x0f, 0x85, 0xfa, 0x0f, 0x00, 0x00),
	L("loop .+0x10", 0xe2, 0x0e),
	L("call .+0x1000", 0xe8, 0xfb, 0x0f, 0x00, 0x00),
	L("jmp .+0x1000", 0xe9, 0xfb, 0x0f, 0x00, 0x00),
	L("jmp .+0x10", 0xeb, 0x0e),
	L("callq *0x10(%rax)", 0xff, 0x50, 0x10),
	L("jmpq *(%rax,%rcx,8)", 0xff, 0x24, 0xc8),
	L("push 0x10(%rsp)", 0xff, 0x74, 0x24, 0x10),
	L("push $0x12345678", 0x68, 0x78, 0x56, 0x34, 0x12),
	L("push $1", 0x6a, 0x01),
	L("xabort $1", 0xc6, 0xf8, 0x01),
	L("xbegin .+0x100", 0xc7, 0xf8, 0xfa, 0x00, 0x00, 0x00),
	L("rdrand %eax", 0x0f, 0xc7, 0xf0),
	L("rdfsbase %rax", 0xf3, 0x48, 0x0f, 0xae, 0xc0),
	L("xgetbv", 0x0f, 0x01, 0xd0),
};

/* No size: not modelled, invalid in 64-bit mode, or longer than 15 bytes. */
static const struct lcase unsized[] = {
	L("pfadd %mm1,%mm0 (3DNow!)", 0x0f, 0x0f, 0xc1, 0x9e),
	L("XOP vpcmov", 0x8f, 0xe8, 0x78, 0xa2, 0xc1, 0x20),
	L("EVEX with P1 bit 2 clear (APX)", 0x62, 0xf1, 0x79, 0x48, 0xef, 0xc0),
	L("push %es (invalid in 64-bit)", 0x06),
	L("REX before VEX", 0x48, 0xc5, 0xf8, 0x77),
	L("66 before VEX", 0x66, 0xc5, 0xf8, 0x77),
	L("ljmp (invalid in 64-bit)", 0xea, 0, 0, 0, 0, 0, 0),
	L("mov %cr0,%rax (privileged)", 0x0f, 0x20, 0xc0),
	L("lcall *(%rax) (far)", 0xff, 0x18),
	L("vmread", 0x0f, 0x78, 0xc0),
	L("16 bytes: 7x 66 + cs nopw", 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x2e, 0x0f, 0x1f,
	  0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	L("data16 call rel (vendor-dependent)", 0x66, 0xe8, 0, 0, 0, 0),
	L("enter $0x20,$1 (nested level)", 0xc8, 0x20, 0x00, 0x01),
	L("pushw $1 (2-byte push)", 0x66, 0x6a, 0x01),
};

static void test_lengths(void)
{
	struct cr_row row;
	size_t i, k;

	for (i = 0; i < sizeof(lcases) / sizeof(lcases[0]); i++) {
		const struct lcase *c = &lcases[i];
		int ok = sc_arch->scan(c->b, c->n, c->n, 1, &row) == 0;

		for (k = 1; k < c->n && ok; k++)
			ok = sc_arch->scan(c->b, c->n, k, 1, &row) == -CR_EINVAL;
		if (!tap_ok(ok, sc_name("length %u: %s", c->n, c->as)))
			printf("#   boundary not at %u (k = %zu)\n", c->n, k);
		if (c->n > 1)
			sc_fail(sc_name("truncated to %u: %s", c->n - 1, c->as), c->b, c->n - 1,
				c->n - 1, 1);
	}
	for (i = 0; i < sizeof(unsized) / sizeof(unsized[0]); i++)
		sc_fail(sc_name("no size: %s", unsized[i].as), unsized[i].b, unsized[i].n,
			unsized[i].n, 1);
}

/* Writes of rsp we cannot follow: an error while the CFA is rsp-based, fine with rbp. */
static const struct lcase sp_writes[] = {
	L("xchg %rax,%rsp", 0x48, 0x94),
	L("mov %eax,%esp", 0x89, 0xc4),
	L("mov $1,%spl", 0x40, 0xb4, 0x01),
	L("blsr %rax,%rsp (VEX.vvvv)", 0xc4, 0xe2, 0xd8, 0xf3, 0xc8),
	L("vmovd %xmm0,%esp", 0xc5, 0xf9, 0x7e, 0xc4),
	L("vpextrq $1,%xmm0,%rsp", 0xc4, 0xe3, 0xf9, 0x16, 0xc4, 0x01),
	L("kmovw %k1,%esp", 0xc5, 0xf8, 0x93, 0xe1),
	L("add %rax,%rsp", 0x48, 0x01, 0xc4),
	L("and $-16,%rsp", 0x48, 0x83, 0xe4, 0xf0),
	L("rdfsbase %rsp", 0xf3, 0x48, 0x0f, 0xae, 0xc4),
	L("bswap %rsp", 0x48, 0x0f, 0xcc),
	L("cmovne %rax,%rsp", 0x48, 0x0f, 0x45, 0xe0),
	L("shl $1,%rsp", 0x48, 0xd1, 0xe4),
	L("neg %rsp", 0x48, 0xf7, 0xdc),
	L("inc %rsp", 0x48, 0xff, 0xc4),
	L("lea 8(%rsp,%rax),%rsp", 0x48, 0x8d, 0x64, 0x04, 0x08),
	L("lea 8(%rsp),%esp", 0x8d, 0x64, 0x24, 0x08),
	L("popcnt %rax,%rsp", 0xf3, 0x48, 0x0f, 0xb8, 0xe0),
	L("imul $3,%rsp,%rsp", 0x48, 0x6b, 0xe4, 0x03),
	L("movq %xmm0,%rsp", 0x66, 0x48, 0x0f, 0x7e, 0xc4),
	L("xadd %rax,%rsp", 0x48, 0x0f, 0xc1, 0xc4),
	L("pop %rsp", 0x5c),
};

/* Instructions that name rsp (or registers numbered 4) without writing it. */
static const struct lcase sp_reads[] = {
	L("cmp $16,%rsp", 0x48, 0x83, 0xfc, 0x10),
	L("test %rsp,%rsp", 0x48, 0x85, 0xe4),
	L("mov %rsp,%rax", 0x48, 0x89, 0xe0),
	L("mov %rsp,(%rax)", 0x48, 0x89, 0x20),
	L("mov $1,%ah (not spl without REX)", 0xb4, 0x01),
	L("movq %xmm4,%xmm5 (f3 0f 7e: xmm destination)", 0xf3, 0x0f, 0x7e, 0xec),
	L("movaps %xmm4,%xmm4", 0x0f, 0x28, 0xe4),
	L("vmovdqu %ymm4,%ymm4", 0xc5, 0xfe, 0x6f, 0xe4),
	L("mov %esp,%ebp (rbp not a frame pointer yet)", 0x89, 0xe5),
	L("movbe %esp,(%rdi) (store)", 0x0f, 0x38, 0xf1, 0x27),
};

static void test_writes(void)
{
	uint8_t fp[32] = { 0x55, 0x48, 0x89, 0xe5 };	/* push %rbp; mov %rsp,%rbp */
	size_t i;

	for (i = 0; i < sizeof(sp_writes) / sizeof(sp_writes[0]); i++) {
		const struct lcase *c = &sp_writes[i];

		sc_fail(sc_name("rsp-based: %s", c->as), c->b, c->n, c->n, 1);
		memcpy(fp + 4, c->b, c->n);
		if (c->b[0] != 0x5c)
			sc_row(sc_name("rbp-based: %s", c->as), fp, 4 + c->n, 4 + c->n, 1, RBP, 16,
			       SAVES(RBP, -16, RIP, -8));
	}
	for (i = 0; i < sizeof(sp_reads) / sizeof(sp_reads[0]); i++)
		sc_row(sc_name("no write: %s", sp_reads[i].as), sp_reads[i].b, sp_reads[i].n,
		       sp_reads[i].n, 1, RSP, 8, SAVES(RIP, -8));
	/* Overwriting rbp when it is the only way to the CFA. */
	memcpy(fp + 4, (const uint8_t[]){ 0x48, 0x29, 0xc4, 0x89, 0xc5 }, 5);	/* sub %rax,%rsp;
										   mov %eax,%ebp */
	sc_fail("mov %eax,%ebp after alloca", fp, 9, 9, 1);
}

/* GCC -O2 main from the issue: the prologue scheduled with SSE stores. */
static const uint8_t sched[] = {
	0x41, 0x55,				/* 00 push %r13 */
	0x66, 0x0f, 0xef, 0xc0,			/* 02 pxor %xmm0,%xmm0 */
	0x41, 0x54,				/* 06 push %r12 */
	0x55,					/* 08 push %rbp */
	0x53,					/* 09 push %rbx */
	0x48, 0x81, 0xec, 0x48, 0x03, 0x00, 0x00,	/* 0a sub $0x348,%rsp */
	0x4c, 0x8d, 0x6c, 0x24, 0x08,		/* 11 lea 0x8(%rsp),%r13 */
	0x0f, 0x11, 0x44, 0x24, 0x28,		/* 16 movups %xmm0,0x28(%rsp) */
	0xf3, 0x0f, 0x7e, 0xec,			/* 1b movq %xmm4,%xmm5 */
	0x4c, 0x89, 0xef,			/* 1f mov %r13,%rdi */
	0xe8, 0xd9, 0xff, 0xff, 0xff,		/* 22 call */
	0x48, 0x81, 0xc4, 0x48, 0x03, 0x00, 0x00,	/* 27 add $0x348,%rsp */
	0x5b,					/* 2e pop %rbx */
	0x5d,					/* 2f pop %rbp */
	0x41, 0x5c,				/* 30 pop %r12 */
	0x41, 0x5d,				/* 32 pop %r13 */
	0xc3,					/* 34 ret */
};

static void test_sched(void)
{
	const int64_t *all = SAVES(R13, -16, R12, -24, RBP, -32, RBX, -40, RIP, -8);

	sc_row("sched pc 02 push r13", sched, sizeof(sched), 0x02, 1, RSP, 16,
	       SAVES(R13, -16, RIP, -8));
	sc_row("sched pc 06 pxor between pushes", sched, sizeof(sched), 0x06, 1, RSP, 16,
	       SAVES(R13, -16, RIP, -8));
	sc_row("sched pc 0a pushes", sched, sizeof(sched), 0x0a, 1, RSP, 40, all);
	sc_row("sched pc 16 after sub", sched, sizeof(sched), 0x16, 1, RSP, 40 + 0x348, all);
	sc_row("sched pc 27 return address", sched, sizeof(sched), 0x27, 0, RSP, 40 + 0x348, all);
	sc_row("sched pc 2e add", sched, sizeof(sched), 0x2e, 1, RSP, 40, all);
	sc_row("sched pc 30 pops", sched, sizeof(sched), 0x30, 1, RSP, 24,
	       SAVES(R13, -16, R12, -24, RIP, -8));
	sc_row("sched pc 34 ret", sched, sizeof(sched), 0x34, 1, RSP, 8, SAVES(RIP, -8));
}

/* AVX-512 with a realigned frame, AVX with vzeroupper in the epilogue, BMI in the body. */
static const uint8_t avx512[] = {
	0x55,					/* 00 push %rbp */
	0x48, 0x89, 0xe5,			/* 01 mov %rsp,%rbp */
	0x53,					/* 04 push %rbx */
	0x48, 0x83, 0xe4, 0xc0,			/* 05 and $-64,%rsp */
	0x48, 0x81, 0xec, 0x80, 0x00, 0x00, 0x00,	/* 09 sub $0x80,%rsp */
	0x62, 0xf1, 0x7d, 0x48, 0xef, 0xc0,	/* 10 vpxord %zmm0,%zmm0,%zmm0 */
	0x62, 0xf1, 0xfe, 0x48, 0x7f, 0x04, 0x24,	/* 16 vmovdqu64 %zmm0,(%rsp) */
	0xc5, 0xf8, 0x93, 0xc1,			/* 1d kmovw %k1,%eax */
	0xc4, 0xe3, 0xf9, 0x16, 0xc3, 0x01,	/* 21 vpextrq $1,%xmm0,%rbx */
	0xe8, 0xd4, 0xff, 0xff, 0xff,		/* 27 call */
	0xc5, 0xf8, 0x77,			/* 2c vzeroupper */
	0x48, 0x8b, 0x5d, 0xf8,			/* 2f mov -0x8(%rbp),%rbx */
	0xc9,					/* 33 leave */
	0xc3,					/* 34 ret */
};
static const uint8_t avx[] = {
	0x41, 0x54,				/* 00 push %r12 */
	0x48, 0x83, 0xec, 0x40,			/* 02 sub $0x40,%rsp */
	0xc5, 0xfe, 0x6f, 0x07,			/* 06 vmovdqu (%rdi),%ymm0 */
	0xc5, 0xfd, 0x70, 0xc8, 0x1b,		/* 0a vpshufd $0x1b,%ymm0,%ymm1 */
	0xc5, 0xfe, 0x7f, 0x0c, 0x24,		/* 0f vmovdqu %ymm1,(%rsp) */
	0xc4, 0xe3, 0xfb, 0xf0, 0xd8, 0x07,	/* 14 rorx $7,%rax,%rbx */
	0xc4, 0xe2, 0xe0, 0xf2, 0xc8,		/* 1a andn %rax,%rbx,%rcx */
	0xe8, 0xdc, 0xff, 0xff, 0xff,		/* 1f call */
	0xc5, 0xf8, 0x77,			/* 24 vzeroupper */
	0x48, 0x83, 0xc4, 0x40,			/* 27 add $0x40,%rsp */
	0x41, 0x5c,				/* 2b pop %r12 */
	0xc3,					/* 2d ret */
};

static void test_vector(void)
{
	const int64_t *fr = SAVES(RBP, -16, RBX, -24, RIP, -8);

	sc_row("avx512 pc 09 and: rbp-based", avx512, sizeof(avx512), 0x09, 1, RBP, 16, fr);
	sc_row("avx512 pc 1d EVEX stores", avx512, sizeof(avx512), 0x1d, 1, RBP, 16, fr);
	sc_row("avx512 pc 2c after call", avx512, sizeof(avx512), 0x2c, 0, RBP, 16, fr);
	sc_row("avx512 pc 33 mov -8(%rbp),%rbx restores", avx512, sizeof(avx512), 0x33, 1, RBP, 16,
	       SAVES(RBP, -16, RIP, -8));
	sc_row("avx512 pc 34 leave", avx512, sizeof(avx512), 0x34, 1, RSP, 8, SAVES(RIP, -8));
	sc_row("avx pc 1f VEX body", avx, sizeof(avx), 0x1f, 1, RSP, 16 + 0x40,
	       SAVES(R12, -16, RIP, -8));
	sc_row("avx pc 27 vzeroupper", avx, sizeof(avx), 0x27, 1, RSP, 16 + 0x40,
	       SAVES(R12, -16, RIP, -8));
	sc_row("avx pc 2b add", avx, sizeof(avx), 0x2b, 1, RSP, 16, SAVES(R12, -16, RIP, -8));
	sc_row("avx pc 2d ret", avx, sizeof(avx), 0x2d, 1, RSP, 8, SAVES(RIP, -8));
}

/* Shrink-wrapping: an early exit laid out after the epilogue; a stack-probe loop; enter. */
static const uint8_t shrink[] = {
	0x48, 0x85, 0xff,		/* 00 test %rdi,%rdi */
	0x74, 0x0e,			/* 03 je 13 */
	0x53,				/* 05 push %rbx */
	0x48, 0x89, 0xfb,		/* 06 mov %rdi,%rbx */
	0xe8, 0xf2, 0xff, 0xff, 0xff,	/* 09 call */
	0x48, 0x01, 0xd8,		/* 0e add %rbx,%rax */
	0x5b,				/* 11 pop %rbx */
	0xc3,				/* 12 ret */
	0x31, 0xc0,			/* 13 xor %eax,%eax (reached from 03: no frame) */
	0xc3,				/* 15 ret */
};
static const uint8_t probe[] = {
	0x4c, 0x8d, 0x9c, 0x24, 0x00, 0xc0, 0xff, 0xff,	/* 00 lea -0x4000(%rsp),%r11 */
	0x48, 0x81, 0xec, 0x00, 0x10, 0x00, 0x00,	/* 08 sub $0x1000,%rsp */
	0x48, 0x83, 0x0c, 0x24, 0x00,		/* 0f orq $0,(%rsp) */
	0x4c, 0x39, 0xdc,			/* 14 cmp %r11,%rsp */
	0x75, 0xef,				/* 17 jne 08 */
	0x48, 0x83, 0xec, 0x10,			/* 19 sub $0x10,%rsp */
	0xe8, 0, 0, 0, 0,			/* 1d call */
	0xc3,					/* 22 */
};
static const uint8_t enter[] = {
	0xc8, 0x20, 0x00, 0x00,		/* 00 enter $0x20,$0 */
	0x53,				/* 04 push %rbx */
	0xc9,				/* 05 leave */
	0xc3,				/* 06 ret */
};
static const uint8_t lea_fp[] = {
	0x41, 0x54,			/* 00 push %r12 */
	0x55,				/* 02 push %rbp */
	0x48, 0x8d, 0x6c, 0x24, 0x10,	/* 03 lea 0x10(%rsp),%rbp: rbp = CFA - 8 */
	0x48, 0x29, 0xc4,		/* 08 sub %rax,%rsp */
	0x90,				/* 0b */
};

/* Saves by mov to the frame (no pushes), restores by mov from it. */
static const uint8_t movsave[] = {
	0x48, 0x83, 0xec, 0x28,		/* 00 sub $0x28,%rsp */
	0x48, 0x89, 0x5c, 0x24, 0x18,	/* 04 mov %rbx,0x18(%rsp) */
	0x48, 0x89, 0x6c, 0x24, 0x20,	/* 09 mov %rbp,0x20(%rsp) */
	0x48, 0x89, 0x5c, 0x24, 0x08,	/* 0e mov %rbx,0x8(%rsp): a spill, not the save */
	0x48, 0x8b, 0x5c, 0x24, 0x18,	/* 13 mov 0x18(%rsp),%rbx */
	0x48, 0x8b, 0x6c, 0x24, 0x20,	/* 18 mov 0x20(%rsp),%rbp */
	0x48, 0x83, 0xc4, 0x28,		/* 1d add $0x28,%rsp */
	0xc3,				/* 21 ret */
};

/* glibc _start: endbr64; xor %ebp,%ebp; mov %rdx,%r9; pop %rsi; ... call; hlt */
static const uint8_t start[] = {
	0xf3, 0x0f, 0x1e, 0xfa,			/* 00 endbr64 */
	0x31, 0xed,				/* 04 xor %ebp,%ebp */
	0x49, 0x89, 0xd1,			/* 06 mov %rdx,%r9 */
	0x5e,					/* 09 pop %rsi: no return address here */
	0x48, 0x89, 0xe2,			/* 0a mov %rsp,%rdx */
	0x48, 0x83, 0xe4, 0xf0,			/* 0d and $-16,%rsp */
	0xff, 0x15, 0, 0, 0, 0,			/* 11 call *x(%rip) */
	0xf4,					/* 17 hlt */
};

static void test_start(void)
{
	struct cr_row row;
	int ret = sc_arch->scan(start, sizeof(start), 0x17, 0, &row);

	tap_ok(ret == 0 && row.reg[RIP].kind == CR_UNDEF,
	       "_start (xor %ebp,%ebp first): outermost, return address undefined");
	sc_fail("the same without xor %ebp,%ebp: pop would take the return address", start + 6,
		sizeof(start) - 6, 0x04, 1);
}

static void test_branches(void)
{
	sc_row("movsave pc 13 saves by mov", movsave, sizeof(movsave), 0x13, 1, RSP, 0x30,
	       SAVES(RBX, -24, RBP, -16, RIP, -8));
	sc_row("movsave pc 18 rbx restored", movsave, sizeof(movsave), 0x18, 1, RSP, 0x30,
	       SAVES(RBP, -16, RIP, -8));
	sc_row("movsave pc 21 ret", movsave, sizeof(movsave), 0x21, 1, RSP, 8, SAVES(RIP, -8));
	sc_row("shrink pc 12 ret after pop", shrink, sizeof(shrink), 0x12, 1, RSP, 8,
	       SAVES(RIP, -8));
	sc_row("shrink pc 0e body", shrink, sizeof(shrink), 0x0e, 0, RSP, 16,
	       SAVES(RBX, -16, RIP, -8));
	sc_row("shrink pc 13 early exit: state of the je", shrink, sizeof(shrink), 0x13, 1, RSP, 8,
	       SAVES(RIP, -8));
	sc_row("shrink pc 15", shrink, sizeof(shrink), 0x15, 1, RSP, 8, SAVES(RIP, -8));
	sc_row("probe pc 14 inside the loop, first pass", probe, sizeof(probe), 0x14, 1, RSP,
	       8 + 0x1000, SAVES(RIP, -8));
	sc_fail("probe pc 19 after a loop that moves rsp", probe, sizeof(probe), 0x19, 1);
	sc_fail("probe pc 22 caller", probe, sizeof(probe), 0x22, 0);
	sc_row("enter $0x20,$0", enter, sizeof(enter), 0x04, 1, RBP, 16, SAVES(RBP, -16, RIP, -8));
	sc_row("enter; push rbx", enter, sizeof(enter), 0x05, 1, RBP, 16,
	       SAVES(RBP, -16, RBX, -56, RIP, -8));
	/* leave does not restore rbx: its slot (still the caller's value) is kept */
	sc_row("enter; leave: at ret", enter, sizeof(enter), 0x06, 1, RSP, 8,
	       SAVES(RBX, -56, RIP, -8));
	sc_row("lea 0x10(%rsp),%rbp then alloca", lea_fp, sizeof(lea_fp), 0x0b, 1, RBP, 8,
	       SAVES(R12, -16, RBP, -24, RIP, -8));
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

static void test_call_before(void)
{
	static const struct {
		const char *name;
		uint8_t b[8];
		size_t len;
		int want;
	} t[] = {
		{ "call rel32", { 0x90, 0xe8, 0x10, 0x00, 0x00, 0x00 }, 6, 1 },
		{ "call *%rax", { 0x90, 0xff, 0xd0 }, 3, 1 },
		{ "call *16(%rip)", { 0xff, 0x15, 0x10, 0x00, 0x00, 0x00 }, 6, 1 },
		{ "notrack call *%rax", { 0x3e, 0xff, 0xd0 }, 3, 1 },
		{ "call *8(%rbx,%rcx,8)", { 0xff, 0x54, 0xcb, 0x08 }, 4, 1 },
		{ "call *%r11", { 0x41, 0xff, 0xd3 }, 3, 1 },
		{ "jmp *%rax is no call", { 0xff, 0xe0 }, 2, 0 },
		{ "mov $0xe8,%eax is no call", { 0xb8, 0xe8, 0x00, 0x00, 0x00 }, 5, 0 },
		{ "call rel32 truncated", { 0xe8, 0x10, 0x00, 0x00 }, 4, 0 },
		{ "ret is no call", { 0xc3 }, 1, 0 },
	};
	char name[96];

	for (size_t i = 0; i < CR_ARRAY_SIZE(t); i++) {
		snprintf(name, sizeof(name), "call_before: %s", t[i].name);
		tap_is_i64(cr_x86_64_call_before(t[i].b, t[i].len), t[i].want, name);
	}
}

/* The calls of an x86_64 `as` listing at their addresses: code ends at ret. */
static void test_call_target(void)
{
	static const uint8_t code[] = {
		0x90,				/* 0x0: nop */
		0xe8, 0xfa, 0xff, 0xff, 0xff,	/* 0x1: call 0x0 */
		0xe8, 0x00, 0x01, 0x00, 0x00,	/* 0x6: call 0x10b */
		0xff, 0xd0,			/* 0xb: call *%rax */
	};
	uint64_t t = 0;

	tap_ok(cr_x86_64_call_target(code, 6, 0x6, &t) == 1 && t == 0, "call_target: call back to 0");
	tap_ok(cr_x86_64_call_target(code, 11, 0xb, &t) == 1 && t == 0x10b,
	       "call_target: call forward");
	tap_is_i64(cr_x86_64_call_target(code, 13, 0xd, &t), 0, "call_target: call *%rax: none");
	tap_is_i64(cr_x86_64_call_target(code, 4, 0x4, &t), 0, "call_target: truncated");
}

int main(void)
{
	sc_arch = &cr_arch_x86_64;
	test_f1();
	test_f2();
	test_f3();
	test_f4();
	test_f5();
	test_lengths();
	test_writes();
	test_sched();
	test_vector();
	test_branches();
	test_call_before();
	test_call_target();
	test_start();
	test_edges();
	test_apply();
	return tap_done();
}
