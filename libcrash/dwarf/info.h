/* SPDX-License-Identifier: MIT */
/*
 * .debug_info, DWARF 2 to 5, 32- and 64-bit DWARF, read through cr_mem: the
 * compilation unit that covers a pc (DWARF 5 6.1.2 .debug_aranges, else the
 * units' own ranges, 2.17), a unit's header and the attributes of its first
 * DIE (7.5.1, 3.1.1), and the chain of inlined subroutines at a pc (3.3.8),
 * innermost first, with each one's name and call site: what
 * `addr2line -f -i` prints.  Nothing is allocated or tabled but a fixed
 * cache of abbreviation offsets, and what the caller gives room for (its
 * decoded abbreviations, cr_dwabbrevs; its units' walk records,
 * cr_dwwalks); every loop is bounded by the bytes it
 * consumes and by a CR_DWINFO_MAX_* count.  Pure (reads only the sections
 * given), AS-safe, no recursion.  Stack (-fstack-usage, gcc 12 -O2): 6,176
 * bytes in cr_dwinfo_inlines_wk's frame (the abbreviation cache, 2 KiB; the
 * chain, 1.5 KiB; a DIE's values; two cursors), under 7 KiB with its
 * callees; 6,168 with clang 14; cr_dwinfo_find_cu_span 1,248, cr_dwinfo_unit
 * 1,104.
 */
#ifndef CR_DWARF_INFO_H
#define CR_DWARF_INFO_H

#include "line.h"

/* The sections a lookup may read; any may be absent (mem NULL). */
struct cr_dwinfo_src {
	struct cr_dwsect info;		/* .debug_info */
	struct cr_dwsect abbrev;	/* .debug_abbrev */
	struct cr_dwsect aranges;	/* .debug_aranges: the units' address ranges */
	struct cr_dwsect ranges;	/* .debug_ranges: DWARF 2-4 DW_AT_ranges */
	struct cr_dwsect rnglists;	/* .debug_rnglists: DWARF 5 DW_AT_ranges */
	struct cr_dwsect addr;		/* .debug_addr: DW_FORM_addrx* */
	struct cr_dwsect str;		/* .debug_str: DW_FORM_strp, and strx through... */
	struct cr_dwsect str_offsets;	/* ...the .debug_str_offsets of DW_FORM_strx* */
	struct cr_dwsect line_str;	/* .debug_line_str: DW_FORM_line_strp */
	/*
	 * NULL, or the memory of .debug_info read another way, for the unit
	 * headers that cr_dwinfo_find_cu passes by (a few bytes each, scattered
	 * over the section: a file's mapping would map pages around each; a
	 * pread does not).  The same addresses and bytes as info.mem.
	 */
	const struct cr_mem *probe;
};

/*
 * A string where it lies: at address pos of sect->mem, NUL-terminated before
 * sect->hi (checked when it is copied).  sect NULL: no string.  sect points
 * into the cr_dwinfo_src it came from, which must outlive it.
 */
struct cr_dwstr {
	const struct cr_dwsect *sect;
	uint64_t pos;
};

/* Which of a unit's optional attributes its first DIE has (cr_dwcu.has). */
enum {
	CR_DWCU_STMT_LIST = 1 << 0,
	CR_DWCU_LOW_PC = 1 << 1,
	CR_DWCU_STR_OFFSETS_BASE = 1 << 2,
	CR_DWCU_ADDR_BASE = 1 << 3,
	CR_DWCU_RNGLISTS_BASE = 1 << 4,
	CR_DWCU_LANGUAGE = 1 << 5,
};

/* A unit of .debug_info: its header (7.5.1) and its first DIE's attributes.  Offsets are
   section offsets. */
struct cr_dwcu {
	uint64_t off;		/* of the unit (its unit_length) */
	uint64_t end;		/* of the next unit */
	uint64_t die;		/* of its first DIE */
	uint64_t abbrev;	/* of its abbreviation table in .debug_abbrev */
	uint8_t version;	/* 2 to 5 */
	uint8_t unit_type;	/* DW_UT_compile or DW_UT_partial (DWARF 2-4: compile) */
	uint8_t offsize;	/* 4, or 8 in 64-bit DWARF */
	uint8_t addr_size;	/* 1 to 8 */
	uint16_t tag;		/* of the first DIE: DW_TAG_compile_unit, partial_unit */
	uint16_t has;		/* CR_DWCU_* */
	uint64_t stmt_list;	/* DW_AT_stmt_list: the line program's offset in .debug_line */
	uint64_t low_pc;	/* DW_AT_low_pc: the base address of its ranges (0 if absent) */
	uint64_t language;	/* DW_AT_language (DW_LANG_*) */
	uint64_t str_offsets_base, addr_base, rnglists_base;	/* DWARF 5; defaults if absent */
	struct cr_dwstr name;		/* DW_AT_name */
	struct cr_dwstr comp_dir;	/* DW_AT_comp_dir */
};

