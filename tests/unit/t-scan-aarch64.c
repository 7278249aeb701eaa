/* SPDX-License-Identifier: MIT */
/*
 * The aarch64 prologue decoder and description.  Instruction words were
 * assembled once with llvm-mc --triple=aarch64 (Arm ARM A64 encodings); the
 * assembly is beside each word.
 */
#include "scan-check.h"

enum { X19 = 19, X20 = 20, X21 = 21, FP = 29, LR = 30, SP = 31 };

/* Little-endian bytes of n instruction words, whatever the host's byte order. */
static const uint8_t *code(const uint32_t *w, size_t n)
{
	static uint8_t buf[256];
	size_t i;

	for (i = 0; i < n && i < sizeof(buf) / 4; i++) {
		buf[4 * i] = (uint8_t)w[i];
		buf[4 * i + 1] = (uint8_t)(w[i] >> 8);
		buf[4 * i + 2] = (uint8_t)(w[i] >> 16);
		buf[4 * i + 3] = (uint8_t)(w[i] >> 24);
	}
	return buf;
}

#define ROW(name, w, pc, f0, reg, off, sv) \
	sc_row(name, code(w, CR_ARRAY_SIZE(w)), 4 * CR_ARRAY_SIZE(w), pc, f0, reg, off, sv)
#define FAIL(name, w, pc) sc_fail(name, code(w, CR_ARRAY_SIZE(w)), 4 * CR_ARRAY_SIZE(w), pc, 1)

/* GCC style: frame record first, then callee-saved registers; signed return address. */
static const uint32_t f1[] = {
	0xd503233f,	/* 00 paciasp */
	0xa9bd7bfd,	/* 04 stp x29, x30, [sp, #-48]! */
	0x910003fd,	/* 08 mov x29, sp */
	0xa90153f3,	/* 0c stp x19, x20, [sp, #16] */
	0xf90013f5,	/* 10 str x21, [sp, #32] */
	0xaa0003f3,	/* 14 mov x19, x0 */
	0x94000000,	/* 18 bl . */
	0xf94013f5,	/* 1c ldr x21, [sp, #32] */
	0xa94153f3,	/* 20 ldp x19, x20, [sp, #16] */
	0xa8c37bfd,	/* 24 ldp x29, x30, [sp], #48 */
	0xd50323bf,	/* 28 autiasp */
	0xd65f03c0,	/* 2c ret */
};

static void test_f1(void)
{
	const int64_t *rec = SAVES(FP, -48, LR, -40);
	const int64_t *all = SAVES(FP, -48, LR, -40, X19, -32, X20, -24, X21, -16);

	ROW("f1 pc 00 entry: CFA = sp, ra in x30", f1, 0x00, 1, SP, 0, NOSAVES);
	ROW("f1 pc 04 paciasp is a hint", f1, 0x04, 1, SP, 0, NOSAVES);
	ROW("f1 pc 08 stp x29,x30,[sp,#-48]!", f1, 0x08, 1, SP, 48, rec);
	ROW("f1 pc 0c mov x29,sp", f1, 0x0c, 1, FP, 48, rec);
	ROW("f1 pc 10 stp x19,x20,[sp,#16]", f1, 0x10, 1, FP, 48,
	    SAVES(FP, -48, LR, -40, X19, -32, X20, -24));
	ROW("f1 pc 14 str x21,[sp,#32]", f1, 0x14, 1, FP, 48, all);
	ROW("f1 pc 18 body", f1, 0x18, 1, FP, 48, all);
	ROW("f1 pc 1c return address", f1, 0x1c, 0, FP, 48, all);
	ROW("f1 pc 20 ldr x21 restores", f1, 0x20, 1, FP, 48,
	    SAVES(FP, -48, LR, -40, X19, -32, X20, -24));
	ROW("f1 pc 24 ldp x19,x20 restores", f1, 0x24, 1, FP, 48, rec);
	ROW("f1 pc 28 ldp x29,x30,[sp],#48", f1, 0x28, 1, SP, 0, NOSAVES);
	ROW("f1 pc 2c autiasp, at ret", f1, 0x2c, 1, SP, 0, NOSAVES);
	FAIL("f1 pc not a multiple of 4", f1, 0x0e);
	FAIL("f1 pc past the end", f1, 0x34);
}

