/* SPDX-License-Identifier: MIT */
/* cfa.c: every DW_CFA_* instruction, a truncated twin for each, and GCC-shaped programs. */
#include <link.h>

#include "../tap.h"
#include "cfi/cache.h"
#include "cfi/cfi.h"
#include "faultmem.h"
#include "testarch.h"

/* Any name: the arch's ra_sign_state says where the state is. */
static const struct cr_arch test_sign33 = {
	.name = "other", .nregs = 34, .sp = 31, .fp = 29, .ra = 30, .ra_in_reg = 1,
	.ra_sign_state = 33,
};

#define IMG 0x5000ull	/* CIE instructions at IMG, FDE instructions at IMG + FI */
#define FI 0x80
#define LO 0x1000ull
#define HI 0x2000ull

static uint8_t img[0x200];
static struct cr_mem mem;
static struct cr_fde fde;
static struct cr_row row;
static const struct cr_arch *arch = &test_x86;
static unsigned long *fail_ptr;

/* The GCC x86_64 CIE program: DW_CFA_def_cfa rsp 8; DW_CFA_offset rip, 1. */
static const uint8_t std_cie[] = { 0x0c, 0x07, 0x08, 0x90, 0x01 };

static void setup(const uint8_t *cie, size_t cn, const uint8_t *f, size_t fn)
{
	memset(img, 0, sizeof(img));
	if (cn)
		memcpy(img, cie, cn);
	if (fn)
		memcpy(img + FI, f, fn);
	cr_mem_buffer(&mem, IMG, img, sizeof(img));
	if (fail_ptr) {
		static struct faultmem fm;
		static struct cr_mem under;

		under = mem;
		mem = *faultmem_init(&fm, &under, fail_ptr);
	}
	memset(&fde, 0, sizeof(fde));
	fde.pc_lo = LO;
	fde.pc_hi = HI;
	fde.insns = IMG + FI;
	fde.insns_end = IMG + FI + fn;
	fde.cie.code_align = 1;
	fde.cie.data_align = -8;
	fde.cie.ra = 16;
	fde.cie.version = 1;
	fde.cie.fde_enc = DW_EH_PE_udata4;
	fde.cie.lsda_enc = DW_EH_PE_omit;
	fde.cie.insns = IMG;
	fde.cie.insns_end = IMG + cn;
}

/* Run with the FDE program f (std CIE) at pc; row poisoned first. */
static int runf(const uint8_t *f, size_t fn, uint64_t pc)
{
	setup(std_cie, sizeof(std_cie), f, fn);
	memset(&row, 0xa5, sizeof(row));
	return cr_cfa_run(&mem, arch, &fde, pc, &row);
}

static int rerun(uint64_t pc)
{
	memset(&row, 0xa5, sizeof(row));
	return cr_cfa_run(&mem, arch, &fde, pc, &row);
}

static int rule(unsigned reg, unsigned kind, int64_t off)
{
	return row.reg[reg].kind == kind && row.reg[reg].off == off;
}

static int cfa_is(unsigned reg, int64_t off)
{
	return row.cfa.kind == CR_REG && row.cfa.reg == reg && row.cfa.off == off;
}

static int poisoned(void)
{
	const uint8_t *p = (const uint8_t *)&row;

	for (size_t i = 0; i < sizeof(row); i++)
		if (p[i] != 0xa5)
			return 0;
	return 1;
}

#define B(...) ((const uint8_t[]){ __VA_ARGS__ }), sizeof((const uint8_t[]){ __VA_ARGS__ })

/* Expect failure err and an untouched row. */
#define FAILS(err, name, ...)                                                              \
	do {                                                                               \
		int e_ = runf(B(__VA_ARGS__), LO + 0x100);                                 \
		if (!tap_ok(e_ == (err) && poisoned(), name))                              \
			printf("#   ret %d\n", e_);                                            \
	} while (0)

enum { EI = -CR_EINVAL, ER = -CR_ERANGE, EF = -CR_EFAULT };

static void t_cie_only(void)
{
	int ret = runf(NULL, 0, LO);
	int others = 1;

	tap_ok(ret == 0 && cfa_is(7, 8), "CIE: CFA = rsp + 8");
	tap_ok(rule(16, CR_OFFSET, -8), "CIE: rip at CFA - 8");
	for (unsigned r = 0; r < CR_NREGS; r++)
		if (r != 16)
			others &= rule(r, CR_SAME, 0);
	tap_ok(others, "CIE: every other register same_value");
	tap_ok(row.ra == 16 && row.signal == 0, "row ra from the CIE, no signal");
	fde.cie.ra = 30;
	fde.cie.signal = 1;
	tap_ok(rerun(LO) == 0 && row.ra == 30 && row.signal == 1, "row ra and 'S' from the CIE");
	tap_is_i64(rerun(LO - 1), -CR_ENOINFO, "pc below the FDE: -CR_ENOINFO");
	tap_is_i64(rerun(HI), -CR_ENOINFO, "pc at pc_hi: -CR_ENOINFO");
	tap_ok(poisoned(), "no output on failure");
	tap_ok(rerun(HI - 1) == 0, "pc at pc_hi - 1");
}

