/* SPDX-License-Identifier: MIT */
/*
 * .eh_frame_hdr lookup and .eh_frame CIE/FDE decoding (LSB 5.0 "Exception
 * Frames", DWARF 5 6.4.1).  Every entry is bounded by its length field and by
 * the section bounds we were given; every loop by a constant.
 */
/*
 * No jump tables for this file's switches (gcc: compare trees instead): gcc
 * puts them in .rodata, a page that no other part of a process's first
 * capture reads, and the capture paid a page fault for it (~3 us on the test
 * machine: docs/performance.md, issue 20).  Before every function, the
 * headers' inline ones too, so that all have the same options (gcc inlines
 * only between those).  clang has no such pragma: its build keeps them.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-jump-tables")
#endif
#include <string.h>

#include "cache.h"
#include "cfi.h"

#define AUG_KEEP 16	/* augmentation letters kept; more are "unknown" */
#define HDR_VIEW_PAGES 2	/* pages from the hdr's viewed with it (parse_hdr) */
_Static_assert(HDR_VIEW_PAGES <= CR_VIEW_PAGES, "one view");
/*
 * A long table's ways (parse_hdr, struct table, next_probe) begin at 2
 * pages and 1,024 entries; tests/fuzz/run.sh's EHSMALL target builds this
 * file with CR_EH_SMALL, where they begin within a fuzzer's 4 KiB input.
 */
#ifdef CR_EH_SMALL
#define HDR_VIEW_BYTES 256
#define GUIDED_COUNT 16
#define GUIDED_MIN 4
#define NEAR 2
#else
#define HDR_VIEW_BYTES (HDR_VIEW_PAGES * 4096)
#define GUIDED_COUNT 1024
#define GUIDED_MIN 64
#define NEAR 16
#endif
#define AUG_MAX 256	/* longest augmentation string read */
#define HDR_TABLE_ENC (DW_EH_PE_datarel | DW_EH_PE_sdata4)	/* what linkers emit */

/* Where entries may lie: [lo, hi).  lo 0: unknown. */
struct span {
	uint64_t lo, hi;
};

/* Truncated data is malformed data: the cursor's past-the-end error becomes -CR_EINVAL. */
static int cerr(const struct cr_cursor *c)
{
	return c->err == -CR_ERANGE ? -CR_EINVAL : c->err;
}

/*
 * The common head of a CIE or FDE at c->pos: length (LSB: 0xffffffff means an
 * 8-byte extended length follows) and the 4-byte CIE id / CIE pointer (LSB
 * keeps it 4 bytes in .eh_frame even with an extended length).
 * CR_END: a zero length, the terminator.  *end: where the entry ends.
 */
CR_HOT static int head(struct cr_cursor *c, uint64_t hi, uint64_t *end, uint64_t *id_addr, uint64_t *id)
{
	uint64_t len = cr_u32(c);

	if (len == 0xffffffff)
		len = cr_u64(c);
	if (c->err)
		return cerr(c);
	if (len == 0)
		return CR_END;
	if (len > hi - c->pos || len < 4)
		return -CR_EINVAL;	/* past the section, or no room for the id */
	*end = c->pos + len;
	*id_addr = c->pos;
	*id = cr_u32(c);
	return c->err ? cerr(c) : 0;
}

/*
 * head() at addr in place, for what nearly every entry is: the cursor's view
 * (cr_cursor_init_fill) starts at addr and holds the 4-byte length and the
 * id, and the length is one head() accepts.  1: what head() gives, c->pos
 * after the id; 0: nothing changed, head() decides (no view, an extended
 * length, the terminator, a bad length).  The view never passes c->end = hi,
 * so win_hi - addr >= 8 makes hi - (addr + 4) below free of wrapping.
 */
static inline __attribute__((always_inline)) int head_in_place(struct cr_cursor *c, uint64_t addr,
							       uint64_t hi, uint64_t *end,
							       uint64_t *id_addr, uint64_t *id)
{
	uint32_t len, v;

	if (c->wp == c->win || c->win_lo != addr || c->pos != addr || c->win_hi - addr < 8 ||
	    c->err)
		return 0;
	memcpy(&len, c->wp, 4);
	if (len == 0 || len == 0xffffffff || len < 4 || len > hi - (addr + 4))
		return 0;
	memcpy(&v, c->wp + 4, 4);
	*end = addr + 4 + len;
	*id_addr = addr + 4;
	*id = v;
	c->pos = addr + 8;
	return 1;
}

/* The augmentation string; *n letters kept in aug[], *more if it was longer. */
CR_HOT static void aug_string(struct cr_cursor *c, char aug[AUG_KEEP], unsigned *n, int *more)
{
	unsigned i;
	uint8_t ch;

	*n = 0;
	*more = 0;
	for (i = 0; i < AUG_MAX; i++) {
		ch = cr_u8(c);
		if (c->err || ch == 0)
			break;
		if (*n < AUG_KEEP - 1)
			aug[(*n)++] = (char)ch;
		else
			*more = 1;
	}
	aug[*n] = 0;
	if (i == AUG_MAX && !c->err)
		c->err = -CR_EINVAL;
}

/*
 * The augmentation letters from aug[i] on (LSB 5.0 "Augmentation String
 * Format"): 'z' (must come first) gives the length of the data of all other
 * letters, so an unknown letter after it just ends the parsing.  Without 'z'
 * the data of an unknown letter cannot be skipped: -CR_EINVAL.
 */