/* clang style with a large frame: sub with a shifted immediate, record at the top. */
static const uint32_t f2[] = {
	0xd503245f,	/* 00 bti c */
	0xd14007ff,	/* 04 sub sp, sp, #1, lsl #12 */
	0xd100c3ff,	/* 08 sub sp, sp, #48 */
	0xa9027bfd,	/* 0c stp x29, x30, [sp, #32] */
	0x910083fd,	/* 10 add x29, sp, #32 */
	0x94000000,	/* 14 bl . */
	0xb4000080,	/* 18 cbz x0, 28 */
	0xa9427bfd,	/* 1c ldp x29, x30, [sp, #32] */
	0x9100c3ff,	/* 20 add sp, sp, #48 */
	0x914007ff,	/* 24 add sp, sp, #1, lsl #12 */
	0xd65f03c0,	/* 28 ret */
	0xd2800020,	/* 2c mov x0, #1 (reached by a branch from the body) */
	0xd65f03c0,	/* 30 ret */
};

static void test_f2(void)
{
	/* The 4 KiB were allocated first, so the record is 4112 below the CFA. */
	const int64_t *rec = SAVES(FP, -4112, LR, -4104);

	ROW("f2 pc 04 bti", f2, 0x04, 1, SP, 0, NOSAVES);
	ROW("f2 pc 08 sub sp,#1,lsl 12", f2, 0x08, 1, SP, 4096, NOSAVES);
	ROW("f2 pc 0c sub sp,#48", f2, 0x0c, 1, SP, 4144, NOSAVES);
	ROW("f2 pc 10 stp x29,x30,[sp,#32]", f2, 0x10, 1, SP, 4144, rec);
	ROW("f2 pc 14 add x29,sp,#32", f2, 0x14, 1, FP, 4112, rec);
	ROW("f2 pc 18 return address", f2, 0x18, 0, FP, 4112, rec);
	ROW("f2 pc 20 ldp x29,x30,[sp,#32]", f2, 0x20, 1, SP, 4144, NOSAVES);
	ROW("f2 pc 24 add sp,#48", f2, 0x24, 1, SP, 4096, NOSAVES);
	ROW("f2 pc 28 at ret", f2, 0x28, 1, SP, 0, NOSAVES);
	ROW("f2 pc 2c after ret: body state", f2, 0x2c, 1, FP, 4112, rec);
	ROW("f2 pc 30", f2, 0x30, 1, FP, 4112, rec);
}

/* Only x30 saved (str pre-index), a leaf, alloca with mov sp,x29, a tail call. */
static const uint32_t f3[] = {
	0xf81f0ffe,	/* 00 str x30, [sp, #-16]! */
	0x94000000,	/* 04 bl . */
	0xf84107fe,	/* 08 ldr x30, [sp], #16 */
	0xd65f03c0,	/* 0c ret */
};
static const uint32_t leaf[] = {
	0x91000400,	/* 00 add x0, x0, #1 */
	0xd65f03c0,	/* 04 ret */
};
static const uint32_t alloca_fn[] = {
	0xa9bf7bfd,	/* 00 stp x29, x30, [sp, #-16]! */
	0x910003fd,	/* 04 mov x29, sp */
	0xcb2063ff,	/* 08 sub sp, sp, x0 */
	0x927cec1f,	/* 0c and sp, x0, #~15 */
	0xd63f0100,	/* 10 blr x8 */
	0x910003bf,	/* 14 mov sp, x29 */
	0xa8c17bfd,	/* 18 ldp x29, x30, [sp], #16 */
	0x14000000,	/* 1c b . (tail call) */
	0xd10043bf,	/* 20 sub sp, x29, #16 */
	0xd65f03c0,	/* 24 ret */
};
static const uint32_t simd[] = {
	0xd503237f,	/* 00 pacibsp */
	0x6dbf27e8,	/* 04 stp d8, d9, [sp, #-16]! */
	0xf81f0ff3,	/* 08 str x19, [sp, #-16]! */
	0xa9ff07e0,	/* 0c ldp x0, x1, [sp, #-16]! (a load with writeback) */
	0x1e620820,	/* 10 fmul d0, d1, d2 */
	0xf81f83be,	/* 14 stur x30, [x29, #-8]: x29 is not a frame pointer here */
	0x6cc127e8,	/* 18 ldp d8, d9, [sp], #16 */
	0xd65f0fff,	/* 1c retab */
};