static void t_advance(void)
{
	/* advance_loc 1; def_cfa_offset 16 */
	tap_ok(runf(B(0x41, 0x0e, 0x10), LO) == 0 && cfa_is(7, 8), "advance_loc: before");
	tap_ok(rerun(LO + 1) == 0 && cfa_is(7, 16), "advance_loc: at the new location");
	tap_ok(rerun(LO + 0x50) == 0 && cfa_is(7, 16), "advance_loc: after");
	fde.cie.code_align = 4;
	tap_ok(rerun(LO + 3) == 0 && cfa_is(7, 8), "code_align 4: advance_loc 1 is 4 bytes");
	tap_ok(rerun(LO + 4) == 0 && cfa_is(7, 16), "code_align 4: at +4");

	tap_ok(runf(B(0x02, 0x10, 0x0e, 0x18), LO + 0x0f) == 0 && cfa_is(7, 8),
	       "advance_loc1: before");
	tap_ok(rerun(LO + 0x10) == 0 && cfa_is(7, 24), "advance_loc1: at");
	FAILS(EI, "advance_loc1 truncated", 0x02);
	tap_ok(runf(B(0x03, 0x00, 0x01, 0x0e, 0x18), LO + 0xff) == 0 && cfa_is(7, 8),
	       "advance_loc2: before");
	tap_ok(rerun(LO + 0x100) == 0 && cfa_is(7, 24), "advance_loc2: at");
	FAILS(EI, "advance_loc2 truncated", 0x03, 0x00);
	tap_ok(runf(B(0x04, 0x00, 0x08, 0x00, 0x00, 0x0e, 0x18), LO + 0x7ff) == 0 && cfa_is(7, 8),
	       "advance_loc4: before");
	tap_ok(rerun(LO + 0x800) == 0 && cfa_is(7, 24), "advance_loc4: at");
	FAILS(EI, "advance_loc4 truncated", 0x04, 0x00, 0x08, 0x00);
	/* An advance that would wrap the address space passes any pc. */
	tap_ok(runf(B(0x04, 0xff, 0xff, 0xff, 0xff, 0x0e, 0x18), HI - 1) == 0 && cfa_is(7, 8),
	       "huge advance stops");
	fde.cie.code_align = ~0ull;
	tap_ok(rerun(HI - 1) == 0 && cfa_is(7, 8), "advance * code_align overflow stops");

	/* set_loc, in the CIE's FDE encoding. */
	tap_ok(runf(B(0x01, 0x00, 0x12, 0x00, 0x00, 0x0e, 0x20), LO + 0x1ff) == 0 && cfa_is(7, 8),
	       "set_loc udata4: before");
	tap_ok(rerun(LO + 0x200) == 0 && cfa_is(7, 32), "set_loc udata4: at");
	FAILS(EI, "set_loc truncated", 0x01, 0x00, 0x12, 0x00);
	/* pcrel|sdata4: relative to the operand at IMG + FI + 1. */
	setup(std_cie, sizeof(std_cie), B(0x01, 0, 0, 0, 0, 0x0e, 0x20));
	fde.cie.fde_enc = DW_EH_PE_pcrel | DW_EH_PE_sdata4;
	memcpy(img + FI + 1, &(int32_t){ (int32_t)(LO + 0x10 - (IMG + FI + 1)) }, 4);
	tap_ok(rerun(LO + 0xf) == 0 && cfa_is(7, 8), "set_loc pcrel|sdata4: before");
	tap_ok(rerun(LO + 0x10) == 0 && cfa_is(7, 32), "set_loc pcrel|sdata4: at");
	fde.cie.fde_enc = DW_EH_PE_datarel | DW_EH_PE_sdata4;
	tap_is_i64(rerun(LO + 0x10), EI, "set_loc datarel without a base: -CR_EINVAL");
	fde.cie.bases.data = LO;
	memcpy(img + FI + 1, &(int32_t){ 0x10 }, 4);
	tap_ok(rerun(LO + 0x10) == 0 && cfa_is(7, 32), "set_loc datarel with cie.bases");
}