/* One frame of the chain at a pc. */
struct cr_dwframe {
	uint64_t die;		/* offset in .debug_info of its DW_TAG_subprogram or
				   DW_TAG_inlined_subroutine DIE */
	uint64_t low;		/* its DW_AT_low_pc, or the start of the first of its
				   DW_AT_ranges (those up to the one that holds pc) */
	struct cr_dwstr name;	/* linkage name if one is found, else DW_AT_name; sect NULL: none */
	uint8_t linkage;	/* name is DW_AT_linkage_name / DW_AT_MIPS_linkage_name */
	uint8_t inlined;	/* 1: an inlined subroutine (every frame but the last) */
	/* Inlined frames: where the code was inlined, in the next frame's function
	   (DW_AT_call_file: a file number of the unit's line program, see
	   cr_dwline_file(); 0 where absent). */
	uint64_t call_file, call_line, call_column;
};

/* Bounds (each loop's constant bound; exceeded: -CR_ERANGE). */
#define CR_DWINFO_MAX_UNITS	(1u << 20)	/* units in .debug_info, sets in .debug_aranges */
#define CR_DWINFO_MAX_ABBREVS	(1u << 16)	/* declarations in one abbreviation table */
#define CR_DWINFO_MAX_ATTRS	256		/* attribute specifications in one declaration */
#define CR_DWINFO_MAX_DIES	(1u << 24)	/* DIEs walked in one unit */
#define CR_DWINFO_MAX_RANGES	(1u << 20)	/* entries of one range list or aranges set */
#define CR_DWINFO_MAX_DEPTH	256		/* DIE nesting in a unit */
#define CR_DWINFO_MAX_FRAMES	32		/* a subprogram and the inlines in it at a pc */
#define CR_DWINFO_MAX_REFS	8		/* abstract_origin/specification hops per name */
#define CR_DWINFO_ABBREV_CACHE	512		/* abbreviation codes below this are cached */

/*
 * The unit at offset off of .debug_info: its header and the attributes of its
 * first DIE (strings through DW_FORM_strp, line_strp, string, strx*; the
 * low_pc through DW_FORM_addr or addrx*; the bases of DWARF 5 default to the
 * first contribution's, just past a 32- or 64-bit section header).
 * 0 and *cu; -CR_ENOSYS: a unit of another type (type, skeleton, split; *cu
 * is not written); -CR_EINVAL: malformed or truncated (header, abbreviation,
 * form, a string or address index out of its section); -CR_ERANGE: a bound;
 * -CR_EFAULT.  Output only on success.  AS-safe; time linear in the unit's
 * abbreviation table and first DIE.
 */
int cr_dwinfo_unit(const struct cr_dwinfo_src *src, uint64_t off, struct cr_dwcu *cu);

/*
 * cr_dwinfo_unit, reading the first DIE through ab (cr_dwinfo_inlines_wk's):
 * the unit's abbreviation table decoded into it unless it holds that table
 * already, so that the walks of the unit after it do not decode it again
 * (a first DIE's code looked up in the table costs a pass over the
 * declarations before it: GCC orders them by use, the unit's own last).
 * The same answers; ab NULL: cr_dwinfo_unit.
 */
struct cr_dwabbrevs;
int cr_dwinfo_unit_ab(const struct cr_dwinfo_src *src, uint64_t off, struct cr_dwcu *cu,
		      struct cr_dwabbrevs *ab);

/*
 * The offset in .debug_info of the compilation or partial unit whose
 * addresses hold pc: the first .debug_aranges tuple (version 2 sets, all of
 * them) that holds pc; if none does or the section is absent, the first unit
 * whose first DIE's DW_AT_low_pc/high_pc or DW_AT_ranges (.debug_ranges,
 * .debug_rnglists) holds pc.  A unit that has a version 2 set is not read
 * in that walk (6.1.2: its set covers its addresses); the sets are matched
 * in their order, which is their units' as producers and linkers write
 * them (out of order, some units that have one are read).  0 and *off;
 * -CR_ENOINFO: no unit holds pc;
 * -CR_EINVAL, -CR_ERANGE, -CR_EFAULT as above (a malformed aranges set or
 * unit stops the search).  AS-safe; time linear in .debug_aranges plus the
 * units' headers, first DIEs and range lists.
 */
