/* SPDX-License-Identifier: MIT */
/*
 * Test driver for dwarf/line.c (tests/unit/run-dwarf-line.sh):
 *   dwarf-line-cli MODULE < PCS
 * For each pc on stdin (hex, as addr2line takes them), prints FILE:LINE of the
 * line-table row that covers it, or ??:0.  The CUs of .debug_info give each
 * line program's offset (DW_AT_stmt_list) and compilation directory
 * (DW_AT_comp_dir); the programs are tried in CU order.  Compressed debug
 * sections (SHF_COMPRESSED, zlib) are inflated with inflate.c first.
 * Test code: stdio and malloc are fine here.
 */
#include <inttypes.h>

#include "dwarf/line.h"
#include "elfsect.h"
#include "inflate.h"

struct sect {
	const uint8_t *p;
	size_t n;
};

static struct cr_inflate inf;

/* Section name of f, inflated if it is compressed; empty if absent. */
static struct sect section(const struct elf_file *f, const char *name)
{
	const Elf64_Shdr *s = elf_section(f, name);
	struct sect r = { NULL, 0 };
	struct cr_chdr ch;
	uint8_t *out;
	size_t got;

	if (!s || s->sh_type == SHT_NOBITS)
		return r;
	r.p = f->data + s->sh_offset;
	r.n = s->sh_size;
	if (!(s->sh_flags & SHF_COMPRESSED))
		return r;
	if (cr_chdr_parse(r.p, r.n, &ch) < 0 || !(out = malloc(ch.size + 1)) ||
	    cr_inflate_section(&inf, r.p, r.n, out, ch.size, &got) < 0) {
		fprintf(stderr, "%s: cannot inflate\n", name);
		exit(1);
	}
	r.p = out;
	r.n = got;
	return r;
}

/* A bounded reader over a section (the driver's own: the library's is under test). */
struct rd {
	const uint8_t *p;
	size_t pos, end;
	int bad;
};

