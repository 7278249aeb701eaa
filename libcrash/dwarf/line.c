/* SPDX-License-Identifier: MIT */
/*
 * .debug_line (DWARF 5 section 6.2, and DWARF 2-4 where they differ), written
 * from the standard.  The header is read once into struct hdr: its fixed
 * fields, where each table starts and how many entries it has, and the
 * DWARF 5 entry formats; nothing per entry.  The program runs once; a row's
 * file and directory are then found by walking their table again up to the
 * index.  Every read is bounded by the unit (or the header, or the string
 * section) through the cursor, every loop by the bytes it consumes or by the
 * CR_DWLINE_MAX_* counts.
 */
#include <string.h>

#include "line.h"

/* 6.2.4: the header fields the program and the lookups need. */
struct fmt {
	uint16_t type;	/* DW_LNCT_*; 0xffff: a larger (vendor) code, skipped */
	uint16_t form;
};

struct hdr {
	uint64_t unit_end;	/* addresses in src->line.mem */
	uint64_t prog;		/* the program: [prog, unit_end) */
	uint64_t dirs, files;	/* the first entry of each table, in [.., prog) */
	uint64_t ndirs, nfiles;
	uint8_t version;
	uint8_t offsize;	/* 4, or 8 in 64-bit DWARF (7.4) */
	uint8_t min_inst, max_ops, default_is_stmt, line_range, opcode_base;
	int8_t line_base;
	uint8_t ndfmt, nffmt;
	struct fmt dfmt[CR_DWLINE_MAX_FORMATS], ffmt[CR_DWLINE_MAX_FORMATS];
	uint8_t std_len[256];	/* LEB128 operands of standard opcode i */
};

/* A string in a section: at pos of s's memory, ending before s->hi. */
struct str {
	const struct cr_dwsect *s;
	uint64_t pos;
};

/* The state machine's registers (6.2.2, Table 6.3) that a row reports. */
struct regs {
	uint64_t addr, op_index, file, line, column, disc;
	uint8_t is_stmt;
};

/* Truncated data is malformed data: the cursor's past-the-end error becomes -CR_EINVAL. */
static int cerr(const struct cr_cursor *c)
{
	return c->err == -CR_ERANGE ? -CR_EINVAL : c->err;
}

/* Past a NUL-terminated string (the cursor's end stops it). */
static void skip_string(struct cr_cursor *c)
{
	while (cr_u8(c))
		;
}

/* An offset into another section (7.4: 4 bytes, 8 in 64-bit DWARF). */
static uint64_t offset(struct cr_cursor *c, const struct hdr *h)
{
	return h->offsize == 8 ? cr_u64(c) : cr_u32(c);
}

/* Past the value of one of the forms read_formats() accepts. */
static void skip_form(struct cr_cursor *c, const struct hdr *h, unsigned form)
{
	switch (form) {
	case DW_FORM_data1:
	case DW_FORM_strx1:
		cr_skip(c, 1);
		break;
	case DW_FORM_data2:
	case DW_FORM_strx2:
		cr_skip(c, 2);
		break;
	case DW_FORM_strx3:
		cr_skip(c, 3);
		break;
	case DW_FORM_data4:
	case DW_FORM_strx4:
		cr_skip(c, 4);
		break;
	case DW_FORM_data8:
		cr_skip(c, 8);
		break;
	case DW_FORM_data16:
		cr_skip(c, 16);
		break;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
		cr_skip(c, h->offsize);
		break;
	case DW_FORM_udata:
	case DW_FORM_strx:
		cr_uleb(c);
		break;
	case DW_FORM_sdata:
		cr_sleb(c);
		break;
	case DW_FORM_string:
		skip_string(c);
		break;
	case DW_FORM_block:
		cr_skip(c, cr_uleb(c));
		break;
	case DW_FORM_block1:
		cr_skip(c, cr_u8(c));
		break;
	case DW_FORM_block2:
		cr_skip(c, cr_u16(c));
		break;
	case DW_FORM_block4:
		cr_skip(c, cr_u32(c));
		break;
	}
}

static int known_form(uint64_t form)
{
	switch (form) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_data16:
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_string:
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_strp_sup:
	case DW_FORM_strx:
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4:
	case DW_FORM_sec_offset:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
		return 1;
	}
	return 0;
}

/*
 * 6.2.4 items 14-15 and 19-20: an entry format, (content type, form) pairs.
 * Any form of Table 7.6 that a header can hold is skipped; a path must be a
 * string we can find without the CU (DW_FORM_strx needs its
 * DW_AT_str_offsets_base), a directory index a constant.
 */
static int read_formats(struct cr_cursor *c, struct fmt *f, uint8_t *nf)
{
	unsigned n = cr_u8(c);

	if (n > CR_DWLINE_MAX_FORMATS)
		return -CR_ERANGE;
	for (unsigned i = 0; i < n; i++) {
		uint64_t type = cr_uleb(c), form = cr_uleb(c);

		if (c->err)
			return cerr(c);
		if (!known_form(form))
			return -CR_EINVAL;
		if (type == DW_LNCT_path && form != DW_FORM_string && form != DW_FORM_line_strp &&
		    form != DW_FORM_strp)
			return -CR_EINVAL;
		if (type == DW_LNCT_directory_index && form != DW_FORM_data1 &&
		    form != DW_FORM_data2 && form != DW_FORM_data4 && form != DW_FORM_data8 &&
		    form != DW_FORM_udata)
			return -CR_EINVAL;
		f[i].type = type > 0xfffe ? 0xffff : (uint16_t)type;
		f[i].form = (uint16_t)form;
	}
	*nf = (uint8_t)n;
	return cerr(c);
}