static void test_f3(void)
{
	ROW("str x30,[sp,#-16]!", f3, 0x04, 1, SP, 16, SAVES(LR, -16));
	ROW("str x30: return address", f3, 0x08, 0, SP, 16, SAVES(LR, -16));
	ROW("ldr x30,[sp],#16: at ret", f3, 0x0c, 1, SP, 0, NOSAVES);
	ROW("leaf: ra stays in x30", leaf, 0x04, 1, SP, 0, NOSAVES);
	ROW("alloca: sub sp,sp,x0 with x29", alloca_fn, 0x0c, 1, FP, 16, SAVES(FP, -16, LR, -8));
	ROW("alloca: and sp,x0,#~15 with x29", alloca_fn, 0x10, 1, FP, 16, SAVES(FP, -16, LR, -8));
	ROW("alloca: after blr", alloca_fn, 0x14, 0, FP, 16, SAVES(FP, -16, LR, -8));
	ROW("alloca: mov sp,x29 (x29 still locates the CFA)", alloca_fn, 0x18, 1, FP, 16,
	    SAVES(FP, -16, LR, -8));
	ROW("alloca: at the tail call", alloca_fn, 0x1c, 1, SP, 0, NOSAVES);
	ROW("alloca: after the tail call: body state", alloca_fn, 0x20, 1, FP, 16,
	    SAVES(FP, -16, LR, -8));
	ROW("alloca: sub sp,x29,#16", alloca_fn, 0x24, 1, FP, 16, SAVES(FP, -16, LR, -8));
	ROW("simd: stp d8,d9 pre-index", simd, 0x08, 1, SP, 16, NOSAVES);
	ROW("simd: str x19 pre-index", simd, 0x0c, 1, SP, 32, SAVES(X19, -32));
	ROW("simd: ldp pre-index moves sp", simd, 0x10, 1, SP, 48, SAVES(X19, -32));
	ROW("simd: unknown fp op, stur via non-fp x29", simd, 0x18, 1, SP, 48, SAVES(X19, -32));
	ROW("simd: ldp d8,d9 post-index", simd, 0x1c, 1, SP, 32, SAVES(X19, -32));
}

/* GCC -O0, a 16 KiB frame: the size in a register (mov x12 is movz), sub sp,sp,x12. */
static const uint32_t big[] = {
	0xd288080c,	/* 00 mov x12, #0x4040 */
	0xcb2c63ff,	/* 04 sub sp, sp, x12 */
	0xa9007bfd,	/* 08 stp x29, x30, [sp] */
	0x910003fd,	/* 0c mov x29, sp */
	0xf9000bf3,	/* 10 str x19, [sp, #16] */
	0x94000000,	/* 14 bl . */
	0xf9400bf3,	/* 18 ldr x19, [sp, #16] */
	0xa9407bfd,	/* 1c ldp x29, x30, [sp] */
	0xd288080c,	/* 20 mov x12, #0x4040 */
	0x8b2c63ff,	/* 24 add sp, sp, x12 */
	0xd65f03c0,	/* 28 ret */
};
/* GCC -O2 with -fipa-ra: x12 is set before the call and used after it. */
static const uint32_t big2[] = {
	0xd288020c,	/* 00 mov x12, #0x4010 */
	0xcb2c63ff,	/* 04 sub sp, sp, x12 */
	0xf90003fe,	/* 08 str x30, [sp] */
	0xd2800c80,	/* 0c mov x0, #100 */
	0x94000000,	/* 10 bl . */
	0xf94003fe,	/* 14 ldr x30, [sp] */
	0x8b2c63ff,	/* 18 add sp, sp, x12 */
	0x8b250000,	/* 1c add x0, x0, w5, uxtb */
	0xd65f03c0,	/* 20 ret */
};
/* Constants by movz/movk, mov (orr), movn and the 32-bit movz. */
static const uint32_t consts[] = {
	0xd2a00029,	/* 00 mov x9, #0x10000 */
	0xf2800409,	/* 04 movk x9, #0x20 */
	0xcb2963ff,	/* 08 sub sp, sp, x9 */
	0xaa0903ea,	/* 0c mov x10, x9 */
	0x8b2a63ff,	/* 10 add sp, sp, x10 */
	0x928001eb,	/* 14 mov x11, #-16 (movn) */
	0x8b2b63ff,	/* 18 add sp, sp, x11 */
	0x52a0002c,	/* 1c mov w12, #0x10000 */
	0xcb2c63ff,	/* 20 sub sp, sp, x12 */
	0xd503201f,	/* 24 nop */
};

