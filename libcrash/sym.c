/* SPDX-License-Identifier: MIT */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "debuginfo.h"
#include "demangle.h"
#include "elfmem.h"
#include "out.h"
#include "scratch.h"
#include "sym.h"
#include "str.h"
#include "sys.h"

#define SYM_CHUNK 64		/* symbols read per pread/cr_read, stack buffer */
#define SYM_BIG 640		/* with the shared buffer (15 KiB: 4 pages, each a fault the first time) */

/* One shared scan buffer; whoever cannot take it uses a small one on its stack. */
static Elf64_Sym big_buf[SYM_BIG];
static struct cr_scratch big = CR_SCRATCH(big_buf);

struct symbuf {
	Elf64_Sym *s;
	uint64_t cap;
	Elf64_Sym small[SYM_CHUNK];
};

static void buf_get(struct symbuf *b)
{
	size_t size;

	b->s = cr_scratch_get(&big, b->small, sizeof(b->small), &size);
	b->cap = size / sizeof(Elf64_Sym);
}

static void buf_put(struct symbuf *b)
{
	cr_scratch_put(&big, b->s);
}
#define MAX_SYMS (1u << 22)	/* bound on any one table */


/* Number of .dynsym entries from DT_GNU_HASH: one past the highest index in a chain. */
static uint64_t gnu_hash_count(const struct cr_mem *m, uint64_t h)
{
	uint32_t hdr[4], v[256], maxsym = 0;

	if (cr_read(m, h, hdr, sizeof(hdr)) < 0 || hdr[0] > (1u << 24) || hdr[2] > (1u << 24))
		return 0;
	uint64_t buckets = h + 16 + (uint64_t)hdr[2] * 8;
	uint64_t chains = buckets + (uint64_t)hdr[0] * 4;

	for (uint32_t i = 0; i < hdr[0]; i += 256) {	/* the buckets, 256 at a time */
		uint32_t k = hdr[0] - i < 256 ? hdr[0] - i : 256;

		if (cr_read(m, buckets + i * 4ull, v, k * 4) < 0)
			return 0;
		for (uint32_t j = 0; j < k; j++)
			if (v[j] > maxsym)
				maxsym = v[j];
	}
	if (maxsym < hdr[1])
		return hdr[1];
	/* The last chain ends with an odd hash value. */
	for (uint32_t i = 0; i < MAX_SYMS; i += 256) {
		if (cr_read(m, chains + (uint64_t)(maxsym - hdr[1] + i) * 4, v, sizeof(v)) < 0 &&
		    cr_read(m, chains + (uint64_t)(maxsym - hdr[1] + i) * 4, v, 4) < 0)
			return 0;
		for (uint32_t j = 0; j < 256; j++)
			if (v[j] & 1)
				return (uint64_t)maxsym + i + j + 1;
	}
	return 0;
}

static void copy_name(const struct cr_mem *m, uint64_t addr, char *dst, size_t cap)
{
	size_t i = 0;

	/* One read; near the end of a mapping, byte by byte. */
	if (cr_read(m, addr, dst, cap - 1) == 0) {
		dst[cap - 1] = 0;
		return;
	}
	for (; i + 1 < cap; i++)
		if (cr_read(m, addr + i, &dst[i], 1) < 0 || dst[i] == 0)
			break;
	dst[i] = 0;
}

/*
 * A symbol table's chunks, first to last, for the one lookup and the batch
 * alike.  In memory (m set: a module's .dynsym): in place where the reader
 * can prove its pages readable (a cr_mem_fast: up to 32 pages a system call,
 * no copy; a buffer), one view of at most 32 pages at a time (libc's
 * .dynsym: one), else copied with cr_read from the first view that fails
 * on.  In a file (m NULL: a .symtab): pread.  Both copies go through one
 * symbuf (the shared buffer when free).
 */
#define SYM_VIEW (31 * 4096 / sizeof(Elf64_Sym))	/* spans at most 32 pages */
struct symchunks {
	const struct cr_mem *m;
	int fd;
	int err;		/* a read failed: the chunks end early */
	uint64_t at, left;	/* the next chunk's address or file offset; symbols left */
	struct symbuf sb;	/* .s NULL until a copy is needed */
};

static void chunks_init(struct symchunks *c, const struct cr_mem *m, int fd, uint64_t at,
			uint64_t count)
{
	c->m = m;
	c->fd = fd;
	c->err = 0;
	c->at = at;
	c->left = count < MAX_SYMS ? count : MAX_SYMS;
	c->sb.s = NULL;
}

