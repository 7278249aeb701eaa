/* SPDX-License-Identifier: MIT */
/*
 * The loongarch64 prologue decoder and description.  Instruction words were
 * assembled once with llvm-mc-19 --triple=loongarch64 -mattr=+d,+lsx; the
 * assembly is beside each word.
 */
#include "scan-check.h"

enum { RA = 1, SP = 3, FP = 22, S0 = 23, S1 = 24 };

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

/* GCC -O2 with a frame pointer. */
static const uint32_t f1[] = {
	0x02ff8063,	/* 00 addi.d $sp, $sp, -32 */
	0x29c06061,	/* 04 st.d $ra, $sp, 24 */
	0x29c04076,	/* 08 st.d $fp, $sp, 16 */
	0x29c02077,	/* 0c st.d $s0, $sp, 8 */
	0x02c08076,	/* 10 addi.d $fp, $sp, 32 */
	0x00150097,	/* 14 move $s0, $a0 */
	0x54000000,	/* 18 bl 0 */
	0x28c06061,	/* 1c ld.d $ra, $sp, 24 */
	0x28c04076,	/* 20 ld.d $fp, $sp, 16 */
	0x28c02077,	/* 24 ld.d $s0, $sp, 8 */
	0x02c08063,	/* 28 addi.d $sp, $sp, 32 */
	0x4c000020,	/* 2c ret */
	0x03400000,	/* 30 nop (reached by a branch from the body) */
};

static void test_f1(void)
{
	const int64_t *all = SAVES(RA, -8, FP, -16, S0, -24);

	ROW("f1 pc 00 entry: CFA = sp, ra in $ra", f1, 0x00, 1, SP, 0, NOSAVES);
	ROW("f1 pc 04 addi.d $sp,-32", f1, 0x04, 1, SP, 32, NOSAVES);
	ROW("f1 pc 08 st.d $ra", f1, 0x08, 1, SP, 32, SAVES(RA, -8));
	ROW("f1 pc 0c st.d $fp", f1, 0x0c, 1, SP, 32, SAVES(RA, -8, FP, -16));
	ROW("f1 pc 10 st.d $s0", f1, 0x10, 1, SP, 32, all);
	ROW("f1 pc 14 addi.d $fp,$sp,32", f1, 0x14, 1, FP, 0, all);
	ROW("f1 pc 18 body", f1, 0x18, 1, FP, 0, all);
	ROW("f1 pc 1c return address", f1, 0x1c, 0, FP, 0, all);
	ROW("f1 pc 20 ld.d $ra", f1, 0x20, 1, FP, 0, SAVES(FP, -16, S0, -24));
	ROW("f1 pc 24 ld.d $fp: back to sp", f1, 0x24, 1, SP, 32, SAVES(S0, -24));
	ROW("f1 pc 28 ld.d $s0", f1, 0x28, 1, SP, 32, NOSAVES);
	ROW("f1 pc 2c at ret", f1, 0x2c, 1, SP, 0, NOSAVES);
	ROW("f1 pc 30 after ret: body state", f1, 0x30, 1, FP, 0, all);
	FAIL("f1 pc not a multiple of 4", f1, 0x06);
	FAIL("f1 pc past the end", f1, 0x38);
}

/* A large frame: lu12i.w/ori into $t0, sub.d/add.d; stptr.d for the far slot. */
static const uint32_t f2[] = {
	0x1400002c,	/* 00 lu12i.w $t0, 1 */
	0x0380418c,	/* 04 ori $t0, $t0, 16 */
	0x0011b063,	/* 08 sub.d $sp, $sp, $t0 */
	0x27100861,	/* 0c stptr.d $ra, $sp, 4104 */
	0x00150076,	/* 10 move $fp, $sp */
	0x4c0001a1,	/* 14 jirl $ra, $t1, 0 */
	0x001502c3,	/* 18 move $sp, $fp */
	0x26100861,	/* 1c ldptr.d $ra, $sp, 4104 */
	0x0010b063,	/* 20 add.d $sp, $sp, $t0 */
	0x4c0001a0,	/* 24 jr $t1 (tail call) */
};

