/* SPDX-License-Identifier: MIT */
/*
 * dwarf/info.c: hand-made .debug_abbrev/.debug_info/.debug_aranges/
 * .debug_ranges/.debug_rnglists/.debug_addr/.debug_str(_offsets)/
 * .debug_line_str of two units: DWARF 4 32-bit and DWARF 5 64-bit, every
 * form (the ones we read and the ones we skip), abstract origins,
 * specifications, a reference into another unit, low/high pairs and range
 * lists of both versions, nested inlines; exact results out.  Malformed
 * twins: every truncation of a unit, a reference out of its unit, an
 * abbreviation code that does not exist, a cycle of references, nesting past
 * the bound, unknown forms and unit types, every failing read.  The walk in
 * place (decode_fast, walk_fast) on a unit as GCC writes C++: the decoded
 * declarations and the DIEs it takes, exactly; every truncation and changed
 * byte against the walk that reads every DIE.
 */
#include <stdlib.h>

#include "../tap.h"
#include "dwarf/info.h"
#include "faultmem.h"

#define INFO 0x10000ull
#define ABBREV 0x20000ull
#define ARANGES 0x30000ull
#define RANGES 0x40000ull
#define RNGLISTS 0x50000ull
#define ADDR 0x60000ull
#define STR 0x70000ull
#define STROFF 0x80000ull
#define LSTR 0x90000ull

struct buf {
	uint8_t b[8192];
	size_t n;
};

static struct buf info, abbrev, aranges, ranges, rnglists, addr, str, stroff, lstr;
static struct cr_mem mem[9];
static struct cr_dwinfo_src src;

static void put(struct buf *b, uint64_t v, unsigned size)
{
	memcpy(b->b + b->n, &v, size);	/* little-endian host */
	b->n += size;
}

static void patch(struct buf *b, size_t at, uint64_t v, unsigned size)
{
	memcpy(b->b + at, &v, size);
}

static void uleb(struct buf *b, uint64_t v)
{
	do {
		uint8_t byte = v & 0x7f;

		v >>= 7;
		b->b[b->n++] = byte | (v ? 0x80 : 0);
	} while (v);
}

static void sleb(struct buf *b, int64_t v)
{
	for (;;) {
		uint8_t byte = v & 0x7f;

		v >>= 7;
		if ((v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40))) {
			b->b[b->n++] = byte;
			return;
		}
		b->b[b->n++] = byte | 0x80;
	}
}

static size_t cstr(struct buf *b, const char *s)
{
	size_t at = b->n;

	memcpy(b->b + b->n, s, strlen(s) + 1);
	b->n += strlen(s) + 1;
	return at;
}

/* An abbreviation: code, tag, children, then (attribute, form) pairs up to 0, 0. */
static void decl(uint64_t code, uint64_t tag, int children, const unsigned *spec)
{
	uleb(&abbrev, code);
	uleb(&abbrev, tag);
	put(&abbrev, children, 1);
	for (; spec[0] || spec[1]; spec += 2) {
		uleb(&abbrev, spec[0]);
		uleb(&abbrev, spec[1]);
		if (spec[1] == DW_FORM_implicit_const)
			sleb(&abbrev, 5);	/* every implicit_const here is 5 */
	}
	uleb(&abbrev, 0);
	uleb(&abbrev, 0);
}

static void map(void)
{
	struct buf *b[9] = { &info, &abbrev, &aranges, &ranges, &rnglists, &addr, &str, &stroff,
			     &lstr };
	uint64_t at[9] = { INFO, ABBREV, ARANGES, RANGES, RNGLISTS, ADDR, STR, STROFF, LSTR };
	struct cr_dwsect *s[9] = { &src.info, &src.abbrev, &src.aranges, &src.ranges,
				   &src.rnglists, &src.addr, &src.str, &src.str_offsets,
				   &src.line_str };

	for (int i = 0; i < 9; i++) {
		cr_mem_buffer(&mem[i], at[i], b[i]->b, b[i]->n);
		*s[i] = (struct cr_dwsect){ b[i]->n ? &mem[i] : NULL, at[i], at[i] + b[i]->n };
	}
}

/* Offsets the checks use. */
static size_t cu0, cu0_end, cu1, cu1_end, d_decl, d_spec, d_leaf, d_inl_origin, cu0_len_at;
static size_t d_spec_ref, d_outer_code, cu2;

#define A(...) ((const unsigned[]){ __VA_ARGS__, 0, 0 })

/* Unit 0: DWARF 4, 32-bit, abbreviations at 0. */
static void build_cu0(void)
{
	size_t sib, sib2, s_comp = cstr(&str, "/src"), s_link = cstr(&str, "_Z5innerv");

	decl(1, DW_TAG_compile_unit, 1,
	     A(DW_AT_name, DW_FORM_string, DW_AT_comp_dir, DW_FORM_strp, DW_AT_low_pc, DW_FORM_addr,
	       DW_AT_high_pc, DW_FORM_data4, DW_AT_stmt_list, DW_FORM_sec_offset, DW_AT_language,
	       DW_FORM_data1));
	decl(2, DW_TAG_subprogram, 1,
	     A(DW_AT_name, DW_FORM_string, DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc, DW_FORM_data8,
	       DW_AT_sibling, DW_FORM_ref4));
	decl(3, DW_TAG_subprogram, 0, A(DW_AT_name, DW_FORM_string, 0x20, DW_FORM_data1));
	decl(4, DW_TAG_subprogram, 0,
	     A(DW_AT_linkage_name, DW_FORM_strp, DW_AT_name, DW_FORM_string));
	decl(5, DW_TAG_subprogram, 0, A(DW_AT_specification, DW_FORM_ref4));
	decl(6, DW_TAG_inlined_subroutine, 1,
	     A(DW_AT_abstract_origin, DW_FORM_ref4, DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc,
	       DW_FORM_data4, DW_AT_call_file, DW_FORM_data1, DW_AT_call_line, DW_FORM_udata,
	       DW_AT_call_column, DW_FORM_data2));
	decl(7, DW_TAG_inlined_subroutine, 1,
	     A(DW_AT_abstract_origin, DW_FORM_ref_udata, DW_AT_ranges, DW_FORM_sec_offset,
	       DW_AT_call_file, DW_FORM_udata, DW_AT_call_line, DW_FORM_data2));
	decl(8, DW_TAG_lexical_block, 1,
	     A(DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc, DW_FORM_udata));
	/* Every form we only skip, one DW_FORM_indirect among them. */
	decl(9, 0x34, 0,
	     A(0x40, DW_FORM_block1, 0x41, DW_FORM_block2, 0x42, DW_FORM_block4, 0x43,
	       DW_FORM_block, 0x02, DW_FORM_exprloc, 0x44, DW_FORM_data16, 0x45, DW_FORM_flag,
	       0x46, DW_FORM_flag_present, 0x1c, DW_FORM_sdata, 0x48, DW_FORM_ref_sig8, 0x49,
	       DW_FORM_ref_sup4, 0x4a, DW_FORM_strp_sup, 0x4b, DW_FORM_ref_sup8, 0x4c,
	       DW_FORM_loclistx, 0x4d, DW_FORM_indirect, 0x4e, DW_FORM_GNU_ref_alt, 0x4f,
	       DW_FORM_GNU_strp_alt, 0x50, DW_FORM_ref1, 0x51, DW_FORM_ref2, 0x52, DW_FORM_ref8,
	       0x53, DW_FORM_data2, 0x54, DW_FORM_data8, 0x55, DW_FORM_implicit_const, 0x56,
	       DW_FORM_ref_addr));
	uleb(&abbrev, 0);

	cu0 = info.n;
	cu0_len_at = info.n;
	put(&info, 0, 4);	/* unit_length, patched */
	put(&info, 4, 2);
	put(&info, 0, 4);	/* debug_abbrev_offset */
	put(&info, 8, 1);
	uleb(&info, 1);
	cstr(&info, "a.c");
	put(&info, s_comp, 4);
	put(&info, 0x1000, 8);
	put(&info, 0x1000, 4);
	put(&info, 0, 4);
	put(&info, 0x04, 1);	/* DW_LANG_C_plus_plus */
	d_decl = info.n;
	uleb(&info, 4);
	put(&info, s_link, 4);
	cstr(&info, "inner");
	d_spec = info.n;
	uleb(&info, 5);
	d_spec_ref = info.n;
	put(&info, d_decl - cu0, 4);
	d_leaf = info.n;
	uleb(&info, 3);
	cstr(&info, "leafname");
	put(&info, 1, 1);
	uleb(&info, 9);
	put(&info, 2, 1), put(&info, 0xaaaa, 2);
	put(&info, 1, 2), put(&info, 0xbb, 1);
	put(&info, 3, 4), put(&info, 0xcccccc, 3);
	uleb(&info, 1), put(&info, 0xdd, 1);
	uleb(&info, 2), put(&info, 0x9c9c, 2);
	put(&info, 1, 8), put(&info, 2, 8);
	put(&info, 1, 1);
	sleb(&info, -300);
	put(&info, 7, 8);
	put(&info, 7, 4);
	put(&info, 7, 4);
	put(&info, 7, 8);
	uleb(&info, 300);
	uleb(&info, DW_FORM_string), cstr(&info, "indirect");
	put(&info, 9, 4);
	put(&info, 9, 4);
	put(&info, d_leaf - cu0, 1);
	put(&info, d_leaf - cu0, 2);
	put(&info, d_leaf - cu0, 8);
	put(&info, 0xffff, 2);
	put(&info, 0xffffffffffull, 8);
	put(&info, d_leaf, 4);
	d_outer_code = info.n;
	uleb(&info, 2);
	cstr(&info, "outer");
	put(&info, 0x1100, 8);
	put(&info, 0x100, 8);
	sib = info.n;
	put(&info, 0, 4);
	uleb(&info, 8);
	put(&info, 0x1100, 8);
	uleb(&info, 0x80);
	d_inl_origin = info.n + 1;
	uleb(&info, 6);
	put(&info, d_spec - cu0, 4);
	put(&info, 0x1110, 8);
	put(&info, 0x40, 4);
	put(&info, 1, 1);
	uleb(&info, 10);
	put(&info, 3, 2);
	uleb(&info, 7);
	uleb(&info, d_leaf - cu0);
	put(&info, 0, 4);	/* .debug_ranges offset 0 */
	uleb(&info, 2);
	put(&info, 20, 2);
	uleb(&info, 0);	/* end of 7's children */
	uleb(&info, 0);	/* end of 6's */
	uleb(&info, 0);	/* end of 8's */
	uleb(&info, 0);	/* end of outer's */
	patch(&info, sib, info.n - cu0, 4);
	uleb(&info, 2);
	cstr(&info, "other");
	put(&info, 0x1200, 8);
	put(&info, 0x10, 8);
	sib2 = info.n;
	put(&info, 0, 4);
	uleb(&info, 0);
	patch(&info, sib2, info.n - cu0, 4);
	uleb(&info, 0);	/* end of the unit's children */
	cu0_end = info.n;
	patch(&info, cu0_len_at, info.n - cu0 - 4, 4);

	/* .debug_ranges: relative to the unit's low_pc, then a base selection. */
	put(&ranges, 0x120, 8), put(&ranges, 0x124, 8);
	put(&ranges, UINT64_MAX, 8), put(&ranges, 0x1000, 8);
	put(&ranges, 0x130, 8), put(&ranges, 0x138, 8);
	put(&ranges, 0, 8), put(&ranges, 0, 8);

	/* .debug_aranges: unit 0 only, version 2, 32-bit, tuples aligned to 16. */
	put(&aranges, 44, 4);
	put(&aranges, 2, 2);
	put(&aranges, cu0, 4);
	put(&aranges, 8, 1);
	put(&aranges, 0, 1);
	put(&aranges, 0, 4);
	put(&aranges, 0x1000, 8), put(&aranges, 0x1000, 8);
	put(&aranges, 0, 8), put(&aranges, 0, 8);
}

