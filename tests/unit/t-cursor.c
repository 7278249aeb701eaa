/* SPDX-License-Identifier: MIT */
/* cursor.c: fixed-size reads, LEB128, DW_EH_PE_* pointers, window, sticky error. */
#include "../tap.h"
#include "cursor.h"
#include "faultmem.h"

#define BASE 0x10000ull

static struct cr_mem mem;
static struct cr_cursor cur;

/* A cursor over bytes placed at BASE. */
static struct cr_cursor *at(const void *bytes, size_t len)
{
	cr_mem_buffer(&mem, BASE, bytes, len);
	cr_cursor_init(&cur, &mem, BASE, BASE + len);
	return &cur;
}

#define BYTES(...) ((const uint8_t[]){ __VA_ARGS__ }), sizeof((const uint8_t[]){ __VA_ARGS__ })

static void t_fixed(void)
{
	static const uint8_t b[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
				     0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };
	struct cr_cursor *c = at(b, sizeof(b));

	tap_is_u64(cr_u8(c), 0x01, "u8");
	tap_is_u64(cr_u16(c), 0x0302, "u16 little-endian");
	tap_is_u64(cr_u32(c), 0x07060504, "u32 little-endian");
	tap_is_u64(cr_u64(c), 0x0f0e0d0c0b0a0908ull, "u64 little-endian");
	tap_is_i64(c->err, 0, "no error after exact end");
	tap_is_u64(c->pos, BASE + 15, "pos at end");
	tap_is_u64(cr_u8(c), 0, "u8 past end reads 0");
	tap_is_i64(c->err, -CR_ERANGE, "u8 past end: -CR_ERANGE");
	tap_is_u64(c->pos, BASE + 15, "pos stops at the error");

	c = at(b, 3);
	tap_is_u64(cr_u32(c), 0, "u32 over 3 bytes: 0");
	tap_is_i64(c->err, -CR_ERANGE, "u32 truncated: -CR_ERANGE");
	tap_is_u64(c->pos, BASE, "truncated u32 does not move");
	c = at(b, 1);
	cr_u16(c);
	tap_is_i64(c->err, -CR_ERANGE, "u16 truncated: -CR_ERANGE");
	c = at(b, 7);
	cr_u64(c);
	tap_is_i64(c->err, -CR_ERANGE, "u64 truncated: -CR_ERANGE");

	/* Sticky: the first error wins; later reads return 0 and do not move. */
	c = at(b, 2);
	cr_u32(c);
	tap_is_u64(cr_u8(c), 0, "sticky: u8 after error is 0");
	cr_uleb(c);
	tap_is_i64(c->err, -CR_ERANGE, "sticky: first error kept");
	tap_is_u64(c->pos, BASE, "sticky: pos unchanged");

	cr_mem_buffer(&mem, BASE, b, sizeof(b));
	cr_cursor_init(&cur, &mem, BASE + 4, BASE);
	tap_is_u64(cur.end, BASE + 4, "end < pos: empty cursor");
	cr_u8(&cur);
	tap_is_i64(cur.err, -CR_ERANGE, "empty cursor: read fails");

	/* The cursor bound is honoured even if memory continues. */
	cr_cursor_init(&cur, &mem, BASE, BASE + 4);
	cr_u32(&cur);
	cr_u8(&cur);
	tap_is_i64(cur.err, -CR_ERANGE, "end bound below readable memory");

	/* Bytes the bound allows but memory lacks: -CR_EFAULT at that pos. */
	cr_cursor_init(&cur, &mem, BASE + 12, BASE + 100);
	tap_is_u64(cr_u16(&cur), 0x0e0d, "read up to the end of memory");
	cr_u16(&cur);
	tap_is_i64(cur.err, -CR_EFAULT, "read past memory: -CR_EFAULT");
	tap_is_u64(cur.pos, BASE + 14, "EFAULT keeps the failing pos");
}

struct leb {
	uint8_t b[12];
	size_t n;
	uint64_t v;
	int err;
	const char *name;
};

