/* SPDX-License-Identifier: MIT */
/*
 * The riscv64 prologue decoder and description.  Bytes were assembled once
 * with llvm-mc --triple=riscv64 -mattr=+c,+d,+v (and -c for the 32-bit forms);
 * the assembly is beside them.
 */
#include "scan-check.h"

enum { RA = 1, SP = 2, S0 = 8, S1 = 9 };

#define ROW(name, b, pc, f0, reg, off, sv) sc_row(name, b, sizeof(b), pc, f0, reg, off, sv)
#define FAIL(name, b, pc) sc_fail(name, b, sizeof(b), pc, 1)

/* GCC -O2 without the C extension. */
static const uint8_t f1[] = {
	0x13, 0x01, 0x01, 0xfe,	/* 00 addi sp, sp, -32 */
	0x23, 0x3c, 0x11, 0x00,	/* 04 sd ra, 24(sp) */
	0x23, 0x38, 0x81, 0x00,	/* 08 sd s0, 16(sp) */
	0x23, 0x34, 0x91, 0x00,	/* 0c sd s1, 8(sp) */
	0x13, 0x04, 0x01, 0x02,	/* 10 addi s0, sp, 32 */
	0x93, 0x04, 0x05, 0x00,	/* 14 mv s1, a0 */
	0xef, 0x00, 0x00, 0x00,	/* 18 jal ra, 0 (call) */
	0x83, 0x30, 0x81, 0x01,	/* 1c ld ra, 24(sp) */
	0x03, 0x34, 0x01, 0x01,	/* 20 ld s0, 16(sp) */
	0x83, 0x34, 0x81, 0x00,	/* 24 ld s1, 8(sp) */
	0x13, 0x01, 0x01, 0x02,	/* 28 addi sp, sp, 32 */
	0x67, 0x80, 0x00, 0x00,	/* 2c ret */
};

static void test_f1(void)
{
	const int64_t *all = SAVES(RA, -8, S0, -16, S1, -24);

	ROW("f1 pc 00 entry: CFA = sp, ra in ra", f1, 0x00, 1, SP, 0, NOSAVES);
	ROW("f1 pc 04 addi sp,sp,-32", f1, 0x04, 1, SP, 32, NOSAVES);
	ROW("f1 pc 08 sd ra", f1, 0x08, 1, SP, 32, SAVES(RA, -8));
	ROW("f1 pc 0c sd s0", f1, 0x0c, 1, SP, 32, SAVES(RA, -8, S0, -16));
	ROW("f1 pc 10 sd s1", f1, 0x10, 1, SP, 32, all);
	ROW("f1 pc 14 addi s0,sp,32", f1, 0x14, 1, S0, 0, all);
	ROW("f1 pc 18 body", f1, 0x18, 1, S0, 0, all);
	ROW("f1 pc 1c return address", f1, 0x1c, 0, S0, 0, all);
	ROW("f1 pc 20 ld ra", f1, 0x20, 1, S0, 0, SAVES(S0, -16, S1, -24));
	ROW("f1 pc 24 ld s0: back to sp", f1, 0x24, 1, SP, 32, SAVES(S1, -24));
	ROW("f1 pc 28 ld s1", f1, 0x28, 1, SP, 32, NOSAVES);
	ROW("f1 pc 2c at ret", f1, 0x2c, 1, SP, 0, NOSAVES);
	FAIL("f1 pc inside an instruction", f1, 0x12);
	FAIL("f1 pc odd", f1, 0x11);
	FAIL("f1 pc past the end", f1, 0x34);
}

/* The same with the C extension: c.addi16sp, c.sdsp, c.addi4spn, c.ldsp, c.jr. */
static const uint8_t f2[] = {
	0x39, 0x71,	/* 00 c.addi16sp sp, -64 */
	0x06, 0xfc,	/* 02 c.sdsp ra, 56(sp) */
	0x22, 0xf8,	/* 04 c.sdsp s0, 48(sp) */
	0x80, 0x00,	/* 06 c.addi4spn s0, sp, 64 */
	0xaa, 0x84,	/* 08 c.mv s1, a0 */
	0x82, 0x97,	/* 0a c.jalr a5 */
	0xe2, 0x70,	/* 0c c.ldsp ra, 56(sp) */
	0x42, 0x74,	/* 0e c.ldsp s0, 48(sp) */
	0x21, 0x61,	/* 10 c.addi16sp sp, 64 */
	0x82, 0x80,	/* 12 c.jr ra (ret) */
	0x7d, 0x43,	/* 14 c.li t1, 31 (reached by a branch from the body) */
	0x82, 0x80,	/* 16 c.jr ra */
};

