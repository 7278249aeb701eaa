/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer targets for the file:line decoders, one binary per FUZZ_* target
 * (as tests/fuzz/fuzz.c): clang -fsanitize=fuzzer,address,undefined.
 *   FUZZ_INFLATE    libcrash/inflate.c: the input as a zlib stream (whole,
 *                   and lazily in steps that must give the same bytes), a
 *                   raw DEFLATE stream and an SHF_COMPRESSED section
 *   FUZZ_DWARFLINE  libcrash/dwarf/line.c: the input as .debug_line (and as
 *                   .debug_line_str and .debug_str), looked up at pcs the
 *                   input picks
 *   FUZZ_DWARFINFO  libcrash/dwarf/info.c: the input as every .debug_*
 *                   section at once (units, abbreviations, range lists,
 *                   string and address tables overlap), the unit for pcs the
 *                   input picks, its attributes, its inline chain and names;
 *                   built with CR_DWWALK_SMALL, so that a unit of 512 bytes
 *                   is walked through 256-byte windows
 *   FUZZ_DEBUGELF   libcrash/debuginfo.c: the input as a debug file's ELF
 *                   image (section headers, names, notes, debuglink), then
 *                   each compressed section it finds inflated lazily, a
 *                   prefix the input picks
 * A target passes if no input crashes it, reads out of bounds or trips
 * UBSan; the unit tests check exact results.
 */
#include <stdint.h>
#include <string.h>

#if defined(FUZZ_INFLATE)
#include "inflate.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

/* zlib level 9 of 192 bytes of text: one dynamic block, codes of its own. */
static const uint8_t other[] = {
	0x78, 0xda, 0xb5, 0x8c, 0xd7, 0x15, 0x40, 0x30, 0x14, 0x86, 0x57, 0xf9, 0x27, 0x70, 0xf4,
	0x72, 0xac, 0x61, 0x01, 0x25, 0x21, 0x44, 0x2e, 0x21, 0x4a, 0xa6, 0x77, 0x97, 0xf0, 0xfc,
	0x95, 0x66, 0x12, 0xd8, 0x9d, 0xea, 0x17, 0x74, 0x96, 0x6e, 0x03, 0x49, 0x0f, 0x66, 0xb7,
	0x6e, 0x07, 0xe8, 0x12, 0x16, 0x27, 0x63, 0xdd, 0xfa, 0x17, 0x03, 0x8d, 0x35, 0xb6, 0x96,
	0xbd, 0xf5, 0x45, 0xc7, 0xd2, 0xad, 0xce, 0x09, 0x52, 0x5d, 0x82, 0x91, 0x17, 0x06, 0x5a,
	0xed, 0x8e, 0x2c, 0xb7, 0xe3, 0x11, 0x20, 0x8c, 0xe2, 0x24, 0xcd, 0xf2, 0xa2, 0xac, 0x9a,
	0x9f, 0xff, 0x1f, 0x8b, 0xb7, 0x42, 0x31
};

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static struct cr_inflate st;
	static uint8_t out[1 << 16], lazy[1 << 16], scratch[192];
	struct cr_inflate_lazy z;
	size_t got, cap;
	int whole;

	if (n < 1)
		return 0;
	/* The first byte picks the output room: tight rooms reach -CR_ERANGE. */
	cap = d[0] & 0x80 ? sizeof(out) : (size_t)d[0] * 64;
	whole = cr_inflate_zlib(&st, d + 1, n - 1, out, cap, &got) == 0 && got == cap;
	/* Lazily, each call asking 97 bytes and a quarter more than the last,
	   stopping inside blocks, a one-shot decode of another stream between
	   calls taking the scratch's codes away: where the stream fills cap
	   exactly, the same bytes. */
	if (cr_inflate_lazy_init(&z, d + 1, n - 1, lazy, cap) == 0) {
		for (size_t want = 97; z.state == 0; want += 97 + want / 4) {
			if (cr_inflate_lazy_more(&st, &z, want) < 0)
				break;
			if (cr_inflate_zlib(&st, other, sizeof(other), scratch, sizeof(scratch),
					    &got) != 0)
				__builtin_trap();
			if (want > 2 * cap + 200)
				__builtin_trap();	/* the stream neither ended nor failed */
		}
		if (whole && (z.state != 1 || z.n != cap))
			__builtin_trap();
		if (z.state == 1 && !whole)
			__builtin_trap();
	}
	if (whole && cr_inflate_zlib(&st, d + 1, n - 1, out, cap, &got) == 0 &&
	    memcmp(out, lazy, cap) != 0)
		__builtin_trap();
	cr_inflate_raw(&st, d + 1, n - 1, out, cap, &got);
	cr_inflate_section(&st, d + 1, n - 1, out, cap, &got);
	return 0;
}
#elif defined(FUZZ_DWARFLINE)
#include "dwarf/line.h"

