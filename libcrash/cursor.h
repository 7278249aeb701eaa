/* SPDX-License-Identifier: MIT */
/*
 * Bounded byte cursor over cr_mem with a sticky error (libbacktrace's dwarf_buf
 * idea): decode freely, check c->err once.  After the first error every read
 * returns 0 and pos stops moving.  Little-endian targets only (all four arches).
 */
#ifndef CR_CURSOR_H
#define CR_CURSOR_H

#include "mem.h"

struct cr_cursor {
	const struct cr_mem *mem;
	uint64_t pos, end;	/* never reads at or past end */
	int err;		/* first error wins (-CR_EFAULT, -CR_EINVAL, -CR_ERANGE) */
	uint8_t win[256];	/* read-ahead window: one mem->read per window */
	uint64_t win_lo, win_hi;	/* [win_lo, win_hi) is cached in win */
};

/* Start a cursor on [pos, end).  end < pos gives an empty cursor. */
void cr_cursor_init(struct cr_cursor *c, const struct cr_mem *m, uint64_t pos, uint64_t end);

uint8_t cr_u8(struct cr_cursor *c);
uint16_t cr_u16(struct cr_cursor *c);
uint32_t cr_u32(struct cr_cursor *c);
uint64_t cr_u64(struct cr_cursor *c);
uint64_t cr_uleb(struct cr_cursor *c);	/* more than 10 bytes or overflow: -CR_EINVAL */
int64_t cr_sleb(struct cr_cursor *c);
void cr_skip(struct cr_cursor *c, uint64_t n);	/* past end: -CR_ERANGE */

/* Bases for the DW_EH_PE_textrel/datarel/funcrel applications; 0 = unknown (error). */
struct cr_bases {
	uint64_t text, data, func;
};

/*
 * A pointer in encoding enc (LSB 2.1 / DWARF EH: DW_EH_PE_*).  pcrel is
 * relative to the address of the encoded value itself; aligned skips to the
 * next 8-byte boundary; indirect reads the final value through mem.
 * DW_EH_PE_omit (0xff) returns 0 without reading.  Unknown: -CR_EINVAL.
 */
uint64_t cr_encptr(struct cr_cursor *c, uint8_t enc, const struct cr_bases *b);

/* DW_EH_PE_* constants (LSB 5.0 "DWARF Exception Header Encoding"). */
enum {
	DW_EH_PE_absptr = 0x00,
	DW_EH_PE_uleb128 = 0x01,
	DW_EH_PE_udata2 = 0x02,
	DW_EH_PE_udata4 = 0x03,
	DW_EH_PE_udata8 = 0x04,
	DW_EH_PE_sleb128 = 0x09,
	DW_EH_PE_sdata2 = 0x0a,
	DW_EH_PE_sdata4 = 0x0b,
	DW_EH_PE_sdata8 = 0x0c,
	DW_EH_PE_pcrel = 0x10,
	DW_EH_PE_textrel = 0x20,
	DW_EH_PE_datarel = 0x30,
	DW_EH_PE_funcrel = 0x40,
	DW_EH_PE_aligned = 0x50,
	DW_EH_PE_indirect = 0x80,
	DW_EH_PE_omit = 0xff,
};

#endif