static void test_f2(void)
{
	const int64_t *rec = SAVES(RA, -8, S0, -16);

	ROW("f2 pc 02 c.addi16sp", f2, 0x02, 1, SP, 64, NOSAVES);
	ROW("f2 pc 04 c.sdsp ra", f2, 0x04, 1, SP, 64, SAVES(RA, -8));
	ROW("f2 pc 06 c.sdsp s0", f2, 0x06, 1, SP, 64, rec);
	ROW("f2 pc 08 c.addi4spn s0", f2, 0x08, 1, S0, 0, rec);
	ROW("f2 pc 0a c.mv", f2, 0x0a, 1, S0, 0, rec);
	ROW("f2 pc 0c after c.jalr", f2, 0x0c, 0, S0, 0, rec);
	ROW("f2 pc 0e c.ldsp ra", f2, 0x0e, 1, S0, 0, SAVES(S0, -16));
	ROW("f2 pc 10 c.ldsp s0", f2, 0x10, 1, SP, 64, NOSAVES);
	ROW("f2 pc 12 c.addi16sp 64, at ret", f2, 0x12, 1, SP, 0, NOSAVES);
	ROW("f2 pc 14 after ret: body state", f2, 0x14, 1, S0, 0, rec);
	ROW("f2 pc 16", f2, 0x16, 1, S0, 0, rec);
}

/* A large frame: the size built in t0 by c.lui + addiw, then sub/c.add. */
static const uint8_t f3[] = {
	0x41, 0x11,		/* 00 c.addi sp, -16 */
	0x06, 0xe4,		/* 02 c.sdsp ra, 8(sp) */
	0x85, 0x62,		/* 04 c.lui t0, 1 */
	0x9b, 0x82, 0x02, 0x81,	/* 06 addiw t0, t0, -2032 */
	0x33, 0x01, 0x51, 0x40,	/* 0a sub sp, sp, t0 */
	0x82, 0x97,		/* 0e c.jalr a5 */
	0x16, 0x91,		/* 10 c.add sp, t0 */
	0xa2, 0x60,		/* 12 c.ldsp ra, 8(sp) */
	0x41, 0x01,		/* 14 c.addi sp, 16 */
	0x82, 0x80,		/* 16 ret */
};
/* li t0, -2048 (addi from x0), then add sp, sp, t0. */
static const uint8_t f3b[] = {
	0x93, 0x02, 0x00, 0x80,	/* 00 li t0, -2048 */
	0x33, 0x01, 0x51, 0x00,	/* 04 add sp, sp, t0 */
	0x82, 0x80,		/* 08 ret */
};

static void test_f3(void)
{
	ROW("f3 pc 04 c.addi sp,-16", f3, 0x04, 1, SP, 16, SAVES(RA, -8));
	ROW("f3 pc 0a constant in t0", f3, 0x0a, 1, SP, 16, SAVES(RA, -8));
	ROW("f3 pc 0e sub sp,sp,t0 (t0 = 2064)", f3, 0x0e, 1, SP, 2080, SAVES(RA, -8));
	ROW("f3 pc 10 return address", f3, 0x10, 0, SP, 2080, SAVES(RA, -8));
	ROW("f3 pc 12 c.add sp,t0", f3, 0x12, 1, SP, 16, SAVES(RA, -8));
	ROW("f3 pc 16 at ret", f3, 0x16, 1, SP, 0, NOSAVES);
	ROW("f3b li + add sp,sp,t0", f3b, 0x08, 1, SP, 2048, NOSAVES);
}

/*
 * The known failure of scanning halves: the upper halves of these lui
 * instructions are c.addi16sp sp,-64 (0x7139) and c.sdsp ra,8(sp) (0xe406).
 * Decoding from the function start never looks at them.
 */
static const uint8_t halves[] = {
	0x41, 0x11,		/* 00 c.addi sp, -16 */
	0x06, 0xe4,		/* 02 c.sdsp ra, 8(sp) */
	0x37, 0x05, 0x39, 0x71,	/* 04 lui a0, 0x71390: upper half 0x7139 */
	0xb7, 0x05, 0x06, 0xe4,	/* 08 lui a1, 0xe4060: upper half 0xe406 */
	0x82, 0x97,		/* 0c c.jalr a5 */
	0xa2, 0x60,		/* 0e c.ldsp ra, 8(sp) */
	0x41, 0x01,		/* 10 c.addi sp, 16 */
	0x82, 0x80,		/* 12 ret */
};