CR_HOT static int aug_data(struct cr_cursor *c, const struct cr_ehsrc *src, const char *aug,
		    unsigned i, int more, uint64_t entry_end, struct cr_cie *cie)
{
	uint64_t aug_end = entry_end;
	uint8_t penc;

	if (aug[i] == 'z') {
		uint64_t len = cr_uleb(c);

		if (c->err)
			return cerr(c);
		if (len > entry_end - c->pos)
			return -CR_EINVAL;
		aug_end = c->pos + len;
		cie->aug_z = 1;
		i++;
	}
	for (; aug[i]; i++) {
		switch (aug[i]) {
		case 'R':
			cie->fde_enc = cr_u8(c);
			break;
		case 'L':
			cie->lsda_enc = cr_u8(c);
			break;
		case 'P':
			penc = cr_u8(c);
			cie->personality = cr_encptr(c, penc, &src->bases);
			break;
		case 'S':
			cie->signal = 1;
			break;
		case 'B':	/* AArch64 BTI/"B key" marker: no data */
			break;
		default:
			if (!cie->aug_z)
				return -CR_EINVAL;
			goto done;
		}
	}
	if (more && !cie->aug_z)
		return -CR_EINVAL;
done:
	if (c->err)
		return cerr(c);
	if (c->pos > aug_end)
		return -CR_EINVAL;
	c->pos = aug_end;
	return 0;
}

/* The CIE at addr.  Writes *cie on success only. */
CR_HOT static int parse_cie(const struct cr_mem *m, const struct cr_ehsrc *src, const struct span *sp,
		     uint64_t addr, struct cr_cie *out)
{
	struct cr_cursor c;
	struct cr_cie cie;
	char aug[AUG_KEEP];
	uint64_t end, id_addr, id;
	unsigned n, i = 0;
	int more, ret;

	if (addr < sp->lo || addr >= sp->hi)
		return -CR_EINVAL;
	cr_cursor_init_fill(&c, m, addr, sp->hi);
	if ((ret = head(&c, sp->hi, &end, &id_addr, &id)) != 0)
		return ret < 0 ? ret : -CR_EINVAL;
	if (id != 0)
		return -CR_EINVAL;	/* .eh_frame: CIE id 0 (LSB), not .debug_frame's ~0 */
	cr_cursor_limit(&c, end);
	memset(&cie, 0, sizeof(cie));
	cie.fde_enc = DW_EH_PE_absptr;
	cie.lsda_enc = DW_EH_PE_omit;
	cie.version = cr_u8(&c);
	aug_string(&c, aug, &n, &more);
	if (c.err)
		return cerr(&c);
	if (cie.version != 1 && cie.version != 3 && cie.version != 4)
		return -CR_EINVAL;
	if (aug[0] == 'e' && aug[1] == 'h') {
		cr_skip(&c, 8);	/* old GCC: the address of the EH data, a pointer */
		i = 2;
	}
	if (cie.version == 4 && (cr_u8(&c) != 8 || cr_u8(&c) != 0))
		return c.err ? cerr(&c) : -CR_EINVAL;	/* address_size 8, segment_size 0 */
	cie.code_align = cr_uleb(&c);
	cie.data_align = cr_sleb(&c);
	/* DWARF 2 (version 1) has a ubyte return column, DWARF 3+ a ULEB128. */
	id = cie.version == 1 ? cr_u8(&c) : cr_uleb(&c);
	if (c.err)
		return cerr(&c);
	if (id > 0xffff)
		return -CR_EINVAL;
	cie.ra = (uint16_t)id;
	if ((ret = aug_data(&c, src, aug, i, more, end, &cie)) < 0)
		return ret;
	if (cie.fde_enc == DW_EH_PE_omit)
		return -CR_EINVAL;	/* every FDE needs its pc_begin */
	cie.insns = c.pos;
	cie.insns_end = end;
	cie.bases = src->bases;
	cie.addr = addr;
	cie.modkey = src->modkey;
	*out = cie;
	return 0;
}

/*
 * The CIE that the FDE's CIE pointer (at id_addr, value id) refers to.  With
 * init not NULL, *init_ok says whether *init holds the rules of its initial
 * instructions, read from the CIE memo with it (struct cr_fde).
 */
CR_HOT static int fde_cie(const struct cr_mem *m, const struct cr_ehsrc *src, const struct span *sp,
		   uint64_t fde, uint64_t id_addr, uint64_t id, struct cr_cie *cie,
		   struct cr_cie_init *init, uint8_t *init_ok)
{
	/* LSB: the pointer is subtracted from its own address; the CIE comes first. */
	if (id > id_addr || id_addr - id >= fde)
		return -CR_EINVAL;
	if (init)
		*init_ok = 0;
	/* Live memory: a CIE parsed before (cr_cfa_run keeps it, cache.h). */
	if (src->modkey && cr_cie_memo_get(id_addr - id, src->modkey, cie, init) == 0 &&
	    cie->addr >= sp->lo && cie->addr < sp->hi) {
		if (init)
			*init_ok = 1;
		return 0;
	}
	return parse_cie(m, src, sp, id_addr - id, cie);
}

