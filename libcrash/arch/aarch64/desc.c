/* SPDX-License-Identifier: MIT */
/*
 * aarch64: DWARF numbers per "DWARF for the Arm 64-bit Architecture" (AADWARF64)
 * 4.1: x0-x30 are 0-30, sp is 31; the pc is kept apart (cr_regs.pc).  Pure data.
 */
#include "arch/scan.h"
#include "row.h"

static const char *const names[32] = {
	"x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",  "x8",  "x9",  "x10",
	"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21",
	"x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30", "sp",
};

static const uint8_t order[] = {
	0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0xff,
};

/*
 * AAPCS64 6.4.6: a frame record {x29, x30} at [x29].  Where the record sits in
 * its frame is not fixed, so the caller's sp is only approximated as x29 + 16.
 */
static const struct cr_row fp_row = {
	.cfa = { .kind = CR_REG, .reg = 29, .off = 16 },
	.reg = {
		[29] = { .kind = CR_OFFSET, .off = -16 },
		[30] = { .kind = CR_OFFSET, .off = -8 },
	},
	.ra = 30,
};

/*
 * The virtual-address width of user space.  Linux arm64 gives user space 48
 * bits (52 only for mappings asked for above 2^48, never the program text);
 * build with -DCR_AARCH64_VA_BITS=52 for such a system.
 */
#ifndef CR_AARCH64_VA_BITS
#define CR_AARCH64_VA_BITS 48
#endif

/*
 * A signed return address (paciasp/pacibsp, Arm ARM D8.8 "Pointer
 * authentication") carries its PAC in the bits above the VA width; with top
 * byte ignore, bits 63:56 may hold a tag too.  Bit 55 selects the half of the
 * address space (D8.1.5): clear means a user (TTBR0) address, whose upper bits
 * are zero, so they are cleared; set means a kernel (TTBR1) address, whose
 * upper bits are ones.  Equivalent to xpaclri for the 48-bit layout, without
 * needing the instruction on this host.
 */
uint64_t cr_aarch64_strip_ra(uint64_t ra)
{
	const uint64_t mask = (1ull << CR_AARCH64_VA_BITS) - 1;

	return (ra & (1ull << 55)) ? ra | ~mask : ra & mask;
}

const struct cr_arch cr_arch_aarch64 = {
	.name = "aarch64",
	.nregs = 32,
	.sp = 31,
	.fp = 29,
	.ra = 30,
	.ra_in_reg = 1,
	.ra_sign_state = 34,	/* AADWARF64 4.1: RA_SIGN_STATE */
	.regname = names,
	.dump_order = order,
	.fp_row = &fp_row,
	.scan = cr_aarch64_scan,
	.call_before = cr_aarch64_call_before,
	.call_target = cr_aarch64_call_target,
	.strip_ra = cr_aarch64_strip_ra,
	.record_start = cr_aarch64_record_start,
};