#define BASE 0x10000ull

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

/* The line program's window's memory (src.probe): a copy as pread would
   make, failing from line_fail on. */
static struct cr_mem line_pm;
static uint64_t line_fail;

static int line_probe_read(const struct cr_mem *m, uint64_t at, void *dst, size_t len)
{
	if (at < m->lo || at > m->hi || len > m->hi - at || at + len > line_fail)
		return -CR_EFAULT;
	memcpy(dst, m->buf + (at - m->lo), len);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct cr_mem m;
	struct cr_dwline_src src;
	struct cr_dwline_row row;
	char path[64];
	uint64_t pc;

	if (n < 8)
		return 0;
	/* Bytes 0-7: the pcs; the rest is every section.  The driver writes
	   units by hand, so the library's own bounds do the work. */
	cr_mem_buffer(&m, BASE, d + 8, n - 8);
	src.line = (struct cr_dwsect){ &m, BASE, BASE + n - 8 };
	src.line_str = (struct cr_dwsect){ &m, BASE, BASE + n - 8 };
	src.str = (struct cr_dwsect){ d[0] & 1 ? &m : NULL, BASE, BASE + n - 8 };
	src.probe = NULL;
	memcpy(&pc, d, 8);
	pc &= 0xffff;
	for (unsigned k = 0; k < 4; k++) {
		cr_dwline_find(&src, 0, pc + k * 0x41, d[1] & 2 ? "/comp" : NULL, &row, path,
			       d[1] & 4 ? sizeof(path) : 12);
		cr_dwline_find(&src, d[2] % 64, pc + k, NULL, &row, NULL, 0);
	}
	/* find_many (its in-place runner, run_fast) gives each pc find's row. */
	uint64_t pcs[4];
	struct cr_dwline_row rows[4];
	uint8_t found[4];

	for (unsigned k = 0; k < 4; k++)
		pcs[k] = pc + k * 0x13;
	/* And through windows (CR_DWWALK_SMALL: programs of 512 bytes and
	   more), of a size the input picks, read by a probe that copies, or
	   fails from a point on: the same rows. */
	static uint8_t win[CR_DWLINE_SLACK + 512];
	struct cr_dwline_row wrows[4];
	uint8_t wfound[4];

	line_fail = d[3] & 1 ? BASE + (uint64_t)d[4] * 8 : UINT64_MAX;
	line_pm = (struct cr_mem){ .read = line_probe_read, .lo = BASE, .hi = BASE + n - 8 };
	line_pm.buf = d + 8;
	src.probe = &line_pm;
	cr_dwline_find_many(&src, d[2] % 64, pcs, 4, rows, found);
	cr_dwline_find_many_win(&src, d[2] % 64, pcs, 4, wrows, wfound, win,
				CR_DWLINE_SLACK + 1 + d[5] % 512, NULL);
	for (unsigned k = 0; k < 4; k++) {
		int r = cr_dwline_find(&src, d[2] % 64, pcs[k], NULL, &row, NULL, 0);

		if ((r == 0) != (found[k] == 1) ||
		    (r == 0 && (row.addr != rows[k].addr || row.end != rows[k].end ||
				row.file != rows[k].file || row.line != rows[k].line ||
				row.column != rows[k].column || row.is_stmt != rows[k].is_stmt ||
				row.discriminator != rows[k].discriminator)))
			__builtin_trap();
		if (wfound[k] != found[k] ||
		    (found[k] && (wrows[k].addr != rows[k].addr || wrows[k].end != rows[k].end ||
				  wrows[k].file != rows[k].file || wrows[k].line != rows[k].line ||
				  wrows[k].column != rows[k].column ||
				  wrows[k].is_stmt != rows[k].is_stmt ||
				  wrows[k].discriminator != rows[k].discriminator ||
				  wrows[k].version != rows[k].version)))
			__builtin_trap();
	}
	return 0;
}
#elif defined(FUZZ_DWARFINFO)
#include "dwarf/info.h"

