/* SPDX-License-Identifier: MIT */
/*
 * dwarf/line.c: hand-made .debug_line units of DWARF 2, 3, 4 and 5 (32- and
 * 64-bit), every standard and extended opcode and special opcodes, exact rows
 * and paths out.  Malformed twins: every truncation, lengths past the unit,
 * bad forms and versions, line_range 0, indexes out of range, the bounds.
 * The unit_length and header_length of each unit are computed (unit()); every
 * other byte is written out below.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../tap.h"
#include "dwarf/line.h"
#include "faultmem.h"

#define LINE 0x10000ull		/* where .debug_line is */
#define LSTR 0x80000ull		/* .debug_line_str */
#define STR 0x90000ull		/* .debug_str */

#define BYTES(...) ((const uint8_t[]){ __VA_ARGS__ }), sizeof((const uint8_t[]){ __VA_ARGS__ })

static uint8_t sec[1 << 18];
static size_t secn;
static struct cr_mem mline, mlstr, mstr;
static struct cr_dwline_src src;
static struct cr_dwline_row row;
static char path[256];

static const char line_str[] = "/usr/local\0include\0/usr/include\0x.c";	/* 0, 11, 19, 32 */
static const char debug_str[] = "/src\0lib\0unterminated";	/* 0, 5, 9 (the section's end) */

static void sections(const uint8_t *line, size_t n)
{
	cr_mem_buffer(&mline, LINE, line, n);
	cr_mem_buffer(&mlstr, LSTR, line_str, sizeof(line_str));
	cr_mem_buffer(&mstr, STR, debug_str, sizeof(debug_str) - 1);
	src.line = (struct cr_dwsect){ &mline, LINE, LINE + n };
	src.line_str = (struct cr_dwsect){ &mlstr, LSTR, LSTR + sizeof(line_str) };
	src.str = (struct cr_dwsect){ &mstr, STR, STR + sizeof(debug_str) - 1 };
}

static void put(uint8_t *b, size_t *n, uint64_t v, unsigned size)
{
	memcpy(b + *n, &v, size);	/* little-endian host */
	*n += size;
}

/*
 * Append a unit to sec: unit_length (64-bit DWARF: 0xffffffff and 8 bytes),
 * version, for version 5 address_size 8 and segment_selector_size 0,
 * header_length, then hdr (the header from minimum_instruction_length on)
 * and prog.  Returns the unit's offset.
 */
static uint64_t unit(unsigned ver, int dw64, const uint8_t *hdr, size_t hn, const uint8_t *prog,
		     size_t pn)
{
	size_t at = secn, n = secn, osz = dw64 ? 8 : 4;
	uint64_t len = 2 + (ver >= 5 ? 2 : 0) + osz + hn + pn;

	if (dw64)
		put(sec, &n, 0xffffffff, 4);
	put(sec, &n, len, osz);
	put(sec, &n, ver, 2);
	if (ver >= 5) {
		sec[n++] = 8;
		sec[n++] = 0;
	}
	put(sec, &n, hn, osz);
	memcpy(sec + n, hdr, hn);
	memcpy(sec + n + hn, prog, pn);
	secn = n + hn + pn;
	return at;
}

#define STD_LENS 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1	/* DWARF 5 6.2.5.2: opcodes 1-12 */

/* DWARF 4: include_directories, file_names, every opcode, define_file, two sequences. */
static const uint8_t v4_hdr[] = {
	/* min_inst, max_ops, default_is_stmt, line_base -5, line_range, opcode_base */
	1, 1, 1, 0xfb, 14, 13, STD_LENS,
	'/', 'u', 's', 'r', '/', 'i', 'n', 'c', 'l', 'u', 'd', 'e', 0,	/* dir 1 */
	's', 'r', 'c', 0,				/* dir 2: relative */
	0,
	'a', '.', 'c', 0, 0, 0, 0,			/* file 1: dir 0, the CU's */
	's', 't', 'd', 'i', 'o', '.', 'h', 0, 1, 0, 0,	/* file 2 */
	'b', '.', 'h', 0, 2, 0x80, 0x01, 0x05,		/* file 3: mtime 128, length 5 */
	'/', 'a', 'b', 's', '/', 'c', '.', 'h', 0, 1, 0, 0,	/* file 4: absolute */
	0,
};
static const uint8_t v4_prog[] = {
	/* set_address 0x1000 */
	0x00, 0x09, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x03, 0x09,		/* advance_line 9: line 10 */
	0x01,			/* copy: 0x1000 line 10 */
	0x2f,			/* special 47: adjusted 34, address +2, line +1: 0x1002 line 11 */
	0x02, 0x04,		/* advance_pc 4: 0x1006 */
	0x04, 0x02,		/* set_file 2 */
	0x05, 0x07,		/* set_column 7 */
	0x06,			/* negate_stmt: 0 */
	0x07,			/* set_basic_block */
	0x0a,			/* set_prologue_end */
	0x0b,			/* set_epilogue_begin */
	0x0c, 0x03,		/* set_isa 3 */
	0x00, 0x02, 0x04, 0x05,	/* set_discriminator 5 */
	0x03, 0x7d,		/* advance_line -3: line 8 */
	0x01,			/* copy: 0x1006 line 8 file 2 column 7 !stmt discriminator 5 */
	0x08,			/* const_add_pc: (255 - 13) / 14 = 17: 0x1017 */
	0x09, 0x10, 0x00,	/* fixed_advance_pc 0x10: 0x1027 */
	0x04, 0x03,		/* set_file 3 */
	0x06,			/* negate_stmt: 1 */
	0x01,			/* copy: 0x1027 line 8 file 3 column 7 */
	0x00, 0x08, 0x03, 'd', '.', 'c', 0, 1, 0, 0,	/* define_file "d.c" dir 1: file 5 */
	0x04, 0x05,		/* set_file 5 */
	0x03, 0xe4, 0x00,	/* advance_line 100: line 108 */
	0x02, 0x09,		/* advance_pc 9: 0x1030 */
	0x01,			/* copy: 0x1030 line 108 file 5 */
	0x04, 0x04,		/* set_file 4 */
	0x3a,			/* special 58: adjusted 45, address +3, line -2: 0x1033 line 106 */
	0x00, 0x03, 0x80, 0xaa, 0xbb,	/* an unknown extended opcode: skipped */
	0x02, 0x0d,		/* advance_pc 13: 0x1040 */
	0x00, 0x01, 0x01,	/* end_sequence at 0x1040 */
	/* set_address 0x2000 */
	0x00, 0x09, 0x02, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01,			/* copy: 0x2000 line 1 file 1 (registers reset) */
	0x02, 0x20,		/* advance_pc 0x20 */
	0x00, 0x01, 0x01,	/* end_sequence at 0x2020 */
};