static void t_register_rules(void)
{
	tap_ok(runf(B(0x86, 0x02), LO) == 0 && rule(6, CR_OFFSET, -16), "offset r6, 2");
	FAILS(EI, "offset truncated", 0x86);
	/* Column 40 is not tracked: the operand is still consumed. */
	tap_ok(runf(B(0xa8, 0x02, 0x86, 0x03), LO) == 0 && rule(6, CR_OFFSET, -24),
	       "offset of column 40: parsed, ignored");
	tap_ok(runf(B(0x05, 0x06, 0x02), LO) == 0 && rule(6, CR_OFFSET, -16), "offset_extended");
	tap_ok(runf(B(0x05, 0xe4, 0x00, 0x02, 0x86, 0x01), LO) == 0 && rule(6, CR_OFFSET, -8),
	       "offset_extended column 100: ignored");
	FAILS(EI, "offset_extended truncated", 0x05, 0x06);
	tap_ok(runf(B(0x11, 0x06, 0x7e), LO) == 0 && rule(6, CR_OFFSET, 16), "offset_extended_sf");
	FAILS(EI, "offset_extended_sf truncated", 0x11, 0x06);
	tap_ok(runf(B(0x2f, 0x06, 0x02), LO) == 0 && rule(6, CR_OFFSET, 16),
	       "GNU_negative_offset_extended");
	FAILS(EI, "GNU_negative_offset_extended truncated", 0x2f);
	/* 2^60 * -8 wraps to INT64_MIN, and its negation wraps too (found by the
	   EH fuzzer under UBSan: it was a signed negation). */
	tap_ok(runf(B(0x2f, 0x06, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10), LO) == 0 &&
		       rule(6, CR_OFFSET, INT64_MIN),
	       "GNU_negative_offset_extended of INT64_MIN: wraps, no overflow");
	tap_ok(runf(B(0x14, 0x06, 0x02), LO) == 0 && rule(6, CR_VAL_OFFSET, -16), "val_offset");
	FAILS(EI, "val_offset truncated", 0x14, 0x06);
	tap_ok(runf(B(0x15, 0x06, 0x7f), LO) == 0 && rule(6, CR_VAL_OFFSET, 8), "val_offset_sf");
	FAILS(EI, "val_offset_sf truncated", 0x15);
	tap_ok(runf(B(0x07, 0x10), LO) == 0 && rule(16, CR_UNDEF, 0), "undefined rip");
	FAILS(EI, "undefined truncated", 0x07);
	tap_ok(runf(B(0x86, 0x02, 0x08, 0x06), LO) == 0 && rule(6, CR_SAME, 0), "same_value");
	FAILS(EI, "same_value truncated", 0x08);
	tap_ok(runf(B(0x09, 0x03, 0x05), LO) == 0 && row.reg[3].kind == CR_REG &&
		       row.reg[3].reg == 5,
	       "register r3 in r5");
	tap_ok(runf(B(0x09, 0x03, 0xff, 0xff, 0x07), LO) == 0 && row.reg[3].kind == CR_REG &&
		       row.reg[3].reg == 0xffff,
	       "register in an untracked register: clamped");
	FAILS(EI, "register truncated", 0x09, 0x03);

	/* restore / restore_extended: back to the CIE's rule. */
	tap_ok(runf(B(0x90, 0x03, 0x41, 0xd0), LO) == 0 && rule(16, CR_OFFSET, -24),
	       "restore: before");
	tap_ok(rerun(LO + 1) == 0 && rule(16, CR_OFFSET, -8), "restore: the CIE's rule");
	tap_ok(runf(B(0x86, 0x02, 0xc6), LO) == 0 && rule(6, CR_SAME, 0),
	       "restore without a CIE rule: same_value");
	tap_ok(runf(B(0x90, 0x03, 0x06, 0x10), LO) == 0 && rule(16, CR_OFFSET, -8),
	       "restore_extended");
	tap_ok(runf(B(0x06, 0x64, 0x86, 0x01), LO) == 0 && rule(6, CR_OFFSET, -8),
	       "restore_extended column 100: ignored");
	FAILS(EI, "restore_extended truncated", 0x06);
	/* A restore inside the CIE program has no initial rule yet: same_value. */
	setup(B(0x0c, 0x07, 0x08, 0x90, 0x01, 0xd0), NULL, 0);
	tap_ok(rerun(LO) == 0 && rule(16, CR_SAME, 0), "restore inside the CIE: same_value");
}

static void t_cfa_rules(void)
{
	tap_ok(runf(B(0x0c, 0x06, 0x10), LO) == 0 && cfa_is(6, 16), "def_cfa rbp 16");
	FAILS(EI, "def_cfa truncated", 0x0c, 0x06);
	tap_ok(runf(B(0x0d, 0x06), LO) == 0 && cfa_is(6, 8), "def_cfa_register keeps the offset");
	FAILS(EI, "def_cfa_register truncated", 0x0d);
	tap_ok(runf(B(0x0e, 0x20), LO) == 0 && cfa_is(7, 32), "def_cfa_offset");
	FAILS(EI, "def_cfa_offset truncated", 0x0e);
	tap_ok(runf(B(0x12, 0x06, 0x7e), LO) == 0 && cfa_is(6, 16), "def_cfa_sf: factored");
	FAILS(EI, "def_cfa_sf truncated", 0x12, 0x06);
	tap_ok(runf(B(0x13, 0x7c), LO) == 0 && cfa_is(7, 32), "def_cfa_offset_sf: factored");
	FAILS(EI, "def_cfa_offset_sf truncated", 0x13);
	tap_ok(runf(B(0x0c, 0xe4, 0x00, 0x00), LO) == 0 && cfa_is(100, 0),
	       "def_cfa on an untracked register (apply will fail)");

	/* def_cfa_expression: DW_OP_breg7 8 (77 08), kept as address + length. */
	tap_ok(runf(B(0x0f, 0x02, 0x77, 0x08), LO) == 0 && row.cfa.kind == CR_EXPR &&
		       row.cfa.expr == IMG + FI + 2 && row.cfa.len == 2,
	       "def_cfa_expression");
	FAILS(EI, "def_cfa_expression block past the end", 0x0f, 0x03, 0x77, 0x08);
	FAILS(EI, "def_cfa_expression truncated length", 0x0f);
	FAILS(EI, "def_cfa_register on an expression CFA", 0x0f, 0x02, 0x77, 0x08, 0x0d, 0x06);
	FAILS(EI, "def_cfa_offset on an expression CFA", 0x0f, 0x02, 0x77, 0x08, 0x0e, 0x10);
	FAILS(EI, "def_cfa_offset_sf on an expression CFA", 0x0f, 0x02, 0x77, 0x08, 0x13, 0x7e);
	tap_ok(runf(B(0x0f, 0x02, 0x77, 0x08, 0x0c, 0x06, 0x10), LO) == 0 && cfa_is(6, 16),
	       "def_cfa after an expression: back to reg + offset");
	/* No CFA rule at all yet (empty CIE). */
	setup(NULL, 0, B(0x0e, 0x10));
	tap_is_i64(rerun(LO), EI, "def_cfa_offset without a CFA rule: -CR_EINVAL");

	tap_ok(runf(B(0x10, 0x06, 0x02, 0x71, 0x00), LO) == 0 && row.reg[6].kind == CR_EXPR &&
		       row.reg[6].expr == IMG + FI + 3 && row.reg[6].len == 2,
	       "expression r6");
	tap_ok(runf(B(0x10, 0x32, 0x02, 0x71, 0x00, 0x86, 0x01), LO) == 0 &&
		       rule(6, CR_OFFSET, -8),
	       "expression on column 50: block skipped");
	FAILS(EI, "expression block past the end", 0x10, 0x06, 0x05, 0x71, 0x00);
	FAILS(EI, "expression truncated", 0x10, 0x06);
	tap_ok(runf(B(0x16, 0x10, 0x02, 0x77, 0x00), LO) == 0 &&
		       row.reg[16].kind == CR_VAL_EXPR && row.reg[16].expr == IMG + FI + 3 &&
		       row.reg[16].len == 2,
	       "val_expression rip");
	FAILS(EI, "val_expression block past the end", 0x16, 0x10, 0x09);
	FAILS(EI, "val_expression truncated", 0x16);
	tap_ok(runf(B(0x10, 0x06, 0x00), LO) == 0 && row.reg[6].kind == CR_EXPR &&
		       row.reg[6].len == 0,
	       "empty expression block");
}