/* The next chunk in *v: its count, 0 at the end or after a failed read (c->err). */
static uint64_t chunks_next(struct symchunks *c, const Elf64_Sym **v)
{
	uint64_t k = c->left;
	size_t len;

	*v = NULL;
	if (!k || c->err)
		return 0;
	if (c->m && !c->sb.s) {
		k = k < SYM_VIEW ? k : SYM_VIEW;
		*v = cr_mem_view(c->m, c->at, k * sizeof(Elf64_Sym));
		if (*v && ((uintptr_t)*v & 7))
			*v = NULL;	/* a test buffer at an odd address */
	}
	if (!*v) {
		if (!c->sb.s)
			buf_get(&c->sb);	/* copies from here on */
		k = k < c->sb.cap ? k : c->sb.cap;
		len = k * sizeof(Elf64_Sym);
		if (c->m ? cr_read(c->m, c->at, c->sb.s, len) < 0 :
			   cr_sys_pread_all(c->fd, c->sb.s, len, c->at) < 0) {
			c->err = 1;
			return 0;
		}
		*v = c->sb.s;
	}
	c->at += k * sizeof(Elf64_Sym);
	c->left -= k;
	return k;
}

/* 0, or -CR_EFAULT if a read cut the table short. */
static int chunks_done(struct symchunks *c)
{
	if (c->sb.s)
		buf_put(&c->sb);
	return c->err ? -CR_EFAULT : 0;
}

static void dynsym_search(const struct cr_mem *m, uint64_t symtab, uint64_t count,
			  uint64_t bias, uint64_t pc, struct cr_symbest *b, struct cr_symidx *ix)
{
	struct symchunks c;
	const Elf64_Sym *v;
	uint64_t k;

	chunks_init(&c, m, -1, symtab, count);
	while ((k = chunks_next(&c, &v))) {
		cr_symbest_scan(b, v, k, bias, pc);
		if (ix)
			cr_symidx_add(ix, v, k);	/* the table's one pass that builds its index */
	}
	chunks_done(&c);
}

/* Where mod's .dynsym and .dynstr are and how many symbols: from its PT_DYNAMIC.  0 or -CR_ENOINFO. */
static int dynsym_layout(const struct cr_mem *m, const struct cr_module *mod, uint64_t *symtabp,
			 uint64_t *strtabp, uint64_t *countp)
{
	struct cr_dyntab d;
	uint64_t count = 0;

	if (!mod->dynamic || cr_dynsym_open(m, mod->bias, mod->lo, mod->hi, mod->dynamic, &d) < 0)
		return -CR_ENOINFO;
	if (d.hash) {
		uint32_t h[2];

		if (cr_read(m, d.hash, h, sizeof(h)) == 0)
			count = h[1];	/* nchain == number of symbols (gABI "Hash Table") */
	} else {
		count = gnu_hash_count(m, d.gnuhash);
	}
	*symtabp = d.symtab;
	*strtabp = d.strtab;
	*countp = count > MAX_SYMS ? MAX_SYMS : count;
	return 0;
}

/*
 * The .dynsym lookup; sf (NULL: none) keeps the table's layout and, from
 * its second lookup on, its index.
 */
static int dynsym_in(const struct cr_mem *m, const struct cr_module *mod, uint64_t pc,
		     struct cr_symfile *sf, struct cr_sym *out)
{
	uint64_t symtab, strtab, count;
	struct cr_symbest b = { 0 };
	struct cr_symidx *ix = NULL;

	if (sf && sf->dyn_known) {
		if (sf->dyn_known == 2)
			return -CR_ENOINFO;
		symtab = sf->dyn_symtab;
		strtab = sf->dyn_strtab;
		count = sf->dyn_count;
	} else if (dynsym_layout(m, mod, &symtab, &strtab, &count) < 0) {
		if (sf)
			sf->dyn_known = 2;
		return -CR_ENOINFO;
	} else if (sf) {
		sf->dyn_known = 1;
		sf->dyn_symtab = symtab;
		sf->dyn_strtab = strtab;
		sf->dyn_count = count;
	}
	if (sf && sf->dynix.map && cr_symidx_find(&sf->dynix, mod->bias, pc, &b) >= 0) {
		/* the index's answer: the scan's (t-symidx) */
	} else {
		if (sf && sf->dyn_lookups == 1 && cr_symidx_init(&sf->dynix, count) == 0)
			ix = &sf->dynix;
		memset(&b, 0, sizeof(b));
		dynsym_search(m, symtab, count, mod->bias, pc, &b, ix);
		if (ix)
			cr_symidx_done(ix);
	}
	if (sf && sf->dyn_lookups < UINT16_MAX)
		sf->dyn_lookups++;
	if (!b.found)
		return -CR_ENOINFO;
	out->start = b.start;
	out->size = b.size;
	copy_name(m, strtab + b.name, out->name, sizeof(out->name));
	out->name_src = CR_SYMNAME_MEM;
	out->name_at = strtab + b.name;
	out->name_max = CR_DEMANGLE_MAXLEN + 1;	/* .dynstr's size is not read: up to the NUL */
	return 0;
}