static int has_path(const struct fmt *f, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (f[i].type == DW_LNCT_path)
			return 1;
	return 0;
}

/* The string at offset off of s (DW_FORM_strp, line_strp): absent or past its end is malformed. */
static int section_str(const struct cr_dwsect *s, uint64_t off, struct str *out)
{
	if (!s->mem || s->hi < s->lo || off >= s->hi - s->lo)
		return -CR_EINVAL;
	out->s = s;
	out->pos = s->lo + off;
	return 0;
}

/*
 * One DWARF 5 directory or file entry at c: its path and directory index
 * (0 if the format has none).  0, or -CR_E*.
 */
static int entry(struct cr_cursor *c, const struct cr_dwline_src *src, const struct hdr *h,
		 const struct fmt *f, unsigned nf, struct str *path, uint64_t *dir)
{
	int ret;

	*dir = 0;
	for (unsigned i = 0; i < nf; i++) {
		unsigned form = f[i].form;

		if (f[i].type == DW_LNCT_path) {
			if (form == DW_FORM_string) {
				path->s = &src->line;
				path->pos = c->pos;
				skip_string(c);
			} else {
				uint64_t off = offset(c, h);

				if (c->err)
					break;
				ret = section_str(form == DW_FORM_line_strp ? &src->line_str
									    : &src->str,
						  off, path);
				if (ret < 0)
					return ret;
			}
		} else if (f[i].type == DW_LNCT_directory_index) {
			*dir = form == DW_FORM_data1   ? cr_u8(c)
			       : form == DW_FORM_data2 ? cr_u16(c)
			       : form == DW_FORM_data4 ? cr_u32(c)
			       : form == DW_FORM_data8 ? cr_u64(c)
						       : cr_uleb(c);
		} else {
			skip_form(c, h, form);
		}
	}
	return cerr(c);
}

/* DWARF 5 6.2.4 items 14-21: a table's format, count and entries, each checked once. */
static int table5(struct cr_cursor *c, const struct cr_dwline_src *src, struct hdr *h,
		  struct fmt *f, uint8_t *nf, uint64_t *first, uint64_t *count, uint64_t max)
{
	struct str path;
	uint64_t n, dir;
	int ret;

	if ((ret = read_formats(c, f, nf)) < 0)
		return ret;
	n = cr_uleb(c);
	if (c->err)
		return cerr(c);
	if (n > max)
		return -CR_ERANGE;
	if (n && !has_path(f, *nf))
		return -CR_EINVAL;	/* entries that name nothing */
	*first = c->pos;
	*count = n;
	for (uint64_t i = 0; i < n; i++)
		if ((ret = entry(c, src, h, f, *nf, &path, &dir)) < 0)
			return ret;
	return 0;
}

/*
 * DWARF 4 6.2.4 items 11-12: include_directories, strings up to an empty one;
 * file_names, (string, ULEB128 directory, time, length) up to an empty name.
 */
static int tables4(struct cr_cursor *c, struct hdr *h)
{
	uint64_t n;

	h->dirs = c->pos;
	for (n = 0; cr_u8(c); n++) {
		if (n == CR_DWLINE_MAX_DIRS)
			return -CR_ERANGE;
		skip_string(c);
	}
	if (c->err)
		return cerr(c);
	h->ndirs = n;
	h->files = c->pos;
	for (n = 0; cr_u8(c); n++) {
		if (n == CR_DWLINE_MAX_FILES)
			return -CR_ERANGE;
		skip_string(c);
		cr_uleb(c);
		cr_uleb(c);
		cr_uleb(c);
	}
	h->nfiles = n;
	return cerr(c);
}

/* 6.2.4: the header of the unit at offset off of .debug_line.  c is left on the header. */
static int parse_header(struct cr_cursor *c, const struct cr_dwline_src *src, uint64_t off,
			struct hdr *h)
{
	const struct cr_dwsect *s = &src->line;
	uint64_t len, hlen;
	int ret;

	if (!s->mem || s->hi < s->lo || off >= s->hi - s->lo)
		return -CR_EINVAL;
	cr_cursor_init(c, s->mem, s->lo + off, s->hi);
	if ((ret = cr_dw_unit_length(c, &len, &h->offsize)) < 0)
		return ret;
	h->unit_end = c->pos + len;
	cr_cursor_limit(c, h->unit_end);
	len = cr_u16(c);
	if (c->err)
		return cerr(c);
	if (len < 2 || len > 5)
		return -CR_EINVAL;
	h->version = (uint8_t)len;
	if (h->version >= 5)
		cr_skip(c, 2);	/* address_size, segment_selector_size */
	hlen = offset(c, h);
	if (c->err)
		return cerr(c);
	if (hlen > h->unit_end - c->pos)
		return -CR_EINVAL;
	h->prog = c->pos + hlen;
	cr_cursor_limit(c, h->prog);	/* the tables may not run into the program */
	h->min_inst = cr_u8(c);
	h->max_ops = h->version >= 4 ? cr_u8(c) : 1;
	h->default_is_stmt = cr_u8(c);
	h->line_base = (int8_t)cr_u8(c);
	h->line_range = cr_u8(c);
	h->opcode_base = cr_u8(c);
	if (c->err)
		return cerr(c);
	/* A special opcode divides by line_range, an advance by max_ops. */
	if (h->max_ops == 0 || h->line_range == 0 || h->opcode_base == 0)
		return -CR_EINVAL;
	for (unsigned i = 1; i < h->opcode_base; i++)
		h->std_len[i] = cr_u8(c);
	if (h->version < 5)
		return tables4(c, h);
	if ((ret = table5(c, src, h, h->dfmt, &h->ndfmt, &h->dirs, &h->ndirs,
			  CR_DWLINE_MAX_DIRS)) < 0)
		return ret;
	return table5(c, src, h, h->ffmt, &h->nffmt, &h->files, &h->nfiles, CR_DWLINE_MAX_FILES);
}