static void test_big(void)
{
	const int64_t *rec = SAVES(FP, -0x4040, LR, -0x4038);

	ROW("big pc 04 mov x12,#0x4040", big, 0x04, 1, SP, 0, NOSAVES);
	ROW("big pc 08 sub sp,sp,x12", big, 0x08, 1, SP, 0x4040, NOSAVES);
	ROW("big pc 0c stp x29,x30,[sp]", big, 0x0c, 1, SP, 0x4040, rec);
	ROW("big pc 10 mov x29,sp", big, 0x10, 1, FP, 0x4040, rec);
	ROW("big pc 18 return address", big, 0x18, 0, FP, 0x4040,
	    SAVES(FP, -0x4040, LR, -0x4038, X19, -0x4030));
	ROW("big pc 1c ldr x19 restores", big, 0x1c, 1, FP, 0x4040, rec);
	ROW("big pc 20 ldp x29,x30", big, 0x20, 1, SP, 0x4040, NOSAVES);
	ROW("big pc 24 mov x12 again", big, 0x24, 1, SP, 0x4040, NOSAVES);
	ROW("big pc 28 add sp,sp,x12: at ret", big, 0x28, 1, SP, 0, NOSAVES);
	ROW("big2 pc 08 sub sp,sp,x12", big2, 0x08, 1, SP, 0x4010, NOSAVES);
	ROW("big2 pc 14 return address", big2, 0x14, 0, SP, 0x4010, SAVES(LR, -0x4010));
	ROW("big2 pc 18 ldr x30 restores", big2, 0x18, 1, SP, 0x4010, NOSAVES);
	ROW("big2 pc 1c add sp,sp,x12 (x12 kept over the call)", big2, 0x1c, 1, SP, 0, NOSAVES);
	ROW("big2 pc 20 at ret", big2, 0x20, 1, SP, 0, NOSAVES);
	ROW("consts pc 0c movz+movk", consts, 0x0c, 1, SP, 0x10020, NOSAVES);
	ROW("consts pc 14 mov x10,x9", consts, 0x14, 1, SP, 0, NOSAVES);
	ROW("consts pc 1c movn", consts, 0x1c, 1, SP, 16, NOSAVES);
	ROW("consts pc 24 mov w12 (32-bit movz)", consts, 0x24, 1, SP, 0x10010, NOSAVES);
}

/* glibc's free: a shrink-wrapped early exit placed after the epilogue and the body. */
static const uint32_t early[] = {
	0xb4000100,	/* 00 cbz x0, 20 */
	0xa9bc7bfd,	/* 04 stp x29, x30, [sp, #-64]! */
	0x910003fd,	/* 08 mov x29, sp */
	0x94000000,	/* 0c bl . */
	0xa8c47bfd,	/* 10 ldp x29, x30, [sp], #64 */
	0xd65f03c0,	/* 14 ret */
	0x94000000,	/* 18 bl . (reached from the body) */
	0x17ffffff,	/* 1c b 18 */
	0xd65f03c0,	/* 20 ret: the state of the cbz, frameless */
	0x36000040,	/* 24 tbz w0, #0, 2c */
	0xd503201f,	/* 28 nop */
	0xd65f03c0,	/* 2c ret */
};

static void test_early(void)
{
	const int64_t *rec = SAVES(FP, -64, LR, -56);

	ROW("early pc 10 return address", early, 0x10, 0, FP, 64, rec);
	ROW("early pc 18 after ret: body state", early, 0x18, 1, FP, 64, rec);
	ROW("early pc 1c return address", early, 0x1c, 0, FP, 64, rec);
	ROW("early pc 20 target of the cbz: frameless", early, 0x20, 1, SP, 0, NOSAVES);
	ROW("early pc 28 fall-through of tbz", early, 0x28, 1, SP, 0, NOSAVES);
	ROW("early pc 2c target of tbz reached by falling through", early, 0x2c, 1, SP, 0,
	    NOSAVES);
}