int cr_dwinfo_find_cu(const struct cr_dwinfo_src *src, uint64_t pc, uint64_t *off);

/*
 * cr_dwinfo_find_cu, and on success [*lo, *hi): addresses around pc that
 * it answers the same for (pc's .debug_aranges tuple less every tuple
 * before it; pc alone when the units' own ranges answered), so that the
 * frames of a backtrace in one unit look its aranges up once.
 */
int cr_dwinfo_find_cu_span(const struct cr_dwinfo_src *src, uint64_t pc, uint64_t *off,
			   uint64_t *lo, uint64_t *hi);

/*
 * cr_dwinfo_find_cu's .debug_aranges part for n pcs in one pass over the
 * section (a backtrace's frames in one module; a search per pc reads half
 * of it on average): pcs sorted ascending, n at most CR_DWINFO_MANY (more:
 * the first CR_DWINFO_MANY).  found[i] = 1 and off[i], the unit
 * cr_dwinfo_find_cu gives, for each pc a tuple holds.  The pcs no tuple
 * holds, and those whose tuple comes after a malformed set, are left to
 * cr_dwinfo_find_cu (which walks the units, or gives the error).  The
 * number found; -CR_EINVAL: pcs not sorted.  AS-safe; time linear in
 * .debug_aranges times log n.
 */
#define CR_DWINFO_MANY 64
int cr_dwinfo_find_cu_many(const struct cr_dwinfo_src *src, const uint64_t *pcs, unsigned n,
			   uint64_t *off, uint8_t *found);

/*
 * The chain at pc in unit cu (from cr_dwinfo_unit()): the innermost
 * DW_TAG_subprogram whose ranges hold pc, and every DW_TAG_inlined_subroutine
 * in it whose ranges hold pc, innermost first, into f[0..*n), the subprogram
 * last.  Each frame's name: its own DW_AT_linkage_name (or MIPS), else
 * those its DW_AT_abstract_origin or DW_AT_specification lead to (at most
 * CR_DWINFO_MAX_REFS hops, within the unit or by DW_FORM_ref_addr into
 * another), else the first DW_AT_name met on the way.  A reference into a
 * supplementary or alternate file (ref_sup*, GNU_ref_alt, ref_sig8) ends the
 * search with what was found.
 * The DIE tree is walked once in order with a depth count (no stack of DIEs:
 * a frame remembers its depth); the children of a DIE whose ranges do not
 * hold pc are jumped over with DW_AT_sibling or skipped; the walk stops when
 * it leaves the subprogram.  The unit's abbreviation codes below
 * CR_DWINFO_ABBREV_CACHE are cached (one walk of its table), others found by
 * a linear search of the table.
 * 0 and f, *n >= 1; -CR_ENOINFO: no subprogram holds pc; -CR_ERANGE: more
 * than cap or CR_DWINFO_MAX_FRAMES frames, nesting deeper than
 * CR_DWINFO_MAX_DEPTH, a reference chain longer than CR_DWINFO_MAX_REFS (a
 * cycle), another bound; -CR_EINVAL: malformed or truncated (a DIE, an
 * abbreviation code that does not exist, a form, a reference out of its unit
 * or section, a range list); -CR_EFAULT.  Output only on success.  AS-safe.
 * Time: linear in the unit's DIEs (each read once, its attributes skipped
 * by form) times the abbreviation lookup, plus one DIE per reference hop
 * (a DW_FORM_ref_addr hop also walks the unit headers up to its unit).
 */
int cr_dwinfo_inlines(const struct cr_dwinfo_src *src, const struct cr_dwcu *cu, uint64_t pc,
		      struct cr_dwframe *f, unsigned cap, unsigned *n);

/*
 * A unit's abbreviation declarations decoded once, for the walks of the
 * same unit that follow (a backtrace's frames fall in few units): each
 * code's tag and attribute specifications as a small array, instead of
 * LEB128s read again from .debug_abbrev for every DIE.  The caller's
 * storage (the report keeps one in static memory: 93 KiB); zero it before
 * first use.  Codes below CR_DWINFO_ABBREV_CACHE whose specifications fit;
 * the others are read from the table as without it.  With it, and the
 * unit's bytes in place (cr_mem_view), the walk takes the DIEs whose
 * attributes are all of fixed sizes and hold no addresses but a
 * subprogram's low_pc/high_pc (CR_DWFAST_*: GCC's namespaces of
 * declarations, types, parameters, variables; the definitions that miss
 * pc) without decoding them: the code, then one add or a sibling jump.
 */