/* Unit 1: DWARF 5, 64-bit, its own abbreviation table. */
static void build_cu1(void)
{
	size_t tab = abbrev.n, s_name = cstr(&str, "v5.c"), s_f5 = cstr(&str, "f5"),
	       s_deep = cstr(&str, "_Z4deepv"), l_comp = cstr(&lstr, "/v5"), len_at, deep_ref, d5;

	decl(1, DW_TAG_compile_unit, 1,
	     A(DW_AT_name, DW_FORM_strx1, DW_AT_comp_dir, DW_FORM_line_strp, DW_AT_low_pc,
	       DW_FORM_addrx, DW_AT_high_pc, DW_FORM_data4, DW_AT_stmt_list, DW_FORM_sec_offset,
	       DW_AT_str_offsets_base, DW_FORM_sec_offset, DW_AT_addr_base, DW_FORM_sec_offset,
	       DW_AT_rnglists_base, DW_FORM_sec_offset, DW_AT_language, DW_FORM_data2));
	decl(2, DW_TAG_subprogram, 1,
	     A(DW_AT_name, DW_FORM_strx2, DW_AT_low_pc, DW_FORM_addrx1, DW_AT_high_pc, DW_FORM_data4));
	decl(3, DW_TAG_inlined_subroutine, 1,
	     A(DW_AT_abstract_origin, DW_FORM_ref_addr, DW_AT_ranges, DW_FORM_rnglistx,
	       DW_AT_call_file, DW_FORM_implicit_const, DW_AT_call_line, DW_FORM_data1));
	decl(4, DW_TAG_inlined_subroutine, 0,
	     A(DW_AT_abstract_origin, DW_FORM_ref2, DW_AT_low_pc, DW_FORM_addrx2, DW_AT_high_pc,
	       DW_FORM_addr, DW_AT_call_file, DW_FORM_data1, DW_AT_call_line, DW_FORM_data1));
	decl(5, DW_TAG_subprogram, 0,
	     A(DW_AT_MIPS_linkage_name, DW_FORM_strx4, DW_AT_name, DW_FORM_strx3));
	uleb(&abbrev, 0);

	cu1 = info.n;
	put(&info, 0xffffffff, 4);
	len_at = info.n;
	put(&info, 0, 8);
	put(&info, 5, 2);
	put(&info, DW_UT_compile, 1);
	put(&info, 8, 1);
	put(&info, tab, 8);
	uleb(&info, 1);
	put(&info, 0, 1);	/* strx1 0 */
	put(&info, l_comp, 8);
	uleb(&info, 0);	/* addrx 0 */
	put(&info, 0x1000, 4);
	put(&info, 0x40, 8);
	put(&info, 16, 8);
	put(&info, 16, 8);
	put(&info, 20, 8);
	put(&info, 0x21, 2);	/* DW_LANG_C_plus_plus_14 */
	uleb(&info, 2);
	put(&info, 1, 2);
	put(&info, 1, 1);
	put(&info, 0x100, 4);
	uleb(&info, 3);
	put(&info, d_leaf, 8);
	uleb(&info, 0);
	put(&info, 7, 1);
	uleb(&info, 4);
	deep_ref = info.n;
	put(&info, 0, 2);
	put(&info, 2, 2);
	put(&info, 0x4160, 8);
	put(&info, 1, 1);
	put(&info, 8, 1);
	uleb(&info, 0);	/* end of 3's children */
	uleb(&info, 0);	/* end of 2's */
	d5 = info.n;
	patch(&info, deep_ref, d5 - cu1, 2);
	uleb(&info, 5);
	put(&info, 2, 4);
	put(&info, 1, 3);
	uleb(&info, 0);
	cu1_end = info.n;
	patch(&info, len_at, info.n - len_at - 8, 8);

	/* 64-bit section headers: .debug_str_offsets 16 bytes, .debug_addr 16, .debug_rnglists 20. */
	put(&stroff, 0xffffffff, 4), put(&stroff, 0, 8), put(&stroff, 5, 2), put(&stroff, 0, 2);
	put(&stroff, s_name, 8), put(&stroff, s_f5, 8), put(&stroff, s_deep, 8);
	put(&addr, 0xffffffff, 4), put(&addr, 0, 8), put(&addr, 5, 2), put(&addr, 8, 1);
	put(&addr, 0, 1);
	put(&addr, 0x4000, 8), put(&addr, 0x4100, 8), put(&addr, 0x4150, 8);
	put(&rnglists, 0xffffffff, 4), put(&rnglists, 0, 8), put(&rnglists, 5, 2);
	put(&rnglists, 8, 1), put(&rnglists, 0, 1), put(&rnglists, 1, 4);
	put(&rnglists, 8, 8);	/* list 0 at rnglists_base + 8 */
	put(&rnglists, DW_RLE_base_addressx, 1), uleb(&rnglists, 0);
	put(&rnglists, DW_RLE_offset_pair, 1), uleb(&rnglists, 0x140), uleb(&rnglists, 0x148);
	put(&rnglists, DW_RLE_startx_length, 1), uleb(&rnglists, 2), uleb(&rnglists, 0x10);
	put(&rnglists, DW_RLE_startx_endx, 1), uleb(&rnglists, 1), uleb(&rnglists, 1);
	put(&rnglists, DW_RLE_start_end, 1), put(&rnglists, 0x4170, 8), put(&rnglists, 0x4178, 8);
	put(&rnglists, DW_RLE_base_address, 1), put(&rnglists, 0x4000, 8);
	put(&rnglists, DW_RLE_start_length, 1), put(&rnglists, 0x4180, 8), uleb(&rnglists, 4);
	put(&rnglists, DW_RLE_end_of_list, 1);
}

/* Unit 2: DWARF 4, nesting deeper than the bound, at pc 0x8000. */
static void build_cu2(void)
{
	size_t tab = abbrev.n, len_at;

	decl(1, DW_TAG_compile_unit, 1, A(DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc, DW_FORM_data1));
	decl(2, DW_TAG_subprogram, 1,
	     A(DW_AT_name, DW_FORM_string, DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc, DW_FORM_data1));
	decl(3, DW_TAG_lexical_block, 1, A(0x40, DW_FORM_flag_present));
	uleb(&abbrev, 0);
	cu2 = info.n;
	len_at = info.n;
	put(&info, 0, 4);
	put(&info, 4, 2);
	put(&info, tab, 4);
	put(&info, 8, 1);
	uleb(&info, 1);
	put(&info, 0x8000, 8), put(&info, 0x10, 1);
	uleb(&info, 2);
	cstr(&info, "deep");
	put(&info, 0x8000, 8), put(&info, 0x10, 1);
	for (int i = 0; i < CR_DWINFO_MAX_DEPTH; i++)
		uleb(&info, 3);
	for (int i = 0; i < CR_DWINFO_MAX_DEPTH + 2; i++)
		uleb(&info, 0);
	patch(&info, len_at, info.n - len_at - 4, 4);
}

static struct cr_dwframe fr[16];
static unsigned nfr;
static int wk_check = 1;	/* chain() checks the recorded walks too (not under fault injection) */
static unsigned wk_recorded;
static char name[64];

static const char *nm(unsigned i)
{
	if (cr_dwinfo_str(&fr[i].name, name, sizeof(name)) < 0)
		return "(none)";
	return name;
}

/* The chain at pc as "name@file:line,col name@... outer". */
static int chain(uint64_t cu_off, uint64_t pc, char *out, size_t cap)
{
	struct cr_dwcu cu;
	int ret;
	size_t n = 0;

	out[0] = 0;
	if ((ret = cr_dwinfo_unit(&src, cu_off, &cu)) < 0)
		return ret;
	if ((ret = cr_dwinfo_inlines(&src, &cu, pc, fr, 16, &nfr)) < 0) {
		static struct cr_dwwalk_sub subs[CR_DWWALK_SUBS];
		static struct cr_dwabbrevs ab;
		struct cr_dwwalks w;
		struct cr_dwframe fr2[16];
		unsigned n2;

		/* The same error with a record made for another pc. */
		memset(&w, 0, sizeof(w));
		w.sub = subs;
		ab.mem = NULL;
		cr_dwinfo_inlines_wk(&src, &cu, pc + 0x20, fr2, 16, &n2, &ab, &w);
		if (wk_check && cr_dwinfo_inlines_wk(&src, &cu, pc, fr2, 16, &n2, &ab, &w) != ret)
			return -1004;
		return ret;
	}
	{
		/* With decoded abbreviations: the same (decoded anew: the test
		   sections are rebuilt in the same buffers from case to case). */
		static struct cr_dwabbrevs ab;
		struct cr_dwframe fr2[16];
		unsigned n2;

		ab.mem = NULL;
		if (cr_dwinfo_inlines_ab(&src, &cu, pc, fr2, 16, &n2, &ab) != 0 || n2 != nfr)
			return -1000;
		for (unsigned i = 0; i < nfr; i++)
			if (fr2[i].die != fr[i].die || fr2[i].low != fr[i].low ||
			    fr2[i].name.sect != fr[i].name.sect || fr2[i].name.pos != fr[i].name.pos ||
			    fr2[i].linkage != fr[i].linkage || fr2[i].inlined != fr[i].inlined ||
			    fr2[i].call_file != fr[i].call_file || fr2[i].call_line != fr[i].call_line ||
			    fr2[i].call_column != fr[i].call_column)
				return -1001;
	}
	if (wk_check) {
		/* With a unit's record made by a first walk for another pc (or the
		   same): the same frames. */
		static struct cr_dwwalk_sub subs[CR_DWWALK_SUBS];
		static struct cr_dwabbrevs ab;
		static const int64_t other[] = { 0, -0x20, 0x20, -0x100, 0x3000, -0x5 };
		struct cr_dwwalks w;
		struct cr_dwframe fr2[16];
		unsigned n2;

		for (unsigned k = 0; k < CR_ARRAY_SIZE(other); k++) {
			memset(&w, 0, sizeof(w));
			w.sub = subs;
			ab.mem = NULL;
			cr_dwinfo_inlines_wk(&src, &cu, pc + (uint64_t)other[k], fr2, 16, &n2, &ab, &w);
			if (cr_dwinfo_inlines_wk(&src, &cu, pc, fr2, 16, &n2, &ab, &w) != 0 || n2 != nfr)
				return -1002;
			for (unsigned i = 0; i < nfr; i++)
				if (fr2[i].die != fr[i].die || fr2[i].low != fr[i].low ||
				    fr2[i].name.pos != fr[i].name.pos || fr2[i].inlined != fr[i].inlined ||
				    fr2[i].call_file != fr[i].call_file ||
				    fr2[i].call_line != fr[i].call_line)
					return -1003;
			wk_recorded += w.nunits;
		}
	}
	for (unsigned i = 0; i < nfr; i++) {
		if (fr[i].inlined)
			n += (size_t)snprintf(out + n, cap - n, "%s@%" PRIu64 ":%" PRIu64 ",%" PRIu64 " ",
					      nm(i), fr[i].call_file, fr[i].call_line,
					      fr[i].call_column);
		else
			n += (size_t)snprintf(out + n, cap - n, "%s", nm(i));
	}
	return 0;
}

