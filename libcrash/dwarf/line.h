/* SPDX-License-Identifier: MIT */
/*
 * .debug_line: the line number program of one compilation unit, DWARF 2 to 5
 * (DWARF 5 section 6.2), 32- and 64-bit DWARF, read through cr_mem.  Nothing
 * is tabled: the header's directory and file tables are walked where they
 * lie, the state machine runs once over the program and stops at the row
 * that covers pc.  Pure (reads only the sections given), AS-safe, no
 * recursion; under 2 KiB of stack (-fstack-usage, gcc 12 -O2: 1,440 bytes in
 * cr_dwline_find's frame, which holds the header, a cursor and the state
 * machine; 1,320 with clang 14).
 */
#ifndef CR_DWARF_LINE_H
#define CR_DWARF_LINE_H

#include "../cursor.h"
#include "dwarf.h"

/* A section's bytes: [lo, hi) of mem.  mem NULL: the section is absent. */
struct cr_dwsect {
	const struct cr_mem *mem;
	uint64_t lo, hi;
};

/* What a line program may read: the program's section, and the string sections of its forms. */
struct cr_dwline_src {
	struct cr_dwsect line;		/* .debug_line */
	struct cr_dwsect line_str;	/* .debug_line_str: DW_FORM_line_strp (DWARF 5) */
	struct cr_dwsect str;		/* .debug_str: DW_FORM_strp */
	/* NULL, or .debug_line's memory read another way (pread: the same
	   addresses and bytes as line.mem), for a long program's window
	   (cr_dwline_find_many_win) */
	const struct cr_mem *probe;
};

/* The row that covers a pc (DWARF 5 6.2.2, Table 6.3: the state machine's registers). */
struct cr_dwline_row {
	uint64_t addr;		/* the row's address: addr <= pc < end */
	uint64_t end;		/* the next row's address in its sequence */
	uint64_t file;		/* the file register, as the program numbers files */
	uint64_t line;		/* 0: no source line (compiler-generated code) */
	uint64_t column;	/* 0: unknown */
	uint64_t discriminator;
	uint8_t is_stmt;
	uint8_t version;	/* of the line table: 2 to 5 */
};

/*
 * Bounds on what a header may declare.  Nothing is stored per entry; the
 * counts bound the walks (a DWARF 5 entry may take no bytes at all).
 */
#define CR_DWLINE_MAX_DIRS	65536
#define CR_DWLINE_MAX_FILES	65536
#define CR_DWLINE_MAX_FORMATS	16	/* (content type, form) pairs per entry format */

/*
 * The row of the line program at offset off of .debug_line (a CU's
 * DW_AT_stmt_list) that covers pc: the last row with address <= pc in a
 * sequence whose end_sequence address is > pc (rows at the same address: the
 * last one).  The first such sequence wins.
 *
 * With path non-NULL, the row's file is written there as a C string: NAME
 * if absolute, else DIR/NAME if its directory is absolute, else
 * COMP_DIR/DIR/NAME (DWARF 5 6.2.4: relative directories are relative to
 * the compilation directory; in DWARF 2-4 directory 0 is the compilation
 * directory itself and has no entry; in DWARF 5 it has one, and a relative
 * directory is still joined to comp_dir alone, as binutils, LLVM and GDB
 * do), leaving out what is empty or absent.
 * comp_dir: the CU's DW_AT_comp_dir, or NULL.  DWARF 5 file 0 is the primary
 * source file, DWARF 2-4 files count from 1 and may come from
 * DW_LNE_define_file.
 *
 * 0 and *row (and path); -CR_ENOINFO: no row covers pc; -CR_EINVAL: malformed
 * or truncated (unit, header, opcode, form, file or directory index, string);
 * -CR_ERANGE: more directories, files or format pairs than the bounds above,
 * or a path longer than cap - 1; -CR_EFAULT: the memory is unreadable.
 * Output only on success (path: "" on failure).  Time: linear in the unit's
 * size plus the path's: the header's tables are walked at most three times
 * (checked once, then up to the file and up to its directory), the program
 * at most twice (the second time only for a file from DW_LNE_define_file).
 */
int cr_dwline_find(const struct cr_dwline_src *src, uint64_t off, uint64_t pc,
		   const char *comp_dir, struct cr_dwline_row *row, char *path, size_t cap);