#define CR_DWABBREV_SPECS 4096
enum {
	CR_DWFAST_PLAIN = 1,	/* no addresses (no low_pc and high_pc pair, no ranges) */
	CR_DWFAST_SUB,		/* a subprogram with low_pc (addr) and high_pc (addr, data) */
	CR_DWVAR_STRING = 1,	/* DW_FORM_string: to its NUL */
	CR_DWVAR_BLOCK,		/* DW_FORM_exprloc, block: a ULEB128 length */
	CR_DWVAR_BLOCK1,	/* DW_FORM_block1: a 1-byte length */
};
struct cr_dwabbrevs {
	const struct cr_mem *mem;	/* the .debug_abbrev it decoded (NULL: nothing) */
	uint64_t table;			/* the table's offset in it */
	uint8_t offsize, addr_size, version;	/* of the unit the sizes below are for */
	uint32_t nfast;		/* DIEs the last walk with it took in place (tests, benches) */
	uint8_t all;		/* every declaration of the table is decoded */
	uint16_t ndecl;		/* decl[ndecl..] are all zero (decoded: cleared up to it) */
	struct cr_dwabbrev_decl {
		uint16_t first, n;	/* spec[first, first + n) */
		uint16_t wfirst, wn;	/* the walk's steps: wop[wfirst, wfirst + wn) */
		uint16_t tag;
		uint8_t children, present;
		/* The in-place walk's view (CR_DWFAST_*; 0: the DIE is read
		   as above): its attributes' bytes, all of fixed sizes; the
		   sibling's offset among them and width (0: no DW_AT_sibling
		   of class reference); low_pc's (DW_FORM_addr) and high_pc's
		   (addr, or data: hc 1) offsets and width; jump: its
		   children are passed by (a type's, a declaration's). */
		uint8_t fast, jump, sibw, hw, hc;
		uint16_t size, sib, low, high;
		/* Up to 4 attributes of variable sizes (CR_DWVAR_*: a
		   DW_FORM_string, an exprloc or block, a block1) between
		   fixed runs of run[0..nvar] bytes; then the sibling, low_pc
		   and high_pc (bits 1, 2, 4 of end) lie in the first run
		   (offsets from the attributes' start) or the last (from
		   the DIE's end), and size is the runs' sum. */
		uint8_t nvar, end, var[4];
		uint16_t run[5];
	} decl[CR_DWINFO_ABBREV_CACHE];
	/* What the walk does with a DIE: pass skip bytes (the attributes it
	   does not need, of fixed sizes, in a row), then read spec[spec]
	   (0xffff: none). */
	struct {
		uint16_t skip, spec;
	} wop[CR_DWABBREV_SPECS];
	struct {
		int64_t implicit;	/* DW_FORM_implicit_const's value */
		uint16_t form;
		int8_t slot;		/* the attribute's slot in a DIE, -1: not looked at */
		uint8_t size;		/* its form's fixed size in the unit; 0xff: none */
		uint8_t skip;		/* bytes to pass it by when the walk does not need
					   it; 0xff: read it (needed, or of variable size) */
	} spec[CR_DWABBREV_SPECS];
};

/*
 * cr_dwinfo_inlines() with ab, which keeps the decoded abbreviations of the
 * last unit's table (decoded here when it holds another's).  The same
 * results; faster from the second lookup in a unit on.
 */
int cr_dwinfo_inlines_ab(const struct cr_dwinfo_src *src, const struct cr_dwcu *cu, uint64_t pc,
			 struct cr_dwframe *f, unsigned cap, unsigned *n, struct cr_dwabbrevs *ab);