static void t_state(void)
{
	/* push rbp-like: off 16, r6 at -16; remember; epilogue: cfa 8, restore r6;
	   then restore_state at the next location. */
	static const uint8_t prog[] = { 0x41, 0x0e, 0x10, 0x86, 0x02, 0x0a, 0x41, 0x0e,
					0x08, 0xc6, 0x41, 0x0b };

	tap_ok(runf(prog, sizeof(prog), LO + 1) == 0 && cfa_is(7, 16) && rule(6, CR_OFFSET, -16),
	       "remember_state: before the epilogue");
	tap_ok(rerun(LO + 2) == 0 && cfa_is(7, 8) && rule(6, CR_SAME, 0), "in the epilogue");
	tap_ok(rerun(LO + 3) == 0 && cfa_is(7, 16) && rule(6, CR_OFFSET, -16),
	       "restore_state: CFA and registers back");
	FAILS(EI, "restore_state on an empty stack", 0x0b);
	_Static_assert(CR_CFA_STACK == 4, "the two cases below nest CR_CFA_STACK (+1) deep");
	FAILS(ER, "5 nested remember_state: -CR_ERANGE", 0x0a, 0x0a, 0x0a, 0x0a, 0x0a);
	tap_ok(runf(B(0x0a, 0x0a, 0x0a, 0x0a, 0x0e, 0x30, 0x0b, 0x0b, 0x0b, 0x0b), LO) == 0 &&
		       cfa_is(7, 8),
	       "4 nested remember_state fit");
	/* State remembered in the CIE survives into the FDE. */
	setup(B(0x0c, 0x07, 0x08, 0x0a, 0x0e, 0x10), B(0x0b));
	tap_ok(rerun(LO) == 0 && cfa_is(7, 8), "remember in the CIE, restore in the FDE");
}

static void t_gnu_and_unknown(void)
{
	tap_ok(runf(B(0x2e, 0x80, 0x01, 0x0e, 0x10), LO) == 0 && cfa_is(7, 16),
	       "GNU_args_size: skipped");
	FAILS(EI, "GNU_args_size truncated", 0x2e, 0x80);
	FAILS(EI, "GNU_window_save on x86_64", 0x2d);
	tap_ok(runf(B(0x00, 0x00, 0x0e, 0x10, 0x00), LO) == 0 && cfa_is(7, 16), "nop");
	FAILS(EI, "opcode 0x17", 0x17);
	FAILS(EI, "opcode 0x1c (lo_user)", 0x1c);
	FAILS(EI, "opcode 0x2c", 0x2c);
	FAILS(EI, "opcode 0x3f (hi_user)", 0x3f);

	/* aarch64: negate_ra_state toggles RA_SIGN_STATE (column 34). */
	arch = &test_a64;
	tap_ok(runf(B(0x2d), LO) == 0 && rule(34, CR_VAL_OFFSET, 1), "negate_ra_state: signed");
	tap_ok(runf(B(0x2d, 0x2d), LO) == 0 && rule(34, CR_SAME, 0), "negate twice: unsigned");
	tap_ok(runf(B(0x2d, 0x41, 0x2d), LO) == 0 && rule(34, CR_VAL_OFFSET, 1),
	       "negate_ra_state applies by location: before");
	tap_ok(rerun(LO + 1) == 0 && rule(34, CR_SAME, 0), "negate_ra_state: after the 2nd");
	tap_ok(runf(B(0x2d, 0x0a, 0x2d, 0x0b), LO) == 0 && rule(34, CR_VAL_OFFSET, 1),
	       "negate_ra_state: remember/restore keep it");
	tap_ok(runf(B(0x2d, 0xe2), LO) == 0 && rule(34, CR_SAME, 0),
	       "restore of column 34: the CIE's (unsigned)");
	arch = &test_sign33;
	tap_ok(runf(B(0x2d), LO) == 0 && rule(33, CR_VAL_OFFSET, 1) && rule(34, CR_SAME, 0),
	       "negate_ra_state: the arch's column");
	arch = &test_x86;
}

/* A zero-filled infinite program: DW_CFA_nop forever. */
static int zero_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	(void)m;
	(void)addr;
	memset(dst, 0, len);
	return 0;
}