#define BASE 0x10000ull

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

/* The window's memory (the source's probe): a copy as pread would make,
   failing from fail_at on when the input says so. */
static struct cr_mem pm;
static uint64_t fail_at;
static int (*copy_read)(const struct cr_mem *, uint64_t, void *, size_t);

static int failing_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	if (addr + len > fail_at)
		return -CR_EFAULT;
	return copy_read(m, addr, dst, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct cr_mem m;
	struct cr_dwinfo_src src;
	struct cr_dwframe fr[8];
	struct cr_dwcu cu;
	struct cr_dwsect s;
	char buf[32];
	uint64_t pc, off;
	unsigned nf;

	if (n < 8)
		return 0;
	/* Bytes 0-7: the pc and switches; the rest is every section. */
	cr_mem_buffer(&m, BASE, d + 8, n - 8);
	s = (struct cr_dwsect){ &m, BASE, BASE + n - 8 };
	src = (struct cr_dwinfo_src){ s, s, s, s, s, s, s, s, s, NULL };
	if (d[0] & 1)
		src.aranges.mem = NULL;
	memcpy(&pc, d, 8);
	pc = (pc >> 8) & 0xffff;
	for (unsigned k = 0; k < 3; k++) {
		if (cr_dwinfo_find_cu(&src, pc + k * 0x10, &off) == 0 &&
		    cr_dwinfo_unit(&src, off, &cu) == 0 &&
		    cr_dwinfo_inlines(&src, &cu, pc + k * 0x10, fr, d[1] & 1 ? 8 : 2, &nf) == 0)
			for (unsigned i = 0; i < nf; i++)
				cr_dwinfo_str(&fr[i].name, buf, sizeof(buf));
		/* A unit where the input says, whatever find_cu thinks. */
		if (cr_dwinfo_unit(&src, d[2] % 64, &cu) == 0) {
			static struct cr_dwabbrevs ab;
			struct cr_dwframe fr2[8];
			unsigned nf2 = 0;
			int r1, r2;

			cr_dwinfo_str(&cu.name, buf, sizeof(buf));
			r1 = cr_dwinfo_inlines(&src, &cu, pc + k, fr, 8, &nf);
			/* The decoded abbreviations must change nothing. */
			ab.mem = NULL;
			r2 = cr_dwinfo_inlines_ab(&src, &cu, pc + k, fr2, 8, &nf2, &ab);
			if (r1 != r2 || (r1 == 0 && nf != nf2))
				__builtin_trap();
			for (unsigned i = 0; r1 == 0 && i < nf; i++)
				if (fr[i].die != fr2[i].die || fr[i].low != fr2[i].low ||
				    fr[i].name.pos != fr2[i].name.pos || fr[i].call_line != fr2[i].call_line ||
				    fr[i].call_file != fr2[i].call_file || fr[i].inlined != fr2[i].inlined)
					__builtin_trap();
			/* Nor the unit's record made by a first walk for another pc;
			   nor, with d[0] bit 1, a window over a unit of CR_DWWALK_WIN_MIN
			   bytes or more (run.sh builds this target with CR_DWWALK_SMALL:
			   256-byte windows from 512-byte units), read by a copy as
			   pread would, through a memory whose reads fail from
			   d[4] * 16 bytes on when d[0] bit 2 says so. */
			static struct cr_dwwalk_sub subs[CR_DWWALK_SUBS];
			static uint8_t win[CR_DWWALK_WIN];
			struct cr_dwwalks w;

			memset(&w, 0, sizeof(w));
			w.sub = subs;
			if (d[0] & 2) {
				cr_mem_buffer(&pm, BASE, d + 8, n - 8);
				pm.view = NULL;	/* copies only */
				copy_read = pm.read;
				pm.read = (d[0] & 4) ? failing_read : pm.read;
				fail_at = BASE + (uint64_t)d[4] * 16;
				src.probe = &pm;
				w.win = win;
			}
			cr_dwinfo_inlines_wk(&src, &cu, pc + k + d[3], fr2, 8, &nf2, &ab, &w);
			r2 = cr_dwinfo_inlines_wk(&src, &cu, pc + k, fr2, 8, &nf2, &ab, &w);
			src.probe = NULL;
			if (r1 != r2 || (r1 == 0 && nf != nf2))
				__builtin_trap();
			for (unsigned i = 0; r1 == 0 && i < nf; i++)
				if (fr[i].die != fr2[i].die || fr[i].low != fr2[i].low ||
				    fr[i].name.pos != fr2[i].name.pos || fr[i].call_line != fr2[i].call_line ||
				    fr[i].call_file != fr2[i].call_file || fr[i].inlined != fr2[i].inlined)
					__builtin_trap();
		}
	}
	return 0;
}
#elif defined(FUZZ_DEBUGELF)
#include "debuginfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static struct cr_inflate st;
	static uint8_t out[1 << 16];
	struct cr_dbgsec sec[CR_DS_N];
	struct cr_inflate_lazy z;
	uint8_t id[32];
	unsigned idlen;
	uint32_t crc;
	char link[64];

	if (n < 1)
		return 0;
	if (cr_dbg_elf(d + 1, n - 1, sec, link, sizeof(link), &crc, id, &idlen) < 0)
		return 0;
	for (int k = 0; k < CR_DS_N; k++) {
		const uint8_t *p = d + 1 + sec[k].off;

		if (!sec[k].compressed || sec[k].size < 24)
			continue;
		/* As debuginfo.c: the header's size is the output's (bounded here). */
		if (cr_inflate_lazy_init(&z, p + 24, (size_t)sec[k].size - 24, out,
					 (size_t)d[0] * 256) == 0)
			cr_inflate_lazy_more(&st, &z, (size_t)d[0] * 128);
	}
	return 0;
}
#elif defined(FUZZ_ZSTD)
/*
 * libcrash/unzstd.c: byte 0 picks the output's room (256 * d[0]), the rest
 * is Zstandard frames, decoded whole and lazily in steps of 1000 bytes; the
 * two must agree on whether the input fills the room exactly, and on its bytes.
 */
#include "unzstd.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static struct cr_unzstd st;
	static uint8_t out[1 << 16], lazy[1 << 16];
	struct cr_unzstd_lazy z;
	size_t got, room;
	int ret, whole;

	if (n < 1)
		return 0;
	room = (size_t)d[0] * 256;
	ret = cr_unzstd(&st, d + 1, n - 1, out, room, &got);
	whole = ret == 0 && got == room;
	if (cr_unzstd_lazy_init(&z, d + 1, n - 1, lazy, room) < 0) {
		if (whole)
			__builtin_trap();
		return 0;
	}
	for (size_t w = 1; z.state == 0; w += 1000)
		cr_unzstd_lazy_more(&st, &z, w);
	if (whole != (z.state == 1) || (whole && memcmp(out, lazy, room) != 0))
		__builtin_trap();
	return 0;
}
#endif