/* The rest of an FDE after its CIE pointer: pc range, augmentation data. */
CR_HOT static int fde_body(struct cr_cursor *c, const struct cr_ehsrc *src, struct cr_fde *fde)
{
	struct cr_cie *cie = &fde->cie;
	uint64_t range, aug_end = c->end;

	cie->bases = src->bases;
	fde->pc_lo = cr_encptr(c, cie->fde_enc, &cie->bases);
	/* The range is a length: the encoding's format only (LSB "PC Range"). */
	range = cr_encptr(c, cie->fde_enc & 0x0f, NULL);
	if (c->err)
		return cerr(c);
	if (fde->pc_lo + range < fde->pc_lo)
		return -CR_EINVAL;
	fde->pc_hi = fde->pc_lo + range;
	cie->bases.func = fde->pc_lo;
	if (cie->aug_z) {
		uint64_t len = cr_uleb(c);

		if (c->err)
			return cerr(c);
		if (len > c->end - c->pos)
			return -CR_EINVAL;
		aug_end = c->pos + len;
	}
	fde->lsda = 0;
	if (cie->lsda_enc != DW_EH_PE_omit)
		fde->lsda = cr_encptr(c, cie->lsda_enc, &cie->bases);
	if (c->err)
		return cerr(c);
	if (c->pos > aug_end)
		return -CR_EINVAL;
	if (cie->aug_z)
		c->pos = aug_end;
	fde->insns = c->pos;
	fde->insns_end = c->end;
	return 0;
}

/*
 * The FDE in place at p (the cursor's view, c->wp at c->pos == addr), in the
 * form every linker and compiler of this decade writes: a 4-byte length, the
 * whole entry in the view, a CIE with 'z', pcrel|sdata4 pointers and no LSDA,
 * an augmentation length of one byte.  What fde_body gives for it, with loads
 * at fixed offsets instead of the cursor's reads (LSB 5.0 "Frame Description
 * Entry Format": length 4, CIE pointer 4, PC begin 4, PC range 4, augmentation
 * length 1, then the instructions).  1: *fde written (its pc range, lsda,
 * instructions and view; the caller checks pc against the range); 0: not this
 * form, or anything odd in it: the general decoding decides, from the start.
 */
#define FAST_ENC (DW_EH_PE_pcrel | DW_EH_PE_sdata4)

/*
 * The fixed fields of an FDE of that form at p (its address addr, room
 * bytes of it in place, the section sp): not the extended length, room for
 * the fields, inside the section and the room, a one-byte augmentation
 * length inside the entry, a pc range that does not wrap.  1 with
 * [*pc_lo, *pc_hi), the instructions' offset from addr (*insns) and the
 * entry's length (*len); 0 if not.  fast_fde's and cr_eh_find_lite's.
 */
static inline __attribute__((always_inline)) int fixed_fde(const uint8_t *p, uint64_t addr,
							    uint64_t room, const struct span *sp,
							    uint64_t *pc_lo, uint64_t *pc_hi,
							    unsigned *insns, uint64_t *len)
{
	uint64_t range;
	uint32_t u;
	int32_t lo, r;

	memcpy(&u, p, 4);
	*len = u;
	if (*len == 0xffffffff || *len < 13 || *len > sp->hi - addr - 4 || *len > room - 4 ||
	    (p[16] & 0x80) || p[16] > *len - 13)
		return 0;
	memcpy(&lo, p + 8, 4);
	memcpy(&r, p + 12, 4);
	*pc_lo = addr + 8 + (uint64_t)(int64_t)lo;	/* pcrel: from the field's address */
	range = (uint64_t)(int64_t)r;			/* sdata4, as cr_encptr reads it */
	if (*pc_lo + range < *pc_lo)
		return 0;
	*pc_hi = *pc_lo + range;
	*insns = 17u + p[16];
	return 1;
}

CR_HOT static int fast_fde(const struct cr_cursor *c, const struct cr_ehsrc *src, const struct span *sp,
		    uint64_t addr, struct cr_fde *fde)
{
	const uint8_t *p = c->wp;
	uint64_t len;
	unsigned insns;

	if (p == c->win || c->win_lo != addr || c->win_hi - addr < 17 || c->err)
		return 0;	/* not in place, or too short for the form */
	if (fde->cie.fde_enc != FAST_ENC || fde->cie.lsda_enc != DW_EH_PE_omit || !fde->cie.aug_z)
		return 0;
	if (!fixed_fde(p, addr, c->win_hi - addr, sp, &fde->pc_lo, &fde->pc_hi, &insns, &len))
		return 0;
	fde->cie.bases = src->bases;
	fde->cie.bases.func = fde->pc_lo;
	fde->lsda = 0;
	fde->insns = addr + insns;
	fde->insns_end = addr + 4 + len;
	fde->view.mem = c->mem;
	fde->view.p = p;
	fde->view.lo = addr;
	fde->view.hi = addr + 4 + len;
	return 1;
}

/*
 * The FDE at addr into *out, on success only; with pc not NULL, success needs
 * the FDE to cover *pc (else -CR_ENOINFO: pc in a gap between FDEs).
 */