static uint64_t rd_n(struct rd *r, unsigned n)
{
	uint64_t v = 0;

	if (r->bad || n > r->end - r->pos) {
		r->bad = 1;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)r->p[r->pos + i] << (8 * i);
	r->pos += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;

	for (unsigned sh = 0; sh < 64; sh += 7) {
		uint64_t b = rd_n(r, 1);

		v |= (b & 0x7f) << sh;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static const char *rd_cstr(struct rd *r)
{
	const char *s = (const char *)r->p + r->pos;

	while (!r->bad && rd_n(r, 1))
		;
	return r->bad ? "" : s;
}

static struct sect info, abbrev, str, line_str, str_offsets, line;

static const char *str_at(const struct sect *s, uint64_t off)
{
	if (off >= s->n || !memchr(s->p + off, 0, s->n - off))
		return NULL;
	return (const char *)s->p + off;
}

/* One CU's line program. */
struct cu {
	uint64_t stmt_list;
	const char *comp_dir;
};
static struct cu *cus;
static size_t ncus;

/* The value of one attribute (DWARF 5 7.5.6); *str for the string forms. */
static uint64_t form_value(struct rd *r, uint64_t form, unsigned offsize, unsigned addr_size,
			   int64_t implicit, const char **s, int *strx)
{
	*s = NULL;
	*strx = 0;
	switch (form) {
	case 0x01: return rd_n(r, addr_size);			/* addr */
	case 0x03: r->pos += rd_n(r, 2); return 0;		/* block2 */
	case 0x04: r->pos += rd_n(r, 4); return 0;		/* block4 */
	case 0x05: return rd_n(r, 2);
	case 0x06: return rd_n(r, 4);
	case 0x07: return rd_n(r, 8);
	case 0x08: *s = rd_cstr(r); return 0;			/* string */
	case 0x09: case 0x18: r->pos += rd_uleb(r); return 0;	/* block, exprloc */
	case 0x0a: r->pos += rd_n(r, 1); return 0;		/* block1 */
	case 0x0b: case 0x0c: case 0x11: return rd_n(r, 1);
	case 0x0d: return rd_uleb(r);				/* sdata (value unused) */
	case 0x0e: *s = str_at(&str, rd_n(r, offsize)); return 0;
	case 0x0f: case 0x15: case 0x22: case 0x23: case 0x1b: return rd_uleb(r);
	case 0x10: case 0x17: case 0x1d: case 0x1c: return rd_n(r, form == 0x1c ? 4 : offsize);
	case 0x12: return rd_n(r, 2);
	case 0x13: return rd_n(r, 4);
	case 0x14: case 0x20: case 0x24: return rd_n(r, 8);
	case 0x19: return 1;					/* flag_present */
	case 0x1a: *strx = 1; return rd_uleb(r);
	case 0x1e: r->pos += 16; return 0;
	case 0x1f: *s = str_at(&line_str, rd_n(r, offsize)); return 0;
	case 0x21: return (uint64_t)implicit;
	case 0x25: case 0x26: case 0x27: case 0x28:
		*strx = 1;
		return rd_n(r, (unsigned)(form - 0x24));
	case 0x29: case 0x2a: case 0x2b: case 0x2c: return rd_n(r, (unsigned)(form - 0x28));
	}
	fprintf(stderr, "unknown form 0x%" PRIx64 "\n", form);
	exit(1);
}

/* Find abbreviation code in the table at off: r is left on its attribute specifications. */
static int find_abbrev(uint64_t off, uint64_t code, struct rd *r)
{
	*r = (struct rd){ abbrev.p, off, abbrev.n, 0 };
	while (!r->bad) {
		uint64_t c = rd_uleb(r);

		if (c == 0)
			return -1;
		rd_uleb(r);	/* tag */
		rd_n(r, 1);	/* children */
		if (c == code)
			return 0;
		for (;;) {
			uint64_t at = rd_uleb(r), form = rd_uleb(r);

			if (form == 0x21)
				rd_uleb(r);
			if ((at == 0 && form == 0) || r->bad)
				break;
		}
	}
	return -1;
}

/* Every CU of .debug_info: its DW_AT_stmt_list and DW_AT_comp_dir. */
static void read_cus(void)
{
	struct rd r = { info.p, 0, info.n, 0 };

	while (r.pos < r.end && !r.bad) {
		uint64_t len = rd_n(&r, 4), next, abbrev_off, code, str_base = 8, comp_strx = 0;
		unsigned offsize = 4, version, addr_size, unit_type = 1;
		const char *comp = NULL;
		int has_stmt = 0, comp_is_strx = 0;
		struct rd a;
		struct cu cu;

		if (len == 0xffffffff) {
			len = rd_n(&r, 8);
			offsize = 8;
		}
		if (r.bad || len > r.end - r.pos)
			break;
		next = r.pos + len;
		version = (unsigned)rd_n(&r, 2);
		if (version >= 5) {
			unit_type = (unsigned)rd_n(&r, 1);
			addr_size = (unsigned)rd_n(&r, 1);
			abbrev_off = rd_n(&r, offsize);
			/* skeleton and split_compile: dwo_id; type units: signature, offset */
			if (unit_type == 4 || unit_type == 5)
				rd_n(&r, 8);
			else if (unit_type == 2 || unit_type == 6)
				rd_n(&r, 8 + offsize);
		} else {
			abbrev_off = rd_n(&r, offsize);
			addr_size = (unsigned)rd_n(&r, 1);
		}
		code = rd_uleb(&r);
		if (r.bad || code == 0 || find_abbrev(abbrev_off, code, &a) < 0) {
			r.pos = next;
			continue;
		}
		memset(&cu, 0, sizeof(cu));
		for (;;) {
			uint64_t at = rd_uleb(&a), form = rd_uleb(&a), v;
			int64_t implicit = form == 0x21 ? (int64_t)rd_uleb(&a) : 0;
			const char *s;
			int strx;

			if ((at == 0 && form == 0) || a.bad)
				break;
			v = form_value(&r, form, offsize, addr_size, implicit, &s, &strx);
			if (at == 0x10) {		/* DW_AT_stmt_list */
				cu.stmt_list = v;
				has_stmt = 1;
			} else if (at == 0x1b) {	/* DW_AT_comp_dir */
				comp = s;
				comp_is_strx = strx;
				comp_strx = v;
			} else if (at == 0x72) {	/* DW_AT_str_offsets_base */
				str_base = v;
			}
		}
		if (comp_is_strx) {
			uint64_t o = str_base + comp_strx * offsize;
			struct rd so = { str_offsets.p, o, str_offsets.n, 0 };

			comp = str_at(&str, rd_n(&so, offsize));
		}
		cu.comp_dir = comp;
		if (has_stmt && !r.bad && (unit_type == 1 || unit_type == 3 || unit_type == 4)) {
			cus = realloc(cus, (ncus + 1) * sizeof(*cus));
			cus[ncus++] = cu;
		}
		r.pos = next;
	}
}

int main(int argc, char **argv)
{
	struct cr_mem ml, mls, ms;
	struct cr_dwline_src src;
	struct cr_dwline_row row;
	static struct elf_file f;	/* reachable until exit (LeakSanitizer) */
	char buf[256], path[4096];
	unsigned long long pc;
	unsigned long found = 0, total = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: dwarf-line-cli MODULE < PCS\n");
		return 2;
	}
	if (elf_load(&f, argv[1]) < 0)
		return 1;
	info = section(&f, ".debug_info");
	abbrev = section(&f, ".debug_abbrev");
	str = section(&f, ".debug_str");
	line_str = section(&f, ".debug_line_str");
	str_offsets = section(&f, ".debug_str_offsets");
	line = section(&f, ".debug_line");
	read_cus();
	/* Each section at an address of its own, as they would be in memory. */
	cr_mem_buffer(&ml, 0x100000000ull, line.p, line.n);
	cr_mem_buffer(&mls, 0x200000000ull, line_str.p, line_str.n);
	cr_mem_buffer(&ms, 0x300000000ull, str.p, str.n);
	src.line = (struct cr_dwsect){ line.p ? &ml : NULL, 0x100000000ull,
				       0x100000000ull + line.n };
	src.line_str = (struct cr_dwsect){ line_str.p ? &mls : NULL, 0x200000000ull,
					   0x200000000ull + line_str.n };
	src.str = (struct cr_dwsect){ str.p ? &ms : NULL, 0x300000000ull, 0x300000000ull + str.n };
	while (fgets(buf, sizeof(buf), stdin)) {
		int ret = -CR_ENOINFO;

		if (sscanf(buf, "%llx", &pc) != 1)
			continue;
		total++;
		for (size_t i = 0; i < ncus; i++) {
			ret = cr_dwline_find(&src, cus[i].stmt_list, pc, cus[i].comp_dir, &row,
					     path, sizeof(path));
			if (ret != -CR_ENOINFO)
				break;
		}
		if (ret == 0) {
			found++;
			printf("%s:%" PRIu64 "\n", path, row.line);
		} else if (ret == -CR_ENOINFO) {
			printf("??:0\n");
		} else {
			printf("error %d\n", ret);
		}
	}
	fprintf(stderr, "%lu of %lu pcs in %zu line programs\n", found, total, ncus);
	return 0;
}