static void test_f2(void)
{
	ROW("f2 pc 08 constant in $t0", f2, 0x08, 1, SP, 0, NOSAVES);
	ROW("f2 pc 0c sub.d $sp,$sp,$t0 (4112)", f2, 0x0c, 1, SP, 4112, NOSAVES);
	ROW("f2 pc 10 stptr.d $ra,$sp,4104", f2, 0x10, 1, SP, 4112, SAVES(RA, -8));
	ROW("f2 pc 14 move $fp,$sp", f2, 0x14, 1, FP, 4112, SAVES(RA, -8));
	ROW("f2 pc 18 return address", f2, 0x18, 0, FP, 4112, SAVES(RA, -8));
	ROW("f2 pc 1c move $sp,$fp", f2, 0x1c, 1, FP, 4112, SAVES(RA, -8));
	ROW("f2 pc 20 ldptr.d $ra", f2, 0x20, 1, FP, 4112, NOSAVES);
	ROW("f2 pc 24 add.d: at the tail call", f2, 0x24, 1, FP, 4112, NOSAVES);
}

/* No frame pointer kept at the end: $fp restored before $sp. */
static const uint32_t f3[] = {
	0x02ffc063,	/* 00 addi.d $sp, $sp, -16 */
	0x29c02061,	/* 04 st.d $ra, $sp, 8 */
	0x29c00076,	/* 08 st.d $fp, $sp, 0 */
	0x02c04076,	/* 0c addi.d $fp, $sp, 16 */
	0x0011b063,	/* 10 sub.d $sp, $sp, $t0 ($t0 unknown: alloca) */
	0x29ffa2d8,	/* 14 st.d $s1, $fp, -24 */
	0x54000000,	/* 18 bl 0 */
	0x02ffc2c3,	/* 1c addi.d $sp, $fp, -16 */
	0x28c02061,	/* 20 ld.d $ra, $sp, 8 */
	0x28c00076,	/* 24 ld.d $fp, $sp, 0 */
	0x02c04063,	/* 28 addi.d $sp, $sp, 16 */
	0x4c000020,	/* 2c ret */
};

static void test_f3(void)
{
	const int64_t *rec = SAVES(RA, -8, FP, -16);

	ROW("f3 pc 10 addi.d $fp,$sp,16", f3, 0x10, 1, FP, 0, rec);
	ROW("f3 pc 14 alloca with $fp", f3, 0x14, 1, FP, 0, rec);
	ROW("f3 pc 18 st.d $s1,$fp,-24", f3, 0x18, 1, FP, 0, SAVES(RA, -8, FP, -16, S1, -24));
	ROW("f3 pc 1c return address", f3, 0x1c, 0, FP, 0, SAVES(RA, -8, FP, -16, S1, -24));
	ROW("f3 pc 20 addi.d $sp,$fp,-16", f3, 0x20, 1, FP, 0, SAVES(RA, -8, FP, -16, S1, -24));
	ROW("f3 pc 28 ld.d $fp: sp known again", f3, 0x28, 1, SP, 16, SAVES(S1, -24));
	ROW("f3 pc 2c at ret", f3, 0x2c, 1, SP, 0, SAVES(S1, -24));
}

/* Instructions whose rd field is not an integer register, and stores: no effect. */
static const uint32_t others[] = {
	0x01010403,	/* 00 fadd.d $fa3, $fa0, $fa1 */
	0x700b8403,	/* 04 vadd.d $vr3, $vr0, $vr1 */
	0x2b802063,	/* 08 fld.d $fa3, $sp, 8 */
	0x29801064,	/* 0c st.w $a0, $sp, 4 */
	0x40000880,	/* 10 beqz $a0, 8 */
	0x03400000,	/* 14 nop */
	0x4c000020,	/* 18 ret */
};
static const uint32_t bad_movfr[] = { 0x0114b803, 0x4c000020 };	/* movfr2gr.d $sp, $fa0 */
static const uint32_t bad_ldw[] = { 0x28800083, 0x4c000020 };	/* ld.w $sp, $a0, 0 */
static const uint32_t bad_csr[] = { 0x04000003, 0x4c000020 };	/* csrrd $sp, 0 */
static const uint32_t bad_bl[] = { 0x54000000, 0x4c000020 };	/* bl: $ra unsaved */
static const uint32_t bad_sub[] = { 0x0011b063, 0x4c000020 };	/* sub.d $sp,$sp,$t0: $t0? */
static const uint32_t bad_pop[] = { 0x02c04063, 0x4c000020 };	/* addi.d $sp,$sp,16 first */
static const uint32_t li64[] = {
	0x02a0000c,	/* 00 addi.w $t0, $zero, -2048 */
	0x1600002c,	/* 04 lu32i.d $t0, 1: t0 = 0x1_ffff_f800 */
	0x0010b063,	/* 08 add.d $sp, $sp, $t0 */
};
static const uint32_t ok_neg[] = {
	0x02a0000c,	/* 00 addi.w $t0, $zero, -2048 */
	0x0010b063,	/* 04 add.d $sp, $sp, $t0 */
	0x4c000020,	/* 08 ret */
};