static void check_chain(uint64_t cu_off, uint64_t pc, const char *want, const char *what)
{
	char got[256];
	int ret = chain(cu_off, pc, got, sizeof(got));

	if (ret < 0)
		snprintf(got, sizeof(got), "error %d", ret);
	tap_is_str(got, want, what);
}

/*
 * The walk of the units for a pc no aranges tuple holds passes by the units
 * that have a set (6.1.2: a set covers its unit's addresses): unit 0 has
 * one, so its first DIE is not read even when it is broken, and a set that
 * names a unit is taken at its word.  Sets out of their units' order: the
 * units whose set was passed are read.
 */
static void aranges_listed(void)
{
	struct buf save = info, asave = aranges;
	uint64_t off = 99;

	info.b[cu0 + 11] = 0x63;	/* unit 0's DIE: an abbreviation code it does not declare */
	map();
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x4155, &off), 0,
		   "aranges miss, unit 0 broken but in .debug_aranges: found");
	tap_is_u64(off, cu1, "   ...unit 1 (unit 0's DIE not read)");
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x3000, &off), -CR_ENOINFO,
		   "   ...0x3000: none (not unit 0's -CR_EINVAL)");
	src.aranges.mem = NULL;
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x4155, &off), -CR_EINVAL,
		   "   ...without .debug_aranges: unit 0 is read, -CR_EINVAL");

	/* The set names unit 1 instead: unit 0 is read (and fails), unit 1 is passed by. */
	patch(&aranges, 6, cu1, 4);
	map();
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x4155, &off), -CR_EINVAL,
		   "a set for unit 1 only: broken unit 0 is read, -CR_EINVAL");
	info = save;
	map();
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x4155, &off), -CR_ENOINFO,
		   "   ...unit 0 whole: 0x4155 in no unit (unit 1's set does not hold it)");
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x1122, &off), 0, "   ...0x1122: found");
	tap_is_u64(off, cu1, "   ...in unit 1, as its set says");

	/* Two sets, unit 1's before unit 0's (a tuple no pc here hits): unit 0 is read. */
	aranges = asave;
	patch(&aranges, 6, cu1, 4);
	patch(&aranges, 16, 0x9000, 8);
	patch(&aranges, 24, 1, 8);
	memcpy(aranges.b + aranges.n, aranges.b, aranges.n);
	patch(&aranges, aranges.n + 6, cu0, 4);
	aranges.n *= 2;
	info.b[cu0 + 11] = 0x63;
	map();
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x4155, &off), -CR_EINVAL,
		   "sets out of order: broken unit 0 is read, -CR_EINVAL");
	info = save;
	map();
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x1122, &off), 0,
		   "   ...unit 0 whole: 0x1122 found by its DIE");
	tap_is_u64(off, cu0, "   ...unit 0");
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x4155, &off), -CR_ENOINFO,
		   "   ...0x4155: none (unit 1 has a set)");
	aranges = asave;
	info = save;
	map();
}

static int same_unit(const struct cr_dwcu *a, const struct cr_dwcu *b);

/* A probe (cr_dwinfo_src.probe) over .debug_info that counts its reads, or fails them. */
static struct {
	struct cr_mem m;
	unsigned reads, below;	/* below: reads that start before unit 1 */
	int fail;
} pm;

static int probe_read(const struct cr_mem *m, uint64_t at, void *dst, size_t len)
{
	(void)m;
	pm.reads++;
	pm.below += at < INFO + cu1;
	return pm.fail ? -CR_EFAULT : mem[0].read(&mem[0], at, dst, len);
}

/*
 * The headers of the units find_cu passes by (those with a .debug_aranges
 * set) come through the probe, and so do a unit's header and first DIE
 * when it is read (unit 1's, which has no set): one read before unit 1,
 * the others in it; an aranges hit reads none.  A probe that cannot read
 * fails a lookup that passes by a unit, as an unreadable .debug_info does;
 * a unit read through it is read from the section instead, the same.
 */
static void probe(void)
{
	struct cr_dwcu a, b;
	uint64_t off = 99;

	pm.m = (struct cr_mem){ .read = probe_read, .lo = INFO, .hi = INFO + info.n };
	pm.reads = pm.below = 0;
	pm.fail = 0;
	src.probe = &pm.m;
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x4155, &off), 0, "probe: find_cu 0x4155 found");
	tap_is_u64(off, cu1, "   ...unit 1, past unit 0's header");
	tap_ok(pm.below == 1 && pm.reads >= 2,
	       "   ...unit 0's header read through the probe, once; unit 1's start through it too");
	pm.reads = 0;
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x1122, &off), 0, "probe: find_cu 0x1122 found");
	tap_ok(pm.reads == 0 && off == cu0, "   ...in unit 0 by .debug_aranges: no probe read");
	src.probe = NULL;
	tap_is_i64(cr_dwinfo_unit(&src, cu1, &a), 0, "probe: unit 1 without a probe");
	src.probe = &pm.m;
	pm.reads = 0;
	tap_ok(cr_dwinfo_unit(&src, cu1, &b) == 0 && pm.reads > 0 && same_unit(&a, &b),
	       "   ...through the probe: the same unit");
	pm.fail = 1;
	tap_ok(cr_dwinfo_unit(&src, cu1, &b) == 0 && same_unit(&a, &b),
	       "   ...through a probe that fails: the same unit, from the section");
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x4155, &off), -CR_EFAULT,
		   "probe that fails: find_cu 0x4155 fails, -CR_EFAULT");
	src.probe = NULL;
}

static void units(void)
{
	struct cr_dwcu cu;
	char s[64];
	uint64_t off;

	tap_is_i64(cr_dwinfo_unit(&src, cu0, &cu), 0, "v4 unit: parsed");
	tap_ok(cu.version == 4 && cu.offsize == 4 && cu.addr_size == 8 && cu.die == cu0 + 11 &&
		       cu.end == cu0_end && cu.tag == DW_TAG_compile_unit,
	       "v4 unit: header (version, 32-bit, address size, first DIE, end)");
	tap_ok(cu.low_pc == 0x1000 && cu.stmt_list == 0 && cu.language == 4 &&
		       cu.has == (CR_DWCU_STMT_LIST | CR_DWCU_LOW_PC | CR_DWCU_LANGUAGE),
	       "v4 unit: low_pc, stmt_list, language, which are present");
	cr_dwinfo_str(&cu.name, s, sizeof(s));
	tap_is_str(s, "a.c", "v4 unit: DW_AT_name (DW_FORM_string)");
	cr_dwinfo_str(&cu.comp_dir, s, sizeof(s));
	tap_is_str(s, "/src", "v4 unit: DW_AT_comp_dir (DW_FORM_strp)");

	tap_is_i64(cr_dwinfo_unit(&src, cu1, &cu), 0, "v5 64-bit unit: parsed");
	tap_ok(cu.version == 5 && cu.offsize == 8 && cu.unit_type == DW_UT_compile &&
		       cu.die == cu1 + 24 && cu.end == cu1_end,
	       "v5 64-bit unit: header");
	tap_ok(cu.low_pc == 0x4000 && cu.stmt_list == 0x40 && cu.language == 0x21 &&
		       cu.str_offsets_base == 16 && cu.addr_base == 16 && cu.rnglists_base == 20 &&
		       cu.has == 0x3f,
	       "v5 unit: low_pc (DW_FORM_addrx), stmt_list, bases, language");
	cr_dwinfo_str(&cu.name, s, sizeof(s));
	tap_is_str(s, "v5.c", "v5 unit: DW_AT_name (DW_FORM_strx1 through str_offsets)");
	cr_dwinfo_str(&cu.comp_dir, s, sizeof(s));
	tap_is_str(s, "/v5", "v5 unit: DW_AT_comp_dir (DW_FORM_line_strp)");

	off = 99;
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x1122, &off), 0, "find_cu 0x1122: found");
	tap_is_u64(off, cu0, "find_cu 0x1122: unit 0 (from .debug_aranges)");
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x4155, &off), 0, "find_cu 0x4155: found");
	tap_is_u64(off, cu1, "find_cu 0x4155: unit 1 (aranges miss: the units' ranges)");
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x3000, &off), -CR_ENOINFO, "find_cu 0x3000: none");
	aranges_listed();
	probe();
	src.aranges.mem = NULL;
	tap_is_i64(cr_dwinfo_find_cu(&src, 0x1fff, &off), 0, "no aranges: find_cu 0x1fff found");
	tap_is_u64(off, cu0, "no aranges: unit 0 by its low_pc/high_pc");
	map();
}

