/* SPDX-License-Identifier: MIT */
/* DWARF descriptions of two arches for the byte-array tests, on any host. */
#ifndef CR_TEST_TESTARCH_H
#define CR_TEST_TESTARCH_H

#include "regs.h"

static const struct cr_arch test_x86 __attribute__((unused)) = {
	.name = "x86_64", .nregs = 17, .sp = 7, .fp = 6, .ra = 16,
};
static const struct cr_arch test_a64 __attribute__((unused)) = {
	.name = "aarch64", .nregs = 34, .sp = 31, .fp = 29, .ra = 30, .ra_in_reg = 1,
	.ra_sign_state = 34,
};

#endif