static void t_bounds(void)
{
	struct cr_mem zeros = { .read = zero_read };
	int ret;

	setup(std_cie, sizeof(std_cie), NULL, 0);
	fde.insns = 0x100000;
	fde.insns_end = fde.insns + 4 * (uint64_t)CR_CFA_MAX_INSNS;
	memset(&row, 0xa5, sizeof(row));
	ret = cr_cfa_run(&zeros, arch, &fde, LO, &row);
	tap_ok(ret == ER && poisoned(), "instruction bound: -CR_ERANGE");
	/* The CIE's 5 bytes read as nops from this memory too. */
	fde.insns_end = fde.insns + CR_CFA_MAX_INSNS - sizeof(std_cie);
	ret = cr_cfa_run(&zeros, arch, &fde, LO, &row);
	tap_ok(ret == 0, "exactly CR_CFA_MAX_INSNS instructions: fine");
	fde.insns_end++;
	tap_is_i64(cr_cfa_run(&zeros, arch, &fde, LO, &row), ER, "one more: -CR_ERANGE");

	setup(std_cie, sizeof(std_cie), B(0x0e, 0x10));
	fde.insns = IMG + sizeof(img) - 1;	/* operand byte past readable memory */
	fde.insns_end = IMG + sizeof(img) + 1;
	memset(&row, 0xa5, sizeof(row));
	img[sizeof(img) - 1] = 0x0e;
	tap_ok(cr_cfa_run(&mem, arch, &fde, LO, &row) == EF && poisoned(),
	       "unreadable instruction bytes: -CR_EFAULT");
	setup(B(0x0c, 0x07), B(0x00));
	tap_ok(rerun(LO) == EI && poisoned(), "truncated CIE program: -CR_EINVAL");
}

/*
 * What GCC emits for a function with a frame pointer and a mid-function
 * return:  push rbp (+1); mov rsp,rbp (+4); ...; at +0x20 a "leave; ret"
 * epilogue wrapped in remember/restore_state; the body continues at +0x22.
 */
static const uint8_t gcc_prog[] = {
	0x41, 0x0e, 0x10, 0x86, 0x02,	/* +1: CFA rsp+16, rbp at CFA-16 */
	0x43, 0x0d, 0x06,		/* +4: CFA rbp+16 */
	0x5c, 0x0a, 0x0c, 0x07, 0x08,	/* +0x20: remember; leave: CFA rsp+8 */
	0x41, 0x0b,			/* +0x21: (after ret) restore_state */
	0x02, 0x40, 0x0c, 0x07, 0x08,	/* +0x61: final leave: CFA rsp+8 */
};

static void t_gcc_shaped(void)
{
	static const struct {
		uint64_t pc;
		unsigned reg;
		int64_t off;
		int rbp_saved;
	} want[] = {
		{ 0x00, 7, 8, 0 }, { 0x01, 7, 16, 1 }, { 0x03, 7, 16, 1 }, { 0x04, 6, 16, 1 },
		{ 0x1f, 6, 16, 1 }, { 0x20, 7, 8, 1 }, { 0x21, 6, 16, 1 }, { 0x60, 6, 16, 1 },
		{ 0x61, 7, 8, 1 }, { 0xfff, 7, 8, 1 },
	};
	char name[80];

	for (size_t i = 0; i < CR_ARRAY_SIZE(want); i++) {
		int ret = runf(gcc_prog, sizeof(gcc_prog), LO + want[i].pc);

		snprintf(name, sizeof(name), "GCC-shaped program at +0x%" PRIx64, want[i].pc);
		tap_ok(ret == 0 && cfa_is(want[i].reg, want[i].off) &&
			       rule(6, want[i].rbp_saved ? CR_OFFSET : CR_SAME,
				    want[i].rbp_saved ? -16 : 0) &&
			       rule(16, CR_OFFSET, -8),
		       name);
	}

	/* Every prefix of the program: a valid shorter program or -CR_EINVAL. */
	unsigned bad = 0;

	for (size_t len = 0; len <= sizeof(gcc_prog); len++) {
		int ret = runf(gcc_prog, len, LO + 0xfff);

		bad += ret != 0 && ret != EI;
		bad += ret == EI && !poisoned();
	}
	tap_is_u64(bad, 0, "every truncation: a row or -CR_EINVAL, nothing partial");
}

/* Reads fail from the fail_from-th on (the cursor retries a failed window
   with fewer bytes, so a single failure is often absorbed). */
static unsigned long fail_from, nread;

static int failing_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	if (++nread >= fail_from)
		return -CR_EFAULT;
	if (addr < m->lo || addr > m->hi || len > m->hi - addr)
		return -CR_EFAULT;
	memcpy(dst, m->buf + (addr - m->lo), len);
	return 0;
}

static void t_faults(void)
{
	unsigned long fail_at;
	unsigned bad = 0, faults = 0, n;
	struct cr_row want;
	int ret;

	tap_ok(runf(gcc_prog, sizeof(gcc_prog), LO + 0x21) == 0, "fault injection: reference");
	want = row;
	/* The Nth read fails. */
	fail_ptr = &fail_at;
	for (n = 1; n < 50; n++) {
		fail_at = n;
		ret = runf(gcc_prog, sizeof(gcc_prog), LO + 0x21);
		if (ret == 0)
			bad += memcmp(&row, &want, sizeof(row)) != 0;
		else if (ret == EF)
			faults += poisoned();
		else
			bad++;
		if (ret == 0 && fail_at)
			break;
	}
	fail_ptr = NULL;
	tap_ok(n < 50, "fail the Nth read: every N until success");
	/* Every read from the Nth on fails. */
	for (n = 1; n < 50; n++) {
		setup(std_cie, sizeof(std_cie), gcc_prog, sizeof(gcc_prog));
		mem.read = failing_read;
		mem.view = NULL;
		fail_from = n;
		nread = 0;
		ret = rerun(LO + 0x21);
		if (ret == 0) {
			bad += memcmp(&row, &want, sizeof(row)) != 0;
			break;
		}
		if (ret == EF && poisoned())
			faults++;
		else
			bad++;
	}
	tap_ok(n < 50 && faults > 0, "fail from the Nth read on: every N until success");
	tap_is_u64(bad, 0, "fault injection: -CR_EFAULT and no row, or the same row");
}