int cr_sym_dynsym(const struct cr_mem *m, const struct cr_module *mod, uint64_t pc,
		  struct cr_sym *out)
{
	return dynsym_in(m, mod, pc, NULL, out);
}

/* The file's build-id must match the module's: the file may have been replaced since. */
static int same_file(int fd, const Elf64_Ehdr *eh, const struct cr_module *mod)
{
	uint8_t note[256];

	if (!mod->build_id_len)
		return 1;
	Elf64_Phdr phs[16];
	unsigned have = 0, base = 0;

	for (unsigned i = 0; i < eh->e_phnum && i < 64; i++) {
		struct cr_mem mem;
		uint8_t id[32];

		if (i == base + have) {	/* 16 program headers a read */
			base = i;
			have = eh->e_phnum - i < 16 ? eh->e_phnum - i : 16;
			if (cr_sys_pread_all(fd, phs, have * sizeof(phs[0]), eh->e_phoff + i * sizeof(phs[0])) < 0)
				return 0;
		}
		const Elf64_Phdr ph = phs[i - base];

		if (ph.p_type != PT_NOTE || ph.p_filesz > sizeof(note) ||
		    cr_sys_pread_all(fd, note, ph.p_filesz, ph.p_offset) < 0)
			continue;
		cr_mem_buffer(&mem, 0, note, ph.p_filesz);
		unsigned n = cr_elf_note_build_id(&mem, 0, ph.p_filesz, id, sizeof(id));
		if (n)
			return n == mod->build_id_len && cr_memeq(id, mod->build_id, n);
	}
	return 0;
}

static int symtab_search(int fd, const Elf64_Shdr *sh, uint64_t bias, uint64_t pc,
			 struct cr_symbest *b, struct cr_symidx *ix)
{
	struct symchunks c;
	const Elf64_Sym *v;
	uint64_t k;

	chunks_init(&c, NULL, fd, sh->sh_offset, sh->sh_size / sizeof(Elf64_Sym));
	while ((k = chunks_next(&c, &v))) {
		cr_symbest_scan(b, v, k, bias, pc);
		if (ix)
			cr_symidx_add(ix, v, k);
	}
	return chunks_done(&c);
}

/* Where a file's .symtab and its string table are (sizes 0: it has none). */
/*
 * The section headers [i, i + n) of fd into dst (room for cap): all of them in
 * one read into the shared scan buffer (240 fit), else 16 at a time.  The
 * count read, 0 on an error.
 */
static unsigned shdrs_read(int fd, const Elf64_Ehdr *eh, unsigned i, Elf64_Shdr *dst,
			   unsigned cap, const Elf64_Shdr **out)
{
	unsigned n = eh->e_shnum - i;

	if (n > cap)
		n = cap;
	if (cr_sys_pread_all(fd, dst, n * sizeof(Elf64_Shdr), eh->e_shoff + (uint64_t)i * sizeof(Elf64_Shdr)) <
	    0)
		return 0;
	*out = dst;
	return n;
}