/*
 * What the first walk in a unit saw, for the unit's next lookups (the frames
 * of a backtrace come back to the same units): the subprograms it examined
 * outside any other, in order (each one's offset, depth, and low/high, or
 * that its DW_AT_ranges must be read again for each pc: a list is read only
 * up to the entry that holds the pc, so what is malformed past it fails one
 * pc and not another), and where it stopped.  A next lookup tests those
 * instead of reading the DIEs between them again, and starts the walk at
 * the one that holds its pc, or where the first walk stopped: the same
 * walk, from there.  A unit with code outside any subprogram (inlined
 * subroutines or blocks with addresses there) is not recorded.  The
 * caller's storage; sub NULL: nothing is recorded.
 *
 * Up to CR_DWWALK_GROUP subprograms in a row that the walk passed by in
 * place (walk_fast), each with its span, share one entry: the first one's
 * offset, depth and count, and the union of their spans.  A next lookup
 * whose pc the union holds walks from the first of them, over the others
 * (sibling jumps), to the one that holds it, or on past them if none does
 * (a gap in the union): the same walk as from the unit's start, since no
 * entry before holds the pc.  A subprogram that walk_die takes (the one
 * that holds the first pc, one with DW_AT_ranges) has an entry of its own.
 */
#define CR_DWWALK_UNITS 64
#define CR_DWWALK_SUBS (1u << 16)
#ifdef CR_DWWALK_SMALL
#define CR_DWWALK_GROUP 3u
#else
#define CR_DWWALK_GROUP 8u
#endif
/*
 * 16 bytes, and a group of subprograms to one, so that a unit's record of
 * thousands of subprograms costs few fresh pages (a unity unit of 2,000
 * functions: 40-byte records, one a subprogram, touched 106 pages of the
 * mapping in the symbols benchmark, 16-byte ones 42, at ~10 us each on a
 * host that pays for first touches; docs/performance.md).
 */
struct cr_dwwalk_sub {
	uint32_t off;	/* of its (first) DIE, from the unit's start */
	uint32_t lo;	/* its low pc, from the unit's DW_AT_low_pc (0 if absent) */
	uint32_t len;	/* [lo, lo + len) holds its (their) code; 0: read the DIE
			   again for each pc (DW_AT_ranges, or an address that
			   does not fit), never a group */
	uint32_t dd;	/* the DIEs the walk read before it (bits 0-23), its
			   depth (bits 24-31) */
};
/*
 * A long unit (CR_DWWALK_WIN_MIN bytes and more) is walked through a copy
 * of CR_DWWALK_WIN of its bytes at a time, read with pread (the source's
 * probe), not in place in the file's mapping: a page of the mapping costs
 * its first touch even when mapped ahead, ~0.9 us on a host that traps to
 * its hypervisor there, where the copy costs ~0.25 us a page into a window
 * whose 16 pages are touched once (docs/performance.md, stop 41).
 */
#ifdef CR_DWWALK_SMALL	/* tests/fuzz/run.sh's DWARFINFO: the window within a fuzzer's input */
#define CR_DWWALK_WIN 256u
#define CR_DWWALK_WIN_MIN 512u
#else
#define CR_DWWALK_WIN (64u << 10)
#define CR_DWWALK_WIN_MIN (256u << 10)
#endif
struct cr_dwwalks {
	struct cr_dwwalk_sub *sub;	/* room for CR_DWWALK_SUBS, or NULL */
	/* The window (CR_DWWALK_WIN bytes, or NULL: walks in place) and what
	   it holds: [wlo, whi) of the memory wmem (NULL: nothing) */
	uint8_t *win;
	uint8_t win_fresh;	/* 1: win's pages never written (cr_mem_populate_write
				   maps them at its first read, and clears it) */
	const struct cr_mem *wmem;
	uint64_t wlo, whi;
	uint32_t used, nunits;
	struct {
		const struct cr_mem *mem;	/* of .debug_info */
		uint64_t lo, cu;		/* its section start, the unit's offset */
		uint64_t stop;			/* where the walk goes on (section offset) */
		uint32_t stop_depth, stop_dies, first, n;
	} unit[CR_DWWALK_UNITS];
};

/* cr_dwinfo_inlines_ab(), with the units' records in w (NULL: none).  The same results. */
int cr_dwinfo_inlines_wk(const struct cr_dwinfo_src *src, const struct cr_dwcu *cu, uint64_t pc,
			 struct cr_dwframe *f, unsigned cap, unsigned *n, struct cr_dwabbrevs *ab,
			 struct cr_dwwalks *w);

/*
 * Copy the string s to buf as a C string.  0; -CR_ENOINFO: s has no string
 * (buf ""); -CR_EINVAL: not terminated inside its section; -CR_ERANGE:
 * longer than cap - 1; -CR_EFAULT.  buf is "" on failure.  AS-safe; time
 * linear in the string's length.
 */
int cr_dwinfo_str(const struct cr_dwstr *s, char *buf, size_t cap);

#endif