/*
 * The same bytes through the cursor only: a read hook (no view in place), so
 * run_bytes never runs.
 */
static int copy_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	if (addr < m->lo || addr > m->hi || len > m->hi - addr)
		return -CR_EFAULT;
	memcpy(dst, m->buf + (addr - m->lo), len);
	return 0;
}

/*
 * Run at pc in place (mem) and by the cursor: the same result and row, byte
 * for byte; and cr_cfa_run_compact gives what compacting that row gives.
 */
static int both_paths(uint64_t pc)
{
	struct cr_mem cm = mem;
	struct cr_row r2;
	struct cr_crow c1, c2;
	int r1, ret2;

	cm.read = copy_read;
	cm.view = NULL;
	memset(&row, 0xa5, sizeof(row));
	memset(&r2, 0xa5, sizeof(r2));
	r1 = cr_cfa_run(&mem, arch, &fde, pc, &row);
	ret2 = cr_cfa_run(&cm, arch, &fde, pc, &r2);
	if (r1 != ret2 || memcmp(&row, &r2, sizeof(row)) != 0)
		return 0;
	memset(&c1, 0x33, sizeof(c1));
	memset(&c2, 0x33, sizeof(c2));
	r1 = r1 < 0 ? r1 : cr_row_compact(&row, arch, &c1);
	ret2 = cr_cfa_run_compact(&mem, arch, &fde, pc, &c2);
	return r1 == ret2 && (r1 != 0 || memcmp(&c1, &c2, sizeof(c1)) == 0);
}

static void t_paths(void)
{
	/* Programs that leave the in-place loop (run_bytes) for the cursor
	   mid-way and come back to the common instructions. */
	static const struct {
		const char *name;
		uint8_t prog[16];
		size_t len;
	} progs[] = {
		{ "two-byte offset operand", { 0x41, 0x0e, 0x10, 0x86, 0x82, 0x01, 0x41, 0x83, 0x03 }, 9 },
		{ "two-byte def_cfa_offset", { 0x0e, 0x90, 0x01, 0x41, 0x86, 0x02 }, 6 },
		{ "remember, cursor-only, restore",
		  { 0x0a, 0x0e, 0x90, 0x01, 0x86, 0x02, 0x41, 0x0b, 0x41, 0x83, 0x03 }, 11 },
		{ "GCC-shaped", { 0x41, 0x0e, 0x10, 0x86, 0x02, 0x43, 0x0d, 0x06, 0x5c, 0x0a, 0x0c,
				  0x07, 0x08, 0x41, 0x0b }, 15 },
		{ "def_cfa_register on no CFA, expression CFA",
		  { 0x0f, 0x02, 0x77, 0x08, 0x41, 0x0d, 0x06 }, 7 },
		{ "advance_loc1, args_size, nops", { 0x02, 0x03, 0x2e, 0x10, 0x86, 0x02, 0x00, 0x00 }, 8 },
		{ "restore_state on an empty stack after common ones", { 0x86, 0x02, 0x41, 0x0b }, 4 },
		{ "remember past the stack", { 0x0a, 0x0a, 0x0a, 0x0a, 0x41, 0x0a }, 6 },
		{ "two-byte operands everywhere", { 0x0c, 0x87, 0x01, 0x90, 0x01, 0x41, 0x0d, 0x86,
						    0x01, 0x41, 0x87, 0x80, 0x01, 0x07, 0x90, 0x01 }, 16 },
		{ "three-byte operands", { 0x0e, 0x80, 0x80, 0x01, 0x41, 0x86, 0x80, 0x80, 0x01,
					   0x07, 0x80, 0x80, 0x00 }, 13 },
		{ "advance_loc2, undefined", { 0x03, 0x02, 0x00, 0x07, 0x10, 0x41, 0x07, 0xa0, 0x00 }, 9 },
	};
	unsigned bad = 0, runs = 0;

	tap_ok(runf(progs[0].prog, progs[0].len, LO + 1) == 0 && cfa_is(7, 16) &&
		       rule(6, CR_OFFSET, -8 * 130) && rule(3, CR_SAME, 0),
	       "a two-byte offset operand: the cursor takes over");
	tap_ok(rerun(LO + 2) == 0 && rule(3, CR_OFFSET, -24), "... and the common ones after it");
	tap_ok(runf(progs[1].prog, progs[1].len, LO + 1) == 0 && cfa_is(7, 144) &&
		       rule(6, CR_OFFSET, -16),
	       "def_cfa_offset 144 (a two-byte operand)");
	tap_ok(runf(progs[2].prog, progs[2].len, LO + 1) == 0 && cfa_is(7, 8) &&
		       rule(6, CR_SAME, 0),
	       "remember in place, restore_state after a cursor-only instruction");
	tap_ok(rerun(LO + 2) == 0 && cfa_is(7, 8) && rule(6, CR_SAME, 0) &&
		       rule(3, CR_OFFSET, -24),
	       "... and a rule after it");
	tap_ok(runf(progs[8].prog, progs[8].len, LO) == 0 && cfa_is(135, 144) &&
		       rule(16, CR_OFFSET, -8),
	       "def_cfa with two-byte operands");
	tap_ok(rerun(LO + 1) == 0 && cfa_is(134, 144), "def_cfa_register with a two-byte operand");
	tap_ok(rerun(LO + 2) == 0 && cfa_is(134, 144) && rule(7, CR_OFFSET, -8 * 128) &&
		       rule(16, CR_OFFSET, -8),
	       "offset with a two-byte operand; undefined of column 144: ignored");
	tap_ok(runf(progs[9].prog, progs[9].len, LO + 1) == 0 && cfa_is(7, 16384) &&
		       rule(6, CR_OFFSET, -8 * 16384) && rule(0, CR_UNDEF, 0),
	       "three-byte operands: by the cursor");
	tap_ok(runf(progs[10].prog, progs[10].len, LO + 1) == 0 && rule(16, CR_OFFSET, -8),
	       "advance_loc2: before");
	tap_ok(rerun(LO + 2) == 0 && rule(16, CR_UNDEF, 0) && rule(32, CR_SAME, 0),
	       "advance_loc2: at; undefined rip");
	tap_ok(rerun(LO + 3) == 0 && rule(32, CR_UNDEF, 0), "undefined with a two-byte operand");
	tap_ok(runf(B(0x0a, 0x86, 0x02, 0x0e, 0x20, 0x0b), LO) == 0 && cfa_is(7, 8) &&
		       rule(6, CR_SAME, 0) && rule(16, CR_OFFSET, -8),
	       "restore_state: a column given a rule since remember is same_value again");
	for (size_t i = 0; i < CR_ARRAY_SIZE(progs); i++) {
		for (size_t len = 0; len <= progs[i].len; len++) {
			setup(std_cie, sizeof(std_cie), progs[i].prog, len);
			for (uint64_t pc = LO; pc < LO + 8; pc++, runs++)
				bad += !both_paths(pc);
		}
	}
	/* The CIE's program in place too, and a CIE that remembers. */
	setup(B(0x0c, 0x07, 0x08, 0x90, 0x01, 0x0a, 0x0e, 0x90, 0x01), B(0x41, 0x0b));
	for (uint64_t pc = LO; pc < LO + 3; pc++, runs++)
		bad += !both_paths(pc);
	printf("# %u runs\n", runs);
	tap_is_u64(bad, 0, "in place and by the cursor: the same result and row, every prefix");
}