/* 6.2.5.1: advance by n operations (VLIW: op_index counts within an instruction). */
static void advance(const struct hdr *h, struct regs *r, uint64_t n)
{
	uint64_t t;

	if (h->max_ops == 1) {
		r->addr += h->min_inst * n;
		return;
	}
	t = r->op_index + n;
	r->addr += h->min_inst * (t / h->max_ops);
	r->op_index = t % h->max_ops;
}

/* 6.2.2 Table 6.4: the registers at the start of each sequence. */
static void reset(const struct hdr *h, struct regs *r)
{
	memset(r, 0, sizeof(*r));
	r->file = 1;
	r->line = 1;
	r->is_stmt = h->default_is_stmt != 0;
}

/*
 * The state machine while it looks for the row that covers pc (the previous
 * row of the sequence, if any), or for the define_k-th DW_LNE_define_file.
 */
struct run {
	const struct cr_dwline_src *src;
	struct regs r, prev;
	int have_prev;
	uint64_t pc;
	struct cr_dwline_row *out;	/* NULL: rows are not looked at */
	/* Or several pcs at once (out NULL): rows[i] for pcs[i] where found[i]. */
	const uint64_t *pcs;
	struct cr_dwline_row *rows;
	uint8_t *found;
	unsigned npcs, left;
	uint64_t define_k;		/* 0: define_file is not looked for */
	struct str def_name;
	uint64_t def_dir;
};

/*
 * Append a row.  A row covers [its address, the next row's address): the
 * previous row covers pc if pc is below this one's address.  A row at the
 * same address as the previous covers nothing, so the last of them wins.
 * 1: found.
 */
static void row_of(const struct regs *prev, uint64_t end, struct cr_dwline_row *out)
{
	out->addr = prev->addr;
	out->end = end;
	out->file = prev->file;
	out->line = prev->line;
	out->column = prev->column;
	out->discriminator = prev->disc;
	out->is_stmt = prev->is_stmt;
}

static int append(struct run *st, int end_sequence)
{
	if (st->pcs && st->have_prev) {
		for (unsigned i = 0; i < st->npcs; i++) {
			if (st->found[i] || st->prev.addr > st->pcs[i] || st->pcs[i] >= st->r.addr)
				continue;
			row_of(&st->prev, st->r.addr, &st->rows[i]);
			st->found[i] = 1;
			if (--st->left == 0)
				return 1;
		}
	}
	if (st->out && st->have_prev && st->prev.addr <= st->pc && st->pc < st->r.addr) {
		st->out->addr = st->prev.addr;
		st->out->end = st->r.addr;
		st->out->file = st->prev.file;
		st->out->line = st->prev.line;
		st->out->column = st->prev.column;
		st->out->discriminator = st->prev.disc;
		st->out->is_stmt = st->prev.is_stmt;
		return 1;
	}
	st->have_prev = !end_sequence;
	st->prev = st->r;
	st->r.disc = 0;	/* 6.2.5.1: reset after each row, as basic_block and the others */
	return 0;
}

/*
 * 6.2.5.3: an extended opcode: ULEB128 length, then the opcode and its
 * operands within that length (the rest, if any, is skipped).  1: found.
 */
static int extended(struct cr_cursor *c, const struct hdr *h, struct run *st)
{
	uint64_t len = cr_uleb(c), next, v;
	unsigned n;
	int found = 0;

	if (c->err)
		return cerr(c);
	if (len == 0 || len > c->end - c->pos)
		return -CR_EINVAL;
	next = c->pos + len;
	switch (cr_u8(c)) {
	case DW_LNE_end_sequence:
		found = append(st, 1);
		reset(h, &st->r);
		break;
	case DW_LNE_set_address:
		/* An address of the target's size: len - 1 bytes, 1 to 8. */
		if (len - 1 == 0 || len - 1 > 8)
			return -CR_EINVAL;
		for (v = 0, n = 0; n < len - 1; n++)
			v |= (uint64_t)cr_u8(c) << (8 * n);
		st->r.addr = v;
		st->r.op_index = 0;
		break;
	case DW_LNE_set_discriminator:
		st->r.disc = cr_uleb(c);
		break;
	case DW_LNE_define_file:
		/* DWARF 4 6.2.5.3: defines the next file number (reserved in 5).
		   Looked at only when a row named a file past the header's. */
		if (h->version < 5 && st->define_k && --st->define_k == 0) {
			st->def_name.s = &st->src->line;
			st->def_name.pos = c->pos;
			skip_string(c);
			st->def_dir = cr_uleb(c);
			found = 1;
		}
		break;
	default:
		break;	/* a vendor's: skipped by its length */
	}
	if (c->err)
		return cerr(c);
	if (c->pos > next)
		return -CR_EINVAL;	/* operands past the declared length */
	cr_skip(c, next - c->pos);
	return found;
}