/* DWARF 5: line_strp directories, string/data1/data16 files, file 0, two rows at one address. */
static const uint8_t v5_hdr[] = {
	1, 1, 1, 0xfb, 14, 13, STD_LENS,
	1, DW_LNCT_path, DW_FORM_line_strp,		/* directory format */
	3, 0, 0, 0, 0, 11, 0, 0, 0, 19, 0, 0, 0,	/* /usr/local, include, /usr/include */
	3, DW_LNCT_path, DW_FORM_string, DW_LNCT_directory_index, DW_FORM_data1,
	DW_LNCT_MD5, DW_FORM_data16,			/* file format */
	3,
	'm', 'a', 'i', 'n', '.', 'c', 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	'u', 't', 'i', 'l', '.', 'h', 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	's', 't', 'd', 'i', 'o', '.', 'h', 0, 2,
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
};
static const uint8_t v5_prog[] = {
	/* set_address 0x4000 */
	0x00, 0x09, 0x02, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x04, 0x00,		/* set_file 0: the primary file */
	0x01,			/* copy: 0x4000 line 1 file 0 */
	0x4c,			/* special 76: adjusted 63, address +4, line +2: 0x4004 line 3 */
	0x04, 0x01,		/* set_file 1 */
	0x2e,			/* special 46: adjusted 33, address +2, line +0: 0x4006 line 3 */
	0x04, 0x02,		/* set_file 2 */
	0x01,			/* copy: 0x4006 again, file 2: the last row at an address wins */
	0x02, 0x0a,		/* advance_pc 10 */
	0x00, 0x01, 0x01,	/* end_sequence at 0x4010 */
};

/* 64-bit DWARF 5: strp directories, line_strp files, udata/block/data4/vendor forms. */
static const uint8_t v5_64_hdr[] = {
	1, 1, 1, 0xfb, 14, 13, STD_LENS,
	1, DW_LNCT_path, DW_FORM_strp,
	2, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0,	/* /src, lib */
	5, DW_LNCT_path, DW_FORM_line_strp, DW_LNCT_directory_index, DW_FORM_udata,
	DW_LNCT_timestamp, DW_FORM_block, DW_LNCT_size, DW_FORM_data4,
	0x81, 0x40, DW_FORM_data2,			/* 0x2001, a vendor's: skipped */
	2,
	32, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0xaa, 0xbb, 1, 2, 3, 4, 5, 6,	/* x.c, dir 1 */
	32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6,		/* x.c, dir 0 */
};
static const uint8_t v5_64_prog[] = {
	/* set_address 0x5000 */
	0x00, 0x09, 0x02, 0x00, 0x50, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x04, 0x00, 0x01,	/* set_file 0, copy: 0x5000 */
	0x02, 0x08,		/* advance_pc 8 */
	0x04, 0x01, 0x01,	/* set_file 1, copy: 0x5008 */
	0x02, 0x08,
	0x00, 0x01, 0x01,	/* end_sequence at 0x5010 */
};

/* DWARF 2: opcode_base 10 (10-12 are special), min_inst 4, 4-byte set_address. */
static const uint8_t v2_hdr[] = {
	4, 0, 0xfd, 12, 10, 0, 1, 1, 1, 1, 0, 0, 0, 1,	/* !is_stmt, line_base -3, range 12 */
	0,
	'v', '2', '.', 'c', 0, 0, 0, 0,
	0,
};
static const uint8_t v2_prog[] = {
	0x00, 0x05, 0x02, 0x00, 0x60, 0x00, 0x00,	/* set_address 0x6000 (4 bytes) */
	0x03, 0x05,		/* advance_line 5: line 6 */
	0x01,			/* copy: 0x6000 line 6 */
	0x0c,			/* special 12: adjusted 2, address +0, line -1: 0x6000 line 5 */
	0x20,			/* special 32: adjusted 22, address +4, line +7: 0x6004 line 12 */
	0x02, 0x02,		/* advance_pc 2: 8 bytes, 0x600c */
	0x00, 0x01, 0x01,
};

/* DWARF 3: opcode_base 14, opcode 13 a producer's own with two operands (skipped by its length). */
static const uint8_t v3_hdr[] = {
	1, 1, 0xfb, 14, 14, STD_LENS, 2,
	'/', 'd', 0, 0,
	'v', '3', '.', 'c', 0, 1, 0, 0,
	0,
};
static const uint8_t v3_prog[] = {
	0x00, 0x09, 0x02, 0x00, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x0d, 0x81, 0x01, 0x05,	/* opcode 13: two LEB128 operands */
	0x01,			/* copy: 0x7000 line 1 */
	0x32,			/* special 50: adjusted 36, address +2, line +3: 0x7002 line 4 */
	0x02, 0x02, 0x00, 0x01, 0x01,
};

/* DWARF 4 VLIW: max_ops 3, min_inst 4: op_index advances (6.2.5.1). */
static const uint8_t vliw_hdr[] = {
	4, 3, 1, 0xfb, 14, 13, STD_LENS,
	0,
	'w', '.', 'c', 0, 0, 0, 0,
	0,
};
static const uint8_t vliw_prog[] = {
	0x00, 0x09, 0x02, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01,			/* copy: 0x8000 op 0 line 1 */
	0x02, 0x07,		/* advance_pc 7 operations: 4 * (7 / 3) = 8 bytes, op_index 1 */
	0x03, 0x01, 0x01,	/* line 2, copy: 0x8008 op 1 */
	0x2f,			/* special 47: 2 operations, 4 * ((1 + 2) / 3): 0x800c, line 3 */
	0x02, 0x03,		/* 3 operations: 0x8010 */
	0x00, 0x01, 0x01,
};

/*
 * Operands at the in-place runner's edges (run_fast): advance_line of three
 * bytes both ways and of two, the widest file (2^31 - 1) and column
 * (2^32 - 1) it holds in its register; in two more units, a column of 2^32
 * and a file of 2^31, where it gives up and run() answers.
 */
static const uint8_t wide_hdr[] = {
	1, 1, 1, 0xfb, 14, 13, STD_LENS,
	0,				/* no include_directories */
	'w', '.', 'c', 0, 0, 0, 0,	/* file 1 */
	0,
};
static const uint8_t wide_prog[] = {
	0x00, 0x09, 0x02, 0x00, 0xa0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 0xa000 */
	0x03, 0xc0, 0xcf, 0x24,		/* advance_line 600000 (bit 19 set): line 600001 */
	0x01,				/* copy: 0xa000 line 600001 */
	0x02, 0x04,			/* 0xa004 */
	0x03, 0xa8, 0xb8, 0x5b,		/* advance_line -599000: line 1001 */
	0x05, 0xff, 0xff, 0xff, 0xff, 0x0f,	/* set_column 2^32 - 1 */
	0x01,				/* copy: 0xa004 line 1001 */
	0x02, 0x04,			/* 0xa008 */
	0x03, 0x98, 0x78,		/* advance_line -1000: line 1 */
	0x04, 0xff, 0xff, 0xff, 0xff, 0x07,	/* set_file 2^31 - 1 */
	0x01,				/* copy: 0xa008 line 1 */
	0x02, 0x04,			/* 0xa00c */
	0x00, 0x01, 0x01,
};
static const uint8_t huge_prog[] = {
	0x00, 0x09, 0x02, 0x00, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 0xb000 */
	0x05, 0x80, 0x80, 0x80, 0x80, 0x10,	/* set_column 2^32 */
	0x01,				/* copy: 0xb000 line 1 */
	0x02, 0x04,			/* 0xb004 */
	0x00, 0x01, 0x01,
};
static const uint8_t hugefile_prog[] = {
	0x00, 0x09, 0x02, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 0xc000 */
	0x04, 0x80, 0x80, 0x80, 0x80, 0x08,	/* set_file 2^31 */
	0x01,				/* copy: 0xc000 */
	0x02, 0x04,			/* 0xc004 */
	0x00, 0x01, 0x01,
};