static void t_uleb(void)
{
	static const struct leb t[] = {
		{ { 0x00 }, 1, 0, 0, "uleb 0" },
		{ { 0x7f }, 1, 127, 0, "uleb 127" },
		{ { 0x80, 0x01 }, 2, 128, 0, "uleb 128" },
		{ { 0xe5, 0x8e, 0x26 }, 3, 624485, 0, "uleb 624485" },
		{ { 0x80, 0x80, 0x00 }, 3, 0, 0, "uleb padded 0" },
		{ { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 }, 10, ~0ull, 0,
		  "uleb UINT64_MAX (10 bytes)" },
		{ { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02 }, 10, 0, -CR_EINVAL,
		  "uleb overflow in 10th byte" },
		{ { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 }, 11, 0,
		  -CR_EINVAL, "uleb 11 bytes" },
		{ { 0x80 }, 1, 0, -CR_ERANGE, "uleb truncated" },
		{ { 0xe5, 0x8e }, 2, 0, -CR_ERANGE, "uleb truncated (2 of 3)" },
	};

	for (size_t i = 0; i < CR_ARRAY_SIZE(t); i++) {
		struct cr_cursor *c = at(t[i].b, t[i].n);
		uint64_t v = cr_uleb(c);

		tap_ok(v == t[i].v && c->err == t[i].err, t[i].name);
		if (!t[i].err)
			tap_is_u64(c->pos, BASE + t[i].n, "uleb consumed all bytes");
	}
}

/*
 * cr_uleb_pair: the same values, position and error as two cr_uleb, for every
 * split of these bytes into the cursor's bound: one-byte pairs (its fast
 * path), longer encodings, a pair across the end, an error in either half.
 */
static void t_uleb_pair(void)
{
	static const uint8_t b[][12] = {
		{ 0x03, 0x0b, 0x49 },
		{ 0x7f, 0x7f, 0x00 },
		{ 0x87, 0x40, 0x0e, 0x05 },			/* DW_AT_MIPS_linkage_name, strp */
		{ 0x3a, 0x80, 0x01, 0x02 },
		{ 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02, 0x01 },
		{ 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 },
		{ 0x00, 0x00, 0x07 },
	};
	int bad = 0, cases = 0;

	for (size_t i = 0; i < CR_ARRAY_SIZE(b); i++) {
		for (size_t n = 0; n <= sizeof(b[i]); n++) {
			struct cr_cursor *c = at(b[i], n);
			uint64_t x = cr_uleb(c), y = cr_uleb(c), u, v, pos = c->pos;
			int err = c->err;

			c = at(b[i], n);
			cr_uleb_pair(c, &u, &v);
			cases++;
			if (u != x || v != y || c->pos != pos || c->err != err) {
				printf("# bytes %zu, bound %zu: %" PRIx64 " %" PRIx64 " at %" PRIx64
				       " (%d), want %" PRIx64 " %" PRIx64 " at %" PRIx64 " (%d)\n",
				       i, n, u, v, c->pos, c->err, x, y, pos, err);
				bad++;
			}
		}
	}
	tap_ok(bad == 0 && cases == 7 * 13, "uleb pair: as two uleb, every bound");
	/* After an error: 0 and 0, nothing moves. */
	{
		struct cr_cursor *c = at(b[0], 1);
		uint64_t u = 9, v = 9;

		cr_uleb(c);
		cr_uleb(c);
		cr_uleb_pair(c, &u, &v);
		tap_ok(u == 0 && v == 0 && c->err == -CR_ERANGE && c->pos == BASE + 1,
		       "uleb pair: sticky error");
	}
}

static void t_sleb(void)
{
	static const struct leb t[] = {
		{ { 0x00 }, 1, 0, 0, "sleb 0" },
		{ { 0x3f }, 1, 63, 0, "sleb 63" },
		{ { 0x40 }, 1, (uint64_t)-64, 0, "sleb -64" },
		{ { 0x7f }, 1, (uint64_t)-1, 0, "sleb -1" },
		{ { 0xc0, 0x00 }, 2, 64, 0, "sleb 64" },
		{ { 0x80, 0x7f }, 2, (uint64_t)-128, 0, "sleb -128" },
		{ { 0x78 }, 1, (uint64_t)-8, 0, "sleb -8 (data_align)" },
		{ { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00 }, 10, INT64_MAX, 0,
		  "sleb INT64_MAX" },
		{ { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f }, 10,
		  (uint64_t)INT64_MIN, 0, "sleb INT64_MIN" },
		{ { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 }, 10, 0, -CR_EINVAL,
		  "sleb overflow in 10th byte" },
		{ { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0xff, 0x7f }, 11, 0,
		  -CR_EINVAL, "sleb 11 bytes" },
		{ { 0xc0 }, 1, 0, -CR_ERANGE, "sleb truncated" },
	};

	for (size_t i = 0; i < CR_ARRAY_SIZE(t); i++) {
		struct cr_cursor *c = at(t[i].b, t[i].n);
		int64_t v = cr_sleb(c);

		tap_ok((uint64_t)v == t[i].v && c->err == t[i].err, t[i].name);
	}
}