CR_HOT static int parse_fde(const struct cr_mem *m, const struct cr_ehsrc *src, const struct span *sp,
		     uint64_t addr, const uint64_t *pc, struct cr_fde *out)
{
	struct cr_cursor c;
	struct cr_fde fde;
	uint64_t end, id_addr, id;
	int ret;

	if (addr < sp->lo || addr >= sp->hi)
		return -CR_EINVAL;
	cr_cursor_init_fill(&c, m, addr, sp->hi);
	if (!head_in_place(&c, addr, sp->hi, &end, &id_addr, &id) &&
	    (ret = head(&c, sp->hi, &end, &id_addr, &id)) != 0)
		return ret < 0 ? ret : -CR_EINVAL;	/* the terminator is no FDE */
	if (id == 0)
		return -CR_EINVAL;	/* a CIE */
	if ((ret = fde_cie(m, src, sp, addr, id_addr, id, &fde.cie, &fde.init, &fde.init_ok)) < 0)
		return ret;
	if (fast_fde(&c, src, sp, addr, &fde)) {
		if (pc && (*pc < fde.pc_lo || *pc >= fde.pc_hi))
			return -CR_ENOINFO;
		fde.addr = addr;
		*out = fde;
		return 0;
	}
	cr_cursor_limit(&c, end);
	if ((ret = fde_body(&c, src, &fde)) < 0)
		return ret;
	if (pc && (*pc < fde.pc_lo || *pc >= fde.pc_hi))
		return -CR_ENOINFO;
	cr_cursor_view(&c, &fde.view);
	fde.addr = addr;
	*out = fde;
	return 0;
}

static struct span eh_span(const struct cr_ehsrc *src, uint64_t eh_frame)
{
	struct span sp = { eh_frame, src->eh_frame_end ? src->eh_frame_end : UINT64_MAX };

	return sp;
}

int cr_eh_parse_fde(const struct cr_mem *m, const struct cr_ehsrc *src, uint64_t addr,
		    struct cr_fde *fde)
{
	struct span sp = eh_span(src, src->eh_frame);

	return parse_fde(m, src, &sp, addr, NULL, fde);
}

/*
 * Linear scan of .eh_frame, for modules without a usable .eh_frame_hdr table.
 * One cursor walks the whole section (one read per 256 bytes), decoding only
 * each FDE's pc range; the last CIE seen is kept, since linkers share a few
 * CIEs among all FDEs.  At most CR_EH_SCAN_MAX entries: a bound on the work
 * for a corrupt or huge section, well above the ~1e5 FDEs of the largest
 * libraries.
 */
static int linear(const struct cr_mem *m, const struct cr_ehsrc *src, const struct span *sp,
		  uint64_t pc, struct cr_fde *fde)
{
	uint64_t start, end, id_addr, id, lo, range, cie_at = 0;
	struct cr_cursor c;
	struct cr_cie cie;
	unsigned n;
	int ret;

	cr_cursor_init(&c, m, sp->lo, sp->hi);
	for (n = 0; n < CR_EH_SCAN_MAX; n++) {
		if (c.pos >= sp->hi)
			return -CR_ENOINFO;	/* section end without a terminator */
		start = c.pos;
		if ((ret = head(&c, sp->hi, &end, &id_addr, &id)) != 0)
			return ret < 0 ? ret : -CR_ENOINFO;
		if (id != 0) {
			if (id_addr - id != cie_at || !cie_at) {
				if ((ret = fde_cie(m, src, sp, start, id_addr, id, &cie, NULL,
						   NULL)) < 0)
					return ret;
				cie_at = id_addr - id;
			}
			lo = cr_encptr(&c, cie.fde_enc, &src->bases);
			range = cr_encptr(&c, cie.fde_enc & 0x0f, NULL);
			if (c.err)
				return cerr(&c);
			if (c.pos > end)
				return -CR_EINVAL;
			if (pc >= lo && pc - lo < range)
				return parse_fde(m, src, sp, start, NULL, fde);
		}
		c.pos = end;
	}
	return -CR_ERANGE;
}

/*
 * cr_mem_view (mem.h), always inline in this file's capture code: where gcc
 * does not inline it, its out-of-line copy lands in plain .text, away from
 * a capture's code (common.h: CR_HOT), a page fault more for a first
 * capture.  Not always inline everywhere: the symbolizer's unity crash
 * (bench/symbols) took 0.14 ms longer with that, the same system calls and
 * page faults (docs/performance.md, stop 33).
 */
static inline __attribute__((always_inline)) const void *hot_view(const struct cr_mem *m,
								  uint64_t addr, size_t len)
{
	if (!m->view || len == 0 || addr + len < addr)
		return NULL;
	return m->view(m, addr, len);
}

/* What .eh_frame_hdr says (LSB 5.0 ".eh_frame_hdr"): struct cr_ehhdr, cfi.h. */