static uint64_t off_wide, off_huge, off_hugefile;
static uint64_t off_v4, off_v5, off_v5_64, off_v2, off_v3, off_vliw;

static void build(void)
{
	secn = 0;
	off_v4 = unit(4, 0, v4_hdr, sizeof(v4_hdr), v4_prog, sizeof(v4_prog));
	off_v5 = unit(5, 0, v5_hdr, sizeof(v5_hdr), v5_prog, sizeof(v5_prog));
	off_v5_64 = unit(5, 1, v5_64_hdr, sizeof(v5_64_hdr), v5_64_prog, sizeof(v5_64_prog));
	off_v2 = unit(2, 0, v2_hdr, sizeof(v2_hdr), v2_prog, sizeof(v2_prog));
	off_v3 = unit(3, 0, v3_hdr, sizeof(v3_hdr), v3_prog, sizeof(v3_prog));
	off_vliw = unit(4, 0, vliw_hdr, sizeof(vliw_hdr), vliw_prog, sizeof(vliw_prog));
	off_wide = unit(4, 0, wide_hdr, sizeof(wide_hdr), wide_prog, sizeof(wide_prog));
	off_huge = unit(4, 0, wide_hdr, sizeof(wide_hdr), huge_prog, sizeof(huge_prog));
	off_hugefile = unit(4, 0, wide_hdr, sizeof(wide_hdr), hugefile_prog, sizeof(hugefile_prog));
	sections(sec, secn);
}

struct want {
	uint64_t pc;
	int ret;
	uint64_t addr, end, line, column, file, disc;
	uint8_t is_stmt;
	const char *path;
};

static int find(uint64_t off, uint64_t pc, const char *comp)
{
	memset(&row, 0xa5, sizeof(row));
	memset(path, 0, sizeof(path));
	return cr_dwline_find(&src, off, pc, comp, &row, path, sizeof(path));
}

static void check(const char *what, uint64_t off, const char *comp, const struct want *w, size_t n)
{
	char t[160];

	for (size_t i = 0; i < n; i++) {
		int ret = find(off, w[i].pc, comp);

		snprintf(t, sizeof(t), "%s: pc 0x%" PRIx64 ": %d", what, w[i].pc, w[i].ret);
		if (w[i].ret) {
			tap_is_i64(ret, w[i].ret, t);
			continue;
		}
		if (!tap_is_i64(ret, 0, t))
			continue;
		snprintf(t, sizeof(t), "%s: pc 0x%" PRIx64 ": %s:%" PRIu64 ":%" PRIu64 " row", what,
			 w[i].pc, w[i].path, w[i].line, w[i].column);
		if (!tap_ok(row.addr == w[i].addr && row.end == w[i].end && row.line == w[i].line &&
				    row.column == w[i].column && row.file == w[i].file &&
				    row.discriminator == w[i].disc && row.is_stmt == w[i].is_stmt,
			    t))
			printf("#   got addr 0x%" PRIx64 " end 0x%" PRIx64 " line %" PRIu64
			       " column %" PRIu64 " file %" PRIu64 " disc %" PRIu64 " stmt %u\n",
			       row.addr, row.end, row.line, row.column, row.file, row.discriminator,
			       row.is_stmt);
		snprintf(t, sizeof(t), "%s: pc 0x%" PRIx64 ": path", what, w[i].pc);
		tap_is_str(path, w[i].path, t);
	}
}

#define NOROW(pc) { pc, -CR_ENOINFO, 0, 0, 0, 0, 0, 0, 0, NULL }
#define CHECK(what, off, comp, ...)                                                  \
	do {                                                                          \
		static const struct want w_[] = { __VA_ARGS__ };                     \
		check(what, off, comp, w_, CR_ARRAY_SIZE(w_));                       \
	} while (0)

static void t_v4(void)
{
	CHECK("v4", off_v4, "/comp",
	      NOROW(0x0fff),
	      { 0x1000, 0, 0x1000, 0x1002, 10, 0, 1, 0, 1, "/comp/a.c" },
	      { 0x1001, 0, 0x1000, 0x1002, 10, 0, 1, 0, 1, "/comp/a.c" },
	      { 0x1002, 0, 0x1002, 0x1006, 11, 0, 1, 0, 1, "/comp/a.c" },
	      { 0x1005, 0, 0x1002, 0x1006, 11, 0, 1, 0, 1, "/comp/a.c" },
	      { 0x1006, 0, 0x1006, 0x1027, 8, 7, 2, 5, 0, "/usr/include/stdio.h" },
	      { 0x1026, 0, 0x1006, 0x1027, 8, 7, 2, 5, 0, "/usr/include/stdio.h" },
	      { 0x1027, 0, 0x1027, 0x1030, 8, 7, 3, 0, 1, "/comp/src/b.h" },
	      { 0x1030, 0, 0x1030, 0x1033, 108, 7, 5, 0, 1, "/usr/include/d.c" },
	      { 0x1033, 0, 0x1033, 0x1040, 106, 7, 4, 0, 1, "/abs/c.h" },
	      { 0x103f, 0, 0x1033, 0x1040, 106, 7, 4, 0, 1, "/abs/c.h" },
	      NOROW(0x1040),
	      NOROW(0x1fff),
	      { 0x2000, 0, 0x2000, 0x2020, 1, 0, 1, 0, 1, "/comp/a.c" },
	      { 0x201f, 0, 0x2000, 0x2020, 1, 0, 1, 0, 1, "/comp/a.c" },
	      NOROW(0x2020));
	CHECK("v4 without comp_dir", off_v4, NULL,
	      { 0x1000, 0, 0x1000, 0x1002, 10, 0, 1, 0, 1, "a.c" },
	      { 0x1027, 0, 0x1027, 0x1030, 8, 7, 3, 0, 1, "src/b.h" },
	      { 0x1006, 0, 0x1006, 0x1027, 8, 7, 2, 5, 0, "/usr/include/stdio.h" });
	tap_is_i64(cr_dwline_find(&src, off_v4, 0x1006, NULL, &row, NULL, 0), 0,
		   "v4: no path buffer: row only");
	tap_is_u64(row.line, 8, "v4: no path buffer: line 8");
	tap_is_u64(row.version, 4, "v4: version 4");
	/* "/usr/include/stdio.h" is 20 bytes. */
	tap_is_i64(cr_dwline_find(&src, off_v4, 0x1006, NULL, &row, path, 21), 0,
		   "v4: path in exactly its size");
	tap_is_i64(cr_dwline_find(&src, off_v4, 0x1006, NULL, &row, path, 20), -CR_ERANGE,
		   "v4: path one byte too long: -CR_ERANGE");
	tap_is_i64(cr_dwline_find(&src, off_v4, 0x1000, "/comp", &row, path, 9), -CR_ERANGE,
		   "v4: comp_dir + name one byte too long: -CR_ERANGE");
}