static void t_skip(void)
{
	struct cr_cursor *c = at(BYTES(1, 2, 3, 4));

	cr_skip(c, 3);
	tap_is_u64(cr_u8(c), 4, "skip 3");
	cr_skip(c, 0);
	tap_is_i64(c->err, 0, "skip 0 at end");
	c = at(BYTES(1, 2, 3, 4));
	cr_skip(c, 5);
	tap_is_i64(c->err, -CR_ERANGE, "skip past end: -CR_ERANGE");
	tap_is_u64(c->pos, BASE, "skip past end does not move");
	c = at(BYTES(1, 2, 3, 4));
	cr_skip(c, ~0ull);
	tap_is_i64(c->err, -CR_ERANGE, "skip 2^64-1: no wrap");
}

struct enc {
	uint8_t enc;
	uint8_t b[10];
	size_t n;		/* bytes in b (the encoded value) */
	uint64_t v;
	const char *name;
};

/* Every value format, absolute; each also truncated by one byte. */
static void t_encptr_formats(void)
{
	static const struct enc t[] = {
		{ DW_EH_PE_absptr, { 1, 2, 3, 4, 5, 6, 7, 8 }, 8, 0x0807060504030201ull, "absptr" },
		{ DW_EH_PE_uleb128, { 0xe5, 0x8e, 0x26 }, 3, 624485, "uleb128" },
		{ DW_EH_PE_udata2, { 0xfe, 0xff }, 2, 0xfffe, "udata2" },
		{ DW_EH_PE_udata4, { 0xfc, 0xff, 0xff, 0xff }, 4, 0xfffffffc, "udata4" },
		{ DW_EH_PE_udata8, { 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, 8,
		  0xfffffffffffffff8ull, "udata8" },
		{ DW_EH_PE_sleb128, { 0x80, 0x7f }, 2, (uint64_t)-128, "sleb128" },
		{ DW_EH_PE_sdata2, { 0xfe, 0xff }, 2, (uint64_t)-2, "sdata2 sign-extends" },
		{ DW_EH_PE_sdata2, { 0xfe, 0x7f }, 2, 0x7ffe, "sdata2 positive" },
		{ DW_EH_PE_sdata4, { 0xfc, 0xff, 0xff, 0xff }, 4, (uint64_t)-4,
		  "sdata4 sign-extends" },
		{ DW_EH_PE_sdata8, { 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, 8,
		  (uint64_t)-8, "sdata8" },
	};
	char name[96];

	for (size_t i = 0; i < CR_ARRAY_SIZE(t); i++) {
		struct cr_cursor *c = at(t[i].b, t[i].n);
		uint64_t v = cr_encptr(c, t[i].enc, NULL);

		snprintf(name, sizeof(name), "encptr %s", t[i].name);
		tap_ok(v == t[i].v && c->err == 0 && c->pos == BASE + t[i].n, name);
		c = at(t[i].b, t[i].n - 1);
		v = cr_encptr(c, t[i].enc, NULL);
		snprintf(name, sizeof(name), "encptr %s truncated: -CR_ERANGE, 0", t[i].name);
		tap_ok(v == 0 && c->err == -CR_ERANGE, name);
	}
	/* Formats 0x05-0x08 and 0x0d-0x0f are not defined (LSB 5.0 table 10-5). */
	static const uint8_t bad[] = { 0x05, 0x06, 0x07, 0x08, 0x0d, 0x0e, 0x0f };

	for (size_t i = 0; i < sizeof(bad); i++) {
		struct cr_cursor *c = at(BYTES(0, 0, 0, 0, 0, 0, 0, 0));

		cr_encptr(c, bad[i], NULL);
		snprintf(name, sizeof(name), "encptr format 0x%02x: -CR_EINVAL", bad[i]);
		tap_is_i64(c->err, -CR_EINVAL, name);
	}
}

static void t_encptr_apps(void)
{
	static const struct cr_bases b = { .text = 0x400000, .data = 0x600000, .func = 0x401000 };
	static const struct cr_bases none = { 0 };
	struct cr_cursor *c;
	uint64_t v;

	/* pcrel: relative to the address of the value (here BASE + 2). */
	c = at(BYTES(0xaa, 0xbb, 0xf0, 0xff, 0xff, 0xff));
	cr_skip(c, 2);
	v = cr_encptr(c, DW_EH_PE_pcrel | DW_EH_PE_sdata4, NULL);
	tap_is_u64(v, BASE + 2 - 16, "pcrel|sdata4: field address - 16");
	c = at(BYTES(0x10, 0x00));
	v = cr_encptr(c, DW_EH_PE_pcrel | DW_EH_PE_udata2, NULL);
	tap_is_u64(v, BASE + 0x10, "pcrel|udata2");
	c = at(BYTES(0x10, 0x00, 0x00, 0x00));
	tap_is_u64(cr_encptr(c, DW_EH_PE_textrel | DW_EH_PE_udata4, &b), 0x400010, "textrel");
	c = at(BYTES(0x7c));
	tap_is_u64(cr_encptr(c, DW_EH_PE_datarel | DW_EH_PE_sleb128, &b), 0x600000 - 4,
		   "datarel|sleb128");
	c = at(BYTES(0x08, 0, 0, 0, 0, 0, 0, 0));
	tap_is_u64(cr_encptr(c, DW_EH_PE_funcrel | DW_EH_PE_udata8, &b), 0x401008, "funcrel");
	c = at(BYTES(0x10, 0x00, 0x00, 0x00));
	cr_encptr(c, DW_EH_PE_textrel | DW_EH_PE_udata4, &none);
	tap_is_i64(c->err, -CR_EINVAL, "textrel with unknown base: -CR_EINVAL");
	c = at(BYTES(0x10, 0x00, 0x00, 0x00));
	cr_encptr(c, DW_EH_PE_datarel | DW_EH_PE_udata4, NULL);
	tap_is_i64(c->err, -CR_EINVAL, "datarel without bases: -CR_EINVAL");
	c = at(BYTES(0x10, 0x00, 0x00, 0x00));
	cr_encptr(c, DW_EH_PE_funcrel | DW_EH_PE_udata4, &none);
	tap_is_i64(c->err, -CR_EINVAL, "funcrel with unknown base: -CR_EINVAL");
	c = at(BYTES(0x10, 0x00, 0x00, 0x00));
	cr_encptr(c, 0x60 | DW_EH_PE_udata4, &b);
	tap_is_i64(c->err, -CR_EINVAL, "application 0x60: -CR_EINVAL");
	c = at(BYTES(0x10, 0x00, 0x00, 0x00));
	cr_encptr(c, 0x70 | DW_EH_PE_udata4, &b);
	tap_is_i64(c->err, -CR_EINVAL, "application 0x70: -CR_EINVAL");

	/* aligned: skip to the next 8-byte boundary, then an absolute pointer. */
	c = at(BYTES(0xee, 0xee, 0xee, 1, 1, 1, 1, 1, 0x2a, 0, 0, 0, 0, 0, 0, 0));
	cr_skip(c, 3);
	v = cr_encptr(c, DW_EH_PE_aligned, NULL);
	tap_ok(v == 0x2a && c->pos == BASE + 16, "aligned: skipped 5 pad bytes");
	c = at(BYTES(0x2a, 0, 0, 0, 0, 0, 0, 0));
	v = cr_encptr(c, DW_EH_PE_aligned, NULL);
	tap_ok(v == 0x2a && c->pos == BASE + 8, "aligned at a boundary: no padding");
	c = at(BYTES(0xee, 0x2a, 0, 0, 0, 0, 0, 0));
	cr_skip(c, 1);
	cr_encptr(c, DW_EH_PE_aligned, NULL);
	tap_is_i64(c->err, -CR_ERANGE, "aligned padding past end: -CR_ERANGE");
}

static void t_encptr_indirect(void)
{
	/* BASE: a 4-byte pcrel offset to BASE + 8, where the final pointer lives. */
	static const uint8_t b[] = { 8, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x77, 0x66, 0x55,
				     0x44, 0x33, 0x22, 0x11 };
	struct cr_cursor *c = at(b, sizeof(b));
	uint64_t v;

	v = cr_encptr(c, DW_EH_PE_indirect | DW_EH_PE_pcrel | DW_EH_PE_sdata4, NULL);
	tap_ok(v == 0x1122334455667788ull && c->err == 0 && c->pos == BASE + 4,
	       "indirect|pcrel|sdata4 reads through memory");
	c = at(b, sizeof(b));
	v = cr_encptr(c, DW_EH_PE_indirect | DW_EH_PE_udata4, NULL);
	tap_ok(v == 0 && c->err == -CR_EFAULT, "indirect to unreadable: -CR_EFAULT");
	c = at(b, 3);
	cr_encptr(c, DW_EH_PE_indirect | DW_EH_PE_udata4, NULL);
	tap_is_i64(c->err, -CR_ERANGE, "indirect truncated: -CR_ERANGE");

	c = at(b, sizeof(b));
	v = cr_encptr(c, DW_EH_PE_omit, NULL);
	tap_ok(v == 0 && c->err == 0 && c->pos == BASE, "omit: 0, nothing read");
	c = at(b, 0);
	v = cr_encptr(c, DW_EH_PE_omit, NULL);
	tap_ok(v == 0 && c->err == 0, "omit on an empty cursor");
}

/* cr_cursor_init_fill, and the pointers cr_encptr reads inline from the window. */
static void t_fill_inline(void)
{
	static const uint8_t b[] = { 0xaa, 0xbb, 0xf0, 0xff, 0xff, 0xff, 0x10, 0x00, 0x00, 0x80 };
	struct cr_cursor c;
	uint64_t v;

	cr_mem_buffer(&mem, BASE, b, sizeof(b));
	cr_cursor_init_fill(&c, &mem, BASE + 2, BASE + sizeof(b));
	tap_ok(c.wp == b + 2 && c.win_lo == BASE + 2 && c.win_hi == BASE + sizeof(b),
	       "init_fill: the window in place before the first read");
	v = cr_encptr(&c, DW_EH_PE_pcrel | DW_EH_PE_sdata4, NULL);
	tap_ok(v == BASE + 2 - 16 && c.pos == BASE + 6 && c.err == 0,
	       "pcrel|sdata4 inline: field address - 16");
	v = cr_encptr(&c, DW_EH_PE_sdata4, NULL);
	tap_ok(v == (uint64_t)(int64_t)(int32_t)0x80000010u && c.pos == BASE + 10 && c.err == 0,
	       "sdata4 inline: sign-extended");
	tap_ok(cr_encptr(&c, DW_EH_PE_sdata4, NULL) == 0 && c.err == -CR_ERANGE &&
		       c.pos == BASE + 10,
	       "sdata4 at the end: 0, -CR_ERANGE");
	tap_ok(cr_encptr(&c, DW_EH_PE_pcrel | DW_EH_PE_sdata4, NULL) == 0 && c.pos == BASE + 10,
	       "after an error: 0, pos kept");
	cr_cursor_init_fill(&c, &mem, BASE + 2, BASE + 5);
	tap_ok(cr_encptr(&c, DW_EH_PE_pcrel | DW_EH_PE_sdata4, NULL) == 0 &&
		       c.err == -CR_ERANGE && c.pos == BASE + 2,
	       "3 bytes left in the window: 0, -CR_ERANGE");
	cr_cursor_init_fill(&c, &mem, BASE + 2, BASE + sizeof(b));
	cr_u8(&c);
	tap_ok(cr_encptr(&c, DW_EH_PE_udata4, NULL) == 0x10ffffff && c.pos == BASE + 7,
	       "udata4: out of line, same window");
	cr_cursor_init_fill(&c, &mem, BASE + 4, BASE + 4);
	tap_ok(c.win_hi == c.win_lo && cr_u8(&c) == 0 && c.err == -CR_ERANGE,
	       "init_fill on an empty cursor: no window, reads fail");
}

/* A cr_mem that counts reads, over a buffer. */
static unsigned nreads;

static int counting_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	nreads++;
	if (addr < m->lo || addr > m->hi || len > m->hi - addr)
		return -CR_EFAULT;
	memcpy(dst, m->buf + (addr - m->lo), len);
	return 0;
}

static void t_fill_copy(void)
{
	static const uint8_t b[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct cr_cursor c;

	cr_mem_buffer(&mem, BASE, b, sizeof(b));
	mem.read = counting_read;	/* a hook of its own: no view in place */
	mem.view = NULL;
	nreads = 0;
	cr_cursor_init_fill(&c, &mem, BASE, BASE + sizeof(b));
	tap_ok(nreads == 0 && c.win_hi == c.win_lo, "init_fill without a view: nothing read");
	tap_ok(cr_u32(&c) == 0x04030201 && nreads == 1 && c.wp == c.win,
	       "... the first read copies the window");
	cr_mem_buffer(&mem, BASE, b, sizeof(b));
}

static void t_window(void)
{
	static uint8_t b[600];
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)i;
	cr_mem_buffer(&mem, BASE, b, sizeof(b));
	mem.read = counting_read;
	mem.view = NULL;
	nreads = 0;
	cr_cursor_init(&cur, &mem, BASE, BASE + 512);
	for (i = 0; i < 512; i++)
		sum += cr_u8(&cur);
	tap_ok(cur.err == 0 && sum == 2 * (255 * 256 / 2), "512 bytes read correctly");
	tap_is_u64(nreads, 2, "512 bytes: 2 reads of 256");

	/* A u64 straddling the window end refills at its start. */
	nreads = 0;
	cr_cursor_init(&cur, &mem, BASE, BASE + 600);
	cr_u8(&cur);
	cr_skip(&cur, 251);
	tap_is_u64(cr_u64(&cur), 0x03020100fffefdfcull, "u64 across the window end");
	tap_is_u64(nreads, 2, "straddling read: one refill");

	/* The window never reads past c->end. */
	nreads = 0;
	cr_cursor_init(&cur, &mem, BASE + 590, BASE + 600);
	cr_u64(&cur);
	tap_ok(cur.err == 0 && nreads == 1, "window clipped to end (memory ends there)");

	/* Data right before an unreadable page: the 256-byte window would cross
	   into it; the cursor falls back to reading up to the page boundary. */
	static uint8_t page_tail[64];

	for (i = 0; i < sizeof(page_tail); i++)
		page_tail[i] = (uint8_t)(0xc0 + i);
	cr_mem_buffer(&mem, 0x20000 - 64, page_tail, sizeof(page_tail));
	mem.read = counting_read;
	mem.view = NULL;
	nreads = 0;
	cr_cursor_init(&cur, &mem, 0x20000 - 64, 0x30000);
	tap_is_u64(cr_u8(&cur), 0xc0, "before an unreadable page: fallback read");
	tap_is_u64(nreads, 2, "fallback: one failed window, one page-bounded read");
	tap_is_u64(cur.win_hi, 0x20000, "fallback window ends at the page");
	cr_skip(&cur, 55);
	tap_is_u64(cr_u64(&cur), 0xfffefdfcfbfaf9f8ull, "last 8 bytes before the page");
	tap_is_u64(nreads, 2, "the fallback window covers up to the page end");
	cr_u8(&cur);
	tap_ok(cur.err == -CR_EFAULT && cur.pos == 0x20000, "first byte of the page: -CR_EFAULT");

	/* A u32 that itself crosses into the unreadable page fails. */
	cr_cursor_init(&cur, &mem, 0x20000 - 2, 0x30000);
	cr_u32(&cur);
	tap_is_i64(cur.err, -CR_EFAULT, "u32 across into the bad page: -CR_EFAULT");
}

/* Decode a mixed record once; results in out[0..1]. */
static int decode_mixed(const uint8_t *b, size_t len, unsigned long *fail_at, uint64_t out[2])
{
	uint64_t sum = 0, v;
	struct faultmem fm;

	cr_mem_buffer(&mem, BASE, b, len);
	cr_cursor_init(&cur, fail_at ? faultmem_init(&fm, &mem, fail_at) : &mem, BASE, BASE + len);
	for (unsigned i = 0; i < 300; i++)
		sum += cr_uleb(&cur);
	v = cr_encptr(&cur, DW_EH_PE_indirect | DW_EH_PE_pcrel | DW_EH_PE_udata4, NULL);
	sum += cr_u64(&cur);
	for (unsigned i = 0; i < 300; i++)
		sum += (uint64_t)cr_sleb(&cur);
	out[0] = sum;
	out[1] = v;
	return cur.err;
}

/* With the Nth read failing, for every N: an -CR_EFAULT or the right answer. */
static void t_faults(void)
{
	static uint8_t b[700];
	uint64_t want[2], got[2];
	unsigned long fail_at;
	unsigned n, bad = 0, faults = 0;
	int err;

	for (unsigned i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 7 + 1) & 0x7f;	/* every byte a 1-byte LEB */
	b[300] = 0x08;	/* pcrel|udata4: the pointer at BASE + 308 */
	b[301] = b[302] = b[303] = 0;
	err = decode_mixed(b, sizeof(b), NULL, want);
	memcpy(&got[1], b + 308, 8);
	tap_ok(err == 0 && want[1] == got[1], "mixed record decodes");
	for (n = 1; n < 100; n++) {
		fail_at = n;
		err = decode_mixed(b, sizeof(b), &fail_at, got);
		if (err == 0 && fail_at != 0) {
			bad += got[0] != want[0] || got[1] != want[1];
			break;	/* the Nth read never happened: done */
		}
		if (err == 0)
			bad += got[0] != want[0] || got[1] != want[1];
		else if (err == -CR_EFAULT)
			faults++;
		else
			bad++;
	}
	tap_ok(n < 100 && faults > 0, "fault injection: every N tried, faults reported");
	tap_is_u64(bad, 0, "fault injection: never a wrong answer or another error");
}

/*
 * Memory that can be read in place (a snapshot's buffer here, proven pages on
 * the live process): the window is the memory itself, up to the end of the
 * next page, never past the end; the inline reads and the bounds behave as
 * with a copy.
 */
static void t_in_place(void)
{
	static uint8_t b[3 * 4096];
	struct cr_cursor *c;
	uint64_t sum = 0;

	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 7);
	cr_mem_buffer(&mem, 0x40000, b, sizeof(b));
	cr_cursor_init(&cur, &mem, 0x40000 + 4000, 0x40000 + sizeof(b));
	c = &cur;
	tap_is_u64(cr_u8(c), (uint8_t)(4000 * 7), "in place: first byte");
	tap_ok(c->wp == b + 4000, "in place: the window is the buffer");
	tap_is_u64(c->win_hi, 0x40000 + 2 * 4096, "in place: up to the end of the next page");
	for (int i = 0; i < 8191 - 4000 - 1; i++)
		sum += cr_u8(c);
	tap_ok(c->err == 0 && c->pos == 0x40000 + 8191, "in place: through two pages");
	tap_is_u64(cr_u16(c), (uint16_t)((uint8_t)(8191 * 7) | (uint8_t)(8192 * 7) << 8),
		   "a u16 across the window end refills");
	tap_ok(c->wp == b + 8191, "refilled in place");

	/* The end is a hard limit: within the window too, once lowered. */
	cr_cursor_init(&cur, &mem, 0x40000, 0x40000 + 100);
	cr_u8(c);
	tap_is_u64(c->win_hi, 0x40000 + 100, "window clipped to the end");
	cr_cursor_limit(c, 0x40000 + 5);
	tap_is_u64(cr_u32(c), (uint32_t)(7 | 14 << 8 | 21 << 16 | 28 << 24), "a u32 up to the new end");
	tap_is_u64(cr_u8(c), 0, "past the lowered end: 0");
	tap_is_i64(c->err, -CR_ERANGE, "past the lowered end: -CR_ERANGE");
	tap_is_u64(c->pos, 0x40000 + 5, "past the lowered end: pos kept");
	cr_cursor_limit(c, 0x40000 + 50);
	tap_is_u64(c->end, 0x40000 + 5, "a higher end is ignored");

	/* After an error no inline read succeeds, even inside the old window. */
	cr_cursor_init(&cur, &mem, 0x40000, 0x40000 + 100);
	cr_u8(c);
	cr_skip(c, 1000);
	tap_is_i64(c->err, -CR_ERANGE, "skip past the end");
	tap_ok(cr_u8(c) == 0 && cr_u64(c) == 0 && cr_uleb(c) == 0 && cr_sleb(c) == 0 &&
		       c->pos == 0x40001,
	       "sticky in place: every read 0, pos kept");

	/* One-byte LEB128s inline, longer ones out of line, both in place. */
	static const uint8_t leb[] = { 0x05, 0x7f, 0x85, 0x01, 0xff, 0x7e };

	cr_mem_buffer(&mem, 0x50000, leb, sizeof(leb));
	cr_cursor_init(&cur, &mem, 0x50000, 0x50000 + sizeof(leb));
	tap_is_u64(cr_uleb(c), 5, "uleb 1 byte");
	tap_is_i64(cr_sleb(c), -1, "sleb 1 byte, negative");
	tap_is_u64(cr_uleb(c), 133, "uleb 2 bytes");
	tap_is_i64(cr_sleb(c), -129, "sleb 2 bytes");
	tap_ok(c->err == 0 && c->pos == 0x50000 + sizeof(leb), "all consumed");
	(void)sum;
}