static void chains(void)
{
	check_chain(cu0, 0x1122, "leafname@2:20,0 _Z5innerv@1:10,3 outer",
		    "v4 0x1122: two inlines (ranges, low/high) in a lexical block");
	check_chain(cu0, 0x1134, "leafname@2:20,0 _Z5innerv@1:10,3 outer",
		    "v4 0x1134: the range after a base address selection");
	check_chain(cu0, 0x1128, "_Z5innerv@1:10,3 outer", "v4 0x1128: between the ranges");
	check_chain(cu0, 0x1105, "outer", "v4 0x1105: in the block, no inline");
	check_chain(cu0, 0x1205, "other", "v4 0x1205: the next subprogram (after a sibling jump)");
	check_chain(cu0, 0x1300, "error -2", "v4 0x1300: in the unit, no subprogram: -CR_ENOINFO");
	check_chain(cu1, 0x4145, "leafname@5:7,0 f5",
		    "v5 0x4145: ref_addr into unit 0, rnglistx offset_pair, implicit_const");
	check_chain(cu1, 0x4155, "_Z4deepv@1:8,0 leafname@5:7,0 f5",
		    "v5 0x4155: startx_length, addrx2/addr high, MIPS linkage strx4");
	check_chain(cu1, 0x4174, "leafname@5:7,0 f5", "v5 0x4174: start_end");
	check_chain(cu1, 0x4183, "leafname@5:7,0 f5", "v5 0x4183: start_length after base_address");
	check_chain(cu1, 0x4168, "f5", "v5 0x4168: no range of the inline holds it");
	tap_ok(chain(cu1, 0x4155, name, sizeof(name)) == 0 && fr[0].linkage && !fr[1].linkage &&
		       fr[0].low == 0x4150 && fr[1].low == 0x4140 && fr[2].low == 0x4100 &&
		       fr[0].inlined && !fr[2].inlined,
	       "v5 0x4155: linkage flags, low addresses, inlined flags");
	check_chain(cu2, 0x8001, "error -4", "nesting past CR_DWINFO_MAX_DEPTH: -CR_ERANGE");
	tap_is_i64(cr_dwinfo_inlines(&src, &(struct cr_dwcu){ .end = 1u << 30 }, 0x1122, fr, 2,
				     &nfr),
		   -CR_EINVAL, "a unit past the section: -CR_EINVAL");
}

/* Two units' fields, equal: 1. */
static int same_unit(const struct cr_dwcu *a, const struct cr_dwcu *b)
{
	return a->off == b->off && a->end == b->end && a->die == b->die &&
	       a->abbrev == b->abbrev && a->version == b->version &&
	       a->unit_type == b->unit_type && a->offsize == b->offsize &&
	       a->addr_size == b->addr_size && a->tag == b->tag && a->has == b->has &&
	       a->stmt_list == b->stmt_list && a->low_pc == b->low_pc &&
	       a->language == b->language && a->str_offsets_base == b->str_offsets_base &&
	       a->addr_base == b->addr_base && a->rnglists_base == b->rnglists_base &&
	       a->name.sect == b->name.sect && a->name.pos == b->name.pos &&
	       a->comp_dir.sect == b->comp_dir.sect && a->comp_dir.pos == b->comp_dir.pos;
}

/*
 * cr_dwinfo_unit_ab against cr_dwinfo_unit: units 0 and 1, each with ab
 * empty, holding the other unit's table, and holding its own; the answer
 * and every field the same.  The differences.
 */
static unsigned unit_ab_check(void)
{
	static struct cr_dwabbrevs ab;
	const size_t at[2] = { cu0, cu1 };
	unsigned bad = 0;

	for (int k = 0; k < 2; k++)
		for (int pre = 0; pre < 3; pre++) {
			struct cr_dwcu c1, c2, other;
			int r1, r2;

			memset(&ab, 0, sizeof(ab));
			if (pre == 1)
				cr_dwinfo_unit_ab(&src, at[!k], &other, &ab);
			else if (pre == 2)
				cr_dwinfo_unit_ab(&src, at[k], &other, &ab);
			memset(&c1, 0, sizeof(c1));
			memset(&c2, 0, sizeof(c2));
			r1 = cr_dwinfo_unit(&src, at[k], &c1);
			r2 = cr_dwinfo_unit_ab(&src, at[k], &c2, &ab);
			bad += r1 != r2 || (r1 == 0 && !same_unit(&c1, &c2));
		}
	return bad;
}

/*
 * A table that declares code 2 twice, the first with a tag above 0xffff
 * (the decoded table keeps no such tag): the decoded table must not keep
 * the second either (find_decl takes the first), so that the walk reads
 * the unit as without it.  The DWARFINFO fuzzer's input (CI, 2026-11-27):
 * every section is these bytes, a version 2 unit whose table overlaps its
 * DIEs.
 */
static void abbrev_first_wins(void)
{
	static const uint8_t b[] = {
		0x24, 0x00, 0x00, 0x00, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00, 0x01, 0x11, 0x00, 0x02, 0x00, 0x01,
		0x11, 0x11, 0x11, 0x00, 0x00, 0x2b, 0x01, 0x00, 0xab, 0x00, 0x10, 0x02, 0x43, 0x00, 0x49, 0x32,
		0x74, 0x74, 0x00, 0x02, 0x00, 0x10, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05,
		0x05, 0x05, 0x01, 0x00, 0x61, 0x10, 0x00, 0x28, 0x33, 0x00, 0x2b, 0x01, 0x00, 0xab, 0x00, 0x98,
		0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x00, 0x01, 0x11, 0x00, 0x02, 0x00, 0x01,
		0x11, 0x11, 0x11, 0x00, 0x00, 0x2b, 0x01, 0x00, 0xab, 0x00, 0x10, 0x02, 0x43, 0x00, 0x49, 0x32,
		0x74, 0x74, 0x00, 0x02, 0x00, 0x10, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05,
		0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05,
		0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x28, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05,
		0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05,
		0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02,
		0xff, 0xff, 0x0a, 0x00, 0x00, 0x00, 0x02, 0x00, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05,
		0x05, 0x05, 0x1e, 0x05, 0x05, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x05, 0x05, 0x05, 0x05, 0x05,
		0x00, 0x00, 0x00, 0x01, 0x07, 0x9f, 0x15, 0x00, 0x35, 0x00, 0x9f, 0x74,
	};
	static struct cr_dwabbrevs ab;
	struct cr_dwinfo_src s;
	struct cr_dwframe f1[8], f2[8];
	struct cr_dwsect sect;
	struct cr_dwcu cu;
	struct cr_mem m;
	unsigned n1 = 0, n2 = 0;
	int r1, r2;

	cr_mem_buffer(&m, INFO, b, sizeof(b));
	sect = (struct cr_dwsect){ &m, INFO, INFO + sizeof(b) };
	s = (struct cr_dwinfo_src){ sect, sect, sect, sect, sect, sect, sect, sect, sect, NULL };
	tap_is_i64(cr_dwinfo_unit(&s, 0, &cu), 0, "code declared twice: the unit");
	r1 = cr_dwinfo_inlines(&s, &cu, 1, f1, 8, &n1);
	ab.mem = NULL;
	r2 = cr_dwinfo_inlines_ab(&s, &cu, 1, f2, 8, &n2, &ab);
	tap_is_i64(r1, -CR_EINVAL, "code declared twice: the table read: the DIE of a code it lacks");
	tap_is_i64(r2, r1, "   ...the same through the decoded table (the first declaration wins)");
}

/* Each test below changes a byte or two of a copy and restores it. */
static void malformed(void)
{
	struct buf save = info;
	struct cr_dwcu cu;
	char got[256];
	unsigned bad = 0, right = 0, ab_bad = 0;
	struct faultmem fm;
	unsigned long fail_at;
	int ret;

	/* Every truncation of unit 0 (its length lowered to match): an error, or the answer. */
	for (size_t len = 0; len < cu0_end - cu0; len++) {
		info.n = cu0 + len;
		if (len >= 4)
			patch(&info, cu0_len_at, len - 4, 4);
		map();
		ab_bad += unit_ab_check();
		ret = chain(cu0, 0x1122, got, sizeof(got));
		if (ret == 0 && strcmp(got, "leafname@2:20,0 _Z5innerv@1:10,3 outer") == 0)
			right++;
		else if (ret != -CR_EINVAL && ret != -CR_ENOINFO && ++bad < 4)
			printf("#   length %zu: %d %s\n", len, ret, got);
	}
	info = save;
	map();
	tap_ok(bad == 0, "every truncation of unit 0: -CR_EINVAL/-CR_ENOINFO or the right answer");
	ab_bad += unit_ab_check();
	for (size_t at = 0; at < abbrev.n; at++) {	/* every byte of the tables changed */
		uint8_t keep = abbrev.b[at];

		for (unsigned v = 0; v < 4; v++) {
			abbrev.b[at] = (uint8_t[]){ 0x00, 0x01, 0x7f, 0xff }[v];
			map();
			ab_bad += unit_ab_check();
		}
		abbrev.b[at] = keep;
	}
	map();
	tap_is_u64(ab_bad, 0, "unit_ab: unit's answers and fields, truncated, tables changed, ab reused");
	printf("# %u truncations answer right\n", right);
	tap_ok(right == 29, "   ...right only when cut past outer (29 bytes of other and the end)");
	for (size_t len = 0, b2 = 0; len < cu1_end - cu1; len++) {
		info.n = cu1 + len;
		map();
		ret = chain(cu1, 0x4155, got, sizeof(got));
		b2 += ret == 0 || (ret != -CR_EINVAL && ret != -CR_ENOINFO);
		if (len == cu1_end - cu1 - 1)
			tap_ok(b2 == 0, "every truncation of unit 1 (64-bit length kept): -CR_EINVAL");
	}
	info = save;
	map();

	patch(&info, d_inl_origin, 0x7fffffff, 4);
	check_chain(cu0, 0x1122, "error -3", "abstract_origin out of the unit: -CR_EINVAL");
	info = save;
	patch(&info, d_spec_ref, d_spec - cu0, 4);
	check_chain(cu0, 0x1128, "error -4", "a specification that refers to itself: -CR_ERANGE");
	info = save;
	patch(&info, d_spec_ref, d_outer_code - cu0 - 1, 4);
	check_chain(cu0, 0x1128, "error -3", "a reference into the middle of a DIE: -CR_EINVAL");
	info = save;
	info.b[d_outer_code] = 0x63;
	check_chain(cu0, 0x1122, "error -3", "abbreviation code 99 that does not exist: -CR_EINVAL");
	info = save;
	map();
	info.b[cu0 + 4] = 6;
	tap_is_i64(cr_dwinfo_unit(&src, cu0, &cu), -CR_EINVAL, "version 6: -CR_EINVAL");
	info = save;
	info.b[cu1 + 14] = DW_UT_type;
	tap_is_i64(cr_dwinfo_unit(&src, cu1, &cu), -CR_ENOSYS, "a type unit: -CR_ENOSYS");
	info.b[cu1 + 14] = 0x80;
	tap_is_i64(cr_dwinfo_unit(&src, cu1, &cu), -CR_EINVAL, "unit type 0x80: -CR_EINVAL");
	info = save;
	info.b[cu0 + 10] = 9;
	tap_is_i64(cr_dwinfo_unit(&src, cu0, &cu), -CR_EINVAL, "address size 9: -CR_EINVAL");
	info = save;
	abbrev.b[4] = 0x7f;	/* unit 0's first DIE: DW_AT_name in form 0x7f */
	tap_is_i64(cr_dwinfo_unit(&src, cu0, &cu), -CR_EINVAL, "unknown form 0x7f: -CR_EINVAL");
	abbrev.b[4] = DW_FORM_string;
	src.str.hi = src.str.lo + 3;	/* "/src" unterminated */
	cr_dwinfo_unit(&src, cu0, &cu);
	tap_is_i64(cr_dwinfo_str(&cu.comp_dir, got, sizeof(got)), -CR_EINVAL,
		   "a string not terminated in its section: -CR_EINVAL");
	map();
	cr_dwinfo_unit(&src, cu0, &cu);
	tap_is_i64(cr_dwinfo_str(&cu.comp_dir, got, 4), -CR_ERANGE, "a string longer than cap-1");
	tap_is_i64(cr_dwinfo_str(&(struct cr_dwstr){ NULL, 0 }, got, 4), -CR_ENOINFO, "no string");
	tap_is_i64(cr_dwinfo_inlines(&src, &cu, 0x1122, fr, 2, &nfr), -CR_ERANGE,
		   "three frames, room for two: -CR_ERANGE");

	/* Every failing read of .debug_info: -CR_EFAULT or the answer. */
	bad = 0;
	wk_check = 0;
	for (fail_at = 1; fail_at < 200; fail_at++) {
		unsigned long n = fail_at;
		struct cr_dwsect keep = src.info;

		src.info.mem = faultmem_init(&fm, &mem[0], &n);
		ret = chain(cu1, 0x4155, got, sizeof(got));
		src.info = keep;
		if ((ret == 0 ? strcmp(got, "_Z4deepv@1:8,0 leafname@5:7,0 f5") != 0
			      : ret != -CR_EFAULT) &&
		    ++bad < 4)
			printf("#   read %lu: %d %s\n", fail_at, ret, got);
		if (ret == 0 && n > 0)
			break;	/* fewer reads than fail_at */
	}
	tap_ok(bad == 0 && fail_at < 200, "every failing read: -CR_EFAULT, else the answer");
	wk_check = 1;
}