static void test_halves(void)
{
	/* The halves really look like prologue instructions when decoded on their own. */
	sc_row("halves: 0x7139 alone is c.addi16sp -64", halves + 6, 2, 2, 1, SP, 64, NOSAVES);
	sc_row("halves: 0xe406 alone is c.sdsp ra,8(sp)", halves + 10, 2, 2, 1, SP, 0,
	       SAVES(RA, 8));
	ROW("halves: pc 08 sequential: not c.addi16sp", halves, 0x08, 1, SP, 16, SAVES(RA, -8));
	ROW("halves: pc 0c sequential: neither", halves, 0x0c, 1, SP, 16, SAVES(RA, -8));
	ROW("halves: pc 0e return address", halves, 0x0e, 0, SP, 16, SAVES(RA, -8));
	ROW("halves: pc 12 at ret", halves, 0x12, 1, SP, 0, NOSAVES);
	FAIL("halves: pc 06 inside the lui", halves, 0x06);
	FAIL("halves: pc 0a inside the lui", halves, 0x0a);
}

/* Frame pointer with alloca: sub sp,sp,a0, restored by addi sp,s0,-16; an s0-relative save. */
static const uint8_t alloca_fn[] = {
	0x41, 0x11,		/* 00 c.addi sp, -16 */
	0x06, 0xe4,		/* 02 c.sdsp ra, 8(sp) */
	0x22, 0xe0,		/* 04 c.sdsp s0, 0(sp) */
	0x00, 0x08,		/* 06 c.addi4spn s0, sp, 16 */
	0x33, 0x01, 0xa1, 0x40,	/* 08 sub sp, sp, a0 */
	0x23, 0x34, 0x94, 0xfe,	/* 0c sd s1, -24(s0) */
	0x82, 0x97,		/* 10 c.jalr a5 */
	0x13, 0x01, 0x04, 0xff,	/* 12 addi sp, s0, -16 */
	0xa2, 0x60,		/* 16 c.ldsp ra, 8(sp) */
	0x02, 0x64,		/* 18 c.ldsp s0, 0(sp) */
	0x41, 0x01,		/* 1a c.addi sp, 16 */
	0x82, 0x80,		/* 1c ret */
};

static void test_alloca(void)
{
	const int64_t *rec = SAVES(RA, -8, S0, -16);

	ROW("alloca: c.addi4spn 16", alloca_fn, 0x08, 1, S0, 0, rec);
	ROW("alloca: sub sp,sp,a0 with s0", alloca_fn, 0x0c, 1, S0, 0, rec);
	ROW("alloca: sd s1,-24(s0) recorded via s0", alloca_fn, 0x10, 1, S0, 0,
	    SAVES(RA, -8, S0, -16, S1, -24));
	ROW("alloca: addi sp,s0,-16", alloca_fn, 0x16, 1, S0, 0, SAVES(RA, -8, S0, -16, S1, -24));
	ROW("alloca: ld s0 (sp known again)", alloca_fn, 0x1a, 1, SP, 16, SAVES(S1, -24));
}

/*
 * Constants over a call: a0 is the callee's result, t4 (caller-saved, but
 * not used by PLT entries) is kept, s2 is callee-saved.
 */
static const uint8_t calls[] = {
	0x41, 0x11,		/* 00 addi sp, sp, -16 */
	0x06, 0xe4,		/* 02 sd ra, 8(sp) */
	0x41, 0x45,		/* 04 li a0, 16 */
	0x13, 0x09, 0x00, 0x02,	/* 06 li s2, 32 */
	0x93, 0x0e, 0x00, 0x04,	/* 0a li t4, 64 */
	0xef, 0x00, 0x00, 0x00,	/* 0e jal ra, . */
	0x33, 0x01, 0xd1, 0x41,	/* 12 sub sp, sp, t4 */
	0x33, 0x01, 0x21, 0x41,	/* 16 sub sp, sp, s2 */
	0x33, 0x01, 0xa1, 0x40,	/* 1a sub sp, sp, a0: a0 unknown */
	0x82, 0x80,		/* 1e ret */
};