CR_HOT static int parse_hdr(const struct cr_mem *m, const struct cr_ehsrc *src, struct cr_ehhdr *h)
{
	uint64_t end = src->eh_hdr_len ? src->eh_hdr + src->eh_hdr_len : UINT64_MAX;
	uint8_t version, frame_enc, count_enc, table_enc;
	struct cr_bases b = src->bases;
	struct cr_cursor c;
	const uint8_t *p;
	uint64_t vlen;

	if (end < src->eh_hdr)
		return -CR_EINVAL;
	h->at = NULL;
	/*
	 * What every linker writes (version 1, eh_frame_ptr pcrel|sdata4,
	 * fde_count udata4, the table datarel|sdata4), read in place: the
	 * general decoding below gives the same.  The table in place too, in
	 * one view with the hdr, where it fits in the HDR_VIEW_PAGES pages from
	 * the hdr's (an executable's, most libraries'), so that the search needs
	 * no view of its own; a longer one (libc's 3,700 entries span 8 pages)
	 * whole where that costs no proof (a module remembered: a capture
	 * after a process's first), else a page at a time, as the search
	 * reaches it (struct table).  The view ends where the table does:
	 * eh_hdr_len bounds the hdr, it is not its size (for a module
	 * _dl_find_object knows, the rest of its span: module.c), and every
	 * page of a view is a page proven, a system call each (~0.25 us) for a
	 * first capture, and a page fault if
	 * nothing had touched it (the executable's .bss past its .eh_frame:
	 * docs/performance.md, issue 20).
	 */
	p = end - src->eh_hdr >= 12 ? hot_view(m, src->eh_hdr, 12) : NULL;
	if (p && p[0] == 1 && p[1] == (DW_EH_PE_pcrel | DW_EH_PE_sdata4) &&
	    p[2] == DW_EH_PE_udata4 && p[3] == HDR_TABLE_ENC) {
		const uint8_t *t;
		int32_t frame;
		uint32_t count;

		memcpy(&frame, p + 4, 4);
		memcpy(&count, p + 8, 4);
		h->eh_frame = src->eh_hdr + 4 + (uint64_t)(int64_t)frame;
		h->table = src->eh_hdr + 12;
		h->count = count > (end - h->table) / 8 ? 0 : count;
		vlen = 12 + 8 * h->count;
		if (h->count && vlen + (src->eh_hdr & 4095) <= HDR_VIEW_BYTES &&
		    (t = hot_view(m, src->eh_hdr, vlen)) != NULL)
			h->at = t + 12;
		else if (h->count && vlen <= CR_VIEW_PAGES * 4096 - (src->eh_hdr & 4095) &&
			 (t = cr_mem_view_free(m, src->eh_hdr, vlen)) != NULL)
			h->at = t + 12;	/* longer, and no page of it to prove (mem.h) */
		return 0;
	}
	h->at = NULL;
	b.data = src->eh_hdr;	/* datarel in the hdr: relative to its start */
	cr_cursor_init(&c, m, src->eh_hdr, end);
	version = cr_u8(&c);
	frame_enc = cr_u8(&c);
	count_enc = cr_u8(&c);
	table_enc = cr_u8(&c);
	if (c.err)
		return cerr(&c);
	if (version != 1)
		return -CR_EINVAL;
	h->eh_frame = cr_encptr(&c, frame_enc, &b);
	h->count = count_enc == DW_EH_PE_omit ? 0 : cr_encptr(&c, count_enc, &b);
	if (c.err)
		return cerr(&c);
	h->table = c.pos;
	/* Only the sorted 8-byte table is searchable; a table too big for the
	   hdr is not trusted.  Both cases leave the linear scan. */
	if (table_enc != HDR_TABLE_ENC || h->count > (end - c.pos) / 8)
		h->count = 0;
	return 0;
}

/*
 * The table: in place where the memory lets us, else an entry at a time
 * through the reader.  In place either whole (parse_hdr's view, a table in
 * the hdr's first HDR_VIEW_PAGES pages) or a page at a time, as the search
 * reaches it (the window): every page of a view is a page proven, a system
 * call each in a first capture, and a search touches a few of a long
 * table's pages (libc's 3,700 entries span 8; docs/performance.md, issue
 * 20).
 */
struct table {
	const struct cr_mem *m;
	const uint8_t *at;	/* NULL: not whole in place */
	uint64_t addr, base, count;	/* the table; the hdr, which its entries are relative to */
	const uint8_t *win;	/* entries [w0, w1) in place at win */
	uint64_t w0, w1;
};

/* The window onto the entries of entry i's page (an entry across two pages:
   that one alone).  0, or -1 (no view: the reader). */
CR_HOT static __attribute__((noinline)) int window(struct table *t, uint64_t i)
{
	uint64_t pg = (t->addr + 8 * i) & ~4095ull, i0, i1;
	const uint8_t *p;

	if (!t->m->view || pg > UINT64_MAX - 4096)
		return -1;
	i0 = pg <= t->addr ? 0 : (pg - t->addr + 7) / 8;
	i1 = (pg + 4096 - t->addr) / 8;	/* the entries whole inside the page */
	if (i1 > t->count)
		i1 = t->count;
	if (i < i0 || i >= i1) {
		i0 = i;
		i1 = i + 1;
	}
	if (!(p = hot_view(t->m, t->addr + 8 * i0, (size_t)(8 * (i1 - i0)))))
		return -1;
	t->win = p;
	t->w0 = i0;
	t->w1 = i1;
	return 0;
}

/* Table entry i: initial location and FDE address, both relative to the hdr. */
static inline __attribute__((always_inline)) int entry(struct table *t, uint64_t i,
							uint64_t *loc, uint64_t *fde)
{
	int32_t v[2];

	if (t->at)
		memcpy(v, t->at + 8 * i, sizeof(v));
	else if ((i >= t->w0 && i < t->w1) || window(t, i) == 0)
		memcpy(v, t->win + 8 * (i - t->w0), sizeof(v));
	else if (cr_read(t->m, t->addr + 8 * i, v, sizeof(v)) < 0)
		return -CR_EFAULT;
	*loc = t->base + (uint64_t)(int64_t)v[0];
	if (fde)
		*fde = t->base + (uint64_t)(int64_t)v[1];
	return 0;
}