static void t_v5(void)
{
	CHECK("v5", off_v5, "/elsewhere",
	      NOROW(0x3fff),
	      { 0x4000, 0, 0x4000, 0x4004, 1, 0, 0, 0, 1, "/usr/local/main.c" },
	      { 0x4003, 0, 0x4000, 0x4004, 1, 0, 0, 0, 1, "/usr/local/main.c" },
	      { 0x4004, 0, 0x4004, 0x4006, 3, 0, 0, 0, 1, "/usr/local/main.c" },
	      { 0x4006, 0, 0x4006, 0x4010, 3, 0, 2, 0, 1, "/usr/include/stdio.h" },
	      { 0x400f, 0, 0x4006, 0x4010, 3, 0, 2, 0, 1, "/usr/include/stdio.h" },
	      NOROW(0x4010));
	/* Directory 1 is relative: to directory 0, the compilation's. */
	CHECK("v5 64-bit", off_v5_64, NULL,
	      { 0x5000, 0, 0x5000, 0x5008, 1, 0, 0, 0, 1, "/src/lib/x.c" },
	      { 0x500f, 0, 0x5008, 0x5010, 1, 0, 1, 0, 1, "/src/x.c" },
	      NOROW(0x5010));
	tap_is_i64(find(off_v5, 0x4000, NULL), 0, "v5: version");
	tap_is_u64(row.version, 5, "v5: version 5");
}

static void t_v2_v3_vliw(void)
{
	CHECK("v2", off_v2, NULL,
	      { 0x6000, 0, 0x6000, 0x6004, 5, 0, 1, 0, 0, "v2.c" },
	      { 0x6003, 0, 0x6000, 0x6004, 5, 0, 1, 0, 0, "v2.c" },
	      { 0x6004, 0, 0x6004, 0x600c, 12, 0, 1, 0, 0, "v2.c" },
	      { 0x600b, 0, 0x6004, 0x600c, 12, 0, 1, 0, 0, "v2.c" },
	      NOROW(0x600c));
	CHECK("v3", off_v3, "/comp",
	      { 0x7000, 0, 0x7000, 0x7002, 1, 0, 1, 0, 1, "/d/v3.c" },
	      { 0x7003, 0, 0x7002, 0x7004, 4, 0, 1, 0, 1, "/d/v3.c" });
	CHECK("vliw", off_vliw, NULL,
	      { 0x8004, 0, 0x8000, 0x8008, 1, 0, 1, 0, 1, "w.c" },
	      { 0x8008, 0, 0x8008, 0x800c, 2, 0, 1, 0, 1, "w.c" },
	      { 0x800f, 0, 0x800c, 0x8010, 3, 0, 1, 0, 1, "w.c" },
	      NOROW(0x8010));
}

/* The size of the unit at off in sec, from its unit_length. */
static size_t unit_size(uint64_t off)
{
	uint32_t ul;
	uint64_t ul64;

	memcpy(&ul, sec + off, 4);
	if (ul != 0xffffffff)
		return 4 + ul;
	memcpy(&ul64, sec + off + 4, 8);
	return 12 + ul64;
}

/* Each unit alone in a section cut short at every byte: -CR_EINVAL, never a crash. */
static void truncations(const char *what, uint64_t off, uint64_t pc)
{
	size_t len = unit_size(off), k, first = 0;
	uint64_t hdr_end;
	uint32_t ul;
	uint8_t *b;
	int all = 1, ret, fret = 0;
	char t[120];

	for (k = 0; k < len; k++) {
		b = malloc(k ? k : 1);
		memcpy(b, sec + off, k);
		sections(b, k);
		ret = cr_dwline_find(&src, 0, pc, "/c", &row, path, sizeof(path));
		if (ret != -CR_EINVAL && all) {
			all = 0;
			first = k;
			fret = ret;
		}
		free(b);
	}
	snprintf(t, sizeof(t), "%s: truncated at each of its %zu bytes: -CR_EINVAL", what, len);
	if (!tap_ok(all, t))
		printf("#   first wrong at %zu bytes: %d\n", first, fret);
	/* The same cuts inside a unit that says so (unit_length lowered): a
	   clean answer each time, -CR_EINVAL while the header is cut. */
	if (sec[off] == 0xff) {
		sections(sec, secn);
		return;
	}
	memcpy(&ul, sec + off + (sec[off + 4] >= 5 ? 8 : 6), 4);
	hdr_end = (sec[off + 4] >= 5 ? 12 : 10) + ul;
	for (k = 4, all = 1; k < len; k++) {
		b = malloc(k);
		memcpy(b, sec + off, k);
		ul = (uint32_t)(k - 4);
		memcpy(b, &ul, 4);
		sections(b, k);
		ret = cr_dwline_find(&src, 0, pc, "/c", &row, path, sizeof(path));
		if (!(ret == -CR_EINVAL || (k >= hdr_end && (ret == 0 || ret == -CR_ENOINFO))) &&
		    all) {
			all = 0;
			first = k;
			fret = ret;
		}
		free(b);
	}
	snprintf(t, sizeof(t), "%s: unit_length cut to each size: a clean answer", what);
	if (!tap_ok(all, t))
		printf("#   first wrong at %zu bytes: %d\n", first, fret);
	sections(sec, secn);
}

static void t_truncated(void)
{
	build();
	truncations("v4", off_v4, 0x1030);
	truncations("v5", off_v5, 0x4006);
	truncations("v5 64-bit", off_v5_64, 0x5000);
	truncations("v2", off_v2, 0x6004);
	truncations("v3", off_v3, 0x7002);
	truncations("vliw", off_vliw, 0x8008);
}

/* A v4 or v5 unit alone, from bytes written here; find() on it. */
static int alone(unsigned ver, int dw64, const uint8_t *hdr, size_t hn, const uint8_t *prog,
		 size_t pn, uint64_t pc)
{
	secn = 0;
	unit(ver, dw64, hdr, hn, prog, pn);
	sections(sec, secn);
	return find(0, pc, "/c");
}

