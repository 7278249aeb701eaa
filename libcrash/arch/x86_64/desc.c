/* SPDX-License-Identifier: MIT */
/* x86_64: System V psABI 3.6.2 "DWARF Register Number Mapping". Pure data. */
#include "arch/scan.h"
#include "row.h"

static const char *const names[17] = {
	"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8",
	"r9",  "r10", "r11", "r12", "r13", "r14", "r15", "rip",
};

/* Android tombstone order. */
static const uint8_t order[] = { 0, 3, 2, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0xff };

/* push %rbp; mov %rsp,%rbp: CFA = rbp + 16, return address at CFA-8, old rbp at CFA-16. */
static const struct cr_row fp_row = {
	.cfa = { .kind = CR_REG, .reg = 6, .off = 16 },
	.reg = { [6] = { .kind = CR_OFFSET, .off = -16 }, [16] = { .kind = CR_OFFSET, .off = -8 } },
	.ra = 16,
};

const struct cr_arch cr_arch_x86_64 = {
	.name = "x86_64",
	.nregs = 17,
	.sp = 7,
	.fp = 6,
	.ra = 16,
	.ra_in_reg = 0,
	.regname = names,
	.dump_order = order,
	.fp_row = &fp_row,
	.scan = cr_x86_64_scan,
	.call_before = cr_x86_64_call_before,
	.call_target = cr_x86_64_call_target,
	.strip_ra = 0,
};