/* A memory whose views are bounded (view_max): the longest view asked for. */
static size_t longest_view;

static const void *recording_view(const struct cr_mem *m, uint64_t addr, size_t len)
{
	if (len > longest_view)
		longest_view = len;
	return m->buf + (addr - m->lo);	/* (cr_mem_view checked the bounds) */
}

/* view_max bounds a window in place; a read longer than it still gets its bytes. */
static void t_view_max(void)
{
	static uint8_t b[3 * 4096];
	uint64_t sum = 0, want = 0;

	for (size_t i = 0; i < sizeof(b); i++) {
		b[i] = (uint8_t)(i * 5);
		want += b[i];
	}
	cr_mem_buffer(&mem, 0x40000, b, sizeof(b));
	mem.view = recording_view;
	mem.view_max = 64;
	longest_view = 0;
	cr_cursor_init(&cur, &mem, 0x40000, 0x40000 + sizeof(b));
	for (size_t i = 0; i < sizeof(b); i++)
		sum += cr_u8(&cur);
	tap_ok(cur.err == 0 && sum == want, "view_max 64: every byte of three pages");
	tap_is_u64(longest_view, 64, "view_max 64: no view longer than 64 bytes");
	tap_ok(cur.wp != cur.win, "view_max 64: read in place");
	mem.view_max = 4;
	longest_view = 0;
	cr_cursor_init(&cur, &mem, 0x40000 + 10, 0x40000 + sizeof(b));
	want = 0;
	for (unsigned i = 0; i < 8; i++)
		want |= (uint64_t)b[10 + i] << 8 * i;
	tap_is_u64(cr_u64(&cur), want, "view_max 4: a u64 whole");
	tap_is_u64(longest_view, 8, "view_max 4: a u64's view is its 8 bytes");
	mem.view_max = 0;
	longest_view = 0;
	cr_cursor_init(&cur, &mem, 0x40000 + 10, 0x40000 + sizeof(b));
	cr_u8(&cur);
	tap_is_u64(longest_view, 2 * 4096 - 10, "no view_max: up to the end of the next page");
	cr_mem_buffer(&mem, BASE, b, sizeof(b));
}

