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
	/* The window [win_lo, win_hi), never past end, is readable at wp: in
	   place (memory that cr_mem_view proves) or copied into win. */
	uint64_t win_lo, win_hi;
	const uint8_t *wp;
	uint8_t win[256];	/* the copy: one mem->read per window */
};

/* Start a cursor on [pos, end).  end < pos gives an empty cursor. */
void cr_cursor_init(struct cr_cursor *c, const struct cr_mem *m, uint64_t pos, uint64_t end);

/*
 * A window a cursor read in place (cr_mem_view proved it), kept to start
 * another cursor on the same bytes without proving them again (an FDE's
 * instructions right after its header was parsed).  p NULL: none.  Valid for
 * as long as mem's proofs are: never kept across walks.
 */
struct cr_view {
	const struct cr_mem *mem;
	const uint8_t *p;	/* the bytes of [lo, hi) */
	uint64_t lo, hi;
};

/*
 * cr_cursor_init, with the window already in place at pos where the memory
 * lets us (cr_mem_view), so that the first read is inline too; else the first
 * read fills it as usual.
 */
void cr_cursor_init_fill(struct cr_cursor *c, const struct cr_mem *m, uint64_t pos, uint64_t end);

/* c's window if it is in place, else an empty view. */
void cr_cursor_view(const struct cr_cursor *c, struct cr_view *v);

/* cr_cursor_init, starting with v's window if v is of m and holds pos (v may be NULL). */
void cr_cursor_init_view(struct cr_cursor *c, const struct cr_mem *m, uint64_t pos, uint64_t end,
			 const struct cr_view *v);

/* Lower the end (an entry's length, once read); a higher end is ignored. */
static inline void cr_cursor_limit(struct cr_cursor *c, uint64_t end)
{
	if (end > c->end)
		return;
	c->end = end < c->pos ? c->pos : end;
	if (c->win_hi > c->end)
		c->win_hi = c->end < c->win_lo ? c->win_lo : c->end;
}

/* The out-of-line reads: a refill, the end, an error, a longer LEB128. */
uint8_t cr_u8_slow(struct cr_cursor *c);
uint16_t cr_u16_slow(struct cr_cursor *c);
uint32_t cr_u32_slow(struct cr_cursor *c);
uint64_t cr_u64_slow(struct cr_cursor *c);
uint64_t cr_uleb_slow(struct cr_cursor *c);
int64_t cr_sleb_slow(struct cr_cursor *c);

/*
 * The reads.  Inside the window a read is a load (an error empties the
 * window, so the sticky error needs no test here); anything else goes out of
 * line.  Decoders read a byte at a time: this is their inner loop.
 */
static inline uint8_t cr_u8(struct cr_cursor *c)
{
	uint64_t off = c->pos - c->win_lo;

	if (__builtin_expect(off < c->win_hi - c->win_lo, 1)) {
		c->pos++;
		return c->wp[off];
	}
	return cr_u8_slow(c);
}

#define CR_CURSOR_FIXED(name, type)                                                    \
	static inline type name(struct cr_cursor *c)                                   \
	{                                                                              \
		uint64_t off = c->pos - c->win_lo;                                     \
		type v;                                                                \
                                                                                       \
		if (__builtin_expect(off <= c->win_hi - c->win_lo &&                   \
					     c->win_hi - c->pos >= sizeof(v),          \
				     1)) {                                             \
			__builtin_memcpy(&v, c->wp + off, sizeof(v));                  \
			c->pos += sizeof(v);                                           \
			return v;                                                      \
		}                                                                      \
		return name##_slow(c);                                                 \
	}
/* Little-endian targets only: the bytes are the value. */
CR_CURSOR_FIXED(cr_u16, uint16_t)
CR_CURSOR_FIXED(cr_u32, uint32_t)
CR_CURSOR_FIXED(cr_u64, uint64_t)
#undef CR_CURSOR_FIXED

/* LEB128 (DWARF5 7.6): one byte inline; more than 10 bytes or overflow: -CR_EINVAL. */
static inline uint64_t cr_uleb(struct cr_cursor *c)
{
	uint64_t off = c->pos - c->win_lo;

	if (__builtin_expect(off < c->win_hi - c->win_lo && !(c->wp[off] & 0x80), 1)) {
		c->pos++;
		return c->wp[off];
	}
	return cr_uleb_slow(c);
}

/*
 * Two ULEB128s in a row: as a = cr_uleb(c), b = cr_uleb(c).  Both of one byte
 * inside the window (an abbreviation's attribute and form, mostly): one test
 * and one move.
 */
static inline void cr_uleb_pair(struct cr_cursor *c, uint64_t *a, uint64_t *b)
{
	uint64_t off = c->pos - c->win_lo;

	if (__builtin_expect(off + 2 <= c->win_hi - c->win_lo && off + 2 > off &&
				     !((c->wp[off] | c->wp[off + 1]) & 0x80),
			     1)) {
		*a = c->wp[off];
		*b = c->wp[off + 1];
		c->pos += 2;
		return;
	}
	*a = cr_uleb(c);
	*b = cr_uleb(c);
}

static inline int64_t cr_sleb(struct cr_cursor *c)
{
	uint64_t off = c->pos - c->win_lo;

	if (__builtin_expect(off < c->win_hi - c->win_lo && !(c->wp[off] & 0x80), 1)) {
		c->pos++;
		/* Bit 6 is the sign: move it to bit 63 and back. */
		return (int64_t)((uint64_t)c->wp[off] << 57) >> 57;
	}
	return cr_sleb_slow(c);
}

void cr_skip(struct cr_cursor *c, uint64_t n);	/* past end: -CR_ERANGE */

/* Bases for the DW_EH_PE_textrel/datarel/funcrel applications; 0 = unknown (error). */
struct cr_bases {
	uint64_t text, data, func;
};


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

/* cr_encptr out of line: any encoding, the end, an error. */
uint64_t cr_encptr_slow(struct cr_cursor *c, uint8_t enc, const struct cr_bases *b);

/*
 * A pointer in encoding enc (LSB 2.1 / DWARF EH: DW_EH_PE_*).  pcrel is
 * relative to the address of the encoded value itself; aligned skips to the
 * next 8-byte boundary; indirect reads the final value through mem.
 * DW_EH_PE_omit (0xff) returns 0 without reading.  Unknown: -CR_EINVAL.
 * What linkers and compilers put in .eh_frame, pcrel|sdata4 pointers and
 * sdata4 ranges, is read inline from the window (an error empties it).
 */
static inline uint64_t cr_encptr(struct cr_cursor *c, uint8_t enc, const struct cr_bases *b)
{
	uint64_t off = c->pos - c->win_lo, at = c->pos;
	int32_t v;

	if (__builtin_expect((enc == (DW_EH_PE_pcrel | DW_EH_PE_sdata4) || enc == DW_EH_PE_sdata4) &&
				     off <= c->win_hi - c->win_lo && c->win_hi - c->pos >= 4,
			     1)) {
		__builtin_memcpy(&v, c->wp + off, 4);
		c->pos += 4;
		return (enc == DW_EH_PE_sdata4 ? 0 : at) + (uint64_t)(int64_t)v;
	}
	return cr_encptr_slow(c, enc, b);
}

#endif