/*
 * The rows of n pcs in one run of the program at offset off (the frames of
 * one unit in a backtrace): rows[i] and found[i] = 1 for each pc a row
 * covers, as cr_dwline_find() would give it, without a path.  The number
 * found (the run stops when all are); a pc whose row comes after a
 * malformed part is not found (cr_dwline_find() fails for it too);
 * -CR_EINVAL, -CR_ERANGE, -CR_EFAULT as cr_dwline_find() when none is found
 * before one.  AS-safe; time: one run of the program.
 */
int cr_dwline_find_many(const struct cr_dwline_src *src, uint64_t off, const uint64_t *pcs,
			unsigned n, struct cr_dwline_row *rows, uint8_t *found);

/*
 * cr_dwline_find_many(), the same results, with win (win_len bytes, more
 * than CR_DWLINE_SLACK; NULL: none) for a program of CR_DWLINE_WIN_MIN
 * bytes and more: read win_len bytes at a time through src->probe into win
 * and run there, not in place in .debug_line's mapping (each page of which
 * costs its first touch even when mapped ahead: docs/performance.md, stop
 * 42).  No opcode starts in the last CR_DWLINE_SLACK bytes of a window but
 * the program's last: the run pauses there and goes on from that opcode
 * in the next window.  A read that fails runs the program in place, from
 * its start.  win_fresh: NULL, or 1 if win's pages were never written
 * (page-aligned: cr_mem_populate_write maps them before the first read,
 * and *win_fresh becomes 0); left as it is where no window is read.
 */
#define CR_DWLINE_SLACK 256u
#ifdef CR_DWWALK_SMALL	/* the fuzz target: windows within a fuzzer's input */
#define CR_DWLINE_WIN_MIN 512u
#else
#define CR_DWLINE_WIN_MIN (64u << 10)
#endif
int cr_dwline_find_many_win(const struct cr_dwline_src *src, uint64_t off, const uint64_t *pcs,
			    unsigned n, struct cr_dwline_row *rows, uint8_t *found, uint8_t *win,
			    size_t win_len, uint8_t *win_fresh);

/*
 * The path of file number file of the line program at offset off of
 * .debug_line, as cr_dwline_find() writes a row's file (the same rules:
 * DWARF 5 numbers files from 0, DWARF 2-4 from 1, with the files of
 * DW_LNE_define_file past the header's): for a DW_AT_call_file or
 * DW_AT_decl_file of a CU whose DW_AT_stmt_list is off.  0 and path;
 * -CR_EINVAL: malformed, or no such file; -CR_ERANGE: a bound of
 * cr_dwline_find(), or a path longer than cap - 1; -CR_EFAULT.  path is ""
 * on failure.  AS-safe; stack and time as cr_dwline_find() (the program is
 * run only for a DW_LNE_define_file file).
 */
int cr_dwline_file(const struct cr_dwline_src *src, uint64_t off, uint64_t file,
		   const char *comp_dir, char *path, size_t cap);

/* DWARF 5 7.22: line number opcodes. */
enum {
	DW_LNS_copy = 0x01,
	DW_LNS_advance_pc = 0x02,
	DW_LNS_advance_line = 0x03,
	DW_LNS_set_file = 0x04,
	DW_LNS_set_column = 0x05,
	DW_LNS_negate_stmt = 0x06,
	DW_LNS_set_basic_block = 0x07,
	DW_LNS_const_add_pc = 0x08,
	DW_LNS_fixed_advance_pc = 0x09,
	DW_LNS_set_prologue_end = 0x0a,
	DW_LNS_set_epilogue_begin = 0x0b,
	DW_LNS_set_isa = 0x0c,
	DW_LNE_end_sequence = 0x01,
	DW_LNE_set_address = 0x02,
	DW_LNE_define_file = 0x03,	/* DWARF 2-4; reserved in 5 */
	DW_LNE_set_discriminator = 0x04,
};

/* DWARF 5 7.22 Table 7.27: line number header entry formats. */
enum {
	DW_LNCT_path = 0x1,
	DW_LNCT_directory_index = 0x2,
	DW_LNCT_timestamp = 0x3,
	DW_LNCT_size = 0x4,
	DW_LNCT_MD5 = 0x5,
};

#endif