/* 6.2.5.2: a standard opcode.  1: found. */
static int standard(struct cr_cursor *c, const struct hdr *h, struct run *st, unsigned op)
{
	switch (op) {
	case DW_LNS_copy:
		return append(st, 0);
	case DW_LNS_advance_pc:
		advance(h, &st->r, cr_uleb(c));
		break;
	case DW_LNS_advance_line:
		st->r.line += (uint64_t)cr_sleb(c);
		break;
	case DW_LNS_set_file:
		st->r.file = cr_uleb(c);
		break;
	case DW_LNS_set_column:
		st->r.column = cr_uleb(c);
		break;
	case DW_LNS_negate_stmt:
		st->r.is_stmt = !st->r.is_stmt;
		break;
	case DW_LNS_set_basic_block:
	case DW_LNS_set_prologue_end:
	case DW_LNS_set_epilogue_begin:
		break;
	case DW_LNS_const_add_pc:
		/* The address advance of special opcode 255. */
		advance(h, &st->r, (255u - h->opcode_base) / h->line_range);
		break;
	case DW_LNS_fixed_advance_pc:
		st->r.addr += cr_u16(c);	/* a uhalf, not LEB128 */
		st->r.op_index = 0;
		break;
	case DW_LNS_set_isa:
		cr_uleb(c);
		break;
	default:
		/* A later standard opcode: standard_opcode_lengths says how many
		   LEB128 operands to skip (6.2.4 item 9). */
		for (unsigned i = 0; i < h->std_len[op]; i++)
			cr_uleb(c);
		break;
	}
	return 0;
}

/*
 * 6.2.5: run the program at most once, each opcode consuming at least a
 * byte.  0 when st found what it looks for, -CR_ENOINFO at the unit's end.
 */
static int run(struct cr_cursor *c, const struct hdr *h, struct run *st)
{
	int ret;

	cr_cursor_init(c, st->src->line.mem, h->prog, h->unit_end);
	reset(h, &st->r);
	st->have_prev = 0;
	while (c->pos < h->unit_end) {
		unsigned op = cr_u8(c);

		if (c->err)
			break;
		if (op >= h->opcode_base) {
			/* 6.2.5.1: a special opcode: an operation advance and a
			   line increment in one byte, then a row. */
			unsigned adj = op - h->opcode_base;
			int inc = h->line_base + (int)(adj % h->line_range);

			advance(h, &st->r, adj / h->line_range);
			st->r.line += (uint64_t)(int64_t)inc;
			ret = append(st, 0);
		} else if (op == 0) {
			ret = extended(c, h, st);
		} else {
			ret = standard(c, h, st, op);
		}
		if (ret < 0 || c->err)
			return ret < 0 ? ret : cerr(c);
		if (ret > 0)
			return 0;
	}
	return c->err ? cerr(c) : -CR_ENOINFO;
}

/*
 * The name and directory index of file number file.  DWARF 5: entry file of
 * the table, from 0.  DWARF 2-4: from 1, and past the header's table the
 * files DW_LNE_define_file adds, in program order (a second run).
 */
static int file_entry(struct cr_cursor *c, const struct cr_dwline_src *src, const struct hdr *h,
		      uint64_t file, struct str *name, uint64_t *dir)
{
	struct run st;
	uint64_t i;
	int ret;

	if (h->version >= 5) {
		if (file >= h->nfiles)
			return -CR_EINVAL;
		cr_cursor_init(c, src->line.mem, h->files, h->prog);
		for (i = 0; i <= file; i++)
			if ((ret = entry(c, src, h, h->ffmt, h->nffmt, name, dir)) < 0)
				return ret;
		return 0;
	}
	if (file == 0)
		return -CR_EINVAL;
	if (file > h->nfiles) {
		memset(&st, 0, sizeof(st));
		st.src = src;
		st.define_k = file - h->nfiles;
		if ((ret = run(c, h, &st)) < 0)
			return ret == -CR_ENOINFO ? -CR_EINVAL : ret;
		*name = st.def_name;
		*dir = st.def_dir;
		return 0;
	}
	cr_cursor_init(c, src->line.mem, h->files, h->prog);
	for (i = 1;; i++) {
		name->s = &src->line;
		name->pos = c->pos;
		skip_string(c);
		*dir = cr_uleb(c);
		cr_uleb(c);	/* modification time */
		cr_uleb(c);	/* length */
		if (i == file || c->err)
			break;
	}
	return cerr(c);
}

/* Directory dir.  DWARF 2-4: 0 is the compilation directory, which has no entry (*has = 0). */
static int dir_entry(struct cr_cursor *c, const struct cr_dwline_src *src, const struct hdr *h,
		     uint64_t dir, struct str *d, int *has)
{
	uint64_t i, unused;
	int ret;

	*has = 1;
	if (h->version >= 5) {
		if (dir >= h->ndirs)
			return -CR_EINVAL;
		cr_cursor_init(c, src->line.mem, h->dirs, h->prog);
		for (i = 0; i <= dir; i++)
			if ((ret = entry(c, src, h, h->dfmt, h->ndfmt, d, &unused)) < 0)
				return ret;
		return 0;
	}
	if (dir == 0) {
		*has = 0;
		return 0;
	}
	if (dir > h->ndirs)
		return -CR_EINVAL;
	cr_cursor_init(c, src->line.mem, h->dirs, h->prog);
	for (i = 1;; i++) {
		d->s = &src->line;
		d->pos = c->pos;
		if (i == dir)
			break;
		skip_string(c);
		if (c->err)
			break;
	}
	return cerr(c);
}

/* The path being built in the caller's buffer; n < cap always (room for the NUL). */
struct out {
	char *p;
	size_t n, cap;
};

static int put_char(struct out *o, char ch)
{
	if (o->n + 1 >= o->cap)
		return -CR_ERANGE;
	o->p[o->n++] = ch;
	return 0;
}

/* Append the string at s (first: its first byte, already read).  Bounded by its section. */
static int put_str(struct out *o, struct cr_cursor *c, const struct str *s)
{
	int ret;

	if (!s->s->mem)
		return -CR_EINVAL;
	cr_cursor_init(c, s->s->mem, s->pos, s->s->hi);
	for (;;) {
		uint8_t b = cr_u8(c);

		if (c->err)
			return cerr(c);
		if (b == 0)
			return 0;
		if ((ret = put_char(o, (char)b)) < 0)
			return ret;
	}
}