/*
 * cr_dwinfo_find_cu_many against cr_dwinfo_find_cu over as (which has
 * aranges only): the pcs of [0, 0x420) in batches of 64, every seventh pc
 * repeated.  A pc is found iff find_cu finds it, with its unit.  The
 * differences.
 */
static unsigned many_check(const struct cr_dwinfo_src *as)
{
	uint64_t pcs[CR_DWINFO_MANY], off[CR_DWINFO_MANY];
	uint8_t found[CR_DWINFO_MANY];
	unsigned bad = 0, n = 0;

	for (uint64_t pc = 0; pc < 0x420; pc++) {
		pcs[n++] = pc;
		if (pc % 7 == 0 && n < CR_DWINFO_MANY)
			pcs[n++] = pc;
		if (n < CR_DWINFO_MANY && pc + 1 < 0x420)
			continue;
		int r = cr_dwinfo_find_cu_many(as, pcs, n, off, found), nf = 0;

		for (unsigned i = 0; i < n; i++) {
			uint64_t o = 1;
			int r1 = cr_dwinfo_find_cu(as, pcs[i], &o);

			nf += found[i];
			if (found[i] != (r1 == 0) || (found[i] && o != off[i]))
				bad++;
		}
		bad += r != nf;
		n = 0;
	}
	return bad;
}

/*
 * cr_dwinfo_find_cu_span: three aranges sets whose tuples overlap (the
 * first tuple that holds a pc wins); for every pc of the range, every
 * address of its span gets the same unit from cr_dwinfo_find_cu, and the
 * span holds pc.
 */
static void spans(void)
{
	static const uint64_t t[3][3][2] = {	/* per set: (address, length) */
		{ { 0x100, 0x40 }, { 0x200, 0x100 }, { 0, 0 } },
		{ { 0x120, 0x100 }, { 0x300, 0x10 }, { 0x2f0, 0x30 } },
		{ { 0x80, 0x300 }, { 0x390, 0x1 }, { 0, 0 } },
	};
	struct cr_dwinfo_src as;
	struct cr_mem am;
	static struct buf b;
	unsigned bad = 0, checked = 0;

	for (int k = 0; k < 3; k++) {
		put(&b, 12 + 4 * 16, 4);	/* length: the rest of the set */
		put(&b, 2, 2);
		put(&b, 0x10 * (k + 1), 4);	/* the unit's offset: 0x10, 0x20, 0x30 */
		put(&b, 8, 1);
		put(&b, 0, 1);
		put(&b, 0, 4);			/* to 16 */
		for (int j = 0; j < 3; j++)
			put(&b, t[k][j][0], 8), put(&b, t[k][j][1], 8);
		put(&b, 0, 8), put(&b, 0, 8);
	}
	memset(&as, 0, sizeof(as));
	cr_mem_buffer(&am, ARANGES, b.b, b.n);
	as.aranges = (struct cr_dwsect){ &am, ARANGES, ARANGES + b.n };
	for (uint64_t pc = 0; pc < 0x420; pc++) {
		uint64_t off = 0, lo = 0, hi = 0, o2;
		int r = cr_dwinfo_find_cu_span(&as, pc, &off, &lo, &hi);

		if (r != cr_dwinfo_find_cu(&as, pc, &o2) || (r == 0 && o2 != off)) {
			bad++;
			continue;
		}
		if (r < 0)
			continue;
		if (lo > pc || hi <= pc)
			bad++;
		for (uint64_t q = lo; q < hi && q < 0x1000; q++, checked++)
			if (cr_dwinfo_find_cu(&as, q, &o2) != 0 || o2 != off)
				bad++;
	}
	tap_is_u64(bad, 0, "find_cu_span: every address of each pc's span has its unit");
	tap_ok(checked > 0x300, "find_cu_span: spans checked");
	{
		/* The tuples read in place (a memory with views) and through
		   the cursor (without): the same answers and spans, for every
		   truncation of the section and every byte changed. */
		struct cr_dwinfo_src as2 = as;
		struct cr_mem am2;
		struct buf keep = b;
		unsigned diff = 0, runs = 0, many_diff = 0;

		for (size_t cut = 0; cut <= 5 * keep.n; cut++) {
			size_t at = cut > keep.n ? cut - keep.n - 1 : SIZE_MAX, nb = cut > keep.n ? keep.n : cut;
			static const uint8_t v[] = { 0x00, 0x01, 0x7f, 0xff };

			b = keep;
			if (at != SIZE_MAX)
				b.b[at / 4] = v[at % 4];
			cr_mem_buffer(&am, ARANGES, b.b, nb);
			am2 = am;
			am2.view = NULL;
			as.aranges = (struct cr_dwsect){ &am, ARANGES, ARANGES + nb };
			as2.aranges = (struct cr_dwsect){ &am2, ARANGES, ARANGES + nb };
			for (uint64_t pc = 0; pc < 0x420; pc += 0x7) {
				uint64_t o1 = 1, l1 = 2, h1 = 3, o2 = 1, l2 = 2, h2 = 3;
				int r1 = cr_dwinfo_find_cu_span(&as, pc, &o1, &l1, &h1),
				    r2 = cr_dwinfo_find_cu_span(&as2, pc, &o2, &l2, &h2);

				diff += r1 != r2 || o1 != o2 || l1 != l2 || h1 != h2;
				runs++;
			}
			many_diff += many_check(&as) + many_check(&as2);
		}
		b = keep;
		cr_mem_buffer(&am, ARANGES, b.b, b.n);
		as.aranges = (struct cr_dwsect){ &am, ARANGES, ARANGES + b.n };
		printf("# %u aranges lookups in place and through the cursor\n", runs);
		tap_is_u64(diff, 0, "find_cu_span in place: the cursor's answers, truncated and changed");
		tap_is_u64(many_diff, 0,
			   "find_cu_many: find_cu's units, truncated and changed");
	}
	{
		static const uint64_t pcs[] = { 0x7f, 0x80, 0x150, 0x150, 0x2f8, 0x310, 0x391, 0x500 };
		uint64_t off[8];
		uint8_t found[8];
		char got[256];
		size_t n = 0;

		tap_is_i64(cr_dwinfo_find_cu_many(&as, pcs, 8, off, found), 5,
			   "find_cu_many: 5 of 8 pcs in a tuple");
		for (unsigned i = 0; i < 8; i++)
			n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%" PRIx64, i ? " " : "",
					      found[i] ? off[i] : 0);
		tap_is_str(got, "0 30 20 20 10 20 0 0",
			   "find_cu_many: the first tuple that holds each pc gives its unit");
		uint64_t rev[2] = { 0x200, 0x100 };

		tap_is_i64(cr_dwinfo_find_cu_many(&as, rev, 2, off, found), -CR_EINVAL,
			   "find_cu_many: pcs out of order: -CR_EINVAL");
	}
	{
		uint64_t off, lo, hi;

		cr_dwinfo_find_cu_span(&as, 0x2f8, &off, &lo, &hi);
		tap_ok(off == 0x10 && lo == 0x200 && hi == 0x300,
		       "find_cu_span 0x2f8: unit 0x10, [0x200, 0x300): its tuple, past the one at 0x100");
		cr_dwinfo_find_cu_span(&as, 0x150, &off, &lo, &hi);
		tap_ok(off == 0x20 && lo == 0x140 && hi == 0x200,
		       "find_cu_span 0x150: unit 0x20, [0x140, 0x200)");
	}
}

/*
 * The walk in place (walk_fast): a unit as GCC writes C++ (DWARF 5,
 * 32-bit), a namespace of declarations with their parameters, a structure
 * with members, a nested namespace without DW_AT_sibling, then the
 * definitions at the unit's level (DW_AT_specification): one whose
 * attributes are all of fixed sizes (taken in place), one with an exprloc
 * (read), one with an address high_pc, an inline in a block without
 * addresses.  The decoded declarations, the DIEs taken in place and the
 * chains exactly; then every truncation and every byte changed against the
 * walk without decoded abbreviations (which never goes in place).
 */
static struct buf fi, fa, fs;

/* DWARF 5 Table 7.3: tags the walk has no name for. */
#define TAG_FORMAL_PARAMETER 0x05
#define TAG_MEMBER 0x0d
#define TAG_STRUCTURE_TYPE 0x13
#define TAG_VARIABLE 0x34
static struct cr_mem fm_[3];
static struct cr_dwinfo_src fsrc;
static size_t f_len_at, f_end, f_sib_f, f_def, f_h_low;	/* f's definition, h's DW_AT_low_pc */

