/* SPDX-License-Identifier: MIT */
/*
 * Bounded byte cursor with a sticky error.  Reads go through a window: the
 * memory itself where cr_mem_view proves it readable (the live process's
 * pages, a snapshot's buffer), else a 256-byte read-ahead copy.  Either way a
 * decoder that walks a CIE/FDE byte by byte costs a load per byte and at most
 * one cr_mem read (one system call on the live process) per window.
 *
 * Every access past c->end is -CR_ERANGE (the contract of cr_skip, applied to
 * reads too); decoders that want "truncated is malformed" map it to -CR_EINVAL.
 */
#include <string.h>

#include "cursor.h"

#define PAGE 4096u	/* the smallest page of all four arches: the unit of readability */

static int fill_view(struct cr_cursor *c, uint64_t pos, size_t n);

CR_HOT void cr_cursor_init(struct cr_cursor *c, const struct cr_mem *m, uint64_t pos, uint64_t end)
{
	c->mem = m;
	c->pos = pos;
	c->end = end < pos ? pos : end;
	c->err = 0;
	c->win_lo = 0;
	c->win_hi = 0;
	c->wp = c->win;
}

CR_HOT void cr_cursor_init_fill(struct cr_cursor *c, const struct cr_mem *m, uint64_t pos, uint64_t end)
{
	cr_cursor_init(c, m, pos, end);
	if (c->end > pos)
		fill_view(c, pos, 1);
}

CR_HOT void cr_cursor_view(const struct cr_cursor *c, struct cr_view *v)
{
	int in_place = c->wp != c->win && c->win_hi > c->win_lo;

	v->mem = c->mem;
	v->p = in_place ? c->wp : NULL;
	v->lo = in_place ? c->win_lo : 0;
	v->hi = in_place ? c->win_hi : 0;
}

void cr_cursor_init_view(struct cr_cursor *c, const struct cr_mem *m, uint64_t pos, uint64_t end,
			 const struct cr_view *v)
{
	cr_cursor_init(c, m, pos, end);
	if (v && v->p && v->mem == m && pos >= v->lo && pos < v->hi && c->end > pos) {
		c->wp = v->p;
		c->win_lo = v->lo;
		c->win_hi = v->hi < c->end ? v->hi : c->end;	/* never past end */
	}
}

/* The first error wins; the window empties, so every inline read comes here. */
static void fail(struct cr_cursor *c, int err)
{
	if (!c->err)
		c->err = err;
	c->win_lo = c->win_hi = 0;
}

/*
 * Make [pos, pos + n) available in the window.  In place where the memory
 * lets us (cr_mem_view): up to the end of the next page, or of this one; no
 * longer than the memory's view_max, if it has one (and n is shorter).
 * Else one read of up to 256 bytes into win; if that fails, the window may run
 * past the readable memory after the bytes we need (into an unmapped page, or
 * past a snapshot's end), so retry with the bytes up to the next page
 * boundary, then with only n.
 */
CR_HOT static int fill_view(struct cr_cursor *c, uint64_t pos, size_t n)
{
	uint64_t avail = c->end - pos, to_page = PAGE - (pos & (PAGE - 1)), want;
	const uint8_t *p;

	want = avail < to_page + PAGE ? avail : to_page + PAGE;
	if (c->mem->view_max && want > c->mem->view_max && want > n)
		want = n > c->mem->view_max ? n : c->mem->view_max;	/* (shorter) */
	if ((p = cr_mem_view(c->mem, pos, want)) == NULL && want > to_page && to_page >= n)
		p = cr_mem_view(c->mem, pos, want = to_page);
	if (!p)
		return 0;
	c->wp = p;
	c->win_lo = pos;
	c->win_hi = pos + want;
	return 1;
}

static int fill(struct cr_cursor *c, uint64_t pos, size_t n)
{
	uint64_t avail = c->end - pos, to_page = PAGE - (pos & (PAGE - 1)), want;

	if (fill_view(c, pos, n))
		return 0;
	c->wp = c->win;
	want = avail < sizeof(c->win) ? avail : sizeof(c->win);
	if (c->mem->read(c->mem, pos, c->win, want) < 0) {
		if (to_page > n && to_page < want &&
		    c->mem->read(c->mem, pos, c->win, to_page) == 0) {
			want = to_page;
		} else if (n < want && c->mem->read(c->mem, pos, c->win, n) == 0) {
			want = n;
		} else {
			c->win_lo = c->win_hi = 0;
			return -CR_EFAULT;
		}
	}
	c->win_lo = pos;
	c->win_hi = pos + want;
	return 0;
}

/* Copy n (<= 8) bytes at pos and advance; zeroes on error. */
static void take(struct cr_cursor *c, void *dst, size_t n)
{
	memset(dst, 0, n);
	if (c->err)
		return;
	if (n > c->end - c->pos) {
		fail(c, -CR_ERANGE);
		return;
	}
	if (c->pos < c->win_lo || c->pos + n > c->win_hi) {
		if (fill(c, c->pos, n) < 0) {
			fail(c, -CR_EFAULT);
			return;
		}
	}
	memcpy(dst, c->wp + (c->pos - c->win_lo), n);
	c->pos += n;
}