/* The first byte of s (0: empty). */
static int first_byte(struct cr_cursor *c, const struct str *s, uint8_t *b)
{
	if (!s->s->mem)
		return -CR_EINVAL;
	cr_cursor_init(c, s->s->mem, s->pos, s->s->hi);
	*b = cr_u8(c);
	return cerr(c);
}

/*
 * The path of file number file into o: from the right, name, its directory,
 * comp_dir; the path starts at the last absolute one of these (or the first
 * present) and leaves out the empty and absent ones (6.2.4: relative
 * directories are relative to the compilation directory; a relative name to
 * its directory).  In DWARF 5, directory 0 names the compilation directory
 * too, but a relative directory is still joined to comp_dir alone, not to
 * directory 0 and comp_dir, as binutils, LLVM and GDB do: a file of
 * directory 0 "./nptl" with comp_dir "./nptl" is "./nptl/./nptl/NAME" for
 * all three (Debian's glibc).  Without comp_dir, a DWARF 5 relative
 * directory other than 0 is joined to directory 0.
 */
static int file_path(struct cr_cursor *c, const struct cr_dwline_src *src, const struct hdr *h,
		     uint64_t file, const char *comp_dir, struct out *o)
{
	struct str part[3];	/* directory 0 (no comp_dir), the file's directory, its name */
	uint8_t first[3] = { 0, 0, 0 };
	int has[3] = { 0, 0, 1 }, start = -1, ret;
	uint64_t dir;

	if ((ret = file_entry(c, src, h, file, &part[2], &dir)) < 0 ||
	    (ret = dir_entry(c, src, h, dir, &part[1], &has[1])) < 0)
		return ret;
	if (h->version >= 5 && dir != 0 && !(comp_dir && comp_dir[0]) &&
	    (ret = dir_entry(c, src, h, 0, &part[0], &has[0])) < 0)
		return ret;
	for (int i = 0; i < 3; i++) {
		if (has[i] && (ret = first_byte(c, &part[i], &first[i])) < 0)
			return ret;
		if (first[i] == '/')
			start = i;
	}
	if (start < 0 && comp_dir && comp_dir[0]) {
		for (const char *p = comp_dir; *p; p++)
			if ((ret = put_char(o, *p)) < 0)
				return ret;
	}
	for (int i = start < 0 ? 0 : start; i < 3; i++) {
		if (!first[i])
			continue;
		if (o->n && (ret = put_char(o, '/')) < 0)
			return ret;
		if ((ret = put_str(o, c, &part[i])) < 0)
			return ret;
	}
	o->p[o->n] = 0;
	return 0;
}

int cr_dwline_find(const struct cr_dwline_src *src, uint64_t off, uint64_t pc,
		   const char *comp_dir, struct cr_dwline_row *row, char *path, size_t cap)
{
	struct cr_cursor c;
	struct cr_dwline_row r;
	struct run st;
	struct out o = { path, 0, cap };
	struct hdr h;
	int ret;

	if ((ret = parse_header(&c, src, off, &h)) < 0)
		return ret;
	memset(&st, 0, sizeof(st));
	st.src = src;
	st.pc = pc;
	st.out = &r;
	if ((ret = run(&c, &h, &st)) < 0)
		return ret;
	r.version = h.version;
	if (path) {
		if (cap == 0)
			return -CR_ERANGE;
		if ((ret = file_path(&c, src, &h, r.file, comp_dir, &o)) < 0) {
			path[0] = 0;
			return ret;
		}
	}
	*row = r;
	return 0;
}

/*
 * run()'s twin for cr_dwline_find_many, over the program in place (a mapped
 * file's bytes, an inflated section): the same state machine on a pointer,
 * in local registers, without the cursor's checks at every byte.  One
 * 256-entry table, built from the header, gives each opcode its code and a
 * special opcode's advances (no division per row) in one load; copy is a
 * special opcode that advances nothing.  Each opcode's code ends with its
 * own dispatch of the next (GNU C's labels as values): the branch predictor
 * then learns what follows what (a set_column, a negate_stmt, a special
 * opcode), which one shared switch kept mispredicting.  The file, is_stmt
 * and column share a register, so that the loop's state fits the registers
 * and a row's copy is four moves (a unity build's module, 1 MiB of
 * .debug_line: 17.8M -> 12.2M instructions, 2.28 -> 1.39 ms, medians of
 * 12).  A one-byte LEB128 (nearly all column and file operands) is read in
 * one step, a two- or three-byte advance_line (GCC's between functions and
 * into and out of inlined headers) in one.  The rows are tested against one
 * target, the lowest pending pc at or above the previous row's address: a
 * row's span [prev, this) can hold a pending pc only if this row's address
 * passes the target (within a sequence, addresses only grow; where they go
 * down, by a set_address or a wrap-around, the target is found again from
 * the new row), so a row costs one compare until it does.  Where anything
 * is not plain (an operation index, a LEB128 of ten bytes or more, a file
 * number of 2^31 or a column of 2^32 and above, an extended opcode whose
 * operands do not fill its length, the program's end inside an operand,
 * more than CR_DWLINE_FAST_PCS pcs) it gives up: -CR_ENOSYS, and run()
 * decides, from the start.  t-dwarf-line and the DWARFLINE fuzzer compare
 * the two.  0: every pc found; -CR_ENOINFO: the program's end.
 */