static const uint32_t bad_res[] = {
	0xa9bf7bfd,	/* stp x29, x30, [sp, #-16]! */
	0xd2800200,	/* mov x0, #16 */
	0x94000000,	/* bl .: x0 is the callee's result */
	0xcb2063ff,	/* sub sp, sp, x0 */
	0xd65f03c0,
};
static const uint32_t bad_movk[] = {
	0xf9400009,	/* ldr x9, [x0] */
	0xf2800409,	/* movk x9, #32: the rest of x9 is unknown */
	0xcb2963ff,	/* sub sp, sp, x9 */
	0xd65f03c0,
};
static const uint32_t bad_addreg[] = {
	0xd2800209,	/* mov x9, #16 */
	0x8b000129,	/* add x9, x9, x0 */
	0xcb2963ff,	/* sub sp, sp, x9 */
	0xd65f03c0,
};

static const uint32_t bad_sub[] = { 0xcb2063ff, 0xd65f03c0 };	/* sub sp, sp, x0 */
static const uint32_t bad_and[] = { 0x927cec1f, 0xd65f03c0 };	/* and sp, x0, #~15 */
static const uint32_t bad_st1[] = { 0x4c9f73e0, 0xd65f03c0 };	/* st1 {v0.16b}, [sp], #16 */
static const uint32_t bad_addvl[] = { 0x043f57ff, 0xd65f03c0 };	/* addvl sp, sp, #-1 */
static const uint32_t bad_bl[] = { 0x94000000, 0xd65f03c0 };	/* bl without saving x30 */
static const uint32_t bad_mov30[] = { 0xaa0103fe, 0xd65f03c0 };	/* mov x30, x1 */
static const uint32_t bad_pop[] = { 0x910043ff, 0xd65f03c0 };	/* add sp, sp, #16 at entry */
static const uint32_t bad_fp[] = {
	0xa9bf7bfd,	/* stp x29, x30, [sp, #-16]! */
	0x910003fd,	/* mov x29, sp */
	0xcb2063ff,	/* sub sp, sp, x0 */
	0xaa0003fd,	/* mov x29, x0: neither sp nor fp locates the CFA */
	0xd65f03c0,
};
static const uint32_t bad_ldfp[] = {
	0xa9bf7bfd,	/* stp x29, x30, [sp, #-16]! */
	0x910003fd,	/* mov x29, sp */
	0xcb2063ff,	/* sub sp, sp, x0 */
	0xf940001d,	/* ldr x29, [x0] */
	0xd65f03c0,
};

static void test_fail(void)
{
	FAIL("sub sp,sp,x0 without a frame pointer", bad_sub, 4);
	FAIL("and sp without a frame pointer", bad_and, 4);
	FAIL("st1 post-index on sp", bad_st1, 4);
	FAIL("addvl sp (SVE)", bad_addvl, 4);
	FAIL("bl in a function that never saved x30", bad_bl, 4);
	FAIL("mov x30,x1 unsaved", bad_mov30, 4);
	FAIL("sp above the CFA", bad_pop, 4);
	FAIL("mov x29,x0 while sp is unknown", bad_fp, 16);
	FAIL("ldr x29,[x0] while sp is unknown", bad_ldfp, 16);
	FAIL("sub sp,sp,x0 after bl: x0 is the result", bad_res, 16);
	FAIL("movk on an unknown register", bad_movk, 12);
	FAIL("add of an unknown register", bad_addreg, 12);
	FAIL("big: pc past the end", big, 0x30);
	FAIL("big2: pc inside an instruction", big2, 0x1a);
}

#define CALL(name, w, want) \
	tap_is_i64(cr_aarch64_call_before(code(w, CR_ARRAY_SIZE(w)), 4 * CR_ARRAY_SIZE(w)), want, \
		   name)