/*
 * The search's next probe between a and b (b - a > GUIDED_MIN), step n, in
 * a table of more than GUIDED_COUNT entries (2 pages' worth).  Its first
 * GUIDED steps alternate: a guess where pc would lie if the functions
 * between lo_val (a's location) and hi_val (b's, or the last entry's where
 * b is past it) were of one size, then a probe NEAR entries on from the
 * guess, towards where the guess sent the search (up: loc[a] <= pc), to
 * close pc in.  Functions are near enough one size that a long table's
 * search stays on the page of its guess and the table's two ends (a page
 * proven for each, not one for each halving nor the whole table: libc's
 * first capture proves 2 of its 8, its hdr's page being remembered).
 * Halving in a shorter table (the whole of it in place: no proof to spare,
 * and a guess costs more instructions than it saves), from GUIDED_MIN
 * entries down (a page holds 512), and after GUIDED steps: at most
 * GUIDED + 64 steps in all, whatever the table holds.
 */
#define GUIDED 14
_Static_assert(GUIDED_MIN > NEAR, "a probe NEAR on stays inside");
static inline __attribute__((always_inline)) uint64_t next_probe(unsigned n, uint64_t a,
								  uint64_t b, uint64_t count,
								  uint64_t lo_val, uint64_t hi_val,
								  uint64_t pc, int up)
{
	uint64_t top = b < count ? b : b - 1, g;

	if (n & 1)	/* b - a > GUIDED_MIN > NEAR: inside either way */
		return up ? a + NEAR : b - NEAR;
	if (pc >= hi_val)	/* past the last entry's location (b == count) */
		return top;
	if (hi_val <= lo_val || pc - lo_val > UINT32_MAX || top - a > UINT32_MAX)
		return a + (b - a) / 2;
	g = a + (pc - lo_val) * (top - a) / (hi_val - lo_val);
	return g <= a ? a + 1 : g >= b ? b - 1 : g;
}

/*
 * The search's start, from the first and last entries' locations: 0 (on
 * with the steps), 1 (not sorted), -CR_ENOINFO (pc below the first); locs[1]
 * the first's location.
 */
static inline __attribute__((always_inline)) int bracket(uint64_t lo_val, uint64_t hi_val,
							  uint64_t pc, uint64_t locs[2])
{
	if (lo_val > hi_val)
		return 1;
	locs[1] = lo_val;
	return pc < lo_val ? -CR_ENOINFO : 0;
}

/*
 * The halving steps on a table in place (at: its entries, relative to
 * base), each entry's location alone loaded, from the invariant loc[*a] <=
 * pc < loc[*b] (*lo_val and *hi_val their locations; *b == count: past the
 * end) until *b is *a + 1.  0, or 1: a location outside the two (not
 * sorted).  At most 64 steps: b - a halves at each.
 */
static inline __attribute__((always_inline)) int halve_at(const uint8_t *at, uint64_t base,
							   uint64_t pc, uint64_t *a, uint64_t *b,
							   uint64_t *lo_val, uint64_t *hi_val)
{
	uint64_t lo = *a, hi = *b, lv = *lo_val, hv = *hi_val, mid, loc;
	int32_t v;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		memcpy(&v, at + 8 * mid, 4);
		loc = base + (uint64_t)(int64_t)v;
		if (loc < lv || loc > hv)
			return 1;
		if (loc <= pc) {
			lo = mid;
			lv = loc;
		} else {
			hi = mid;
			hv = loc;
		}
	}
	*a = lo;
	*b = hi;
	*lo_val = lv;
	*hi_val = hv;
	return 0;
}

/*
 * Binary search for the last entry with location <= pc.  Returns 0 (*fde_at
 * set; locs: its location and the next entry's, UINT64_MAX past the last),
 * -CR_ENOINFO (pc below the first entry, locs[1] its location), 1 (the table
 * is not sorted: scan linearly), -CR_EFAULT.
 *
 * Unsorted detection, cheap and only where we look: first <= last, and every
 * probed location lies between the locations of the two entries bracketing
 * the search (which a sorted table guarantees).  A table that is unsorted
 * only off the search path gives the answer a sorted one would; the caller's
 * pc_lo <= pc < pc_hi check on the FDE catches a wrong pick.
 *
 * A short table in place (most modules': an executable's, a library of a
 * few hundred functions) straight to the halving steps, without struct
 * table, which the compiler keeps in memory for window() (a first capture's
 * decodes: 40 instructions a frame of bench/chain, issue 20).
 */
