/* SPDX-License-Identifier: MIT */
/*
 * DWARF constants shared by the decoders of libcrash/dwarf/ (DWARF 5 section
 * 7, with the GNU extensions that GCC and the binutils emit).  Spec names
 * verbatim; only what the decoders use or must recognise to skip.
 */
#ifndef CR_DWARF_DWARF_H
#define CR_DWARF_DWARF_H

#include "../cursor.h"

/*
 * 7.4: a unit's initial length at c (.debug_info, .debug_line,
 * .debug_aranges): 4 bytes, or 0xffffffff and 8 (64-bit DWARF);
 * 0xfffffff0-0xfffffffe are reserved.  0, *len (the unit's bytes after it,
 * all before c's end) and *offsize (4 or 8); -CR_EINVAL: reserved,
 * truncated (the cursor's past-the-end) or past c's end; the cursor's other
 * error.
 */
static inline int cr_dw_unit_length(struct cr_cursor *c, uint64_t *len, uint8_t *offsize)
{
	uint64_t n = cr_u32(c);

	*len = 0;
	*offsize = 4;
	if (n == 0xffffffff) {
		n = cr_u64(c);
		*offsize = 8;
	} else if (n >= 0xfffffff0) {
		return -CR_EINVAL;
	}
	if (c->err)
		return c->err == -CR_ERANGE ? -CR_EINVAL : c->err;
	if (n > c->end - c->pos)
		return -CR_EINVAL;
	*len = n;
	return 0;
}

/* DWARF 5 7.5.6 Table 7.6: attribute form encodings. */
enum {
	DW_FORM_addr = 0x01,
	DW_FORM_block2 = 0x03,
	DW_FORM_block4 = 0x04,
	DW_FORM_data2 = 0x05,
	DW_FORM_data4 = 0x06,
	DW_FORM_data8 = 0x07,
	DW_FORM_string = 0x08,
	DW_FORM_block = 0x09,
	DW_FORM_block1 = 0x0a,
	DW_FORM_data1 = 0x0b,
	DW_FORM_flag = 0x0c,
	DW_FORM_sdata = 0x0d,
	DW_FORM_strp = 0x0e,
	DW_FORM_udata = 0x0f,
	DW_FORM_ref_addr = 0x10,
	DW_FORM_ref1 = 0x11,
	DW_FORM_ref2 = 0x12,
	DW_FORM_ref4 = 0x13,
	DW_FORM_ref8 = 0x14,
	DW_FORM_ref_udata = 0x15,
	DW_FORM_indirect = 0x16,
	DW_FORM_sec_offset = 0x17,
	DW_FORM_exprloc = 0x18,
	DW_FORM_flag_present = 0x19,
	DW_FORM_strx = 0x1a,
	DW_FORM_addrx = 0x1b,
	DW_FORM_ref_sup4 = 0x1c,
	DW_FORM_strp_sup = 0x1d,
	DW_FORM_data16 = 0x1e,
	DW_FORM_line_strp = 0x1f,
	DW_FORM_ref_sig8 = 0x20,
	DW_FORM_implicit_const = 0x21,
	DW_FORM_loclistx = 0x22,
	DW_FORM_rnglistx = 0x23,
	DW_FORM_ref_sup8 = 0x24,
	DW_FORM_strx1 = 0x25,
	DW_FORM_strx2 = 0x26,
	DW_FORM_strx3 = 0x27,
	DW_FORM_strx4 = 0x28,
	DW_FORM_addrx1 = 0x29,
	DW_FORM_addrx2 = 0x2a,
	DW_FORM_addrx3 = 0x2b,
	DW_FORM_addrx4 = 0x2c,
	/* GNU split DWARF (pre-DWARF 5 Fission) and dwz's alternate file */
	DW_FORM_GNU_addr_index = 0x1f01,
	DW_FORM_GNU_str_index = 0x1f02,
	DW_FORM_GNU_ref_alt = 0x1f20,
	DW_FORM_GNU_strp_alt = 0x1f21,
};

/* DWARF 5 7.5.1 Table 7.2: unit header unit types. */
enum {
	DW_UT_compile = 0x01,
	DW_UT_type = 0x02,
	DW_UT_partial = 0x03,
	DW_UT_skeleton = 0x04,
	DW_UT_split_compile = 0x05,
	DW_UT_split_type = 0x06,
};

/* DWARF 5 7.5.4 Table 7.3: the tags the decoders look at. */
enum {
	DW_TAG_lexical_block = 0x0b,
	DW_TAG_module = 0x1e,
	DW_TAG_catch_block = 0x25,
	DW_TAG_try_block = 0x32,
	DW_TAG_namespace = 0x39,
	DW_TAG_compile_unit = 0x11,
	DW_TAG_inlined_subroutine = 0x1d,
	DW_TAG_subprogram = 0x2e,
	DW_TAG_partial_unit = 0x3c,
	DW_TAG_skeleton_unit = 0x4a,
};

/* DWARF 5 7.5.4 Table 7.5: the attributes the decoders look at. */
enum {
	DW_AT_sibling = 0x01,
	DW_AT_name = 0x03,
	DW_AT_stmt_list = 0x10,
	DW_AT_low_pc = 0x11,
	DW_AT_high_pc = 0x12,
	DW_AT_language = 0x13,
	DW_AT_comp_dir = 0x1b,
	DW_AT_abstract_origin = 0x31,
	DW_AT_specification = 0x47,
	DW_AT_ranges = 0x55,
	DW_AT_call_column = 0x57,
	DW_AT_call_file = 0x58,
	DW_AT_call_line = 0x59,
	DW_AT_linkage_name = 0x6e,
	DW_AT_str_offsets_base = 0x72,
	DW_AT_addr_base = 0x73,
	DW_AT_rnglists_base = 0x74,
	DW_AT_MIPS_linkage_name = 0x2007,
};

/* DWARF 5 7.25 Table 7.30: range list entries (.debug_rnglists). */
enum {
	DW_RLE_end_of_list = 0x00,
	DW_RLE_base_addressx = 0x01,
	DW_RLE_startx_endx = 0x02,
	DW_RLE_startx_length = 0x03,
	DW_RLE_offset_pair = 0x04,
	DW_RLE_base_address = 0x05,
	DW_RLE_start_end = 0x06,
	DW_RLE_start_length = 0x07,
};

#endif