static const uint8_t prog1[] = {
	0x00, 0x09, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x02, 0x04, 0x00, 0x01, 0x01,	/* a row at 0x1000 to 0x1004 */
};
#define V4(...) alone(4, 0, BYTES(__VA_ARGS__), prog1, sizeof(prog1), 0x1000)
#define V5(...) alone(5, 0, BYTES(__VA_ARGS__), prog1, sizeof(prog1), 0x1000)
/* A v4 header with one file, then a program. */
#define P4(pc, ...) \
	alone(4, 0, BYTES(1, 1, 1, 0xfb, 14, 13, STD_LENS, 0, 'f', 0, 0, 0, 0, 0), \
	      BYTES(__VA_ARGS__), pc)
#define H5 1, 1, 1, 0xfb, 14, 13, STD_LENS
#define FILES2 1, 1, 0x08, 2, 'f', 0, 'g', 0
#define SETA 0x00, 0x09, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00

static void t_malformed(void)
{
	size_t n;

	tap_is_i64(V4(1, 1, 1, 0xfb, 14, 13, STD_LENS, 0, 'f', 0, 0, 0, 0, 0), 0, "twin base: v4");
	tap_is_str(path, "/c/f", "twin base: v4: /c/f");
	tap_is_i64(V4(1, 1, 1, 0xfb, 0, 13, STD_LENS, 0, 'f', 0, 0, 0, 0, 0), -CR_EINVAL,
		   "line_range 0: -CR_EINVAL");
	tap_is_i64(V4(1, 0, 1, 0xfb, 14, 13, STD_LENS, 0, 'f', 0, 0, 0, 0, 0), -CR_EINVAL,
		   "maximum_operations_per_instruction 0: -CR_EINVAL");
	tap_is_i64(V4(1, 1, 1, 0xfb, 14, 0), -CR_EINVAL, "opcode_base 0: -CR_EINVAL");
	tap_is_i64(V4(1, 1, 1, 0xfb, 14, 13, STD_LENS, 0, 'f', 0, 0, 0, 0), -CR_EINVAL,
		   "file_names not terminated within the header: -CR_EINVAL");
	tap_is_i64(V4(1, 1, 1, 0xfb, 14, 13, STD_LENS, 0, 'f', 0, 0, 0, 0, 0, 0), 0,
		   "padding after the tables, before the program: fine");
	tap_is_i64(alone(1, 0, BYTES(1, 1, 0xfb, 14, 13, STD_LENS, 0, 0), prog1, sizeof(prog1),
			 0x1000),
		   -CR_EINVAL, "version 1: -CR_EINVAL");
	tap_is_i64(alone(6, 0, BYTES(1, 1, 1, 0xfb, 14, 13, STD_LENS, 0, 0), prog1, sizeof(prog1),
			 0x1000),
		   -CR_EINVAL, "version 6: -CR_EINVAL");

	/* header_length past the unit. */
	secn = 0;
	unit(4, 0, BYTES(1, 1, 1, 0xfb, 14, 13, STD_LENS, 0, 'f', 0, 0, 0, 0, 0), prog1,
	     sizeof(prog1));
	sec[6] = (uint8_t)(secn - 10 + 1);
	sections(sec, secn);
	tap_is_i64(find(0, 0x1000, NULL), -CR_EINVAL,
		   "header_length one past the unit: -CR_EINVAL");
	sec[6] = (uint8_t)(secn - 10);
	tap_is_i64(find(0, 0x1000, NULL), -CR_ENOINFO,
		   "header_length to the unit's end: no program, -CR_ENOINFO");
	/* unit_length past the section, and the reserved values (DWARF 5 7.2.2). */
	sec[0]++;
	tap_is_i64(find(0, 0x1000, NULL), -CR_EINVAL, "unit_length past the section: -CR_EINVAL");
	memcpy(sec, (const uint8_t[]){ 0xf0, 0xff, 0xff, 0xff }, 4);
	tap_is_i64(find(0, 0x1000, NULL), -CR_EINVAL, "unit_length 0xfffffff0: -CR_EINVAL");
	tap_is_i64(find(secn, 0x1000, NULL), -CR_EINVAL, "offset at the section's end: -CR_EINVAL");
	tap_is_i64(find(~0ull, 0x1000, NULL), -CR_EINVAL, "offset ~0: -CR_EINVAL");

	/* DWARF 5 forms.  The base: directory "/d", files "f" and "g" (file 1). */
	tap_is_i64(V5(H5, 1, 1, 0x08, 1, '/', 'd', 0, FILES2), 0, "twin base: v5");
	tap_is_str(path, "/d/g", "twin base: v5: /d/g");
	tap_is_i64(V5(H5, 1, 1, 0x01, 1, 0, 0, 0, 0, 0, 0, 0, 0, FILES2), -CR_EINVAL,
		   "directory format DW_FORM_addr: -CR_EINVAL");
	tap_is_i64(V5(H5, 1, 1, 0x06, 1, '/', 'd', 0, 0, FILES2), -CR_EINVAL,
		   "directory path as DW_FORM_data4: -CR_EINVAL");
	tap_is_i64(V5(H5, 1, 1, 0x25, 1, 0, FILES2), -CR_EINVAL,
		   "directory path as DW_FORM_strx1 (needs the CU): -CR_EINVAL");
	tap_is_i64(V5(H5, 1, 1, 0x08, 1, '/', 'd', 0, 2, 1, 0x08, 2, 0x08, 2, 'f', 0, 'x', 0, 'g',
		      0, 'x', 0),
		   -CR_EINVAL, "directory index as DW_FORM_string: -CR_EINVAL");
	tap_is_i64(V5(H5, 1, 1, 0x08, 1, '/', 'd', 0, 1, 2, 0x0b, 2, 0, 0), -CR_EINVAL,
		   "files without a path: -CR_EINVAL");
	tap_is_i64(V5(H5, 1, 1, 0x08, 1, '/', 'd', 0, 2, 1, 0x08, 2, 0x0b, 2, 'f', 0, 0, 'g', 0, 0),
		   0, "twin base: v5 with directory indexes");
	tap_is_i64(V5(H5, 1, 1, 0x08, 1, '/', 'd', 0, 2, 1, 0x08, 2, 0x0b, 2, 'f', 0, 0, 'g', 0, 1),
		   -CR_EINVAL, "directory index 1 of 1 directory: -CR_EINVAL");
	tap_is_i64(V5(H5, 1, 1, 0x1f, 1, 0, 0, 0, 0, FILES2), 0, "twin base: v5 line_strp");
	tap_is_str(path, "/usr/local/g", "twin base: v5 line_strp: /usr/local/g");
	tap_is_i64(V5(H5, 1, 1, 0x1f, 1, 36, 0, 0, 0, FILES2), -CR_EINVAL,
		   "line_strp past .debug_line_str: -CR_EINVAL");
	src.line_str.mem = NULL;
	tap_is_i64(find(0, 0x1000, NULL), -CR_EINVAL,
		   "line_strp without .debug_line_str: -CR_EINVAL");
	tap_is_i64(V5(H5, 1, 1, 0x0e, 1, 0, 0, 0, 0, FILES2), 0, "twin base: v5 strp");
	tap_is_str(path, "/src/g", "twin base: v5 strp: /src/g");
	src.str.mem = NULL;
	tap_is_i64(find(0, 0x1000, NULL), -CR_EINVAL, "strp without .debug_str: -CR_EINVAL");
	tap_is_i64(V5(H5, 1, 1, 0x0e, 1, 9, 0, 0, 0, FILES2), -CR_EINVAL,
		   "strp to a string not terminated in .debug_str: -CR_EINVAL");
	tap_is_i64(V5(H5, 1, 1, 0x08, 0x81, 0x80, 0x04), -CR_ERANGE,
		   "65537 directories: -CR_ERANGE");
	tap_is_i64(V5(H5, 1, 1, 0x08, 1, '/', 'd', 0, 1, 1, 0x08, 0x81, 0x80, 0x04), -CR_ERANGE,
		   "65537 files: -CR_ERANGE");
	tap_is_i64(V5(H5, 17, 1, 8, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b,
		      3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3,
		      0x0b, 0),
		   -CR_ERANGE, "17 (type, form) pairs: -CR_ERANGE");
	tap_is_i64(V5(H5, 16, 1, 8, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b,
		      3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 3, 0x0b, 1,
		      '/', 'd', 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, FILES2),
		   0, "16 (type, form) pairs: fine");
	tap_is_i64(V5(H5, 0, 2, FILES2), -CR_EINVAL, "2 directories of no format: -CR_EINVAL");

	/* DWARF 4 bounds, indexes. */
	{
		static uint8_t big[2 * 65537 + 64];
		uint8_t h[] = { 1, 1, 1, 0xfb, 14, 13, STD_LENS };

		memcpy(big, h, sizeof(h));
		n = sizeof(h);
		for (unsigned i = 0; i < 65537; i++) {
			big[n++] = 'd';
			big[n++] = 0;
		}
		memcpy(big + n, (const uint8_t[]){ 0, 'f', 0, 0, 0, 0, 0 }, 7);
		n += 7;
		secn = 0;
		/* unit() copies into sec: it has room for 2^18 bytes. */
		unit(4, 0, big, n, prog1, sizeof(prog1));
		sections(sec, secn);
		tap_is_i64(find(0, 0x1000, NULL), -CR_ERANGE, "v4: 65537 directories: -CR_ERANGE");
	}
	tap_is_i64(P4(0x1000, SETA, 0x04, 0x00, 0x01, 0x02, 0x04, 0x00, 0x01, 0x01), -CR_EINVAL,
		   "v4 file 0: -CR_EINVAL");
	tap_is_i64(P4(0x1000, SETA, 0x04, 0x02, 0x01, 0x02, 0x04, 0x00, 0x01, 0x01), -CR_EINVAL,
		   "v4 file 2 of 1: -CR_EINVAL");
	tap_is_i64(alone(4, 0, BYTES(1, 1, 1, 0xfb, 14, 13, STD_LENS, 0, 'f', 0, 1, 0, 0, 0),
			 prog1, sizeof(prog1), 0x1000),
		   -CR_EINVAL, "v4 directory 1 of 0: -CR_EINVAL");

	/* Opcodes. */
	tap_is_i64(P4(0x1000, SETA, 0x01, 0x02, 0x04, 0x00, 0x01, 0x01), 0, "twin base: program");
	tap_is_i64(P4(0x1000, SETA, 0x01, 0x02, 0x04, 0x00, 0x00, 0x01), -CR_EINVAL,
		   "extended opcode of length 0: -CR_EINVAL");
	tap_is_i64(P4(0x1000, SETA, 0x01, 0x02, 0x04, 0x00, 0x05, 0x01), -CR_EINVAL,
		   "extended opcode past the unit: -CR_EINVAL");
	tap_is_i64(P4(0x1000, 0x00, 0x0a, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		      0x00, 0x01, 0x02, 0x04, 0x00, 0x01, 0x01),
		   -CR_EINVAL, "set_address of 9 bytes: -CR_EINVAL");
	tap_is_i64(P4(0x1000, SETA, 0x00, 0x01, 0x04, 0x01, 0x02, 0x04, 0x00, 0x01, 0x01),
		   -CR_EINVAL, "set_discriminator longer than its length: -CR_EINVAL");
	tap_is_i64(P4(0x1000, SETA, 0x00, 0x03, 0x04, 0x05, 0x06, 0x01, 0x02, 0x04, 0x00, 0x01,
		      0x01),
		   0, "set_discriminator shorter than its length: the rest skipped");
	tap_is_i64(P4(0x1000, SETA, 0x01, 0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
		      0x80, 0x80, 0x01, 0x00, 0x01, 0x01),
		   -CR_EINVAL, "advance_pc with an 11-byte LEB128: -CR_EINVAL");
	tap_is_i64(P4(0x1000, SETA, 0x01, 0x02, 0x04), -CR_ENOINFO,
		   "no end_sequence: -CR_ENOINFO");
	tap_is_i64(P4(0x1000, SETA, 0x01, 0x09, 0x04), -CR_EINVAL,
		   "fixed_advance_pc cut short: -CR_EINVAL");
	/* A file defined by DW_LNE_define_file that the program never defines. */
	tap_is_i64(P4(0x1000, SETA, 0x04, 0x03, 0x01, 0x00, 0x06, 0x03, 'g', 0, 0, 0, 0, 0x02, 0x04,
		      0x00, 0x01, 0x01),
		   -CR_EINVAL, "file 3 with one define_file: -CR_EINVAL");
	tap_is_i64(P4(0x1000, SETA, 0x04, 0x02, 0x01, 0x00, 0x06, 0x03, 'g', 0, 0, 0, 0, 0x02, 0x04,
		      0x00, 0x01, 0x01),
		   0, "file 2 from a define_file after the row");
	tap_is_str(path, "/c/g", "define_file after the row: /c/g");
}