/* Real compiler output: every FDE of every loaded object, at three pcs. */
struct objs {
	const struct cr_arch *arch;
	unsigned fdes, runs, bad;
	unsigned memo_runs, memo_bad;	/* the CIE memo: the same row, cold and warm */
	unsigned init_ok;		/* FDEs parsed with the CIE's rules from the memo */
	unsigned view_bad;		/* in place (cr_mem_fast) against the cursor */
	unsigned compact_runs, compact_bad;	/* cr_cfa_run_compact against the full row's */
	struct cr_mem_fast fast;
};

static int obj_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct objs *o = arg;
	struct cr_ehsrc es;
	const uint8_t *h = NULL;
	int32_t cnt;

	(void)size;
	memset(&es, 0, sizeof(es));
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uint64_t a = info->dlpi_addr + p->p_vaddr;

		if (p->p_type == PT_GNU_EH_FRAME) {
			es.eh_hdr = a;
			es.eh_hdr_len = p->p_memsz;
			h = (const uint8_t *)(uintptr_t)a;
		}
		if (p->p_type == PT_LOAD && a + p->p_memsz > es.eh_frame_end)
			es.eh_frame_end = a + p->p_memsz;
	}
	if (!h || h[2] != 0x03 || h[3] != 0x3b)
		return 0;
	es.bases.data = es.eh_hdr;
	memcpy(&cnt, h + 8, 4);
	for (int32_t i = 0; i < cnt; i++) {
		struct cr_fde f;
		int32_t e[2];

		memcpy(e, h + 12 + 8 * i, 8);
		if (cr_eh_parse_fde(&cr_mem_self, &es, es.eh_hdr + (uint64_t)(int64_t)e[1], &f)) {
			o->bad++;
			continue;
		}
		o->fdes++;
		if (f.pc_hi == f.pc_lo)
			continue;
		uint64_t pcs[3] = { f.pc_lo, f.pc_lo + (f.pc_hi - f.pc_lo) / 2, f.pc_hi - 1 };

		for (int k = 0; k < 3; k++) {
			struct cr_row r;
			int ret = cr_cfa_run(&cr_mem_self, o->arch, &f, pcs[k], &r);

			o->runs++;
			if (ret || (r.cfa.kind != CR_REG && r.cfa.kind != CR_EXPR)) {
				if (o->bad++ < 5)
					printf("#   %s fde %#" PRIx64 " pc %#" PRIx64 ": %d\n",
					       info->dlpi_name, f.addr, pcs[k], ret);
			}
			/* Read in place (the trace loop's memory: cr_mem_view
			   proves the pages), the same row as by the cursor. */
			if (!ret) {
				struct cr_row rv;

				memset(&rv, 0x5a, sizeof(rv));
				if (cr_cfa_run(&o->fast.m, o->arch, &f, pcs[k], &rv) != 0 ||
				    memcmp(&rv, &r, sizeof(r)) != 0)
					o->view_bad++;
			}
			/* The compact row built without the full one: the same as
			   compacting the full row (both start from one pattern). */
			if (!ret) {
				struct cr_crow c1, c2;
				int r1, r2;

				memset(&c1, 0x33, sizeof(c1));
				memset(&c2, 0x33, sizeof(c2));
				r1 = cr_row_compact(&r, o->arch, &c1);
				r2 = cr_cfa_run_compact(&o->fast.m, o->arch, &f, pcs[k], &c2);
				o->compact_runs += r1 == 0;
				if (r1 != r2 || (r1 == 0 && memcmp(&c1, &c2, sizeof(c1)) != 0))
					o->compact_bad++;
			}
			/* With the CIE memo (live memory: cfi/step.c sets the key), the
			   first run fills it, the second takes the CIE's rules from
			   it: both give this row, byte for byte. */
			for (int pass = 0; pass < 2 && !ret; pass++) {
				struct cr_fde fm = f;
				struct cr_row rm;

				memset(&rm, 0x5a, sizeof(rm));
				fm.cie.modkey = es.eh_hdr | 1;
				o->memo_runs++;
				if (cr_cfa_run(&cr_mem_self, o->arch, &fm, pcs[k], &rm) != 0 ||
				    memcmp(&rm, &r, sizeof(r)) != 0)
					o->memo_bad++;
			}
			/* Parsed under the key, after those runs filled the memo: the
			   CIE and its rules come with the FDE (init_ok), and the run
			   takes the rules from it, not from the memo. */
			if (!ret) {
				struct cr_ehsrc ek = es;
				struct cr_fde fk;
				struct cr_row rk;

				ek.modkey = es.eh_hdr | 1;
				memset(&rk, 0x5a, sizeof(rk));
				o->memo_runs++;
				if (cr_eh_parse_fde(&cr_mem_self, &ek,
						    es.eh_hdr + (uint64_t)(int64_t)e[1], &fk) != 0) {
					o->memo_bad++;
					continue;
				}
				o->init_ok += fk.init_ok;
				if (cr_cfa_run(&cr_mem_self, o->arch, &fk, pcs[k], &rk) != 0 ||
				    memcmp(&rk, &r, sizeof(r)) != 0)
					o->memo_bad++;
			}
		}
	}
	return 0;
}