static void test_calls(void)
{
	ROW("calls pc 12 return address", calls, 0x12, 0, SP, 16, SAVES(RA, -8));
	ROW("calls pc 16 sub sp,sp,t4 (t4 kept)", calls, 0x16, 1, SP, 80, SAVES(RA, -8));
	ROW("calls pc 1a sub sp,sp,s2", calls, 0x1a, 1, SP, 112, SAVES(RA, -8));
	FAIL("calls pc 1e sub sp,sp,a0 after the call", calls, 0x1e);
}

/* A shrink-wrapped early exit after the epilogue: c.beqz and c.j targets. */
static const uint8_t early[] = {
	0x19, 0xcd,		/* 00 c.beqz a0, 1e */
	0x41, 0x11,		/* 02 c.addi sp, -16 */
	0x06, 0xe4,		/* 04 c.sdsp ra, 8(sp) */
	0x97, 0x00, 0x00, 0x00,	/* 06 auipc ra, 0 */
	0xe7, 0x80, 0xe0, 0x00,	/* 0a jalr ra, 14(ra) */
	0xa2, 0x60,		/* 0e c.ldsp ra, 8(sp) */
	0x41, 0x01,		/* 10 c.addi sp, 16 */
	0x82, 0x80,		/* 12 ret */
	0x97, 0x00, 0x00, 0x00,	/* 14 auipc ra, 0 (reached from the body) */
	0xe7, 0x80, 0x00, 0x00,	/* 18 jalr ra, 0(ra) */
	0xe5, 0xbf,		/* 1c c.j 14 */
	0x82, 0x80,		/* 1e ret: the state of the c.beqz, frameless */
	0x63, 0x04, 0x05, 0x00,	/* 20 beqz a0, 28 */
	0x01, 0x00,		/* 24 c.nop */
	0x6f, 0x00, 0x40, 0x00,	/* 26 j 2a */
	0x82, 0x80,		/* 2a ret */
};

static void test_early(void)
{
	ROW("early pc 0e return address", early, 0x0e, 0, SP, 16, SAVES(RA, -8));
	ROW("early pc 14 after ret: body state", early, 0x14, 1, SP, 16, SAVES(RA, -8));
	ROW("early pc 1c return address", early, 0x1c, 0, SP, 16, SAVES(RA, -8));
	ROW("early pc 1e target of the c.beqz: frameless", early, 0x1e, 1, SP, 0, NOSAVES);
	ROW("early pc 2a target of j", early, 0x2a, 1, SP, 0, NOSAVES);
}

static void test_call_before(void)
{
	static const uint8_t jal[] = { 0x01, 0x00, 0xef, 0x00, 0x00, 0x00 };	/* c.nop; jal ra */
	static const uint8_t jalr[] = { 0xe7, 0x80, 0x07, 0x00 };	/* jalr ra, 0(a5) */
	static const uint8_t cjalr[] = { 0x13, 0x00, 0x00, 0x00, 0x82, 0x97 };	/* nop; c.jalr a5 */
	static const uint8_t cjr[] = { 0x82, 0x87 };			/* c.jr a5 */
	static const uint8_t jalr_t0[] = { 0xe7, 0x82, 0x07, 0x00 };	/* jalr t0, 0(a5) */
	static const uint8_t j[] = { 0x6f, 0x00, 0x00, 0x00 };		/* jal x0 */
	/* lui a0, 0x97820: its upper half 0x9782 reads as c.jalr a5 */
	static const uint8_t half[] = { 0x37, 0x05, 0x82, 0x97 };
	/* and after a compressed instruction, the same bytes are c.jalr */
	static const uint8_t half2[] = { 0x01, 0x00, 0x01, 0x00, 0x82, 0x97 };

	tap_is_i64(cr_riscv64_call_before(jal, sizeof(jal)), 1, "call_before: jal ra");
	tap_is_i64(cr_riscv64_call_before(jalr, sizeof(jalr)), 1, "call_before: jalr ra");
	tap_is_i64(cr_riscv64_call_before(cjalr, sizeof(cjalr)), 1, "call_before: c.jalr a5");
	tap_is_i64(cr_riscv64_call_before(cjr, sizeof(cjr)), 0, "call_before: c.jr is no call");
	tap_is_i64(cr_riscv64_call_before(jalr_t0, sizeof(jalr_t0)), 0,
		   "call_before: jalr t0 (millicode) is no call through ra");
	tap_is_i64(cr_riscv64_call_before(j, sizeof(j)), 0, "call_before: j is no call");
	tap_is_i64(cr_riscv64_call_before(half, sizeof(half)), 0,
		   "call_before: upper half of lui is not c.jalr");
	tap_is_i64(cr_riscv64_call_before(half2, sizeof(half2)), 1,
		   "call_before: the same bytes at a boundary are c.jalr");
	tap_is_i64(cr_riscv64_call_before(jal, 4), 0, "call_before: pc inside an instruction");
	tap_is_i64(cr_riscv64_call_before(jal, 5), 0, "call_before: odd pc");
}