/* Fault injection: the Nth read fails, for every N until none does. */
static void t_faults(void)
{
	struct faultmem f[3];
	struct cr_dwline_row want;
	char wpath[sizeof(path)];
	unsigned long fail_at = 0;
	unsigned n, bad = 0;
	int ret;

	build();
	tap_is_i64(find(off_v5_64, 0x500f, NULL), 0, "fault injection: reference");
	want = row;
	memcpy(wpath, path, sizeof(path));
	src.line.mem = faultmem_init(&f[0], &mline, &fail_at);
	src.line_str.mem = faultmem_init(&f[1], &mlstr, &fail_at);
	src.str.mem = faultmem_init(&f[2], &mstr, &fail_at);
	for (n = 1; n < 200; n++) {
		fail_at = n;
		ret = find(off_v5_64, 0x500f, NULL);
		if (ret == 0)
			bad += row.addr != want.addr || row.end != want.end ||
			       row.line != want.line || row.file != want.file ||
			       strcmp(path, wpath) != 0;
		else if (ret != -CR_EFAULT)
			bad++;
		if (ret == 0 && fail_at)
			break;
	}
	tap_ok(n > 2 && n < 200, "fault injection: every N until success");
	tap_is_u64(bad, 0, "fault injection: -CR_EFAULT or the same answer");
	sections(sec, secn);
}

