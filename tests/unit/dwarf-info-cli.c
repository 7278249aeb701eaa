/* SPDX-License-Identifier: MIT */
/*
 * Test driver for dwarf/info.c (tests/unit/run-dwarf-info.sh):
 *   dwarf-info-cli MODULE < PCS
 * For each pc on stdin (hex, as addr2line takes them), prints what
 * `addr2line -a -f -i -e MODULE PC` prints: the address, then per frame, innermost first, the
 * function's name (mangled, as the DWARF gives it), then FILE:LINE: the
 * innermost frame's from the line table (dwarf/line.c), each caller's from
 * the DW_AT_call_file/call_line of the inlined frame below it.  Where
 * nothing is known: "??" and "??:0"; a line 0 prints as '?' as addr2line
 * does.  Errors print as "error N" lines.  Compressed debug sections
 * (SHF_COMPRESSED, zlib) are inflated with inflate.c first.
 * Where no subprogram holds pc, prints "??" and the line table's row of the
 * unit that holds pc.
 *   -b  names as binutils 2.40 does (bfd/dwarf2.c,
 *       _bfd_dwarf2_find_nearest_line), which is stateful: the first time a
 *       function of a C++, D or Rust unit whose DWARF name is not a linkage
 *       name is the innermost frame, it prints the name of the ELF function
 *       symbol that holds pc instead, and if that symbol starts at the
 *       function's lowest address the function keeps the symbol's name for
 *       every later answer (innermost or caller).  Counted on stderr
 *       ("bfd-symtab": the answers this changed).
 * Test code: stdio and malloc are fine here.
 */
#include <inttypes.h>

#include "dwarf/info.h"
#include "elfsect.h"
#include "inflate.h"

static struct cr_dwabbrevs ab;

static struct cr_inflate inf;

/* Section name of f, inflated if it is compressed, as a cr_dwsect over its own memory at
   address base; absent: mem NULL. */
static struct cr_dwsect section(const struct elf_file *f, const char *name, struct cr_mem *m,
				uint64_t base)
{
	const Elf64_Shdr *s = elf_section(f, name);
	struct cr_dwsect r = { NULL, 0, 0 };
	const uint8_t *p;
	struct cr_chdr ch;
	uint8_t *out;
	size_t n, got;

	if (!s || s->sh_type == SHT_NOBITS)
		return r;
	p = f->data + s->sh_offset;
	n = s->sh_size;
	if (s->sh_flags & SHF_COMPRESSED) {
		if (cr_chdr_parse(p, n, &ch) < 0 || !(out = malloc(ch.size + 1)) ||
		    cr_inflate_section(&inf, p, n, out, ch.size, &got) < 0) {
			fprintf(stderr, "%s: cannot inflate\n", name);
			exit(1);
		}
		p = out;
		n = got;
	}
	cr_mem_buffer(m, base, p, n);
	r.mem = m;
	r.lo = base;
	r.hi = base + n;
	return r;
}

/* The ELF function symbol that holds pc (the highest such start), or NULL. */
static const char *symbol_at(const struct elf_file *f, uint64_t pc, uint64_t *start)
{
	const Elf64_Shdr *s = elf_section(f, ".symtab");
	const char *best = NULL;
	uint64_t best_at = 0;
	Elf64_Sym sym;

	if (!s || s->sh_link >= f->shnum)
		return NULL;
	for (size_t i = 0; i + 1 <= s->sh_size / sizeof(sym); i++) {
		const Elf64_Shdr *st = &f->sh[s->sh_link];

		memcpy(&sym, f->data + s->sh_offset + i * sizeof(sym), sizeof(sym));
		if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value > pc ||
		    pc - sym.st_value >= sym.st_size || sym.st_name >= st->sh_size)
			continue;
		if (!best || sym.st_value > best_at) {
			best = (const char *)f->data + st->sh_offset + sym.st_name;
			best_at = sym.st_value;
		}
	}
	*start = best_at;
	return best;
}

/* bfd's mangle_style() != 0: DW_LANG_C_plus_plus*, ObjC_plus_plus, D, Rust. */
static int mangled_lang(const struct cr_dwcu *cu)
{
	switch (cu->has & CR_DWCU_LANGUAGE ? cu->language : 0) {
	case 0x4: case 0x11: case 0x13: case 0x19: case 0x1a: case 0x1c: case 0x21:
		return 1;
	}
	return 0;
}

/* -b: what bfd remembers of a function (by DIE offset). */
struct bfdfn {
	uint64_t die;
	const char *name;	/* the symbol's name it took, or NULL */
};
static struct bfdfn *bfdfns;
static size_t nbfdfns;

static struct bfdfn *bfdfn(uint64_t die, int *fresh)
{
	for (size_t i = 0; i < nbfdfns; i++)
		if (bfdfns[i].die == die) {
			*fresh = 0;
			return &bfdfns[i];
		}
	bfdfns = realloc(bfdfns, (nbfdfns + 1) * sizeof(*bfdfns));
	bfdfns[nbfdfns] = (struct bfdfn){ die, NULL };
	*fresh = 1;
	return &bfdfns[nbfdfns++];
}