/* A view taken from one cursor starts another on the same bytes, within its rules. */
static void t_view(void)
{
	static uint8_t b[64];
	struct cr_mem other;
	struct cr_cursor a, c;
	struct cr_view v;

	for (unsigned i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i + 1);
	cr_mem_buffer(&mem, 0x60000, b, sizeof(b));
	cr_cursor_init(&a, &mem, 0x60000, 0x60000 + sizeof(b));
	cr_u8(&a);
	cr_cursor_view(&a, &v);
	tap_ok(v.p == b && v.lo == 0x60000 && v.hi == 0x60000 + sizeof(b) && v.mem == &mem,
	       "view: the in-place window");

	cr_cursor_init_view(&c, &mem, 0x60010, 0x60020, &v);
	tap_ok(c.wp == b && c.win_lo == 0x60000 && c.win_hi == 0x60020,
	       "init from a view: its window, clipped to the cursor's end");
	tap_is_u64(cr_u32(&c), 0x14131211, "reads at pos through the view");
	cr_skip(&c, 12 - 4);
	tap_is_u64(cr_u32(&c), 0x201f1e1d, "up to end");
	tap_is_u64(cr_u8(&c), 0, "past end: 0 (the view is longer)");
	tap_is_i64(c.err, -CR_ERANGE, "past end: -CR_ERANGE");

	cr_mem_buffer(&other, 0x60000, b, sizeof(b));
	cr_cursor_init_view(&c, &other, 0x60010, 0x60020, &v);
	tap_ok(c.win_hi == c.win_lo && cr_u8(&c) == 0x11 && c.err == 0,
	       "a view of other memory is not taken");
	cr_cursor_init_view(&c, &mem, 0x60000 + sizeof(b), 0x60000 + sizeof(b) + 4, &v);
	tap_ok(c.win_hi == c.win_lo, "pos outside the view: not taken");
	cr_cursor_init_view(&c, &mem, 0x60010, 0x60000, &v);
	tap_ok(c.win_hi == c.win_lo, "an empty cursor: not taken");
	cr_cursor_init_view(&c, &mem, 0x60010, 0x60020, NULL);
	tap_ok(c.win_hi == c.win_lo && cr_u8(&c) == 0x11, "no view");

	/* A copied window (no in-place view of this memory) gives no view. */
	mem.read = counting_read;	/* a hook of its own: windows are copies */
	mem.view = NULL;
	cr_cursor_init(&a, &mem, 0x60000, 0x60000 + sizeof(b));
	cr_u8(&a);
	cr_cursor_view(&a, &v);
	tap_ok(v.p == NULL && a.wp == a.win, "a copied window: no view");
}

int main(void)
{
	t_fixed();
	t_uleb();
	t_uleb_pair();
	t_sleb();
	t_skip();
	t_encptr_formats();
	t_encptr_apps();
	t_encptr_indirect();
	t_fill_inline();
	t_fill_copy();
	t_window();
	t_faults();
	t_in_place();
	t_view();
	t_view_max();
	return tap_done();
}