#define LEB(p, end, v, sgn)                                                                    \
	do {                                                                                  \
		unsigned sh_ = 0;                                                             \
		uint8_t b_;                                                                   \
		(v) = 0;                                                                      \
		do {                                                                          \
			if ((p) == (end) || sh_ > 56)                                         \
				return -CR_ENOSYS;                                            \
			b_ = *(p)++;                                                          \
			(v) |= (uint64_t)(b_ & 0x7f) << sh_;                                  \
			sh_ += 7;                                                             \
		} while (b_ & 0x80);                                                          \
		if ((sgn) && (b_ & 0x40))                                                     \
			(v) |= ~0ull << sh_;                                                  \
	} while (0)
/* An unsigned LEB128, one byte inline. */
#define ULEB(p, end, v)                                                                        \
	do {                                                                                  \
		if ((p) < (end) && *(p) < 0x80)                                               \
			(v) = *(p)++;                                                         \
		else                                                                          \
			LEB(p, end, v, 0);                                                    \
	} while (0)
#define CR_DWLINE_FAST_PCS 64

/* The lowest pc of sorted (by value, through ord) not found yet that is >= at; UINT64_MAX: none. */
static uint64_t target_from(const struct run *st, const uint8_t *ord, uint64_t at)
{
	for (unsigned j = 0; j < st->npcs; j++) {
		uint64_t pc = st->pcs[ord[j]];

		if (pc >= at && !st->found[ord[j]])
			return pc;
	}
	return UINT64_MAX;
}

/*
 * A row at addr: the previous row (paddr, pfile, ...) covers [paddr, addr),
 * and is the answer for the pending pcs in it.  A previous row exists
 * unless paddr is UINT64_MAX (target is then UINT64_MAX too, so it is not
 * looked at).  An address below the previous row's (a new sequence, a
 * set_address or a wrap-around) finds the target again.  Returns the next
 * target, or 0 when every pc is found (a target is never 0 here: addr > 0,
 * and the target is a pc at or above it), by value: with run_fast's target
 * address taken, every row's test loaded it from the stack (20% more time
 * for fewer instructions, measured over a unit's whole program).
 */
static uint64_t rows_hit(struct run *st, const uint8_t *ord, uint64_t paddr, uint64_t addr,
			 const struct cr_dwline_row *prev)
{
	for (unsigned j = 0; j < st->npcs; j++) {
		unsigned i = ord[j];

		if (st->found[i] || st->pcs[i] < paddr || st->pcs[i] >= addr)
			continue;
		st->rows[i] = *prev;
		st->rows[i].addr = paddr;
		st->rows[i].end = addr;
		st->found[i] = 1;
		if (--st->left == 0)
			return 0;
	}
	return target_from(st, ord, addr);
}

/* run_fast's registers between two windows of a program (cr_dwline_find_many_win). */
struct pause {
	uint64_t addr, line, fcs, disc, paddr, pline, pfcs, pdisc, target;
	size_t used;	/* the bytes of the last call's span its opcodes took */
	int started;
};

/* Aligned to 64 bytes: where its loop falls in the fetch blocks moved the
   unity symbols crash by 0.06 ms between two builds of the same source
   (code added elsewhere in the library shifted it by 32 bytes:
   docs/performance.md, stop 33).  ps NULL: the whole program in [p, end);
   else a window of it, where no opcode starts at or after stop (unless
   stop is end): 1 and ps->used when the run pauses there, its registers
   in ps for the next window. */
__attribute__((aligned(64))) static int run_fast(const struct hdr *h, const uint8_t *p,
						 const uint8_t *end, const uint8_t *stop,
						 struct run *st, struct pause *ps)
{
	const uint8_t *p0 = p;
	/* fcs: the file (bits 0-30), is_stmt (bit 31) and column (32-63) in
	   one register, and pfcs the previous row's: a row's copy is four
	   moves, and the loop's state fits the registers (a file or column
	   wider than its field gives up). */
	uint64_t addr, line, fcs, disc, paddr, pline = 0, pfcs = 0, pdisc = 0;
	uint64_t target, v, len;
	uint8_t ord[CR_DWLINE_FAST_PCS];
	/* Each opcode's code (an offset from op_special) and, for the
	   special ones, its address and line advances (6.2.5.1; at most
	   255 * 255 and -128..381): one load per opcode. */
	struct {
		int32_t to;
		uint16_t addr;
		int16_t line;
	} op_of[256];
	const uint8_t *next;
	unsigned base = h->opcode_base;