static void test_call_before(void)
{
	static const uint32_t bl[] = { 0xd503201f, 0x94000010 };	/* nop; bl */
	static const uint32_t blr[] = { 0xd63f0100 };			/* blr x8 */
	static const uint32_t blraaz[] = { 0xd63f091f };		/* blraaz x8 */
	static const uint32_t blraa[] = { 0xd73f0909 };			/* blraa x8, x9 */
	static const uint32_t br[] = { 0xd61f0100 };			/* br x8 */
	static const uint32_t after[] = { 0x94000010, 0xd503201f };	/* bl; nop */

	CALL("call_before: bl", bl, 1);
	CALL("call_before: blr x8", blr, 1);
	CALL("call_before: blraaz x8", blraaz, 1);
	CALL("call_before: blraa x8, x9", blraa, 1);
	CALL("call_before: br x8 is no call", br, 0);
	CALL("call_before: bl not last", after, 0);
	tap_is_i64(cr_aarch64_call_before(code(bl, 2), 6), 0, "call_before: pc not aligned");
	tap_is_i64(cr_aarch64_call_before(code(bl, 2), 2), 0, "call_before: truncated");
}

/* The calls of an aarch64 `as` listing at their addresses: code ends at ret. */
static void test_call_target(void)
{
	static const uint32_t w[] = {
		0xd503201f,	/* 0x0: nop */
		0x97ffffff,	/* 0x4: bl 0x0 */
		0x94010002,	/* 0x8: bl 0x40010 */
		0xd63f0100,	/* 0xc: blr x8 */
	};
	uint64_t t = 0;

	tap_ok(cr_aarch64_call_target(code(w, 2), 8, 0x8, &t) == 1 && t == 0,
	       "call_target: bl back to 0");
	tap_ok(cr_aarch64_call_target(code(w, 3), 12, 0xc, &t) == 1 && t == 0x40010,
	       "call_target: bl forward");
	tap_is_i64(cr_aarch64_call_target(code(w, 4), 16, 0x10, &t), 0,
		   "call_target: blr is indirect: none");
	tap_is_i64(cr_aarch64_call_target(code(w, 2), 6, 0x6, &t), 0, "call_target: not aligned");
}

static void test_apply(void)
{
	uint64_t stack[32] = { 0 };
	const uint64_t base = 0x7ffff000;	/* stack[i] at base + 8 * i */
	struct cr_regs in = { .valid = 0 }, out;

	/* f1 at the return address 0x1c: x29 = sp = base + 0x40, CFA = base + 0x70. */
	stack[8] = base + 0xa0;			/* CFA - 48: caller's x29 */
	stack[9] = 0x002b000000401234ull;	/* CFA - 40: x30, signed by paciasp */
	stack[10] = 0x1919;			/* CFA - 32: x19 */
	cr_reg_set(&in, SP, base + 0x40);
	cr_reg_set(&in, FP, base + 0x40);
	cr_reg_set(&in, LR, 0x400000);
	cr_reg_set(&in, X19, 0xdead);
	sc_apply("f1 apply at 0x1c", code(f1, CR_ARRAY_SIZE(f1)), sizeof(f1), 0x1c, 0, stack,
		 sizeof(stack), base, &in, 0x401234, base + 0x70, &out);
	tap_is_u64(out.r[FP], base + 0xa0, "f1 apply: caller x29");
	tap_is_u64(out.r[X19], 0x1919, "f1 apply: caller x19");

	/* A leaf at its ret: the caller's pc is x30, sp unchanged. */
	sc_apply("leaf apply", code(leaf, CR_ARRAY_SIZE(leaf)), sizeof(leaf), 4, 1, stack,
		 sizeof(stack), base, &in, 0x400000, base + 0x40, &out);

	/* The fp engine's row: frame record {x29, x30} at [x29]. */
	{
		struct cr_mem m;
		int ret;

		cr_mem_buffer(&m, base, stack, sizeof(stack));
		cr_reg_set(&in, FP, base + 0x40);	/* record at stack[8..9] */
		ret = cr_row_apply(sc_arch->fp_row, &m, sc_arch, &in, &out);
		tap_is_i64(ret, 0, "fp_row apply");
		tap_is_u64(out.pc, 0x401234, "fp_row: caller pc (PAC stripped)");
		tap_is_u64(out.r[SP], base + 0x50, "fp_row: caller sp = x29 + 16");
		tap_is_u64(out.r[FP], base + 0xa0, "fp_row: caller x29");
	}
}