static void print_str(const struct cr_dwstr *s, const char *none)
{
	char buf[4096];
	int ret = cr_dwinfo_str(s, buf, sizeof(buf));

	if (ret == -CR_ENOINFO || (ret == 0 && !buf[0]))
		printf("%s\n", none);
	else if (ret < 0)
		printf("error %d\n", ret);
	else
		printf("%s\n", buf);
}

static void print_line(const char *path, uint64_t line)
{
	if (line)
		printf("%s:%" PRIu64 "\n", path[0] ? path : "??", line);
	else
		printf("%s:?\n", path[0] ? path : "??");
}

int main(int argc, char **argv)
{
	static struct elf_file f;	/* reachable until exit (LeakSanitizer) */
	static struct cr_mem m[10];
	struct cr_dwinfo_src src;
	struct cr_dwline_src lsrc;
	struct cr_dwframe fr[16];
	struct cr_dwline_row row;
	struct cr_dwcu cu;
	char buf[256], comp[4096], path[4096];
	unsigned long long pc;
	unsigned long total = 0, found = 0, inl = 0, symtab = 0;
	uint64_t off;
	unsigned n;
	int bfd = argc == 3 && strcmp(argv[1], "-b") == 0;

	if (argc != 2 + bfd) {
		fprintf(stderr, "usage: dwarf-info-cli [-b] MODULE < PCS\n");
		return 2;
	}
	if (elf_load(&f, argv[1 + bfd]) < 0)
		return 1;
	/* Each section at an address of its own, as they would be in memory. */
	src.info = section(&f, ".debug_info", &m[0], 0x100000000ull);
	src.abbrev = section(&f, ".debug_abbrev", &m[1], 0x200000000ull);
	src.aranges = section(&f, ".debug_aranges", &m[2], 0x300000000ull);
	src.ranges = section(&f, ".debug_ranges", &m[3], 0x400000000ull);
	src.rnglists = section(&f, ".debug_rnglists", &m[4], 0x500000000ull);
	src.addr = section(&f, ".debug_addr", &m[5], 0x600000000ull);
	src.str = section(&f, ".debug_str", &m[6], 0x700000000ull);
	src.str_offsets = section(&f, ".debug_str_offsets", &m[7], 0x800000000ull);
	src.line_str = section(&f, ".debug_line_str", &m[8], 0x900000000ull);
	lsrc.line = section(&f, ".debug_line", &m[9], 0xa00000000ull);
	lsrc.line_str = src.line_str;
	lsrc.str = src.str;
	while (fgets(buf, sizeof(buf), stdin)) {
		int ret;

		if (sscanf(buf, "%llx", &pc) != 1)
			continue;
		total++;
		printf("0x%016llx\n", pc);	/* as addr2line -a */
		if ((ret = cr_dwinfo_find_cu(&src, pc, &off)) < 0 ||
		    (ret = cr_dwinfo_unit(&src, off, &cu)) < 0) {
			if (ret == -CR_ENOINFO)
				printf("??\n??:0\n");
			else
				printf("error %d\n", ret);
			continue;
		}
		if (cr_dwinfo_str(&cu.comp_dir, comp, sizeof(comp)) < 0)
			comp[0] = 0;
		/* As the report: the unit's abbreviations decoded once, kept
		   from pc to pc (run-dwarf-info.sh compares with addr2line). */
		ret = cr_dwinfo_inlines_ab(&src, &cu, pc, fr, 16, &n, &ab);
		if (ret == -CR_ENOINFO) {
			memset(&fr[0], 0, sizeof(fr[0]));
			n = 1;
		} else if (ret < 0) {
			printf("error %d\n", ret);
			continue;
		} else {
			found++;
			inl += n - 1;
		}
		for (unsigned i = 0; i < n; i++) {
			struct bfdfn *b = NULL;
			const char *sym;
			int fresh = 0;

			if (bfd && ret == 0 && !fr[i].linkage && mangled_lang(&cu))
				b = bfdfn(fr[i].die, &fresh);
			if (b && i == 0 && fresh && (sym = symbol_at(&f, pc, &off))) {
				printf("%s\n", sym);
				symtab++;
				if (off == fr[0].low)
					b->name = sym;
			} else if (b && b->name) {
				printf("%s\n", b->name);
				symtab++;
			} else {
				print_str(&fr[i].name, "??");
			}
			path[0] = 0;
			if (i == 0) {
				ret = -CR_ENOINFO;
				if (cu.has & CR_DWCU_STMT_LIST)
					ret = cr_dwline_find(&lsrc, cu.stmt_list, pc,
							     comp[0] ? comp : NULL, &row, path,
							     sizeof(path));
				if (ret == -CR_ENOINFO)
					printf("??:0\n");
				else if (ret < 0)
					printf("error %d\n", ret);
				else
					print_line(path, row.line);
			} else {
				ret = cr_dwline_file(&lsrc, cu.stmt_list, fr[i - 1].call_file,
						     comp[0] ? comp : NULL, path, sizeof(path));
				if (ret < 0)
					path[0] = 0;
				print_line(path, fr[i - 1].call_line);
			}
		}
	}
	fprintf(stderr, "%lu of %lu pcs in a subprogram, %lu inlined frames, %lu bfd-symtab\n",
		found, total, inl, symtab);
	return 0;
}