/* Each call of a riscv64 `as` listing (.option norelax) at its address: code[0..len) ends at ret. */
static void test_call_target(void)
{
	static const uint8_t code[] = {
		0x13, 0x00, 0x00, 0x00,	/* 0x00: nop */
		0xef, 0xf0, 0xdf, 0xff,	/* 0x04: jal ra, 0x0 */
		0xef, 0x10, 0x80, 0x01,	/* 0x08: jal ra, 0x1020 */
		0x97, 0x50, 0x34, 0x12,	/* 0x0c: auipc ra, 0x12345 */
		0xe7, 0x80, 0x00, 0xff,	/* 0x10: jalr ra, -16(ra): 0x12344ffc */
		0x97, 0xf0, 0xff, 0xff,	/* 0x14: auipc ra, 0xfffff */
		0xe7, 0x80, 0xf0, 0x7f,	/* 0x18: jalr ra, 2047(ra): -0x7ed */
		0xef, 0xf2, 0x5f, 0xfe,	/* 0x1c: jal t0, 0x0 (no call through ra) */
	};
	uint64_t t = 0;

	tap_ok(cr_riscv64_call_target(code, 8, 0x8, &t) == 1 && t == 0, "call_target: jal ra back to 0");
	tap_ok(cr_riscv64_call_target(code, 12, 0xc, &t) == 1 && t == 0x1020,
	       "call_target: jal ra forward");
	tap_ok(cr_riscv64_call_target(code, 0x14, 0x14, &t) == 1 && t == 0x12344ffc,
	       "call_target: auipc ra + jalr ra, a negative low part");
	tap_ok(cr_riscv64_call_target(code, 0x1c, 0x1c, &t) == 1 && t == 0xfffffffffffff813ull,
	       "call_target: auipc ra, 0xfffff + jalr ra, 2047: below 0, wrapped");
	tap_is_i64(cr_riscv64_call_target(code, 0x20, 0x20, &t), 0, "call_target: jal t0 is none");
	tap_is_i64(cr_riscv64_call_target(code, 4, 0x4, &t), 0, "call_target: truncated");
	tap_is_i64(cr_riscv64_call_target(code, 0x10, 0x10, &t), 0,
		   "call_target: auipc ra last: no call ends there");
}

static const uint8_t bad_mv[] = { 0x13, 0x01, 0x05, 0x00, 0x82, 0x80 };	/* mv sp, a0 */
static const uint8_t bad_csr[] = { 0x73, 0x21, 0x10, 0x00, 0x82, 0x80 };	/* frflags sp */
static const uint8_t bad_vset[] = { 0x57, 0x71, 0x05, 0x0c, 0x82, 0x80 };	/* vsetvli sp */
static const uint8_t bad_call[] = { 0xef, 0x00, 0x00, 0x00, 0x82, 0x80 };	/* ra unsaved */
static const uint8_t bad_sub[] = { 0x33, 0x01, 0x51, 0x40, 0x82, 0x80 };	/* t0 unknown */
static const uint8_t bad_jr0[] = { 0x02, 0x80, 0x82, 0x80 };	/* c.jr x0 */
static const uint8_t bad_zero[] = { 0x00, 0x00, 0x82, 0x80 };	/* illegal */
/* A 48-bit encoding (low bits 11111). */
static const uint8_t bad_long[] = { 0x1f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x82, 0x80 };
static const uint8_t bad_pop[] = { 0x41, 0x01, 0x82, 0x80 };	/* c.addi sp, 16 at entry */
static const uint8_t ok_other[] = {
	0x53, 0x05, 0x05, 0xe2,	/* 00 fmv.x.d a0, fa0 */
	0x67, 0x00, 0x03, 0x00,	/* 04 jr t1 (tail call, no epilogue) */
	0x6f, 0x00, 0x00, 0x00,	/* 08 j 0 */
	0x82, 0x80,		/* 0c ret */
};