static inline __attribute__((always_inline)) int search(const struct cr_mem *m,
							 const struct cr_ehsrc *src,
							 const struct cr_ehhdr *h, uint64_t pc,
							 uint64_t *fde_at, uint64_t locs[2])
{
	uint64_t a = 0, b = h->count, lo_val, hi_val, loc, mid;
	struct table t;
	unsigned n;
	int ret;

	if (h->at && h->count <= GUIDED_COUNT) {
		const uint8_t *at = h->at;
		uint64_t base = src->eh_hdr;
		int32_t v[2];

		memcpy(v, at, 4);
		lo_val = base + (uint64_t)(int64_t)v[0];
		memcpy(v, at + 8 * (b - 1), 4);
		hi_val = base + (uint64_t)(int64_t)v[0];
		if ((ret = bracket(lo_val, hi_val, pc, locs)) != 0 ||
		    halve_at(at, base, pc, &a, &b, &lo_val, &hi_val))
			return ret ? ret : 1;
		locs[0] = lo_val;
		locs[1] = b < h->count ? hi_val : UINT64_MAX;	/* hi_val: b's */
		memcpy(v, at + 8 * a, 8);
		*fde_at = base + (uint64_t)(int64_t)v[1];
		return 0;
	}
	t = (struct table){ m, h->at, h->table, src->eh_hdr, h->count, NULL, 0, 0 };
	if (entry(&t, 0, &lo_val, NULL) < 0 || entry(&t, b - 1, &hi_val, NULL) < 0)
		return -CR_EFAULT;
	if ((ret = bracket(lo_val, hi_val, pc, locs)) != 0)
		return ret;
	/* Invariant: loc[a] <= pc, and pc < loc[b] (b == count: past the end). */
	n = 0;
	if (h->count > GUIDED_COUNT)	/* a long table: guesses first (next_probe) */
		for (int up = 1; n < GUIDED && b - a > GUIDED_MIN; n++) {
			mid = next_probe(n, a, b, h->count, lo_val, hi_val, pc, up);
			if (entry(&t, mid, &loc, NULL) < 0)
				return -CR_EFAULT;
			if (loc < lo_val || loc > hi_val)
				return 1;
			if ((up = loc <= pc)) {
				a = mid;
				lo_val = loc;
			} else {
				b = mid;
				hi_val = loc;
			}
		}
	if (t.at) {
		/* The same steps on the table in place, each entry's location
		   alone loaded: the loop below with entry()'s choice and the
		   FDE half hoisted out (about half its instructions a step). */
		if (halve_at(t.at, t.base, pc, &a, &b, &lo_val, &hi_val))
			return 1;
		locs[1] = b < h->count ? hi_val : UINT64_MAX;	/* hi_val: b's */
		return entry(&t, a, &locs[0], fde_at);
	}
	for (; n < GUIDED + 64 && b - a > 1; n++) {
		mid = a + (b - a) / 2;
		if (entry(&t, mid, &loc, NULL) < 0)
			return -CR_EFAULT;
		if (loc < lo_val || loc > hi_val)
			return 1;
		if (loc <= pc) {
			a = mid;
			lo_val = loc;
		} else {
			b = mid;
			hi_val = loc;
		}
	}
	locs[1] = b < h->count ? hi_val : UINT64_MAX;
	return entry(&t, a, &locs[0], fde_at);
}

CR_HOT int cr_eh_hdr(const struct cr_mem *m, const struct cr_ehsrc *src, struct cr_ehhdr *h)
{
	h->eh_frame = 0;
	h->table = 0;
	h->count = 0;
	h->at = NULL;
	h->ret = src->eh_hdr ? parse_hdr(m, src, h) : -CR_ENOINFO;
	return h->ret;
}

/*
 * cr_eh_find_in, and with gap not NULL, where it answers -CR_ENOINFO from
 * the table's search, the stretch [gap[0], gap[1]) of pcs it answers so for
 * (gap[1] > gap[0]; else unknown, and gap[0] = gap[1] = 0): below the first
 * entry, or from the end of the FDE of the last entry at or below pc (and
 * that entry's location) to the next entry's.  Every pc there finds the
 * same entry in a sorted table (the LSB requires one), whose FDE does not
 * cover it.  Inline: cr_eh_find_in (a first capture's lookups) keeps its
 * code without the gap's.
 */
static inline __attribute__((always_inline)) int find_in(const struct cr_mem *m,
							  const struct cr_ehsrc *src,
							  const struct cr_ehhdr *h, uint64_t pc,
							  struct cr_fde *fde, uint64_t *gap)
{
	struct span sp;
	uint64_t at, locs[2];
	struct cr_fde f;
	int ret = h->ret;

	if (gap)
		gap[0] = gap[1] = 0;
	if (src->eh_hdr && ret < 0 && !src->eh_frame)
		return ret;
	sp = eh_span(src, src->eh_frame ? src->eh_frame : h->eh_frame);
	if (ret == 0 && h->count) {
		ret = search(m, src, h, pc, &at, locs);
		if (ret == -CR_ENOINFO && gap) {
			gap[1] = locs[1];	/* (gap[0] 0: below the first entry) */
			return ret;
		}
		if (ret < 0)
			return ret;
		if (ret == 0 && !gap)
			return parse_fde(m, src, &sp, at, &pc, fde);
		if (ret == 0) {
			/* The FDE whole, then its range: where it ends is the gap's start. */
			if ((ret = parse_fde(m, src, &sp, at, NULL, &f)) < 0)
				return ret;
			if (pc >= f.pc_lo && pc < f.pc_hi) {
				*fde = f;
				return 0;
			}
			if (pc >= f.pc_hi) {
				gap[0] = f.pc_hi > locs[0] ? f.pc_hi : locs[0];
				gap[1] = locs[1];
			}
			return -CR_ENOINFO;
		}
	}
	if (!sp.lo)
		return -CR_ENOINFO;	/* no .eh_frame to scan */
	return linear(m, src, &sp, pc, fde);	/* (writes *fde on success only) */
}

CR_HOT int cr_eh_find_in(const struct cr_mem *m, const struct cr_ehsrc *src,
			 const struct cr_ehhdr *h, uint64_t pc, struct cr_fde *fde)
{
	return find_in(m, src, h, pc, fde, NULL);
}

/*
 * 1 if an FDE's LSDA pointer in encoding enc fits its n bytes of
 * augmentation data, as fde_body reads it (a pointer past them is an
 * error there): none, or an absolute or pc-relative one of a fixed size,
 * not indirect (whose read could fail).  The shape needs no LSDA, only where
 * the instructions start, which the augmentation length says: C++
 * functions with exception tables (GCC and clang: pcrel|sdata4).
 */