static void fput_decl(uint64_t code, uint64_t tag, int children, const unsigned *spec)
{
	uleb(&fa, code);
	uleb(&fa, tag);
	put(&fa, children, 1);
	for (; spec[0] || spec[1]; spec += 2) {
		uleb(&fa, spec[0]);
		uleb(&fa, spec[1]);
	}
	uleb(&fa, 0);
	uleb(&fa, 0);
}

static void fast_map(void)
{
	memset(&fsrc, 0, sizeof(fsrc));
	cr_mem_buffer(&fm_[0], INFO, fi.b, fi.n);
	cr_mem_buffer(&fm_[1], ABBREV, fa.b, fa.n);
	cr_mem_buffer(&fm_[2], STR, fs.b, fs.n);
	fsrc.info = (struct cr_dwsect){ &fm_[0], INFO, INFO + fi.n };
	fsrc.abbrev = (struct cr_dwsect){ &fm_[1], ABBREV, ABBREV + fa.n };
	fsrc.str = (struct cr_dwsect){ &fm_[2], STR, STR + fs.n };
}

/* A declaration of name with one parameter; its sibling is patched. */
static size_t fast_fdecl(size_t s_name, size_t s_link, size_t *at)
{
	size_t sib;

	*at = fi.n;
	uleb(&fi, 3);
	put(&fi, s_name, 4);
	put(&fi, 1, 1), put(&fi, 10, 2);
	put(&fi, s_link, 4);
	sib = fi.n;
	put(&fi, 0, 4);
	uleb(&fi, 4), put(&fi, 0, 4);
	uleb(&fi, 0);
	patch(&fi, sib, fi.n, 4);
	return sib;
}

static void fast_build(void)
{
	size_t s_n = cstr(&fs, "n"), s_f = cstr(&fs, "f"), s_fl = cstr(&fs, "_ZN1n1fEv"),
	       s_g = cstr(&fs, "g"), s_gl = cstr(&fs, "_ZN1n1gEv"), s_h = cstr(&fs, "h"),
	       s_hl = cstr(&fs, "_ZN1n1m1hEv"), s_S = cstr(&fs, "S"), s_x = cstr(&fs, "x"),
	       s_k = cstr(&fs, "k");
	size_t ns_sib, st_sib, d_f, d_g, d_h, sub_sib, sib, d_k;

	fput_decl(1, DW_TAG_compile_unit, 1,
		  A(DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc, DW_FORM_data8, DW_AT_stmt_list,
		    DW_FORM_sec_offset));
	fput_decl(2, DW_TAG_namespace, 1, A(DW_AT_name, DW_FORM_strp, DW_AT_sibling, DW_FORM_ref4));
	fput_decl(3, DW_TAG_subprogram, 1,
		  A(0x3f, DW_FORM_flag_present, DW_AT_name, DW_FORM_strp, 0x3a, DW_FORM_data1, 0x3b,
		    DW_FORM_data2, DW_AT_linkage_name, DW_FORM_strp, 0x3c, DW_FORM_flag_present,
		    DW_AT_sibling, DW_FORM_ref4));
	fput_decl(4, TAG_FORMAL_PARAMETER, 0, A(0x49, DW_FORM_ref4, 0x34, DW_FORM_flag_present));
	fput_decl(5, TAG_STRUCTURE_TYPE, 1,
		  A(DW_AT_name, DW_FORM_strp, 0x0b, DW_FORM_data1, DW_AT_sibling, DW_FORM_ref4));
	fput_decl(6, TAG_MEMBER, 0,
		  A(DW_AT_name, DW_FORM_string, 0x49, DW_FORM_ref4, 0x38, DW_FORM_data1));
	fput_decl(7, DW_TAG_subprogram, 1,
		  A(DW_AT_specification, DW_FORM_ref4, DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc,
		    DW_FORM_data8, DW_AT_sibling, DW_FORM_ref4));
	fput_decl(8, DW_TAG_subprogram, 1,
		  A(DW_AT_specification, DW_FORM_ref4, DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc,
		    DW_FORM_data8, 0x40, DW_FORM_exprloc, DW_AT_sibling, DW_FORM_ref4));
	fput_decl(9, DW_TAG_inlined_subroutine, 0,
		  A(DW_AT_abstract_origin, DW_FORM_ref4, DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc,
		    DW_FORM_data4, DW_AT_call_file, DW_FORM_data1, DW_AT_call_line, DW_FORM_data1));
	fput_decl(10, DW_TAG_lexical_block, 1, A(0x40, DW_FORM_flag_present));
	fput_decl(11, TAG_VARIABLE, 0, A(DW_AT_name, DW_FORM_strp, 0x49, DW_FORM_ref4));
	fput_decl(12, DW_TAG_subprogram, 0,
		  A(DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc, DW_FORM_addr, DW_AT_name, DW_FORM_strp));
	fput_decl(13, DW_TAG_namespace, 1, A(DW_AT_name, DW_FORM_strp));
	/* Not in place: a sibling between two strings; five blocks. */
	fput_decl(14, DW_TAG_namespace, 1,
		  A(DW_AT_name, DW_FORM_string, DW_AT_sibling, DW_FORM_ref4, 0x3b, DW_FORM_string));
	fput_decl(15, TAG_VARIABLE, 0,
		  A(0x02, DW_FORM_exprloc, 0x02, DW_FORM_exprloc, 0x02, DW_FORM_block1, 0x02,
		    DW_FORM_block, 0x02, DW_FORM_string));
	uleb(&fa, 0);

	f_len_at = fi.n;
	put(&fi, 0, 4);
	put(&fi, 5, 2);
	put(&fi, DW_UT_compile, 1);
	put(&fi, 8, 1);
	put(&fi, 0, 4);
	uleb(&fi, 1);
	put(&fi, 0x1000, 8), put(&fi, 0x1000, 8), put(&fi, 0, 4);
	uleb(&fi, 2), put(&fi, s_n, 4);
	ns_sib = fi.n;
	put(&fi, 0, 4);
	f_sib_f = fast_fdecl(s_f, s_fl, &d_f);
	fast_fdecl(s_g, s_gl, &d_g);
	uleb(&fi, 5), put(&fi, s_S, 4), put(&fi, 8, 1);
	st_sib = fi.n;
	put(&fi, 0, 4);
	uleb(&fi, 6), cstr(&fi, "x"), put(&fi, 0, 4), put(&fi, 0, 1);
	uleb(&fi, 6), cstr(&fi, "yy"), put(&fi, 0, 4), put(&fi, 4, 1);
	uleb(&fi, 0);
	patch(&fi, st_sib, fi.n, 4);
	uleb(&fi, 13), put(&fi, s_n, 4);
	fast_fdecl(s_h, s_hl, &d_h);
	uleb(&fi, 0);	/* end of the inner namespace */
	uleb(&fi, 0);	/* end of n */
	patch(&fi, ns_sib, fi.n, 4);
	/* f [0x1000, 0x1100), in place; an inline of g in a block */
	f_def = fi.n;
	uleb(&fi, 7), put(&fi, d_f, 4), put(&fi, 0x1000, 8), put(&fi, 0x100, 8);
	sub_sib = fi.n;
	put(&fi, 0, 4);
	uleb(&fi, 11), put(&fi, s_x, 4), put(&fi, 0, 4);
	uleb(&fi, 10);
	uleb(&fi, 9), put(&fi, d_g, 4), put(&fi, 0x1010, 8), put(&fi, 0x10, 4), put(&fi, 1, 1),
		put(&fi, 7, 1);
	uleb(&fi, 0);
	uleb(&fi, 0);
	patch(&fi, sub_sib, fi.n, 4);
	/* g [0x1100, 0x1200), read (an exprloc) */
	uleb(&fi, 8), put(&fi, d_g, 4), put(&fi, 0x1100, 8), put(&fi, 0x100, 8);
	uleb(&fi, 1), put(&fi, 0x9c, 1);
	sib = fi.n;
	put(&fi, 0, 4);
	uleb(&fi, 4), put(&fi, 0, 4);
	uleb(&fi, 0);
	patch(&fi, sib, fi.n, 4);
	/* k [0x1200, 0x1280): high_pc an address */
	d_k = fi.n;
	uleb(&fi, 12), put(&fi, 0x1200, 8), put(&fi, 0x1280, 8), put(&fi, s_k, 4);
	(void)d_k;
	/* h's definition: not before its declaration's sibling jump */
	uleb(&fi, 7), put(&fi, d_h, 4);
	f_h_low = fi.n;
	put(&fi, 0x1280, 8), put(&fi, 0x80, 8);
	sib = fi.n;
	put(&fi, 0, 4);
	uleb(&fi, 0);
	patch(&fi, sib, fi.n, 4);
	uleb(&fi, 0);	/* end of the unit */
	f_end = fi.n;
	patch(&fi, f_len_at, fi.n - 4, 4);
}

/* The chain at pc with decoded abbreviations (ab anew), as "name name ...", and the reference. */
static int fast_chain(uint64_t pc, char *out, size_t cap, unsigned *nfast, int *same)
{
	static struct cr_dwabbrevs ab;
	static struct cr_dwwalk_sub subs[CR_DWWALK_SUBS];
	struct cr_dwframe f1[8], f2[8];
	struct cr_dwwalks w;
	struct cr_dwcu cu;
	unsigned n1 = 0, n2 = 0;
	size_t n = 0;
	int r1, r2, r3;

	out[0] = 0;
	*same = 1;	/* no unit: nothing to compare */
	*nfast = 0;
	if ((r1 = cr_dwinfo_unit(&fsrc, 0, &cu)) < 0)
		return r1;
	r1 = cr_dwinfo_inlines(&fsrc, &cu, pc, f1, 8, &n1);
	ab.mem = NULL;
	r2 = cr_dwinfo_inlines_ab(&fsrc, &cu, pc, f2, 8, &n2, &ab);
	*nfast = ab.nfast;
	*same = r1 == r2 && (r1 < 0 || n1 == n2);
	for (unsigned i = 0; *same && r1 == 0 && i < n1; i++)
		*same = f1[i].die == f2[i].die && f1[i].low == f2[i].low &&
			f1[i].name.pos == f2[i].name.pos && f1[i].inlined == f2[i].inlined &&
			f1[i].call_file == f2[i].call_file && f1[i].call_line == f2[i].call_line;
	/* And after a first walk for other pcs recorded the unit. */
	memset(&w, 0, sizeof(w));
	w.sub = subs;
	cr_dwinfo_inlines_wk(&fsrc, &cu, pc ^ 0x180, f2, 8, &n2, &ab, &w);
	r3 = cr_dwinfo_inlines_wk(&fsrc, &cu, pc, f2, 8, &n2, &ab, &w);
	*same = *same && r3 == r1 && (r1 < 0 || n1 == n2);
	for (unsigned i = 0; *same && r1 == 0 && i < n1; i++)
		*same = f1[i].die == f2[i].die && f1[i].low == f2[i].low &&
			f1[i].name.pos == f2[i].name.pos;
	if (r1 < 0)
		return r1;
	for (unsigned i = 0; i < n1; i++) {
		char nmb[64];

		if (cr_dwinfo_str(&f1[i].name, nmb, sizeof(nmb)) < 0)
			snprintf(nmb, sizeof(nmb), "(none)");
		n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? " " : "", nmb);
	}
	return 0;
}