static void test_fail(void)
{
	FAIL("mv sp,a0", bad_mv, 4);
	FAIL("csrr into sp", bad_csr, 4);
	FAIL("vsetvli into sp", bad_vset, 4);
	FAIL("call without saving ra", bad_call, 4);
	FAIL("sub sp,sp,t0 with t0 unknown", bad_sub, 4);
	FAIL("c.jr x0 (reserved)", bad_jr0, 2);
	FAIL("all-zero instruction", bad_zero, 2);
	FAIL("48-bit encoding", bad_long, 6);
	FAIL("sp above the CFA", bad_pop, 2);
	ROW("fmv.x.d, jr t1, j: no effect on a leaf", ok_other, 0x0c, 1, SP, 0, NOSAVES);
}

static void test_apply(void)
{
	uint64_t stack[32] = { 0 };
	const uint64_t base = 0x3ffff000;
	struct cr_regs in = { .valid = 0 }, out;
	static const uint8_t leaf[] = { 0x05, 0x45, 0x82, 0x80 };	/* c.li a0, 1; ret */

	/* f1 at 0x1c: s0 = CFA = base + 0x80, sp = base + 0x60. */
	stack[15] = 0x10456;		/* CFA - 8: ra */
	stack[14] = base + 0xc0;	/* CFA - 16: caller's s0 */
	stack[13] = 0x9999;		/* CFA - 24: s1 */
	cr_reg_set(&in, SP, base + 0x60);
	cr_reg_set(&in, S0, base + 0x80);
	cr_reg_set(&in, RA, 0x10000);
	cr_reg_set(&in, S1, 0xdead);
	sc_apply("f1 apply at 0x1c", f1, sizeof(f1), 0x1c, 0, stack, sizeof(stack), base, &in,
		 0x10456, base + 0x80, &out);
	tap_is_u64(out.r[S0], base + 0xc0, "f1 apply: caller s0");
	tap_is_u64(out.r[S1], 0x9999, "f1 apply: caller s1");
	sc_apply("leaf apply", leaf, sizeof(leaf), 2, 1, stack, sizeof(stack), base, &in, 0x10000,
		 base + 0x60, &out);
	{
		struct cr_mem m;

		cr_mem_buffer(&m, base, stack, sizeof(stack));
		tap_is_i64(cr_row_apply(sc_arch->fp_row, &m, sc_arch, &in, &out), 0,
			   "fp_row apply");
		tap_is_u64(out.pc, 0x10456, "fp_row: caller pc from fp - 8");
		tap_is_u64(out.r[SP], base + 0x80, "fp_row: caller sp = fp");
		tap_is_u64(out.r[S0], base + 0xc0, "fp_row: caller s0 from fp - 16");
	}
}

static void test_desc(void)
{
	const struct cr_arch *a = &cr_arch_riscv64;
	unsigned n;

	tap_is_str(a->name, "riscv64", "desc name");
	tap_is_u64(a->nregs, 32, "desc nregs");
	tap_is_u64(a->sp, 2, "desc sp");
	tap_is_u64(a->fp, 8, "desc fp");
	tap_is_u64(a->ra, 1, "desc ra");
	tap_is_u64(a->ra_in_reg, 1, "desc ra_in_reg");
	tap_is_str(a->regname[1], "ra", "desc regname 1");
	tap_is_str(a->regname[8], "s0", "desc regname 8");
	tap_is_str(a->regname[10], "a0", "desc regname 10");
	tap_is_str(a->regname[18], "s2", "desc regname 18");
	tap_is_str(a->regname[31], "t6", "desc regname 31");
	for (n = 0; n < 40 && a->dump_order[n] != 0xff; n++)
		;
	tap_is_u64(n, 31, "desc dump_order: x1-x31");
	tap_is_u64(a->dump_order[0], 1, "desc dump_order skips zero");
	tap_ok(a->scan == cr_riscv64_scan && a->strip_ra == NULL, "desc scan, no strip_ra");
}

int main(void)
{
	sc_arch = &cr_arch_riscv64;
	test_f1();
	test_f2();
	test_f3();
	test_halves();
	test_alloca();
	test_calls();
	test_early();
	test_call_before();
	test_call_target();
	test_fail();
	test_apply();
	test_desc();
	return tap_done();
}