static void t_real(void)
{
#if defined(__x86_64__)
	struct objs o = { .arch = &test_x86 };
#elif defined(__aarch64__)
	struct objs o = { .arch = &test_a64 };
#else
	struct objs o = { .arch = NULL };
#endif
	cr_mem_fast_init(&o.fast);
	if (!o.arch) {
		tap_ok(1, "# SKIP real FDEs: no test arch for this host");
		return;
	}
	dl_iterate_phdr(obj_cb, &o);
	printf("# %u FDEs, %u programs run\n", o.fdes, o.runs);
	tap_ok(o.fdes > 100, "real FDEs of all loaded objects parsed");
	tap_is_u64(o.bad, 0, "every real CFA program runs to a row with a CFA");
	printf("# the CIE memo: %u runs\n", o.memo_runs);
	tap_ok(o.memo_runs > 200, "the CIE memo: real rows run cold and warm");
	tap_is_u64(o.memo_bad, 0, "the CIE memo: every real row the same, cold and warm");
	printf("# FDEs parsed with the CIE's rules from the memo: %u\n", o.init_ok);
	tap_ok(o.init_ok > 200, "the CIE memo: real FDEs parsed with their CIE's rules (init_ok)");
	tap_is_u64(o.view_bad, 0, "every real row the same read in place and by the cursor");
	printf("# compact rows: %u\n", o.compact_runs);
	tap_ok(o.compact_runs > 200, "real rows compacted");
	tap_is_u64(o.compact_bad, 0,
		   "cr_cfa_run_compact: every real row as cr_cfa_run + cr_row_compact");
}

/* cr_cfa_entry_row: does the FDE's first location have the CIE's row (a function's entry)? */
static int entry_of(const uint8_t *f, size_t fn)
{
	setup(std_cie, sizeof(std_cie), f, fn);
	return cr_cfa_entry_row(&mem, &fde);
}

static void t_entry_row(void)
{
#define E(...) entry_of((const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))
	tap_is_i64(entry_of(NULL, 0), 1, "entry row: no instructions");
	tap_is_i64(E(0, 0, 0), 1, "entry row: nops only");
	tap_is_i64(E(0x41, 0x0e, 16, 0x86, 2), 1, "entry row: advance_loc first (a push's rule after it)");
	tap_is_i64(E(0, 0x02, 5, 0x0e, 16), 1, "entry row: a nop, then advance_loc1");
	tap_is_i64(E(0x03, 5, 0), 1, "entry row: advance_loc2 first");
	tap_is_i64(E(0x04, 5, 0, 0, 0), 1, "entry row: advance_loc4 first");
	tap_is_i64(E(0x01, 0x10, 0x10, 0, 0), 1, "entry row: set_loc first");
	tap_is_i64(E(0x07, 16, 0x41), 1, "entry row: undefined rip (_start's mark), then an advance");
	/* GCC's FDE of work.cold: the body's frame at its first byte. */
	tap_is_i64(E(0x0e, 48, 0x83, 4, 0x86, 3, 0x8c, 2), 0,
		   "entry row: def_cfa_offset 48 first (a cold fragment): no entry");
	tap_is_i64(E(0, 0x86, 3, 0x41), 0, "entry row: a nop, then offset rbp: no entry");
	tap_is_i64(E(0x07, 16, 0x0e, 16), 0, "entry row: undefined rip, then def_cfa_offset: no entry");
	tap_is_i64(E(0x2e, 8, 0x41), 0, "entry row: GNU_args_size first: no entry (a rule kind we do not pass over)");
	tap_is_i64(E(0x07), 0, "entry row: undefined without its operand (truncated): no entry");
	{
		uint8_t nops[80] = { 0 };

		nops[79] = 0x0e;
		tap_is_i64(entry_of(nops, sizeof(nops)), 0,
			   "entry row: past 64 nops the instructions are not looked at: no entry");
	}
#undef E
}

int main(void)
{
	t_cie_only();
	t_advance();
	t_register_rules();
	t_cfa_rules();
	t_state();
	t_gnu_and_unknown();
	t_paths();
	t_bounds();
	t_gcc_shaped();
	t_faults();
	t_real();
	t_entry_row();
	return tap_done();
}