	if (h->max_ops != 1 || st->npcs > CR_DWLINE_FAST_PCS)
		return -CR_ENOSYS;
	/* The pcs by value (insertion sort of at most 64). */
	for (unsigned i = 0; i < st->npcs; i++) {
		unsigned j = i;

		for (; j > 0 && st->pcs[ord[j - 1]] > st->pcs[i]; j--)
			ord[j] = ord[j - 1];
		ord[j] = (uint8_t)i;
	}
	/* The standard opcodes below opcode_base by number (6.2.5.2): copy is
	   a special opcode that advances nothing; basic_block, prologue_end
	   and epilogue_begin change nothing a row reports; const_add_pc is
	   special opcode 255's address advance alone; set_isa and later ones
	   have LEB128 operands (op_other). */
#define TO(lbl) ((int32_t)((const char *)&&lbl - (const char *)&&op_special))
	for (unsigned op = 0; op < 256; op++) {
		op_of[op].addr = 0;
		op_of[op].line = 0;
		if (op >= base) {
			unsigned adj = op - base;

			op_of[op].to = 0;
			op_of[op].addr = (uint16_t)(h->min_inst * (adj / h->line_range));
			op_of[op].line = (int16_t)(h->line_base + (int)(adj % h->line_range));
			continue;
		}
		switch (op) {
		case 0:
			op_of[op].to = TO(op_ext);
			break;
		case DW_LNS_copy:
			op_of[op].to = 0;
			break;
		case DW_LNS_advance_pc:
			op_of[op].to = TO(op_apc);
			break;
		case DW_LNS_advance_line:
			op_of[op].to = TO(op_aline);
			break;
		case DW_LNS_set_file:
			op_of[op].to = TO(op_file);
			break;
		case DW_LNS_set_column:
			op_of[op].to = TO(op_col);
			break;
		case DW_LNS_negate_stmt:
			op_of[op].to = TO(op_neg);
			break;
		case DW_LNS_const_add_pc:
			op_of[op].to = TO(op_cpc);
			op_of[op].addr = (uint16_t)(h->min_inst * ((255u - base) / h->line_range));
			break;
		case DW_LNS_fixed_advance_pc:
			op_of[op].to = TO(op_fpc);
			break;
		case DW_LNS_set_basic_block:
		case DW_LNS_set_prologue_end:
		case DW_LNS_set_epilogue_begin:
			op_of[op].to = TO(op_nop);
			break;
		default:
			op_of[op].to = TO(op_other);
			break;
		}
	}
#define FCS_FILE 0x7fffffffull
#define FCS_STMT 0x80000000ull
	/* 6.2.2 Table 6.4 (reset()); no previous row */
#define RESET()                                                                                \
	(addr = 0, line = 1, fcs = 1 | (h->default_is_stmt ? FCS_STMT : 0), disc = 0,          \
	 paddr = UINT64_MAX, target = UINT64_MAX)
	/*
	 * A row (append()): the hit test, then it becomes the previous row.
	 * target is at or above paddr (the lowest pending pc there, or
	 * UINT64_MAX), so one unsigned compare asks both whether this row
	 * passes it (addr > target) and whether the address went down (a new
	 * sequence, a set_address, a wrap-around: addr - paddr wraps).
	 */
#define ROW()                                                                                  \
	do {                                                                                  \
		if (__builtin_expect(addr - paddr > target - paddr, 0)) {                     \
			if (addr < paddr) {                                                   \
				target = target_from(st, ord, addr);                          \
			} else {                                                              \
				struct cr_dwline_row pr = {                                   \
					.file = pfcs & FCS_FILE, .line = pline,               \
					.column = pfcs >> 32, .discriminator = pdisc,         \
					.is_stmt = (pfcs & FCS_STMT) != 0                     \
				};                                                            \
				if ((target = rows_hit(st, ord, paddr, addr, &pr)) == 0)      \
					return 0;                                             \
			}                                                                     \
		}                                                                             \
		paddr = addr;                                                                 \
		pline = line;                                                                 \
		pfcs = fcs;                                                                   \
		pdisc = disc;                                                                 \
		disc = 0; /* 6.2.5.1: reset after each row */                                 \
	} while (0)
	if (ps && ps->started) {
		addr = ps->addr, line = ps->line, fcs = ps->fcs, disc = ps->disc;
		paddr = ps->paddr, pline = ps->pline, pfcs = ps->pfcs, pdisc = ps->pdisc;
		target = ps->target;
	} else {
		RESET();
	}
	{
		unsigned op;
#define NEXT()                                                                                 \
	do {                                                                                  \
		if (p >= stop)                                                                \
			goto out;                                                             \
		op = *p++;                                                                    \
		goto *((const char *)&&op_special + op_of[op].to);                                          \
	} while (0)
		NEXT();
op_special:	/* and copy */
		addr += op_of[op].addr;
		line += (uint64_t)(int64_t)op_of[op].line;
		ROW();
		NEXT();
op_ext:
		LEB(p, end, len, 0);
		if (len == 0 || len > (uint64_t)(end - p))
			return -CR_ENOSYS;
		next = p + len;
		switch (*p++) {
		case DW_LNE_end_sequence:
			ROW();
			RESET();
			break;
		case DW_LNE_set_address:
			if (len - 1 == 0 || len - 1 > 8)
				return -CR_ENOSYS;
			v = 0;
			for (unsigned k = 0; k < len - 1; k++)
				v |= (uint64_t)*p++ << (8 * k);
			addr = v;
			break;
		case DW_LNE_set_discriminator:
			LEB(p, next, disc, 0);
			break;
		}
		if (p > next)
			return -CR_ENOSYS;
		p = next;
		NEXT();
op_apc:
		ULEB(p, end, v);
		addr += h->min_inst * v;
		NEXT();
op_aline:	/* two bytes (sign bit 0x2000), three (sign bit 0x100000), one (0x40), or more */
		if (end - p >= 3 && p[0] >= 0x80) {
			if (p[1] < 0x80) {
				v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
				line += (uint64_t)(int64_t)((int32_t)(v << 18) >> 18);
				p += 2;
				NEXT();
			}
			if (p[2] < 0x80) {
				v = (uint64_t)(p[0] & 0x7f) | (uint64_t)(p[1] & 0x7f) << 7 |
				    (uint64_t)p[2] << 14;
				line += (uint64_t)(int64_t)((int32_t)(v << 11) >> 11);
				p += 3;
				NEXT();
			}
		} else if (p < end && *p < 0x80) {
			line += (uint64_t)(int64_t)((int8_t)(*p << 1) >> 1);
			p++;
			NEXT();
		}
		LEB(p, end, v, 1);
		line += v;
		NEXT();
op_file:
		ULEB(p, end, v);
		if (v > FCS_FILE)
			return -CR_ENOSYS;
		fcs = (fcs & ~FCS_FILE) | v;
		NEXT();
op_col:
		ULEB(p, end, v);
		if (v > UINT32_MAX)
			return -CR_ENOSYS;
		fcs = (fcs & 0xffffffffull) | v << 32;
		NEXT();
op_neg:
		fcs ^= FCS_STMT;
		NEXT();
op_cpc:
		addr += op_of[op].addr;
		NEXT();
op_fpc:
		if (end - p < 2)
			return -CR_ENOSYS;
		addr += (uint64_t)p[0] | (uint64_t)p[1] << 8;
		p += 2;
		NEXT();
op_nop:
		NEXT();
op_other:	/* set_isa, and later ones: their LEB128 operands */
		for (unsigned k = 0; k < (op == DW_LNS_set_isa ? 1u : h->std_len[op]); k++)
			LEB(p, end, v, 0);
		NEXT();
#undef NEXT
	}
out:
#undef ROW
#undef RESET
#undef FCS_FILE
#undef TO
#undef FCS_STMT
	if (ps && stop < end) {	/* a pause at the window's end */
		ps->addr = addr, ps->line = line, ps->fcs = fcs, ps->disc = disc;
		ps->paddr = paddr, ps->pline = pline, ps->pfcs = pfcs, ps->pdisc = pdisc;
		ps->target = target;
		ps->used = (size_t)(p - p0);
		ps->started = 1;
		return 1;
	}
	return -CR_ENOINFO;
}
#undef LEB
#undef ULEB