/*
 * cr_dwline_find_many: every pc of a unit's range, and some outside, in one
 * run give exactly cr_dwline_find's rows (and not-found where it fails).
 */
static void many(const char *what, uint64_t off, uint64_t lo, uint64_t hi)
{
	uint64_t pcs[64] = { 0 };
	struct cr_dwline_row rows[64], one;
	uint8_t found[64];
	unsigned n = 0, bad = 0;
	int got;
	char name[96];

	for (uint64_t pc = lo - 2; pc < hi + 2 && n < 64; pc++)
		pcs[n++] = pc;
	/* In reverse order too: the batch does not care. */
	for (unsigned i = 0; i < n / 2; i++) {
		uint64_t t = pcs[i];

		pcs[i] = pcs[n - 1 - i];
		pcs[n - 1 - i] = t;
	}
	got = cr_dwline_find_many(&src, off, pcs, n, rows, found);
	for (unsigned i = 0; i < n; i++) {
		int r = cr_dwline_find(&src, off, pcs[i], NULL, &one, NULL, 0);

		if ((r == 0) != (found[i] == 1) ||
		    (r == 0 && (one.addr != rows[i].addr || one.end != rows[i].end ||
				one.file != rows[i].file || one.line != rows[i].line ||
				one.column != rows[i].column || one.version != rows[i].version ||
				one.is_stmt != rows[i].is_stmt ||
				one.discriminator != rows[i].discriminator)))
			bad++;
	}
	snprintf(name, sizeof(name), "%s: find_many of %u pcs (%d found) = find's rows", what, n, got);
	tap_is_u64(bad, 0, name);
}

/* The wide operands: cr_dwline_find_many's exact rows, in one batch. */
static void t_wide(void)
{
	static const struct {
		uint64_t off, pc, addr, end, line, column, file;
	} w[] = {
		{ 0, 0x9fff, 0, 0, 0, 0, 0 },
		{ 0, 0xa000, 0xa000, 0xa004, 600001, 0, 1 },
		{ 0, 0xa003, 0xa000, 0xa004, 600001, 0, 1 },
		{ 0, 0xa004, 0xa004, 0xa008, 1001, 0xffffffffull, 1 },
		{ 0, 0xa007, 0xa004, 0xa008, 1001, 0xffffffffull, 1 },
		{ 0, 0xa008, 0xa008, 0xa00c, 1, 0xffffffffull, 0x7fffffff },
		{ 0, 0xa00b, 0xa008, 0xa00c, 1, 0xffffffffull, 0x7fffffff },
		{ 0, 0xa00c, 0, 0, 0, 0, 0 },
		{ 1, 0xb000, 0xb000, 0xb004, 1, 1ull << 32, 1 },
		{ 1, 0xb003, 0xb000, 0xb004, 1, 1ull << 32, 1 },
		{ 1, 0xb004, 0, 0, 0, 0, 0 },
		{ 2, 0xc000, 0xc000, 0xc004, 1, 0, 1ull << 31 },
		{ 2, 0xc003, 0xc000, 0xc004, 1, 0, 1ull << 31 },
		{ 2, 0xc004, 0, 0, 0, 0, 0 },
	};
	static const char *const name[] = { "wide", "huge", "hugefile" };
	const uint64_t off[] = { off_wide, off_huge, off_hugefile };

	for (unsigned u = 0; u < 3; u++) {
		uint64_t pcs[16];
		struct cr_dwline_row rows[16];
		uint8_t found[16];
		unsigned n = 0, want = 0, bad = 0;
		int got;
		char t[96];

		for (unsigned i = 0; i < CR_ARRAY_SIZE(w); i++)
			if (w[i].off == u)
				pcs[n++] = w[i].pc;
		got = cr_dwline_find_many(&src, off[u], pcs, n, rows, found);
		for (unsigned i = 0, k = 0; i < CR_ARRAY_SIZE(w); i++) {
			if (w[i].off != u)
				continue;
			want += w[i].line != 0;
			if (found[k] != (w[i].line != 0) ||
			    (found[k] && (rows[k].addr != w[i].addr || rows[k].end != w[i].end ||
					  rows[k].line != w[i].line || rows[k].column != w[i].column ||
					  rows[k].file != w[i].file || rows[k].is_stmt != 1 ||
					  rows[k].discriminator != 0 || rows[k].version != 4))) {
				printf("#   pc 0x%" PRIx64 ": found %u addr 0x%" PRIx64 " line %" PRIu64
				       " column %" PRIu64 " file %" PRIu64 "\n", pcs[k], found[k],
				       rows[k].addr, rows[k].line, rows[k].column, rows[k].file);
				bad++;
			}
			k++;
		}
		snprintf(t, sizeof(t), "%s: find_many: %u rows found", name[u], want);
		tap_is_i64(got, want, t);
		snprintf(t, sizeof(t), "%s: find_many: each row exact", name[u]);
		tap_is_u64(bad, 0, t);
	}
	tap_is_i64(cr_dwline_find(&src, off_wide, 0xa005, NULL, &row, NULL, 0), 0, "wide: find");
	tap_is_u64(row.line, 1001, "wide: find: line 1001 after advance_line -9000");
	tap_is_i64(cr_dwline_find(&src, off_hugefile, 0xc001, NULL, &row, NULL, 0), 0,
		   "hugefile: find");
	tap_is_u64(row.file, 1ull << 31, "hugefile: find: file 2^31");
}

/*
 * A long program (three sequences, ~90 KB: every kind of opcode; with
 * longer, an extended opcode longer than the slack now and then, which a
 * window's end cuts: the program is then run again from its start) run
 * through windows of several sizes (cr_dwline_find_many_win, read through
 * a probe that copies): every pc's row as in place; the probe read; a
 * probe that fails at its first read or halfway gives the same rows (the
 * program in place).
 */
static uint8_t lsec[1 << 17];
static struct {
	struct cr_mem m;
	unsigned reads;
	uint64_t fail_at;	/* reads that reach it fail */
} wp;

static int wp_read(const struct cr_mem *m, uint64_t at, void *dst, size_t len)
{
	(void)m;
	wp.reads++;
	if (at + len > wp.fail_at)
		return -CR_EFAULT;
	return mline.read(&mline, at, dst, len);
}