static int lsda_fits(uint8_t enc, unsigned n)
{
	if (enc == DW_EH_PE_omit)
		return 1;
	if ((enc & DW_EH_PE_indirect) ||
	    ((enc & 0x70) != DW_EH_PE_absptr && (enc & 0x70) != DW_EH_PE_pcrel))
		return 0;
	switch (enc & 0x0f) {
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		return n >= 4;
	case DW_EH_PE_absptr:
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		return n >= 8;
	}
	return 0;
}

/*
 * cr_eh_find_lite's CIE where the memo does not have it: parsed, its rules
 * from its initial instructions (cr_cfa_cie_rules), into the memo and *fl
 * (fl->enc as cr_cie_memo_lite gives them).  0, or 1: cr_cfa_run decides.
 */
CR_HOT static __attribute__((noinline)) int lite_cie(const struct cr_mem *m, const struct cr_ehsrc *src,
					      const struct span *sp, uint64_t addr,
					      struct cr_fde_lite *fl)
{
	static const uint8_t none[1];	/* an empty program's bytes */
	uint8_t *enc = fl->enc;
	struct cr_cie cie;
	const uint8_t *p = none;

	if (parse_cie(m, src, sp, addr, &cie) < 0 ||
	    (cie.insns_end > cie.insns &&
	     !(p = cr_mem_view(m, cie.insns, (size_t)(cie.insns_end - cie.insns)))) ||
	    cr_cfa_cie_rules(p, (size_t)(cie.insns_end - cie.insns), &cie, &fl->init) != 0)
		return 1;
	cr_cie_memo_put(addr, src->modkey, &cie, &fl->init);
	fl->code_align = cie.code_align;
	fl->data_align = cie.data_align;
	fl->ra = cie.ra;
	fl->signal = cie.signal;
	enc[0] = cie.fde_enc;
	enc[1] = cie.lsda_enc;
	enc[2] = cie.aug_z;
	return 0;
}

CR_HOT int cr_eh_find_lite_carry(const struct cr_mem *m, const struct cr_ehsrc *src,
				 const struct cr_ehhdr *h, uint64_t pc, struct cr_fde_lite *fl)
{
	struct span sp;
	uint64_t at, locs[2], len, id, cie_addr, want;
	const uint8_t *p;
	unsigned insns;
	uint32_t u;

	if (h->ret != 0 || !h->count || !src->modkey || search(m, src, h, pc, &at, locs) != 0)
		return 1;
	sp = eh_span(src, src->eh_frame ? src->eh_frame : h->eh_frame);
	/* The entry in place (LSB 5.0 "Frame Description Entry Format", as
	   fast_fde reads it): a view of LITE_VIEW bytes holds most FDEs whole
	   (a small function's); a longer one takes a second view. */
#define LITE_VIEW 64
	want = sp.hi - at < LITE_VIEW ? sp.hi - at : LITE_VIEW;
	if (at < sp.lo || at >= sp.hi || want < 17 || !(p = hot_view(m, at, (size_t)want)))
		return 1;
	memcpy(&u, p, 4);
	len = u;
	memcpy(&u, p + 4, 4);
	id = u;
	/* Inside the section (to view it whole); an FDE's CIE lies before it
	   (fde_cie), in the section; then the form's fields. */
	if (len > sp.hi - at - 4 || id == 0 || id > at + 4 || (cie_addr = at + 4 - id) >= at ||
	    cie_addr < sp.lo || (len + 4 > want && !(p = hot_view(m, at, (size_t)len + 4))) ||
	    !fixed_fde(p, at, len + 4 > want ? len + 4 : want, &sp, &fl->pc_lo, &fl->pc_hi, &insns,
		       &len))
		return 1;
	/* The CIE: the one fl holds (carry), else the memo's, else parsed.
	   While its fields are being written fl holds no CIE. */
	if (!fl->cie_at || fl->cie_at != cie_addr || fl->cie_mod != src->modkey) {
		fl->cie_at = 0;
		fl->base_arch = NULL;
		if (cr_cie_memo_lite(cie_addr, src->modkey, fl, fl->enc) != 0 &&
		    lite_cie(m, src, &sp, cie_addr, fl) != 0)
			return 1;
		fl->cie_at = cie_addr;
		fl->cie_mod = src->modkey;
	}
	if (fl->enc[0] != FAST_ENC || !fl->enc[2] || !lsda_fits(fl->enc[1], p[16]) ||
	    pc < fl->pc_lo || pc >= fl->pc_hi)
		return 1;
	fl->insns = p + insns;
	fl->len = (size_t)(len + 4 - insns);
	return 0;
}

int cr_eh_find_lite(const struct cr_mem *m, const struct cr_ehsrc *src,
		    const struct cr_ehhdr *h, uint64_t pc, struct cr_fde_lite *fl)
{
	fl->cie_at = 0;	/* no CIE kept */
	return cr_eh_find_lite_carry(m, src, h, pc, fl);
}

int cr_eh_find_gap(const struct cr_mem *m, const struct cr_ehsrc *src, uint64_t pc,
		   struct cr_fde *fde, uint64_t gap[2])
{
	struct cr_ehhdr h;

	cr_eh_hdr(m, src, &h);
	return find_in(m, src, &h, pc, fde, gap);
}

CR_HOT int cr_eh_find(const struct cr_mem *m, const struct cr_ehsrc *src, uint64_t pc,
	       struct cr_fde *fde)
{
	struct cr_ehhdr h;

	cr_eh_hdr(m, src, &h);
	return cr_eh_find_in(m, src, &h, pc, fde);
}