static void fast_check(uint64_t pc, const char *want, unsigned want_fast, const char *what)
{
	char got[128];
	unsigned nf = 0;
	int same = 0, r = fast_chain(pc, got, sizeof(got), &nf, &same);

	char msg[160];

	if (r < 0)
		snprintf(got, sizeof(got), "error %d", r);
	tap_is_str(got, want, what);
	snprintf(msg, sizeof(msg), "%s: the same without decoded abbreviations, and from a record",
		 what);
	tap_ok(same, msg);
	snprintf(msg, sizeof(msg), "%s: DIEs taken in place", what);
	tap_is_u64(nf, want_fast, msg);
}

/*
 * A unit's record (cr_dwwalks) made by a walk that passes every subprogram
 * of the fast unit: 16-byte entries whose spans count from the unit's
 * DW_AT_low_pc.  All four are passed in place: f opens a group and g, k
 * and h join it (the union of their spans, f's offset).  With the low_pc
 * moved above f and g, theirs do not fit and are read again (entries of
 * their own, no group), and k opens a group that h joins; with h moved to
 * 0x1400, the union has a gap, and a pc in it walks from f past h to the
 * unit's end.  Every pc gets the frames of a walk without a record.
 */
static void records_check(void)
{
	static struct cr_dwabbrevs ab;
	static struct cr_dwwalk_sub subs[CR_DWWALK_SUBS];
	static const uint64_t pcs[] = { 0x1005, 0x1015, 0x1150, 0x1250, 0x12a0, 0x1400,
					0x1100, 0x1300, 0x1440, 0x1290 };
	static const struct {
		uint64_t base, h;
		unsigned n;
		uint32_t lo[3], len[3];
		const char *what;
	} cases[] = {
		{ 0x1000, 0x1280, 1, { 0 }, { 0x300 },
		  "a unit's record: f, g, k, h in one group from the unit's low_pc" },
		{ 0x1180, 0x1280, 3, { 0, 0, 0x80 }, { 0, 0, 0x100 },
		  "a unit's record: f and g below the unit's low_pc, to be read again; k with h" },
		{ 0x1000, 0x1400, 1, { 0 }, { 0x480 },
		  "a unit's record: the group's union with a gap" },
	};
	struct buf save = fi;
	char msg[160];

	_Static_assert(sizeof(struct cr_dwwalk_sub) == 16, "16-byte records");
	for (unsigned k = 0; k < CR_ARRAY_SIZE(cases); k++) {
		struct cr_dwframe f1[8], f2[8];
		struct cr_dwwalks w;
		struct cr_dwcu cu;
		unsigned n1, n2, ok = 1, same = 0;

		patch(&fi, 13, cases[k].base, 8);	/* the unit's DW_AT_low_pc */
		patch(&fi, f_h_low, cases[k].h, 8);
		if (cr_dwinfo_unit(&fsrc, 0, &cu) < 0 || cu.low_pc != cases[k].base) {
			tap_ok(0, cases[k].what);
			continue;
		}
		memset(&w, 0, sizeof(w));
		w.sub = subs;
		ab.mem = NULL;
		cr_dwinfo_inlines_wk(&fsrc, &cu, 0x1500, f2, 8, &n2, &ab, &w);
		ok = w.nunits == 1 && w.unit[0].n == cases[k].n;
		for (unsigned i = 0; ok && i < cases[k].n; i++)
			ok = subs[i].lo == cases[k].lo[i] && subs[i].len == cases[k].len[i] &&
			     subs[i].dd >> 24 == 1;
		ok = ok && subs[0].off == f_def - f_len_at;	/* f's, the first */
		tap_ok(ok, cases[k].what);
		for (unsigned i = 0; i < CR_ARRAY_SIZE(pcs); i++) {
			int r1 = cr_dwinfo_inlines(&fsrc, &cu, pcs[i], f1, 8, &n1);
			int r2 = cr_dwinfo_inlines_wk(&fsrc, &cu, pcs[i], f2, 8, &n2, &ab, &w);
			int eq = r1 == r2 && (r1 < 0 || n1 == n2);

			for (unsigned j = 0; eq && r1 == 0 && j < n1; j++)
				eq = f1[j].die == f2[j].die && f1[j].low == f2[j].low &&
				     f1[j].name.pos == f2[j].name.pos && f1[j].inlined == f2[j].inlined;
			same += eq;
		}
		snprintf(msg, sizeof(msg), "%s: every pc's frames as without the record", cases[k].what);
		tap_is_u64(same, CR_ARRAY_SIZE(pcs), msg);
	}
	fi = save;
	patch(&fi, 13, 0x1000, 8);
	patch(&fi, f_h_low, 0x1280, 8);
}

static void fast(void)
{
	static struct cr_dwabbrevs ab;
	struct cr_dwframe f[8];
	struct cr_dwcu cu;
	unsigned n, bad = 0, tried = 0, infast = 0;
	struct buf save;

	fast_build();
	fast_map();
	/* The abbreviations' view (decode_fast), exactly. */
	tap_is_i64(cr_dwinfo_unit(&fsrc, 0, &cu), 0, "in place: the unit");
	ab.mem = NULL;
	cr_dwinfo_inlines_ab(&fsrc, &cu, 0x1005, f, 8, &n, &ab);
	tap_ok(ab.decl[1].fast == 0 && ab.decl[9].fast == 0 && ab.decl[14].fast == 0 &&
		       ab.decl[15].fast == 0,
	       "in place: not the unit's DIE, an inline (addresses), a sibling between strings, 5 blocks");
	tap_ok(ab.decl[2].fast == CR_DWFAST_PLAIN && ab.decl[2].jump == 0 && ab.decl[2].size == 8 &&
		       ab.decl[2].sibw == 4 && ab.decl[2].sib == 4,
	       "in place: a namespace: walked into, 8 bytes, sibling at 4");
	tap_ok(ab.decl[3].fast == CR_DWFAST_PLAIN && ab.decl[3].jump == 1 && ab.decl[3].size == 15 &&
		       ab.decl[3].sibw == 4 && ab.decl[3].sib == 11,
	       "in place: a declaration: jumped, 15 bytes (flag_present 0), sibling at 11");
	tap_ok(ab.decl[5].fast == CR_DWFAST_PLAIN && ab.decl[5].jump == 1 && ab.decl[10].jump == 0 &&
		       ab.decl[13].fast == CR_DWFAST_PLAIN && ab.decl[13].sibw == 0 &&
		       ab.decl[4].size == 4 && ab.decl[6].size == 5 && ab.decl[6].nvar == 1 &&
		       ab.decl[6].var[0] == CR_DWVAR_STRING && ab.decl[6].run[0] == 0 &&
		       ab.decl[6].run[1] == 5,
	       "in place: a type jumped, a block without addresses walked, no sibling, a string");
	tap_ok(ab.decl[8].fast == CR_DWFAST_SUB && ab.decl[8].nvar == 1 &&
		       ab.decl[8].var[0] == CR_DWVAR_BLOCK && ab.decl[8].run[0] == 20 &&
		       ab.decl[8].run[1] == 4 && ab.decl[8].low == 4 && ab.decl[8].high == 12 &&
		       ab.decl[8].end == 1 && ab.decl[8].sib == 4 && ab.decl[8].sibw == 4,
	       "in place: a definition with an exprloc: low/high from the start, sibling from the end");
	tap_ok(ab.decl[7].fast == CR_DWFAST_SUB && ab.decl[7].size == 24 && ab.decl[7].low == 4 &&
		       ab.decl[7].high == 12 && ab.decl[7].hw == 8 && ab.decl[7].hc == 1 &&
		       ab.decl[7].sib == 20 && ab.decl[7].sibw == 4,
	       "in place: a definition: low_pc at 4, high_pc data8 at 12, sibling at 20");
	tap_ok(ab.decl[12].fast == CR_DWFAST_SUB && ab.decl[12].size == 20 && ab.decl[12].low == 0 &&
		       ab.decl[12].high == 8 && ab.decl[12].hw == 8 && ab.decl[12].hc == 0,
	       "in place: high_pc an address");

	/* 0x1005: the unit's DIE read; n, f, g, S, the inner namespace, h and
	   two null entries in place (8); f holds pc: read; its variable and
	   block in place (10), the inline read, the block's null entry in
	   place (11), f's read (it ends the walk). */
	fast_check(0x1005, "_ZN1n1fEv", 11, "in place 0x1005");
	fast_check(0x1015, "_ZN1n1gEv _ZN1n1fEv", 11, "in place 0x1015: an inline in a block");
	/* the 8, f passed in place by its sibling, g read, its parameter in place */
	fast_check(0x1150, "_ZN1n1gEv", 10, "in place 0x1150: after a definition passed");
	fast_check(0x1250, "k", 10, "in place 0x1250: g passed (its exprloc), high_pc an address");
	fast_check(0x12a0, "_ZN1n1m1hEv", 11, "in place 0x12a0: after k passed");
	fast_check(0x1400, "error -2", 13, "in place 0x1400: none (the unit's end in place)");
	records_check();

	/* Hostile: every truncation, and every byte of the unit's DIEs set to
	   each of a few values, give the walk without decoded abbreviations'
	   answer at each of a few pcs. */
	save = fi;
	for (size_t cut = 12; cut <= f_end; cut++) {
		patch(&fi, f_len_at, cut - 4, 4);
		fi.n = cut;
		fast_map();
		for (uint64_t pc = 0x1005; pc < 0x1400; pc += 0x90) {
			char got[128];
			unsigned nf;
			int same;

			fast_chain(pc, got, sizeof(got), &nf, &same);
			bad += !same;
			tried++;
			infast += nf > 0;
		}
	}
	fi = save;
	printf("# %u truncations and pcs, %u with DIEs in place\n", tried, infast);
	tap_ok(bad == 0 && infast > 100, "in place: every truncation, at each pc: the same answers");
	bad = tried = infast = 0;
	for (size_t at = 12; at < f_end; at++) {
		static const uint8_t v[] = { 0x00, 0x01, 0x02, 0x0d, 0x7f, 0x80, 0xff };

		for (unsigned k = 0; k < sizeof(v); k++) {
			fi.b[at] = v[k];
			fast_map();
			for (uint64_t pc = 0x1005; pc < 0x1400; pc += 0x90) {
				char got[128];
				unsigned nf;
				int same;

				fast_chain(pc, got, sizeof(got), &nf, &same);
				bad += !same;
				tried++;
				infast += nf > 0;
			}
			fi.b[at] = save.b[at];
		}
	}
	fast_map();
	printf("# %u changed bytes and pcs, %u with DIEs in place\n", tried, infast);
	tap_ok(bad == 0 && infast > 1000, "in place: every byte changed, at each pc: the same answers");
	/* A declaration's sibling behind it, or past the unit: its children walked. */
	patch(&fi, f_sib_f, 3, 4);
	fast_check(0x1005, "_ZN1n1fEv", 13, "in place: a sibling behind the DIE");
	patch(&fi, f_sib_f, 0x10000, 4);
	fast_check(0x1005, "_ZN1n1fEv", 13, "in place: a sibling past the unit");
	fi = save;
	fast_map();
	/* Namespaces nested past the bound, each in place: -CR_ERANGE as read. */
	fi.n = f_end - 1;
	for (int i = 0; i < CR_DWINFO_MAX_DEPTH + 1; i++)
		uleb(&fi, 13), put(&fi, 0, 4);
	for (int i = 0; i < CR_DWINFO_MAX_DEPTH + 2; i++)
		uleb(&fi, 0);
	patch(&fi, f_len_at, fi.n - 4, 4);
	fast_map();
	fast_check(0x1400, "error -4", CR_DWINFO_MAX_DEPTH + 11, "in place: nesting past the bound");
	fi = save;
	fast_map();
}