static void t_windows(int longer)
{
	static uint8_t prog[120000], win[1 << 17];
	static const size_t sizes[] = { CR_DWLINE_SLACK + 1, 300, 513, 4096, 65536, 1 << 17 };
	uint64_t seq_lo[3], seq_hi[3], pcs[64], addr = 0;
	struct cr_dwline_row in[64], out[64];
	uint8_t fin[64], fout[64];
	size_t pn = 0, save_n = secn;
	uint64_t off;
	unsigned n = 0, x = 12345;

	for (unsigned q = 0; q < 3; q++) {
		addr = 0x100000 * (q + 1);
		prog[pn++] = 0, prog[pn++] = 9, prog[pn++] = 2;	/* set_address */
		memcpy(prog + pn, &addr, 8);
		pn += 8;
		seq_lo[q] = addr;
		while (pn < 30000 * (q + 1)) {
			x = x * 1103515245u + 12345u;
			switch ((x >> 16) % 24) {
			case 0:	/* advance_line, either way */
				prog[pn++] = 3, prog[pn++] = (uint8_t)((x >> 8) & 0x7f);
				break;
			case 1:	/* set_column, two bytes */
				prog[pn++] = 5, prog[pn++] = 0x80 | (x & 0x7f), prog[pn++] = 1;
				break;
			case 2:
				prog[pn++] = 4, prog[pn++] = 1 + (x >> 9) % 4;	/* set_file */
				break;
			case 3:
				prog[pn++] = 6;	/* negate_stmt */
				break;
			case 4:	/* set_discriminator */
				prog[pn++] = 0, prog[pn++] = 2, prog[pn++] = 4, prog[pn++] = x & 0x7f;
				break;
			case 5:
				prog[pn++] = 8;	/* const_add_pc: +17 */
				addr += 17;
				break;
			case 6:
				prog[pn++] = 9, prog[pn++] = 3, prog[pn++] = 0;	/* fixed_advance_pc 3 */
				addr += 3;
				break;
			case 7:
				prog[pn++] = 2, prog[pn++] = 5;	/* advance_pc 5 */
				addr += 5;
				break;
			case 8:
				prog[pn++] = 1;	/* copy */
				break;
			case 9:	/* an unknown extended opcode of 400 bytes, now and then */
				if (longer && (x >> 20) % 16 == 0) {
					prog[pn++] = 0, prog[pn++] = 0x90, prog[pn++] = 3, prog[pn++] = 0x80;
					memset(prog + pn, 0xee, 399);
					pn += 399;
				}
				break;
			default: {	/* a special opcode (line_base -5, line_range 14) */
				unsigned op = 13 + (x >> 12) % 243;

				prog[pn++] = (uint8_t)op;
				addr += (op - 13) / 14;
				break;
			}
			}
		}
		prog[pn++] = 2, prog[pn++] = 1;	/* advance_pc 1, then end_sequence */
		addr += 1;
		prog[pn++] = 0, prog[pn++] = 1, prog[pn++] = 1;
		seq_hi[q] = addr;
	}
	/* The unit built in sec, copied to its own section (lsec), sec built again. */
	secn = 0;
	off = unit(4, 0, v4_hdr, sizeof(v4_hdr), prog, pn);
	memcpy(lsec, sec, secn);
	secn = save_n;
	build();	/* sec as it was */
	cr_mem_buffer(&mline, LINE, lsec, sizeof(lsec));
	src.line = (struct cr_dwsect){ &mline, LINE, LINE + sizeof(lsec) };
	wp.m = (struct cr_mem){ .read = wp_read, .lo = LINE, .hi = LINE + sizeof(lsec) };
	src.probe = &wp.m;
	tap_ok(pn >= CR_DWLINE_WIN_MIN, "windows: a program long enough for a window");
	/* 60 pcs over the three sequences, and outside them. */
	for (unsigned q = 0; q < 3; q++)
		for (unsigned k = 0; k < 20; k++)
			pcs[n++] = seq_lo[q] + (seq_hi[q] - seq_lo[q]) * k / 19 + (k == 19) - 1;
	pcs[n++] = 0x50, pcs[n++] = seq_hi[2] + 100;
	tap_ok(cr_dwline_find_many(&src, off, pcs, n, in, fin) > 50,
	       "windows: in place, most pcs found");
	for (unsigned w = 0; w < CR_ARRAY_SIZE(sizes); w++) {
		for (unsigned f = 0; f < 3; f++) {
			unsigned bad = 0;
			int got;
			char name[128];

			wp.reads = 0;
			wp.fail_at = f == 0 ? UINT64_MAX : f == 1 ? LINE + off + 10 : LINE + off + pn / 2;
			got = cr_dwline_find_many_win(&src, off, pcs, n, out, fout, win, sizes[w],
						      NULL);
			for (unsigned i = 0; i < n; i++)
				if (fout[i] != fin[i] ||
				    (fin[i] && (out[i].addr != in[i].addr || out[i].end != in[i].end ||
						out[i].file != in[i].file || out[i].line != in[i].line ||
						out[i].column != in[i].column ||
						out[i].is_stmt != in[i].is_stmt ||
						out[i].discriminator != in[i].discriminator ||
						out[i].version != in[i].version)))
					bad++;
			snprintf(name, sizeof(name),
				 "windows%s of %zu bytes%s: %d found, every row as in place, the probe read",
				 longer ? " (long opcodes)" : "", sizes[w],
				 f == 0 ? "" : f == 1 ? ", reads failing at once" : ", reads failing halfway",
				 got);
			tap_ok(bad == 0 && wp.reads > 0, name);
		}
	}
	{	/* a window's first read clears win_fresh; no window, no change */
		uint8_t fresh = 1, fresh_short = 1;
		uint64_t one = seq_lo[0] + 1;
		struct cr_dwline_row r1;
		uint8_t f1;

		wp.fail_at = UINT64_MAX;
		wp.reads = 0;
		cr_dwline_find_many_win(&src, off, pcs, n, out, fout, win, sizes[4], &fresh);
		tap_ok(fresh == 0 && wp.reads > 0,
		       "windows: a fresh window is made ready at its first read");
		sections(sec, secn);	/* short programs, the same probe */
		wp.reads = 0;
		cr_dwline_find_many_win(&src, 0, &one, 1, &r1, &f1, win, sizes[4], &fresh_short);
		tap_ok(fresh_short == 1 && wp.reads == 0,
		       "windows: ... and left fresh where no window is read");
	}
	src.probe = NULL;
	sections(sec, secn);
}

int main(void)
{
	build();
	t_v4();
	t_v5();
	t_v2_v3_vliw();
	t_truncated();
	many("v4", off_v4, 0x1000, 0x1040);
	many("v5", off_v5, 0x4000, 0x4010);
	many("v5 64-bit", off_v5_64, 0x5000, 0x5010);
	many("v2", off_v2, 0x6000, 0x600c);
	many("vliw", off_vliw, 0x8000, 0x8010);
	many("wide", off_wide, 0xa000, 0xa00c);
	many("huge", off_huge, 0xb000, 0xb004);
	many("hugefile", off_hugefile, 0xc000, 0xc004);
	t_wide();
	t_malformed();
	t_faults();
	t_windows(0);
	t_windows(1);
	return tap_done();
}