/* A batch's run given up: none of its pcs found, for a run from the start. */
static void restart(struct run *st)
{
	for (unsigned i = 0; i < st->npcs; i++)
		st->found[i] = 0;
	st->left = st->npcs;
}

/*
 * run_fast over the program [from, to) of src->probe, win_len bytes at a
 * time through win.  -CR_EFAULT: a read failed (or no opcode ended in a
 * window), nothing decided; else run_fast's answer.
 */
static int run_windows(const struct cr_dwline_src *src, const struct hdr *h, uint64_t from,
		       uint64_t to, uint8_t *win, size_t win_len, uint8_t *win_fresh,
		       struct run *st)
{
	struct pause ps = { .started = 0 };

	if (win_fresh && *win_fresh) {
		cr_mem_populate_write(win, win_len);
		*win_fresh = 0;
	}

	while (from < to) {
		size_t len = to - from < win_len ? (size_t)(to - from) : win_len;
		const uint8_t *stop = len == to - from ? win + len : win + len - CR_DWLINE_SLACK;
		int ret;

		if (src->probe->read(src->probe, from, win, len) < 0)
			return -CR_EFAULT;
		if ((ret = run_fast(h, win, win + len, stop, st, &ps)) != 1)
			return ret;
		if (ps.used == 0)
			return -CR_EFAULT;
		from += ps.used;
	}
	return -CR_ENOINFO;
}

int cr_dwline_find_many(const struct cr_dwline_src *src, uint64_t off, const uint64_t *pcs,
			unsigned n, struct cr_dwline_row *rows, uint8_t *found)
{
	return cr_dwline_find_many_win(src, off, pcs, n, rows, found, NULL, 0, NULL);
}

int cr_dwline_find_many_win(const struct cr_dwline_src *src, uint64_t off, const uint64_t *pcs,
			    unsigned n, struct cr_dwline_row *rows, uint8_t *found, uint8_t *win,
			    size_t win_len, uint8_t *win_fresh)
{
	const uint8_t *prog;
	struct cr_cursor c;
	struct run st;
	struct hdr h;
	int ret;

	for (unsigned i = 0; i < n; i++)
		found[i] = 0;
	if (n == 0)
		return 0;
	if ((ret = parse_header(&c, src, off, &h)) < 0)
		return ret;
	memset(&st, 0, sizeof(st));
	st.src = src;
	st.pcs = pcs;
	st.rows = rows;
	st.found = found;
	st.npcs = st.left = n;
	ret = -CR_EFAULT;	/* not run yet */
	if (win && src->probe && win_len > CR_DWLINE_SLACK && h.unit_end > h.prog &&
	    h.unit_end - h.prog >= CR_DWLINE_WIN_MIN && h.max_ops == 1 && n <= CR_DWLINE_FAST_PCS)
		ret = run_windows(src, &h, h.prog, h.unit_end, win, win_len, win_fresh, &st);
	if (ret == -CR_EFAULT) {	/* in place (a read failed: from the start) */
		uint64_t len = h.unit_end > h.prog ? h.unit_end - h.prog : 0;

		restart(&st);
		prog = len ? cr_mem_view(src->line.mem, h.prog, len) : NULL;
		if (prog)	/* read in order from its start, to the end unless every pc is found */
			cr_mem_populate(src->line.mem, prog, len);
		ret = prog ? run_fast(&h, prog, prog + len, prog + len, &st, NULL) : -CR_ENOSYS;
	}
	if (ret == -CR_ENOSYS) {	/* run() from the start */
		restart(&st);
		ret = run(&c, &h, &st);
	}
	/* Rows found before a malformed part are what cr_dwline_find() gives. */
	if (ret < 0 && ret != -CR_ENOINFO && st.left == n)
		return ret;
	for (unsigned i = 0; i < n; i++)
		if (found[i])
			rows[i].version = h.version;
	return (int)(n - st.left);
}

int cr_dwline_file(const struct cr_dwline_src *src, uint64_t off, uint64_t file,
		   const char *comp_dir, char *path, size_t cap)
{
	struct cr_cursor c;
	struct out o = { path, 0, cap };
	struct hdr h;
	int ret;

	if (cap == 0)
		return -CR_ERANGE;
	path[0] = 0;
	if ((ret = parse_header(&c, src, off, &h)) < 0 ||
	    (ret = file_path(&c, src, &h, file, comp_dir, &o)) < 0) {
		path[0] = 0;
		return ret;
	}
	return 0;
}