/*
 * A long unit (past CR_DWWALK_WIN_MIN) walked through the window of
 * cr_dwwalks: the fast unit's declarations in 16,000 subprograms, with
 * namespaces whose variables walk_die reads, inlined calls, and strings
 * longer than the window's slack; the same frames for every pc sampled as
 * in place, with the window from the unit's start and with a window and a
 * record kept from pc to pc, and when the window's reads start failing.
 */
static uint8_t big[720 << 10];
static size_t bn;
static uint64_t big_fail;	/* reads that reach this address fail (0: none) */

static void bput(uint64_t v, unsigned size)
{
	memcpy(big + bn, &v, size);
	bn += size;
}

static void buleb(uint64_t v)
{
	do {
		uint8_t byte = v & 0x7f;

		v >>= 7;
		big[bn++] = byte | (v ? 0x80 : 0);
	} while (v);
}

static int big_read(const struct cr_mem *m, uint64_t a, void *dst, size_t len)
{
	if (a < m->lo || a > m->hi || len > m->hi - a || (big_fail && a + len > big_fail))
		return -CR_EFAULT;
	memcpy(dst, big + (a - m->lo), len);
	return 0;
}

#define BIG_SUBS 16000u
#define BIG_LO 0x100000ull

static void big_build(void)
{
	size_t s_g = cstr(&fs, "wg"), s_gl = cstr(&fs, "_Z2wgv"), s_k = cstr(&fs, "wk");
	size_t len_at, d, sib, nsib;

	bn = 0;
	len_at = bn;
	bput(0, 4), bput(5, 2), bput(DW_UT_compile, 1), bput(8, 1), bput(0, 4);
	buleb(1), bput(BIG_LO, 8), bput(BIG_SUBS * 0x40ull, 8), bput(0, 4);
	/* the declaration the definitions and inlined calls refer to */
	d = bn;
	buleb(3), bput(s_g, 4), bput(1, 1), bput(10, 2), bput(s_gl, 4);
	sib = bn;
	bput(0, 4);
	buleb(4), bput(0, 4);
	buleb(0);
	memcpy(big + sib, &(uint32_t){ (uint32_t)bn }, 4);
	for (unsigned k = 0; k < BIG_SUBS; k++) {
		uint64_t a = BIG_LO + k * 0x40ull;

		if (k % 13 == 6) {	/* a namespace of a variable: walk_die's */
			char nm_[16];

			snprintf(nm_, sizeof(nm_), "n%u", k);
			buleb(14);
			memcpy(big + bn, nm_, strlen(nm_) + 1);
			bn += strlen(nm_) + 1;
			nsib = bn;
			bput(0, 4);
			if (k % 2600 == 6) {	/* a DIE longer than the slack */
				memset(big + bn, 'x', 5000);
				bn += 5000;
			}
			big[bn++] = 0;
			buleb(15);
			buleb(2), bput(0x9c9c, 2);
			buleb(1), bput(0x9c, 1);
			bput(3, 1), bput(0, 3);
			buleb(2), bput(0, 2);
			big[bn++] = 'v', big[bn++] = 0;
			buleb(0);
			memcpy(big + nsib, &(uint32_t){ (uint32_t)bn }, 4);
		}
		if (k % 9 == 4) {	/* a definition of g with an inlined call of g */
			buleb(8), bput(d, 4), bput(a, 8), bput(0x40, 8);
			buleb(1), bput(0x9c, 1);
			sib = bn;
			bput(0, 4);
			buleb(9), bput(d, 4), bput(a + 0x10, 8), bput(0x10, 4), bput(1, 1),
				bput(k % 200 + 1, 1);
			buleb(0);
			memcpy(big + sib, &(uint32_t){ (uint32_t)bn }, 4);
		} else {
			buleb(12), bput(a, 8), bput(a + 0x40, 8), bput(s_k, 4);
		}
	}
	buleb(0);
	memcpy(big + len_at, &(uint32_t){ (uint32_t)(bn - 4) }, 4);
}

static int same_frames(const struct cr_dwframe *a, unsigned na, const struct cr_dwframe *b,
		       unsigned nb)
{
	if (na != nb)
		return 0;
	for (unsigned i = 0; i < na; i++)
		if (a[i].die != b[i].die || a[i].low != b[i].low || a[i].name.pos != b[i].name.pos ||
		    a[i].linkage != b[i].linkage || a[i].inlined != b[i].inlined ||
		    a[i].call_file != b[i].call_file || a[i].call_line != b[i].call_line)
			return 0;
	return 1;
}

static void windowed(void)
{
	static struct cr_dwwalk_sub subs[CR_DWWALK_SUBS];
	static uint8_t win[CR_DWWALK_WIN], win2[CR_DWWALK_WIN];	/* a window each */
	static struct cr_dwabbrevs ab;
	struct cr_mem inplace, probe;
	struct cr_dwinfo_src bs;
	struct cr_dwwalks w, kept;
	struct cr_dwcu cu;
	unsigned tried = 0, same = 0, windows = 0, inl = 0, fails = 0, readied = 0;

	big_build();
	fast_map();	/* .debug_str with the strings big_build added */
	printf("# a unit of %zu bytes\n", bn);
	tap_ok(bn >= CR_DWWALK_WIN_MIN + 2 * CR_DWWALK_WIN && bn <= sizeof(big),
	       "window: a unit longer than CR_DWWALK_WIN_MIN by several windows");
	cr_mem_buffer(&inplace, INFO, big, bn);
	memset(&probe, 0, sizeof(probe));
	probe.read = big_read;	/* copies only, as pread */
	probe.lo = INFO;
	probe.hi = INFO + bn;
	bs = fsrc;
	bs.info = (struct cr_dwsect){ &inplace, INFO, INFO + bn };
	bs.probe = NULL;
	if (cr_dwinfo_unit(&bs, 0, &cu) < 0) {
		tap_ok(0, "window: the unit");
		return;
	}
	memset(&kept, 0, sizeof(kept));
	kept.sub = subs;
	kept.win = win2;
	ab.mem = NULL;
	for (unsigned k = 0; k < BIG_SUBS; k += 61) {
		uint64_t pc = BIG_LO + k * 0x40ull + (k % 3 ? 0x18 : 0x2);
		struct cr_dwframe f0[8], f1[8], f2[8];
		unsigned n0 = 0, n1 = 0, n2 = 0;
		int r0, r1, r2;

		bs.probe = NULL;
		r0 = cr_dwinfo_inlines(&bs, &cu, pc, f0, 8, &n0);
		bs.probe = &probe;
		memset(&w, 0, sizeof(w));
		w.win = win;	/* no records: a window from the unit's start */
		w.win_fresh = 1;
		r1 = cr_dwinfo_inlines_wk(&bs, &cu, pc, f1, 8, &n1, &ab, &w);
		windows += w.wmem == &probe;
		readied += w.wmem == &probe && w.win_fresh == 0;
		r2 = cr_dwinfo_inlines_wk(&bs, &cu, pc, f2, 8, &n2, &ab, &kept);
		tried++;
		inl += r0 == 0 && n0 == 2;
		same += r0 == r1 && r0 == r2 && (r0 < 0 || (same_frames(f0, n0, f1, n1) &&
							     same_frames(f0, n0, f2, n2)));
	}
	printf("# %u pcs, %u with an inlined call, %u walked through the window\n", tried, inl,
	       windows);
	tap_ok(tried > 250 && inl > 25 && windows == tried,
	       "window: every walk of the long unit went through the window");
	tap_is_u64(readied, tried, "window: a fresh window made ready at its first read");
	tap_is_u64(same, tried, "window: every pc's frames as in place, fresh and with a record kept");
	/* The window's reads fail from 200 KiB on: in place from there. */
	big_fail = INFO + (200 << 10);
	for (unsigned k = 4; k < BIG_SUBS; k += 1201) {
		uint64_t pc = BIG_LO + k * 0x40ull + 0x18;
		struct cr_dwframe f0[8], f1[8];
		unsigned n0 = 0, n1 = 0;
		int r0, r1;

		bs.probe = NULL;
		r0 = cr_dwinfo_inlines(&bs, &cu, pc, f0, 8, &n0);
		bs.probe = &probe;
		memset(&w, 0, sizeof(w));
		w.win = win;
		r1 = cr_dwinfo_inlines_wk(&bs, &cu, pc, f1, 8, &n1, &ab, &w);
		fails += r0 != r1 || (r0 == 0 && !same_frames(f0, n0, f1, n1));
	}
	big_fail = 0;
	tap_is_u64(fails, 0, "window: reads that fail mid-walk: the same frames, read in place");
}

int main(void)
{
	build_cu0();
	build_cu1();
	build_cu2();
	map();
	units();
	abbrev_first_wins();
	chains();
	malformed();
	printf("# %u units recorded by first walks\n", wk_recorded);
	tap_ok(wk_recorded > 50, "the checks above ran with units' records of first walks too");
	spans();
	fast();
	windowed();
	return tap_done();
}