static void test_desc(void)
{
	const struct cr_arch *a = &cr_arch_aarch64;
	unsigned n;

	tap_is_str(a->name, "aarch64", "desc name");
	tap_is_u64(a->nregs, 32, "desc nregs");
	tap_is_u64(a->sp, 31, "desc sp");
	tap_is_u64(a->fp, 29, "desc fp");
	tap_is_u64(a->ra, 30, "desc ra");
	tap_is_u64(a->ra_sign_state, 34, "desc ra_sign_state: RA_SIGN_STATE");
	tap_is_u64(a->ra_in_reg, 1, "desc ra_in_reg");
	tap_is_str(a->regname[0], "x0", "desc regname 0");
	tap_is_str(a->regname[29], "x29", "desc regname 29");
	tap_is_str(a->regname[31], "sp", "desc regname 31");
	for (n = 0; n < 40 && a->dump_order[n] != 0xff; n++)
		;
	tap_is_u64(n, 32, "desc dump_order: 32 registers");
	tap_ok(a->scan == cr_aarch64_scan, "desc scan");
	tap_is_u64(a->strip_ra(0x002b000000401234ull), 0x401234, "strip_ra: PAC bits 54:48");
	tap_is_u64(a->strip_ra(0xff2b000000401234ull), 0x401234, "strip_ra: tag byte too");
	tap_is_u64(a->strip_ra(0x0000ffffdeadbeefull), 0x0000ffffdeadbeefull,
		   "strip_ra: plain user address unchanged");
	tap_is_u64(a->strip_ra(0x00bf800008001234ull), 0xffff800008001234ull,
		   "strip_ra: kernel half (bit 55) gets ones");
}

/* The frame record's prologue found backward from a pc (cr_aarch64_record_start). */
static void test_record_start(void)
{
	/* ret; paciasp; stp x29, x30, [sp, #-128]!; mov x29, sp; stp x19, x20, [sp, #16]; nop */
	static const uint32_t f[] = { 0xd65f03c0, 0xd503233f, 0xa9b87bfd, 0x910003fd,
				      0xa90153f3, 0xd503201f };
	/* stp x29, x30, [sp, #-16]!; ret; nop */
	static const uint32_t past_ret[] = { 0xa9bf7bfd, 0xd65f03c0, 0xd503201f };
	/* stp x29, x30, [sp, #-16]!; retaa; nop */
	static const uint32_t past_retaa[] = { 0xa9bf7bfd, 0xd65f0bff, 0xd503201f };
	/* sub sp, sp, #32; stp x29, x30, [sp]; stp x29, x30, [sp, #16]!  (a positive offset) */
	static const uint32_t other[] = { 0xd10083ff, 0xa9007bfd, 0xa9817bfd, 0xd503201f };
	/* stp x29, x30, [sp, #-16]! ; stp x19, x30, [sp, #-16]!; stp x29, x30, [x1, #-16]! */
	static const uint32_t regs[] = { 0xa9bf7bfd, 0xa9bf7bf3, 0xa9bf783d, 0xd503201f };

	tap_is_i64(cr_aarch64_record_start(code(f, 6), 24), 8, "record_start: the stp, 4 words back");
	tap_is_i64(cr_aarch64_record_start(code(f, 6), 8), -1, "record_start: before it: none");
	tap_is_i64(cr_aarch64_record_start(code(f, 6), 12), 8, "record_start: just after it");
	tap_is_i64(cr_aarch64_record_start(code(past_ret, 3), 12), -1,
		   "record_start: not past a ret");
	tap_is_i64(cr_aarch64_record_start(code(past_retaa, 3), 12), -1,
		   "record_start: not past a retaa");
	tap_is_i64(cr_aarch64_record_start(code(other, 4), 16), -1,
		   "record_start: stp without writeback, or with a positive offset: none");
	tap_is_i64(cr_aarch64_record_start(code(regs, 4), 16), 0,
		   "record_start: only x29, x30 at [sp]: the first word");
	tap_is_i64(cr_aarch64_record_start(code(f, 6), 22), -1, "record_start: pc not aligned");
}

int main(void)
{
	sc_arch = &cr_arch_aarch64;
	test_record_start();
	test_f1();
	test_f2();
	test_f3();
	test_big();
	test_early();
	test_fail();
	test_call_before();
	test_call_target();
	test_apply();
	test_desc();
	return tap_done();
}
