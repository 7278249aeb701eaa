/* SPDX-License-Identifier: MIT */
/*
 * loongarch64: DWARF numbers per the LoongArch ELF psABI, "DWARF Register
 * Numbers": r0-r31 are 0-31; the pc is kept apart (cr_regs.pc).  Report names
 * are the psABI's register aliases.  Pure data.
 */
#include "arch/scan.h"
#include "row.h"

static const char *const names[32] = {
	"zero", "ra", "tp", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6",
	"a7",	"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "u0",
	"fp",	"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8",
};

/* r0 is hard-wired to zero: not dumped.  r21 is reserved (u0) but still shown. */
static const uint8_t order[] = {
	1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0xff,
};

/* $fp is the CFA; $ra at fp - 8, the caller's $fp at fp - 16 (GCC/clang frame layout). */
static const struct cr_row fp_row = {
	.cfa = { .kind = CR_REG, .reg = 22, .off = 0 },
	.reg = { [1] = { .kind = CR_OFFSET, .off = -8 }, [22] = { .kind = CR_OFFSET, .off = -16 } },
	.ra = 1,
};

const struct cr_arch cr_arch_loongarch64 = {
	.name = "loongarch64",
	.nregs = 32,
	.sp = 3,
	.fp = 22,
	.ra = 1,
	.ra_in_reg = 1,
	.regname = names,
	.dump_order = order,
	.fp_row = &fp_row,
	.scan = cr_loongarch64_scan,
	.call_before = cr_loongarch64_call_before,
	.call_target = cr_loongarch64_call_target,
	.strip_ra = 0,
};