uint8_t cr_u8_slow(struct cr_cursor *c)
{
	uint8_t v;

	take(c, &v, 1);
	return v;
}

uint16_t cr_u16_slow(struct cr_cursor *c)
{
	uint16_t v;

	take(c, &v, 2);
	return v;
}

uint32_t cr_u32_slow(struct cr_cursor *c)
{
	uint32_t v;

	take(c, &v, 4);
	return v;
}

uint64_t cr_u64_slow(struct cr_cursor *c)
{
	uint64_t v;

	take(c, &v, 8);
	return v;
}

/*
 * DWARF5 7.6: 7 bits per byte, low group first.  A 64-bit value needs at most
 * 10 bytes, and the 10th may only carry bit 63.
 */
uint64_t cr_uleb_slow(struct cr_cursor *c)
{
	uint64_t v = 0;
	unsigned i;
	uint8_t b;

	for (i = 0; i < 10; i++) {
		b = cr_u8(c);
		if (c->err)
			return 0;
		if (i == 9 && (b & 0x7e)) {
			fail(c, -CR_EINVAL);
			return 0;
		}
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	fail(c, -CR_EINVAL);
	return 0;
}

/* As cr_uleb_slow; the 10th byte holds bit 63 and must repeat it in bits 1-6. */
int64_t cr_sleb_slow(struct cr_cursor *c)
{
	uint64_t v = 0;
	unsigned i;
	uint8_t b;

	for (i = 0; i < 10; i++) {
		b = cr_u8(c);
		if (c->err)
			return 0;
		if (i == 9) {
			if ((b & 0x7f) != 0 && (b & 0x7f) != 0x7f)
				break;
			v |= (uint64_t)(b & 1) << 63;
			if (b & 0x80)
				break;
			return (int64_t)v;
		}
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			if (b & 0x40)
				v |= ~0ull << (7 * (i + 1));	/* sign-extend */
			return (int64_t)v;
		}
	}
	fail(c, -CR_EINVAL);
	return 0;
}

void cr_skip(struct cr_cursor *c, uint64_t n)
{
	if (c->err)
		return;
	if (n > c->end - c->pos)
		fail(c, -CR_ERANGE);
	else
		c->pos += n;
}

/* The value part of a DW_EH_PE encoding (low nibble), sign-extended where signed. */
static uint64_t enc_value(struct cr_cursor *c, uint8_t fmt)
{
	switch (fmt) {
	case DW_EH_PE_absptr:	/* 64-bit targets only: a pointer is 8 bytes */
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		return cr_u64(c);
	case DW_EH_PE_uleb128:
		return cr_uleb(c);
	case DW_EH_PE_udata2:
		return cr_u16(c);
	case DW_EH_PE_udata4:
		return cr_u32(c);
	case DW_EH_PE_sleb128:
		return (uint64_t)cr_sleb(c);
	case DW_EH_PE_sdata2:
		return (uint64_t)(int64_t)(int16_t)cr_u16(c);
	case DW_EH_PE_sdata4:
		return (uint64_t)(int64_t)(int32_t)cr_u32(c);
	}
	fail(c, -CR_EINVAL);
	return 0;
}

/* The base that the application part (bits 4-6) adds; *ok = 0 if unknown. */
static uint64_t enc_base(struct cr_cursor *c, uint8_t app, const struct cr_bases *b, int *ok)
{
	*ok = 1;
	switch (app) {
	case DW_EH_PE_absptr:
	case DW_EH_PE_aligned:
		return 0;
	case DW_EH_PE_pcrel:
		return c->pos;	/* the address of the encoded value itself */
	case DW_EH_PE_textrel:
		*ok = b && b->text;
		return b ? b->text : 0;
	case DW_EH_PE_datarel:
		*ok = b && b->data;
		return b ? b->data : 0;
	case DW_EH_PE_funcrel:
		*ok = b && b->func;
		return b ? b->func : 0;
	}
	*ok = 0;
	return 0;
}

uint64_t cr_encptr_slow(struct cr_cursor *c, uint8_t enc, const struct cr_bases *b)
{
	uint8_t app = enc & 0x70;
	uint64_t base, v;
	int ok;

	if (enc == DW_EH_PE_omit || c->err)
		return 0;
	/* LSB 5.0 / GCC: aligned means the value sits at the next pointer-size
	   (8-byte) boundary of the address space; no base is added. */
	if (app == DW_EH_PE_aligned)
		cr_skip(c, (8 - (c->pos & 7)) & 7);
	base = enc_base(c, app, b, &ok);
	if (!ok) {
		fail(c, -CR_EINVAL);
		return 0;
	}
	v = enc_value(c, enc & 0x0f) + base;
	if (c->err)
		return 0;
	if (enc & DW_EH_PE_indirect) {
		uint64_t p;

		if (cr_read64(c->mem, v, &p) < 0) {
			fail(c, -CR_EFAULT);
			return 0;
		}
		v = p;
	}
	return v;
}