static int symtab_layout(int fd, const struct cr_module *mod, struct cr_symfile *sf)
{
	Elf64_Ehdr eh;
	Elf64_Shdr small[16], sh, str, *buf;
	const Elf64_Shdr *shs = small;
	unsigned have = 0, base = 0, cap;
	int ret = -CR_ENOINFO;
	size_t size;

	if (cr_sys_pread_all(fd, &eh, sizeof(eh), 0) < 0 || !cr_memeq(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !same_file(fd, &eh, mod))
		return -CR_ENOINFO;
	/* The shared scan buffer, if free, for one read of them all (not buf_get:
	   its fallback chunk would put 1.5 KiB more on the handler's stack). */
	buf = cr_scratch_get(&big, small, sizeof(small), &size);
	cap = (unsigned)(size / sizeof(Elf64_Shdr));
	for (unsigned i = 0; i < eh.e_shnum && i < 65535; i++) {
		if (i == base + have) {
			base = i;
			if ((have = shdrs_read(fd, &eh, i, buf, cap, &shs)) == 0)
				break;
		}
		sh = shs[i - base];
		if (sh.sh_type != SHT_SYMTAB || sh.sh_link >= eh.e_shnum)
			continue;
		if (sh.sh_link >= base && sh.sh_link < base + have)
			str = shs[sh.sh_link - base];
		else if (cr_sys_pread_all(fd, &str, sizeof(str),
				   eh.e_shoff + (uint64_t)sh.sh_link * sizeof(str)) < 0)
			break;
		sf->sym_off = sh.sh_offset;
		sf->sym_size = sh.sh_size;
		sf->str_off = str.sh_offset;
		sf->str_size = str.sh_size;
		ret = 0;
		break;
	}
	cr_scratch_put(&big, buf);
	return ret;
}

static int symtab_name(const struct cr_symfile *sf, const struct cr_symbest *bp,
		       struct cr_sym *out);

/* Not inlined: its frame and symtab_open's are never on the handler's stack together. */
static __attribute__((noinline)) int symtab_lookup(struct cr_symfile *sf,
						   const struct cr_module *mod, uint64_t pc,
						   struct cr_sym *out)
{
	Elf64_Shdr sh = { .sh_offset = sf->sym_off, .sh_size = sf->sym_size };
	struct cr_symbest b = { 0 };
	uint64_t count = sf->sym_size / sizeof(Elf64_Sym);
	struct cr_symidx *ix = NULL;
	int ret = 0;

	count = count < MAX_SYMS ? count : MAX_SYMS;
	if (sf->tabix.map && cr_symidx_find(&sf->tabix, mod->bias, pc, &b) >= 0) {
		/* the index's answer: the scan's (t-symidx) */
	} else {
		/* The second lookup indexes the table as it scans it. */
		if (sf->tab_lookups == 1 && cr_symidx_init(&sf->tabix, count) == 0)
			ix = &sf->tabix;
		memset(&b, 0, sizeof(b));
		if (sf->tab) {
			const Elf64_Sym *v = (const void *)(sf->tab + (sf->sym_off - sf->tab_off));

			cr_symbest_scan(&b, v, count, mod->bias, pc);
			if (ix)
				cr_symidx_add(ix, v, count);
		} else {
			ret = symtab_search(sf->fd, &sh, mod->bias, pc, &b, ix);
		}
		if (ix && ret == 0)
			cr_symidx_done(ix);
		else if (ix)
			cr_symidx_free(ix);
		if (ret < 0)
			return -CR_ENOINFO;
	}
	if (sf->tab_lookups < UINT16_MAX)
		sf->tab_lookups++;
	return symtab_name(sf, &b, out);
}

/* The symbol b of sf's .symtab into out (its name from the arena or the file). */
static int symtab_name(const struct cr_symfile *sf, const struct cr_symbest *bp,
		       struct cr_sym *out)
{
	const struct cr_symbest b = *bp;
	size_t cap = sizeof(out->name) - 1;

	if (!b.found || b.name >= sf->str_size)
		return -CR_ENOINFO;
	if (sf->str_size - b.name < cap)
		cap = (size_t)(sf->str_size - b.name);
	out->name_max = sf->str_size - b.name;
	if (sf->tab) {
		const char *str = (const char *)sf->tab + (sf->str_off - sf->tab_off) + b.name;
		size_t i = 0;

		for (; i < cap && str[i]; i++)
			out->name[i] = str[i];
		cap = i;
		out->name_src = CR_SYMNAME_ARENA;
		out->name_ptr = str;
	} else if (cr_sys_pread_all(sf->fd, out->name, cap, sf->str_off + b.name) < 0) {
		return -CR_ENOINFO;
	} else {
		out->name_src = CR_SYMNAME_FILE;
		out->name_fd = sf->fd;
		out->name_at = sf->str_off + b.name;
	}
	out->name[cap] = 0;
	out->start = b.start;
	out->size = b.size;
	return 0;
}

/*
 * .symtab and its strings read once (one pread over both: they are usually
 * adjacent) into a static arena, so that the lookups of one report scan them
 * in place instead of reading them again at every lookup.  pread only (POSIX
 * async-signal-safe): no mapping, so a file truncated meanwhile is a short
 * read, not a fault.  The arena is one report's at a time, and small: the
 * executable's table, where most frames of a report look, fits; a large one
 * (glibc's debug file: ~370 KiB of symbols and strings, looked at for one or
 * two static functions) would cost more page faults to fill than the chunked
 * pread scan of each lookup (measured: +0.3 ms a crash with 512 KiB).
 * Tables that do not fit, or a report without the arena, pread at each
 * lookup.
 */
#define SYM_ARENA (64u << 10)
static uint8_t arena_mem[SYM_ARENA] __attribute__((aligned(8)));
static struct cr_scratch arena = CR_SCRATCH(arena_mem);

static void symtab_load(struct cr_symfile *sf)
{
	uint64_t lo = sf->sym_off < sf->str_off ? sf->sym_off : sf->str_off;
	uint64_t e1 = sf->sym_off + sf->sym_size, e2 = sf->str_off + sf->str_size;
	uint64_t hi = e1 > e2 ? e1 : e2;
	struct cr_symfiles *o = sf->owner;

	if (e1 < sf->sym_off || e2 < sf->str_off || sf->sym_off % 8 || !o || !o->arena)
		return;
	/* From an 8-byte boundary (the symbols' is one), counted in the size check. */
	lo &= ~(uint64_t)7;
	if (hi - lo > SYM_ARENA - o->used ||
	    cr_sys_pread_all(sf->fd, o->arena + o->used, (size_t)(hi - lo), lo) < 0)
		return;
	sf->tab = o->arena + o->used;
	sf->tab_off = lo;
	o->used += (hi - lo + 7) & ~(uint64_t)7;
}

/* Open path into sf if it is the module's file and has a .symtab.  0 or -CR_ENOINFO. */
static int symtab_open(const char *path, const struct cr_module *mod, struct cr_symfile *sf)
{
	sf->fd = cr_sys_open(path, O_RDONLY | O_CLOEXEC, 0);
	if (sf->fd < 0)
		return -CR_ENOINFO;
	if (symtab_layout(sf->fd, mod, sf) == 0) {
		symtab_load(sf);
		return 0;
	}
	cr_sys_close(sf->fd);
	sf->fd = -1;
	return -CR_ENOINFO;
}

/* GDB's convention: /usr/lib/debug/.build-id/ab/cdef....debug (Debian's -dbg/-dbgsym). */
static void debug_path(const struct cr_module *mod, char *dst, size_t cap)
{
	static const char pre[] = "/usr/lib/debug/.build-id/";
	size_t k = sizeof(pre) - 1;

	if (cap < k + 2 * sizeof(mod->build_id) + 8) {
		dst[0] = 0;
		return;
	}
	memcpy(dst, pre, k);
	for (unsigned i = 0; i < mod->build_id_len; i++) {
		k += cr_fmt_x(dst + k, 3, mod->build_id[i], 2);
		if (i == 0)
			dst[k++] = '/';
	}
	memcpy(dst + k, ".debug", 7);
}

void cr_symfile_init(struct cr_symfile *sf)
{
	memset(sf, 0, sizeof(*sf));
	sf->fd = -1;
}

void cr_symfile_close(struct cr_symfile *sf)
{
	struct cr_symfiles *owner = sf->owner;

	if (sf->fd >= 0)
		cr_sys_close(sf->fd);
	cr_symidx_free(&sf->dynix);
	cr_symidx_free(&sf->tabix);
	cr_symfile_init(sf);
	sf->owner = owner;
}

/* sf made mod's, its .symtab looked for once: 1 if it has one (sf->fd). */
static int symtab_ready(const struct cr_module *mod, struct cr_symfile *sf)
{
	char dbg[CR_DBG_PATH];

	if (!sf->mod_lo || sf->mod_lo != mod->lo || sf->mod_bias != mod->bias) {
		cr_symfile_close(sf);	/* another module's */
		sf->mod_lo = mod->lo;
		sf->mod_bias = mod->bias;
	}
	if (!sf->tried) {
		/*
		 * Its separate debug file first (same build-id: the whole
		 * .symtab of the same link, so at least what the module's own
		 * file has), else the module's file.  A stripped library (every
		 * distribution's) is then not opened and searched for a .symtab
		 * it does not have; an unstripped one costs a failed open.
		 */
		sf->tried = 1;
		if (sf->owner && sf->owner->debug_file) {
			if (sf->owner->debug_file(sf->owner->debug_arg, mod, dbg, sizeof(dbg)) == 0)
				symtab_open(dbg, mod, sf);
		} else if (mod->build_id_len >= 2) {
			debug_path(mod, dbg, sizeof(dbg));
			symtab_open(dbg, mod, sf);
		}
		if (sf->fd < 0 && mod->path[0])
			symtab_open(mod->path, mod, sf);
	}
	return sf->fd >= 0;
}

int cr_sym_symtab_in(const struct cr_module *mod, uint64_t pc, struct cr_symfile *sf,
		       struct cr_sym *out)
{
	if (symtab_ready(mod, sf))
		return symtab_lookup(sf, mod, pc, out);
	return -CR_ENOINFO;
}

int cr_sym_symtab(const struct cr_module *mod, uint64_t pc, struct cr_sym *out)
{
	struct cr_symfile sf;
	int ret;

	cr_symfile_init(&sf);
	ret = cr_sym_symtab_in(mod, pc, &sf, out);
	cr_symfile_close(&sf);
	return ret;
}

int cr_sym_find(const struct cr_mem *m, const struct cr_module *mod, uint64_t pc,
		struct cr_sym *out)
{
	return cr_sym_find_in(m, mod, pc, NULL, out);
}

void cr_symfiles_init(struct cr_symfiles *s)
{
	size_t size;

	for (unsigned i = 0; i < CR_SYMFILES; i++) {
		cr_symfile_init(&s->f[i]);
		s->f[i].owner = s;
	}
	s->next = 0;
	s->held = 0;
	s->used = 0;
	s->arena = cr_scratch_get(&arena, NULL, 0, &size);
	s->debug_file = NULL;
	s->debug_arg = NULL;
}

void cr_symfiles_close(struct cr_symfiles *s)
{
	for (unsigned i = 0; i < CR_SYMFILES; i++)
		cr_symfile_close(&s->f[i]);
	s->next = 0;
	s->held = 0;
	s->used = 0;
	cr_scratch_put(&arena, s->arena);
	s->arena = NULL;
}

void cr_symfiles_move(struct cr_symfiles *dst, const struct cr_symfiles *src)
{
	*dst = *src;
	for (unsigned i = 0; i < CR_SYMFILES; i++)
		dst->f[i].owner = dst;
}

/* The slot of mod's file: the one it already has, else the oldest. */
static struct cr_symfile *symfile_slot(struct cr_symfiles *s, const struct cr_module *mod)
{
	struct cr_symfile *sf;

	for (unsigned i = 0; i < CR_SYMFILES; i++)
		if (s->f[i].mod_lo && s->f[i].mod_lo == mod->lo && s->f[i].mod_bias == mod->bias)
			return &s->f[i];
	/* The oldest, but not a file a batch's names may still be read from
	   (all of them held: the oldest all the same). */
	for (unsigned k = 0; k < CR_SYMFILES; k++) {
		sf = &s->f[s->next % CR_SYMFILES];
		s->next = (s->next + 1) % CR_SYMFILES;
		if (!(s->held & (1u << (sf - s->f))))
			return sf;
	}
	return sf;
}

void cr_symfiles_release(struct cr_symfiles *s)
{
	s->held = 0;
}

int cr_sym_find_in(const struct cr_mem *m, const struct cr_module *mod, uint64_t pc,
		     struct cr_symfiles *s, struct cr_sym *out)
{
	struct cr_symfile *sf = NULL;
	struct cr_sym sym;
	int dyn;

	if (s) {
		sf = symfile_slot(s, mod);
		if (!sf->mod_lo || sf->mod_lo != mod->lo || sf->mod_bias != mod->bias) {
			cr_symfile_close(sf);	/* the slot is mod's from here on */
			sf->mod_lo = mod->lo;
			sf->mod_bias = mod->bias;
		}
	}
	/* .dynsym first (memory, cheap); .symtab when it has nothing sized around pc. */
	dyn = dynsym_in(m, mod, pc, sf, &sym);
	if (dyn == 0 && sym.size) {
		*out = sym;
		return 0;
	}
	if ((sf ? cr_sym_symtab_in(mod, pc, sf, out) : cr_sym_symtab(mod, pc, out)) == 0)
		return 0;
	if (dyn == 0) {
		*out = sym;
		return 0;
	}
	return -CR_ENOINFO;
}

/*
 * Up to k bytes of s's name from its byte i on, into buf, from where the
 * name lies (its memory, its symbol file, or the arena's copy of the string
 * table, which holds name_max bytes from the name's start): how many were
 * read (k, or 1 near the end of a mapping), 0 if none could be.
 */
static size_t name_bytes(const struct cr_mem *m, const struct cr_sym *s, uint64_t i, char *buf,
			 size_t k)
{
	if (s->name_src == CR_SYMNAME_ARENA) {
		memcpy(buf, s->name_ptr + i, k);
		return k;
	}
	if (s->name_src == CR_SYMNAME_MEM) {
		if (cr_read(m, s->name_at + i, buf, k) == 0)
			return k;
		/* near the end of its mapping: byte by byte */
		return cr_read(m, s->name_at + i, buf, 1) == 0 ? 1 : 0;
	}
	return cr_sys_pread_all(s->name_fd, buf, k, s->name_at + i) == 0 ? k : 0;
}

int cr_sym_name(const struct cr_mem *m, const struct cr_sym *s, char *buf, size_t cap)
{
	size_t i = 0, n = cr_strlen(s->name);
	uint64_t max = s->name_max < cap - 1 ? s->name_max : cap - 1;

	if (n + 1 < sizeof(s->name) || s->name_src == CR_SYMNAME_NONE) {
		/* Whole already (or nowhere else to look). */
		n = n < cap - 1 ? n : cap - 1;
		memcpy(buf, s->name, n);
		buf[n] = 0;
		return n < cr_strlen(s->name) ? -CR_ERANGE : 0;
	}
	if (s->name_src == CR_SYMNAME_ARENA) {
		for (; i < max && s->name_ptr[i]; i++)
			buf[i] = s->name_ptr[i];
	} else {
		/* 256 bytes a read, from memory or the file, up to the NUL. */
		while (i < max) {
			size_t k = max - i < 256 ? (size_t)(max - i) : 256, j;

			if ((k = name_bytes(m, s, i, buf + i, k)) == 0)
				break;
			for (j = 0; j < k && buf[i + j]; j++)
				;
			i += j;
			if (j < k)
				break;
		}
		if (i < sizeof(s->name) - 1) {	/* read less than we had: keep what we had */
			memcpy(buf, s->name, n + 1 < cap ? n + 1 : cap);
			buf[cap - 1] = 0;
			return -CR_EFAULT;
		}
	}
	buf[i] = 0;
	return i == cap - 1 ? -CR_ERANGE : 0;
}

/* Does the name whose last n bytes are t end in ".cold" or ".cold.DIGITS"? */
static int cold_suffix(const char *t, size_t n)
{
	size_t d = n;

	while (d > 0 && t[d - 1] >= '0' && t[d - 1] <= '9')
		d--;
	if (d < n) {	/* ".cold." then the digits */
		if (d == 0 || t[d - 1] != '.')
			return 0;
		d--;
	}
	return d >= 6 && cr_memeq(t + d - 5, ".cold", 5);
}

int cr_sym_fragment(const struct cr_mem *m, const struct cr_sym *s)
{
	/* The name read 256 bytes at a time (as cr_sym_name), its last 32
	   bytes kept in ring[]: enough for any ".cold.N" a compiler writes. */
	char chunk[256], ring[32], tail[32];
	size_t n = cr_strlen(s->name), total = 0;
	uint64_t i = 0, max = s->name_max < CR_SYM_TAIL_MAX ? s->name_max : CR_SYM_TAIL_MAX;

	if (n + 1 < sizeof(s->name) || s->name_src == CR_SYMNAME_NONE)
		return cold_suffix(s->name, n);	/* whole already */
	while (i < max) {
		size_t k = max - i < sizeof(chunk) ? (size_t)(max - i) : sizeof(chunk), j;

		if ((k = name_bytes(m, s, i, chunk, k)) == 0)
			return 0;
		for (j = 0; j < k && chunk[j]; j++)
			ring[total++ % sizeof(ring)] = chunk[j];
		if (j < k) {	/* the NUL: the last bytes, in order */
			size_t have = total < sizeof(ring) ? total : sizeof(ring);

			for (size_t t = 0; t < have; t++)
				tail[t] = ring[(total - have + t) % sizeof(ring)];
			return cold_suffix(tail, have);
		}
		i += k;
	}
	return 0;	/* longer than we read: not taken for a fragment */
}

/* The batch (sym.h): each chunk folded into every pc's answer. */
static void dynsym_many(const struct cr_mem *m, uint64_t symtab, uint64_t count, uint64_t bias,
			const uint64_t *pcs, unsigned n, struct cr_symbest *b)
{
	struct symchunks c;
	const Elf64_Sym *v;
	uint64_t k;

	chunks_init(&c, m, -1, symtab, count);
	while ((k = chunks_next(&c, &v)))
		cr_symbest_scan_many(b, pcs, n, v, k, bias);
	chunks_done(&c);
}

/* .symtab from the arena, else from its file in chunks. */
static int symtab_many(struct cr_symfile *sf, uint64_t bias, const uint64_t *pcs, unsigned n,
		       struct cr_symbest *b)
{
	uint64_t count = sf->sym_size / sizeof(Elf64_Sym);
	struct symchunks c;
	const Elf64_Sym *v;
	uint64_t k;

	if (sf->tab) {
		cr_symbest_scan_many(b, pcs, n, (const void *)(sf->tab + (sf->sym_off - sf->tab_off)),
				     count < MAX_SYMS ? count : MAX_SYMS, bias);
		return 0;
	}
	chunks_init(&c, NULL, sf->fd, sf->sym_off, count);
	while ((k = chunks_next(&c, &v)))
		cr_symbest_scan_many(b, pcs, n, v, k, bias);
	return chunks_done(&c);
}

int cr_sym_find_many(const struct cr_mem *m, const struct cr_module *mod, const uint64_t *pcs,
		     unsigned n, struct cr_symfiles *s, struct cr_symbest *work,
		     struct cr_sym *out, uint8_t *ok)
{
	struct cr_symbest *bd = work, *bt = work + n;
	uint64_t symtab = 0, strtab = 0, count = 0, *tpcs = NULL;
	struct cr_symfile *sf;
	unsigned need = 0;
	int dyn = 0;

	for (unsigned i = 0; i < n; i++) {
		ok[i] = 0;
		memset(&bd[i], 0, sizeof(bd[i]));
		memset(&bt[i], 0, sizeof(bt[i]));
	}
	if (n == 0)
		return 0;
	sf = symfile_slot(s, mod);
	if (!sf->mod_lo || sf->mod_lo != mod->lo || sf->mod_bias != mod->bias) {
		cr_symfile_close(sf);
		sf->mod_lo = mod->lo;
		sf->mod_bias = mod->bias;
	}
	s->held |= 1u << (sf - s->f);	/* out[]'s names may be read from it later */
	/* .dynsym's layout: dynsym_in's, kept in sf. */
	if (sf->dyn_known == 1) {
		symtab = sf->dyn_symtab;
		strtab = sf->dyn_strtab;
		count = sf->dyn_count;
		dyn = 1;
	} else if (!sf->dyn_known) {
		if (dynsym_layout(m, mod, &symtab, &strtab, &count) < 0) {
			sf->dyn_known = 2;
		} else {
			sf->dyn_known = 1;
			sf->dyn_symtab = symtab;
			sf->dyn_strtab = strtab;
			sf->dyn_count = count;
			dyn = 1;
		}
	}
	if (dyn)
		dynsym_many(m, symtab, count, mod->bias, pcs, n, bd);
	/* .symtab for the pcs .dynsym has no sized symbol for (cr_sym_find_in's
	   order), in one pass: bt's pcs are work's room past bt (sorted still). */
	for (unsigned i = 0; i < n; i++)
		if (!(bd[i].found && bd[i].size))
			need++;
	if (need && symtab_ready(mod, sf)) {
		/* The pcs that need it, compacted into the tail of bt's room. */
		tpcs = (uint64_t *)(void *)(bt + n);
		for (unsigned i = 0, k = 0; i < n; i++)
			if (!(bd[i].found && bd[i].size))
				tpcs[k++] = pcs[i];
		if (symtab_many(sf, mod->bias, tpcs, need, bt) < 0)
			need = 0;	/* as a failed lookup: .dynsym's answers */
	} else {
		need = 0;
	}
	for (unsigned i = 0, k = 0; i < n; i++) {
		int sized = bd[i].found && bd[i].size;

		if (!sized && need && symtab_name(sf, &bt[k++], &out[i]) == 0) {
			ok[i] = 1;
			continue;
		}
		if (bd[i].found) {
			out[i].start = bd[i].start;
			out[i].size = bd[i].size;
			copy_name(m, strtab + bd[i].name, out[i].name, sizeof(out[i].name));
			out[i].name_src = CR_SYMNAME_MEM;
			out[i].name_at = strtab + bd[i].name;
			out[i].name_max = CR_DEMANGLE_MAXLEN + 1;
			ok[i] = 1;
		}
	}
	return 0;
}