static void test_other(void)
{
	ROW("fadd/vadd/fld/st.w/beqz/nop: no effect", others, 0x18, 1, SP, 0, NOSAVES);
	FAIL("movfr2gr.d into $sp", bad_movfr, 4);
	FAIL("ld.w into $sp", bad_ldw, 4);
	FAIL("csrrd into $sp", bad_csr, 4);
	FAIL("bl without saving $ra", bad_bl, 4);
	FAIL("sub.d with an unknown register", bad_sub, 4);
	FAIL("sp above the CFA", bad_pop, 4);
	FAIL("lu32i.d constant: sp above the CFA", li64, 12);
	ROW("addi.w constant, add.d $sp", ok_neg, 0x08, 1, SP, 2048, NOSAVES);
}

/* Constants over a call: $a0 is the callee's result, $t4 (r16, not used by PLT entries) kept. */
static const uint32_t calls[] = {
	0x02ffc063,	/* 00 addi.d $sp, $sp, -16 */
	0x29c02061,	/* 04 st.d $ra, $sp, 8 */
	0x03804004,	/* 08 ori $a0, $zero, 16 */
	0x03810010,	/* 0c ori $t4, $zero, 64 */
	0x54000000,	/* 10 bl 0 */
	0x0011c063,	/* 14 sub.d $sp, $sp, $t4 */
	0x00119063,	/* 18 sub.d $sp, $sp, $a0: $a0 unknown */
	0x4c000020,	/* 1c ret */
};

static void test_calls(void)
{
	ROW("calls pc 14 return address", calls, 0x14, 0, SP, 16, SAVES(RA, -8));
	ROW("calls pc 18 sub.d $sp,$sp,$t4 ($t4 kept)", calls, 0x18, 1, SP, 80, SAVES(RA, -8));
	FAIL("calls pc 1c sub.d $sp,$sp,$a0 after the call", calls, 0x1c);
}

/* A shrink-wrapped early exit after the epilogue: beqz and b targets. */
static const uint32_t early[] = {
	0x40002480,	/* 00 beqz $a0, 24 */
	0x02ffc063,	/* 04 addi.d $sp, $sp, -16 */
	0x29c02061,	/* 08 st.d $ra, $sp, 8 */
	0x54001000,	/* 0c bl 1c */
	0x28c02061,	/* 10 ld.d $ra, $sp, 8 */
	0x02c04063,	/* 14 addi.d $sp, $sp, 16 */
	0x4c000020,	/* 18 ret */
	0x54000000,	/* 1c bl 1c (reached from the body) */
	0x53ffffff,	/* 20 b 1c */
	0x4c000020,	/* 24 ret: the state of the beqz, frameless */
	0x58000880,	/* 28 beq $a0, $zero, 30 */
	0x50000400,	/* 2c b 30 */
	0x4c000020,	/* 30 ret */
};

static void test_early(void)
{
	ROW("early pc 10 return address", early, 0x10, 0, SP, 16, SAVES(RA, -8));
	ROW("early pc 1c after ret: body state", early, 0x1c, 1, SP, 16, SAVES(RA, -8));
	ROW("early pc 24 target of the beqz: frameless", early, 0x24, 1, SP, 0, NOSAVES);
	ROW("early pc 30 target of beq and b", early, 0x30, 1, SP, 0, NOSAVES);
}

#define CALL(name, w, want) \
	tap_is_i64(cr_loongarch64_call_before(code(w, CR_ARRAY_SIZE(w)), 4 * CR_ARRAY_SIZE(w)), \
		   want, name)

static void test_call_before(void)
{
	static const uint32_t bl[] = { 0x03400000, 0x54000000 };	/* nop; bl 0 */
	static const uint32_t jirl[] = { 0x4c000181 };			/* jirl $ra, $t0, 0 */
	static const uint32_t ret[] = { 0x4c000020 };			/* jirl $zero, $ra, 0 */
	static const uint32_t b[] = { 0x50000000 };			/* b 0 */

	CALL("call_before: bl", bl, 1);
	CALL("call_before: jirl $ra", jirl, 1);
	CALL("call_before: ret is no call", ret, 0);
	CALL("call_before: b is no call", b, 0);
	tap_is_i64(cr_loongarch64_call_before(code(bl, 2), 6), 0, "call_before: pc not aligned");
	tap_is_i64(cr_loongarch64_call_before(code(bl, 2), 3), 0, "call_before: truncated");
}

/* The calls of a loongarch64 listing (clang's assembler) at their addresses. */
static void test_call_target(void)
{
	static const uint32_t w[] = {
		0x03400000,	/* 0x0: nop */
		0x57ffffff,	/* 0x4: bl -4 (0x0) */
		0x56345404,	/* 0x8: bl 0x12345c */
		0x4c000181,	/* 0xc: jirl $ra, $t0, 0 */
	};
	uint64_t t = 0;

	tap_ok(cr_loongarch64_call_target(code(w, 2), 8, 0x8, &t) == 1 && t == 0,
	       "call_target: bl back to 0");
	tap_ok(cr_loongarch64_call_target(code(w, 3), 12, 0xc, &t) == 1 && t == 0x12345c,
	       "call_target: bl forward, both halves of offs26");
	tap_is_i64(cr_loongarch64_call_target(code(w, 4), 16, 0x10, &t), 0,
		   "call_target: jirl is indirect: none");
}

static void test_apply(void)
{
	uint64_t stack[32] = { 0 };
	const uint64_t base = 0x7ffff000;
	struct cr_regs in = { .valid = 0 }, out;

	/* f1 at 0x1c: $fp = CFA = base + 0x80, $sp = base + 0x60. */
	stack[15] = 0x120000abc;	/* CFA - 8: $ra */
	stack[14] = base + 0xc0;	/* CFA - 16: caller's $fp */
	stack[13] = 0x2323;		/* CFA - 24: $s0 */
	cr_reg_set(&in, SP, base + 0x60);
	cr_reg_set(&in, FP, base + 0x80);
	cr_reg_set(&in, RA, 0x120000000);
	cr_reg_set(&in, S0, 0xdead);
	sc_apply("f1 apply at 0x1c", code(f1, CR_ARRAY_SIZE(f1)), sizeof(f1), 0x1c, 0, stack,
		 sizeof(stack), base, &in, 0x120000abc, base + 0x80, &out);
	tap_is_u64(out.r[FP], base + 0xc0, "f1 apply: caller $fp");
	tap_is_u64(out.r[S0], 0x2323, "f1 apply: caller $s0");
	sc_apply("entry apply: ra in $ra", code(f1, CR_ARRAY_SIZE(f1)), sizeof(f1), 0, 1, stack,
		 sizeof(stack), base, &in, 0x120000000, base + 0x60, &out);
	{
		struct cr_mem m;

		cr_mem_buffer(&m, base, stack, sizeof(stack));
		tap_is_i64(cr_row_apply(sc_arch->fp_row, &m, sc_arch, &in, &out), 0,
			   "fp_row apply");
		tap_is_u64(out.pc, 0x120000abc, "fp_row: caller pc from fp - 8");
		tap_is_u64(out.r[SP], base + 0x80, "fp_row: caller sp = fp");
		tap_is_u64(out.r[FP], base + 0xc0, "fp_row: caller $fp from fp - 16");
	}
}

static void test_desc(void)
{
	const struct cr_arch *a = &cr_arch_loongarch64;
	unsigned n;

	tap_is_str(a->name, "loongarch64", "desc name");
	tap_is_u64(a->nregs, 32, "desc nregs");
	tap_is_u64(a->sp, 3, "desc sp");
	tap_is_u64(a->fp, 22, "desc fp");
	tap_is_u64(a->ra, 1, "desc ra");
	tap_is_u64(a->ra_in_reg, 1, "desc ra_in_reg");
	tap_is_str(a->regname[1], "ra", "desc regname 1");
	tap_is_str(a->regname[3], "sp", "desc regname 3");
	tap_is_str(a->regname[4], "a0", "desc regname 4");
	tap_is_str(a->regname[21], "u0", "desc regname 21");
	tap_is_str(a->regname[22], "fp", "desc regname 22");
	tap_is_str(a->regname[23], "s0", "desc regname 23");
	tap_is_str(a->regname[31], "s8", "desc regname 31");
	for (n = 0; n < 40 && a->dump_order[n] != 0xff; n++)
		;
	tap_is_u64(n, 31, "desc dump_order: r1-r31");
	tap_ok(a->scan == cr_loongarch64_scan && a->strip_ra == NULL, "desc scan, no strip_ra");
}

int main(void)
{
	sc_arch = &cr_arch_loongarch64;
	test_f1();
	test_f2();
	test_f3();
	test_other();
	test_calls();
	test_early();
	test_call_before();
	test_call_target();
	test_apply();
	test_desc();
	return tap_done();
}
