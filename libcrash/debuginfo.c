/* SPDX-License-Identifier: MIT */
/* Finding and mapping a module's DWARF: debuginfo.h has the rules. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "debuginfo.h"
#include "elfmem.h"
#include "str.h"
#include "sys.h"

CR_INSTALL_DATA struct cr_dbgcfg cr_dbgcfg;

/* The section names after ".debug_", in the order of CR_DS_*: one string, no pointers. */
static const char cr_dbg_names[] =
	"info\0abbrev\0aranges\0ranges\0rnglists\0addr\0str\0str_offsets\0line_str\0line";

uint32_t cr_crc32(uint32_t crc, const void *p, size_t len)
{
	const uint8_t *b = p;

	crc = ~crc;
	/* Four bits at a time from a 16-entry table built here: no table in
	   the library's data, ~1 GB/s is plenty for a debug file read once. */
	uint32_t t[16];

	for (uint32_t i = 0; i < 16; i++) {
		uint32_t c = i;

		for (int k = 0; k < 4; k++)
			c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
		t[i] = c;
	}
	for (size_t i = 0; i < len; i++) {
		crc ^= b[i];
		crc = (crc >> 4) ^ t[crc & 15];
		crc = (crc >> 4) ^ t[crc & 15];
	}
	return ~crc;
}

/* The index in CR_DS_* of ".debug_NAME" (z: ".zdebug_NAME"), or -1; max: bytes left in the table. */
static int sect_index(const char *name, size_t max, int *z)
{
	const char *n = cr_dbg_names;
	size_t k;

	*z = max >= 8 && cr_strncmp(name, ".zdebug_", 8) == 0;
	if (!*z && (max < 7 || cr_strncmp(name, ".debug_", 7) != 0))
		return -1;
	name += 7 + *z;
	max -= 7 + (size_t)*z;
	for (int i = 0; i < CR_DS_N; i++, n += k + 1) {
		k = cr_strlen(n);
		if (k < max && cr_strncmp(name, n, k) == 0 && name[k] == 0)
			return i;
	}
	return -1;
}

/* An ELF header we read (64-bit, little-endian), its section headers inside len bytes. */
static int ehdr_ok(const Elf64_Ehdr *eh, uint64_t len)
{
	return cr_memeq(eh->e_ident, ELFMAG, SELFMAG) && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
	       eh->e_ident[EI_DATA] == ELFDATA2LSB && eh->e_shentsize == sizeof(Elf64_Shdr) &&
	       eh->e_shoff != 0 && eh->e_shoff <= len && len - eh->e_shoff >= sizeof(Elf64_Shdr);
}

/*
 * A .gnu_debuglink section's n bytes at s: NAME, NUL, padding to 4, then the
 * CRC-32 (the file's byte order).  Into link and *crc if the name is not
 * empty and fits linkcap; else nothing written.
 */
static void debuglink(const char *s, uint64_t size, char *link, size_t linkcap, uint32_t *crc)
{
	size_t n = 0;
	uint64_t at;

	while (n < size && s[n])
		n++;
	at = (n + 4) & ~(uint64_t)3;
	if (n == 0 || n >= linkcap || at + 4 > size)
		return;
	memcpy(link, s, n);
	link[n] = 0;
	memcpy(crc, s + at, 4);
}

int cr_dbg_elf(const uint8_t *p, uint64_t len, struct cr_dbgsec sec[CR_DS_N], char *link,
	       size_t linkcap, uint32_t *crc, uint8_t *id, unsigned *idlen)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, strsh;
	uint64_t shnum, shstrndx;

	memset(sec, 0, CR_DS_N * sizeof(sec[0]));
	link[0] = 0;
	*crc = 0;
	*idlen = 0;
	if (len < sizeof(eh))
		return -CR_EINVAL;
	memcpy(&eh, p, sizeof(eh));
	if (!ehdr_ok(&eh, len))
		return -CR_EINVAL;
	/* ELF gABI: counts past SHN_LORESERVE live in section header 0. */
	memcpy(&sh, p + eh.e_shoff, sizeof(sh));
	shnum = eh.e_shnum ? eh.e_shnum : sh.sh_size;
	shstrndx = eh.e_shstrndx == SHN_XINDEX ? sh.sh_link : eh.e_shstrndx;
	if (shnum > (len - eh.e_shoff) / sizeof(sh) || shstrndx >= shnum)
		return -CR_EINVAL;
	memcpy(&strsh, p + eh.e_shoff + shstrndx * sizeof(sh), sizeof(sh));
	if (strsh.sh_type == SHT_NOBITS || strsh.sh_offset > len ||
	    strsh.sh_size > len - strsh.sh_offset)
		return -CR_EINVAL;
	for (uint64_t i = 1; i < shnum; i++) {
		struct cr_mem mem;
		const char *name;
		size_t max;
		int k, z;

		memcpy(&sh, p + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_type == SHT_NOBITS || sh.sh_name >= strsh.sh_size || sh.sh_offset > len ||
		    sh.sh_size > len - sh.sh_offset || sh.sh_size == 0)
			continue;
		name = (const char *)p + strsh.sh_offset + sh.sh_name;
		max = (size_t)(strsh.sh_size - sh.sh_name);	/* bytes up to the table's end */
		if (sh.sh_type == SHT_NOTE && !*idlen) {
			cr_mem_buffer(&mem, 0, p + sh.sh_offset, (size_t)sh.sh_size);
			*idlen = cr_elf_note_build_id(&mem, 0, sh.sh_size, id, 32);
			continue;
		}
		if (max >= 15 && cr_strncmp(name, ".gnu_debuglink", 15) == 0) {
			debuglink((const char *)p + sh.sh_offset, sh.sh_size, link, linkcap, crc);
			continue;
		}
		if ((k = sect_index(name, max, &z)) < 0 || sec[k].size)
			continue;
		sec[k].off = sh.sh_offset;
		sec[k].size = sh.sh_size;
		sec[k].compressed = (sh.sh_flags & SHF_COMPRESSED) ? 1 : z ? 2 : 0;
	}
	return 0;
}

/* A file mapped whole, read-only, and which file it is. */
struct mapped {
	const uint8_t *p;
	uint64_t len;
	uint64_t ino;
	uint32_t dev_major, dev_minor;
};

static void unmap(struct mapped *mf)
{
	if (mf->p)
		cr_sys_munmap((void *)(uintptr_t)mf->p, (size_t)mf->len);
	mf->p = NULL;
	mf->len = 0;
}

/* The regular file at path, opened read-only, and what statx says of it (*st): fd or -1. */
static int open_regular(const char *path, struct statx *st)
{
	int fd = cr_sys_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0);

	if (fd >= 0 && (cr_sys_statx(fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_SIZE | STATX_INO,
				     st) < 0 ||
			!S_ISREG(st->stx_mode))) {
		cr_sys_close(fd);
		fd = -1;
	}
	return fd < 0 ? -1 : fd;
}

/* Map the regular file at path.  0 or -CR_ENOINFO. */
static int map_file(const char *path, struct mapped *mf)
{
	struct statx st;
	long a;
	int fd;

	mf->p = NULL;
	mf->len = 0;
	if (!path[0] || (fd = open_regular(path, &st)) < 0)
		return -CR_ENOINFO;
	if (st.stx_size < sizeof(Elf64_Ehdr) || st.stx_size > ((uint64_t)1 << 40)) {
		cr_sys_close(fd);
		return -CR_ENOINFO;
	}
	a = cr_sys_mmap(NULL, (size_t)st.stx_size, PROT_READ, MAP_PRIVATE, fd, 0);
	cr_sys_close(fd);
	if (cr_sys_failed(a))
		return -CR_ENOINFO;
	mf->p = (const uint8_t *)a;
	mf->len = st.stx_size;
	mf->ino = st.stx_ino;
	mf->dev_major = st.stx_dev_major;
	mf->dev_minor = st.stx_dev_minor;
	return 0;
}

/* Bounded string building: dst[*k...] += s (n bytes, or up to its NUL if n < 0). */
static void put(char *dst, size_t cap, size_t *k, const char *s, long n)
{
	for (long i = 0; (n < 0 ? s[i] != 0 : i < n); i++) {
		if (*k + 1 >= cap) {
			*k = cap;	/* too long: marks the result unusable */
			return;
		}
		dst[(*k)++] = s[i];
	}
}

static int done(char *dst, size_t cap, size_t k)
{
	if (k >= cap) {
		dst[0] = 0;
		return -1;
	}
	dst[k] = 0;
	return 0;
}

static void put_hex(char *dst, size_t cap, size_t *k, const uint8_t *b, unsigned n)
{
	char two[2];

	for (unsigned i = 0; i < n; i++) {
		two[0] = "0123456789abcdef"[b[i] >> 4];
		two[1] = "0123456789abcdef"[b[i] & 15];
		put(dst, cap, k, two, 2);
	}
}

/* Root number i of CRASH_DEBUG_PATH into *s, *n.  0, or -1 past the last. */
static int root(unsigned i, const char **s, size_t *n)
{
	const char *r = cr_dbgcfg.roots ? cr_dbgcfg.roots : "/usr/lib/debug";

	for (unsigned j = 0; j < 64; j++) {
		size_t len = cr_strcspn(r, ":");

		if (j == i) {
			if (len == 0 && !r[0])
				return -1;
			*s = r;
			*n = len;
			return 0;
		}
		if (!r[len])
			return -1;
		r += len + 1;
	}
	return -1;
}

/* Is the file [p, len) the module's? */
static int same_build(const struct cr_module *mod, const uint8_t *id, unsigned idlen)
{
	return mod->build_id_len && idlen == mod->build_id_len &&
	       cr_memeq(id, mod->build_id, idlen);
}

/*
 * Try one candidate separate debug file: mapped into mf if it is mod's
 * (build-id, or the debuglink's CRC where either lacks a build-id).
 */
static int try_file(const char *path, const struct cr_module *mod, const char *link_crc_for,
		    uint32_t want_crc, struct mapped *mf, struct cr_dbgsec sec[CR_DS_N])
{
	char link[8];
	uint8_t id[32];
	unsigned idlen;
	uint32_t crc;

	if (map_file(path, mf) < 0)
		return -CR_ENOINFO;
	if (cr_dbg_elf(mf->p, mf->len, sec, link, sizeof(link), &crc, id, &idlen) == 0) {
		if (idlen && mod->build_id_len) {
			if (same_build(mod, id, idlen))
				return 0;
		} else if (link_crc_for && cr_crc32(0, mf->p, (size_t)mf->len) == want_crc) {
			return 0;
		}
	}
	unmap(mf);
	return -CR_ENOINFO;
}

/* The candidates of steps 2 to 4 in order; the first that is mod's is mapped into mf. */
static int find_separate(const struct cr_module *mod, const char *link, uint32_t link_crc,
			 struct mapped *mf, struct cr_dbgsec sec[CR_DS_N], char *path, size_t cap)
{
	const char *r;
	size_t rn, k, dir = 0;

	/* 2: the build-id trees. */
	for (unsigned i = 0; mod->build_id_len >= 2 && root(i, &r, &rn) == 0; i++) {
		k = 0;
		put(path, cap, &k, r, (long)rn);
		put(path, cap, &k, "/.build-id/", -1);
		put_hex(path, cap, &k, mod->build_id, 1);
		put(path, cap, &k, "/", -1);
		put_hex(path, cap, &k, mod->build_id + 1, mod->build_id_len - 1u);
		put(path, cap, &k, ".debug", -1);
		if (done(path, cap, k) == 0 && try_file(path, mod, NULL, 0, mf, sec) == 0)
			return 0;
	}
	/* 3: the debuglink, beside the module, in its .debug/, under each root. */
	for (size_t i = 0; mod->path[i]; i++)
		if (mod->path[i] == '/')
			dir = i + 1;	/* the directory with its slash */
	for (unsigned i = 0; link[0] && mod->path[0] == '/' && i < 66; i++) {
		k = 0;
		if (i >= 2) {
			if (root(i - 2, &r, &rn) < 0)
				break;
			put(path, cap, &k, r, (long)rn);
		}
		put(path, cap, &k, mod->path, (long)dir);
		if (i == 1)
			put(path, cap, &k, ".debug/", -1);
		put(path, cap, &k, link, -1);
		if (done(path, cap, k) == 0 && cr_strcmp(path, mod->path) != 0 &&
		    try_file(path, mod, link, link_crc, mf, sec) == 0)
			return 0;
	}
	/* 4: the debuginfod client's cache. */
	if (mod->build_id_len) {
		k = 0;
		if (cr_dbgcfg.dcache && cr_dbgcfg.dcache[0]) {
			put(path, cap, &k, cr_dbgcfg.dcache, -1);
		} else if (cr_dbgcfg.xdg && cr_dbgcfg.xdg[0] == '/') {
			put(path, cap, &k, cr_dbgcfg.xdg, -1);
			put(path, cap, &k, "/debuginfod_client", -1);
		} else if (cr_dbgcfg.home && cr_dbgcfg.home[0] == '/') {
			put(path, cap, &k, cr_dbgcfg.home, -1);
			put(path, cap, &k, "/.cache/debuginfod_client", -1);
		} else {
			k = cap;
		}
		put(path, cap, &k, "/", -1);
		put_hex(path, cap, &k, mod->build_id, mod->build_id_len);
		put(path, cap, &k, "/debuginfo", -1);
		if (done(path, cap, k) == 0 && try_file(path, mod, NULL, 0, mf, sec) == 0)
			return 0;
	}
	path[0] = 0;
	return -CR_ENOINFO;
}

/*
 * The module's own file looked at without mapping it: a distribution's
 * libraries are stripped, and mapping libc.so.6 only to find that out cost
 * the demo crash ~25 us (the pages of its headers, at both ends of the
 * file, faulted in and unmapped).  Its section names are read with pread
 * (the headers 16 at a time); if none is .debug_info or .zdebug_info, its
 * .gnu_debuglink (NAME, NUL, padding to 4, the CRC-32) goes to link and
 * crc and the answer is 1.  0: it has DWARF, or it could not be read so
 * (too many sections, names longer than the buffer): the caller maps it.
 * Offsets and sizes checked against the file's size as cr_dbg_elf does.
 */
#define OWN_SHDRS 16
#define OWN_NAMES 2048
static int own_lacks_dwarf(const char *path, char *link, size_t linkcap, uint32_t *crc)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh[OWN_SHDRS], str;
	char names[OWN_NAMES];
	uint64_t shnum, size, lk_off = 0, lk_size = 0;
	struct statx st;
	int fd, ret = 0;

	if ((fd = open_regular(path, &st)) < 0)
		return 0;
	size = st.stx_size;
	if (cr_sys_pread_all(fd, &eh, sizeof(eh), 0) < 0 || !ehdr_ok(&eh, size) ||
	    eh.e_shnum == 0 || eh.e_shstrndx == SHN_XINDEX || eh.e_shstrndx >= eh.e_shnum)
		goto out;	/* counts in section header 0 (gABI): the mapped path */
	shnum = eh.e_shnum;
	if (shnum > (size - eh.e_shoff) / sizeof(Elf64_Shdr) ||
	    cr_sys_pread_all(fd, &str, sizeof(str), eh.e_shoff + eh.e_shstrndx * sizeof(str)) < 0 ||
	    str.sh_type == SHT_NOBITS || str.sh_offset > size || str.sh_size > size - str.sh_offset ||
	    str.sh_size == 0 || str.sh_size > OWN_NAMES ||
	    cr_sys_pread_all(fd, names, (size_t)str.sh_size, str.sh_offset) < 0)
		goto out;
	names[str.sh_size - 1] = 0;	/* every name ends inside the table */
	for (uint64_t i = 0; i < shnum; i++) {
		const Elf64_Shdr *h = &sh[i % OWN_SHDRS];
		const char *name;
		int z;

		if (i % OWN_SHDRS == 0 &&
		    cr_sys_pread_all(fd, sh, (size_t)(shnum - i < OWN_SHDRS ? shnum - i : OWN_SHDRS) *
					      sizeof(Elf64_Shdr),
			      eh.e_shoff + i * sizeof(Elf64_Shdr)) < 0)
			goto out;
		if (i == 0 || h->sh_type == SHT_NOBITS || h->sh_name >= str.sh_size ||
		    h->sh_offset > size || h->sh_size > size - h->sh_offset || h->sh_size == 0)
			continue;
		name = names + h->sh_name;
		if (sect_index(name, (size_t)(str.sh_size - h->sh_name), &z) == CR_DS_INFO)
			goto out;
		if (!lk_size && cr_strcmp(name, ".gnu_debuglink") == 0) {
			lk_off = h->sh_offset;
			lk_size = h->sh_size;
		}
	}
	if (lk_size) {
		char buf[256 + 8];
		size_t k = lk_size < sizeof(buf) ? (size_t)lk_size : sizeof(buf);

		if (cr_sys_pread_all(fd, buf, k, lk_off) < 0)
			goto out;
		debuglink(buf, k, link, linkcap, crc);
	}
	ret = 1;
out:
	cr_sys_close(fd);
	return ret;
}

/* The module's own file, mapped, if it is the module's; its link and sections. */
static int own_file(const struct cr_module *mod, struct mapped *mf, struct cr_dbgsec sec[CR_DS_N],
		    char *link, size_t linkcap, uint32_t *crc)
{
	uint8_t id[32];
	unsigned idlen;

	link[0] = 0;
	if (mod->path[0] != '/' || own_lacks_dwarf(mod->path, link, linkcap, crc) == 1 ||
	    map_file(mod->path, mf) < 0)	/* the vDSO's name */
		return -CR_ENOINFO;
	if (cr_dbg_elf(mf->p, mf->len, sec, link, linkcap, crc, id, &idlen) == 0 &&
	    (!mod->build_id_len || same_build(mod, id, idlen)))
		return 0;
	link[0] = 0;
	unmap(mf);
	return -CR_ENOINFO;
}

int cr_dbg_find_file(const struct cr_module *mod, char *path, size_t cap)
{
	struct cr_dbgsec sec[CR_DS_N];
	struct mapped mf;
	char link[256];
	uint32_t crc = 0;

	link[0] = 0;
	if (own_file(mod, &mf, sec, link, sizeof(link), &crc) == 0)
		unmap(&mf);
	if (find_separate(mod, link, crc, &mf, sec, path, cap) < 0)
		return -CR_ENOINFO;
	unmap(&mf);
	return 0;
}

void cr_dbgset_init(struct cr_dbgset *s)
{
	s->n = 0;
	s->inflated = 0;
	s->nofile = 0;
}

static void image_close(struct cr_dbgimage *im)
{
	struct mapped mf = { im->map, im->map_len, 0, 0, 0 };

	if (im->pfd > 0)
		cr_sys_close(im->pfd - 1);
	im->pfd = 0;
	unmap(&mf);
	if (im->zmap)
		cr_sys_munmap(im->zmap, (size_t)im->zlen);
}

void cr_dbgset_close(struct cr_dbgset *s)
{
	for (unsigned i = 0; i < s->n; i++)
		image_close(&s->img[i]);
	s->n = 0;
	s->inflated = 0;
	s->nofile = 0;
}

static uint64_t be64(const uint8_t *b)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

/*
 * A compressed section as memory: [0, size), decoded up to the end of each
 * read before it is served.  The anonymous mapping is the size of the whole
 * section; only the pages decoded into are ever touched.
 */
static int lazy_fill(const struct cr_mem *m, uint64_t addr, size_t len)
{
	struct cr_dbgimage *im = m->priv;
	ptrdiff_t k = m - im->zmem;

	if (addr < m->lo || addr > m->hi || len > m->hi - addr)
		return -CR_EFAULT;
	if (im->ztype[k] == CR_ELFCOMPRESS_ZSTD) {
		struct cr_unzstd_lazy *z = &im->zstd[k];

		if (addr + len > z->n &&
		    (cr_unzstd_lazy_more(&im->set->unzstd, z, (size_t)(addr + len)) < 0 ||
		     addr + len > z->n))
			return -CR_EFAULT;
	} else {
		struct cr_inflate_lazy *z = &im->lazy[k];

		if (addr + len > z->n &&
		    (cr_inflate_lazy_more(&im->set->inf, z, (size_t)(addr + len)) < 0 ||
		     addr + len > z->n))
			return -CR_EFAULT;
	}
	return 0;
}

static int lazy_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	if (lazy_fill(m, addr, len) < 0)
		return -CR_EFAULT;
	memcpy(dst, m->buf + addr, len);
	return 0;
}

static const void *lazy_view(const struct cr_mem *m, uint64_t addr, size_t len)
{
	return lazy_fill(m, addr, len) < 0 ? NULL : m->buf + addr;
}

/*
 * A compressed section's header (ELF's Elf64_Chdr, or GNU's "ZLIB" and a
 * big-endian size): the inflated size, where the stream starts, its type.
 */
static int zheader(const uint8_t *p, const struct cr_dbgsec *d, uint64_t *size, uint64_t *skip,
		   uint8_t *type)
{
	if (d->compressed == 1) {
		struct cr_chdr ch;

		if (cr_chdr_parse(p, (size_t)d->size, &ch) < 0 ||
		    (ch.type != CR_ELFCOMPRESS_ZLIB && ch.type != CR_ELFCOMPRESS_ZSTD))
			return -CR_ENOSYS;
		*size = ch.size;
		*skip = ch.data;
		*type = (uint8_t)ch.type;
	} else {
		if (d->size < 12 || !cr_memeq(p, "ZLIB", 4))
			return -CR_EINVAL;
		*size = be64(p + 4);
		*skip = 12;
		*type = CR_ELFCOMPRESS_ZLIB;
	}
	if (*size == 0 || *size > CR_DBG_INFLATE_MAX || *skip > d->size)
		return -CR_ERANGE;
	return 0;
}

/*
 * A compressed section's place in the image's one mapping, from its header
 * (zroom): where its inflated bytes go, how many, where its stream starts.
 */
struct zplace {
	uint64_t at, size, skip;
};
#define ZALIGN 64u	/* each section's room starts at a multiple of it */
/*
 * A reader's view of a compressed section is at most this long (cr_mem's
 * view_max), as one of its copied windows is (cursor.c): the section is
 * inflated up to the end of every view, and a cursor's view otherwise runs
 * to the end of the next page.  A lookup in libc6-dbg read 8 KiB of each
 * of five small sections for a few hundred bytes (66 KB inflated in all, 31
 * KB now; docs/performance.md, issue 20).
 */
#define CR_DBG_ZVIEW 256u

/* Section k of the image: in place, or inflated on demand into its room (z). */
static int section(struct cr_dbgimage *im, int k, const struct cr_dbgsec *d,
		   const struct zplace *z, struct cr_dwsect *out)
{
	const uint8_t *p = im->map + d->off;
	struct cr_mem *m = &im->zmem[k];
	uint8_t *room;

	out->mem = NULL;
	out->lo = out->hi = 0;
	if (!d->size)
		return 0;
	if (!d->compressed) {
		out->mem = &im->file;
		out->lo = d->off;
		out->hi = d->off + d->size;
		return 0;
	}
	room = (uint8_t *)im->zmap + z->at;
	memset(&im->lazy[k], 0, sizeof(im->lazy[k]));
	memset(&im->zstd[k], 0, sizeof(im->zstd[k]));
	if (im->ztype[k] == CR_ELFCOMPRESS_ZSTD
		    ? cr_unzstd_lazy_init(&im->zstd[k], p + z->skip, (size_t)(d->size - z->skip),
					  room, (size_t)z->size) < 0
		    : cr_inflate_lazy_init(&im->lazy[k], p + z->skip, (size_t)(d->size - z->skip),
					   room, (size_t)z->size) < 0)
		return -CR_EINVAL;
	memset(m, 0, sizeof(*m));
	m->read = lazy_read;
	m->view = lazy_view;
	m->buf = room;
	m->lo = 0;
	m->hi = z->size;
	m->priv = im;
	m->view_max = CR_DBG_ZVIEW;
	out->mem = m;
	out->lo = 0;
	out->hi = z->size;
	return 0;
}

/*
 * The compressed sections' room: each one's header read once (its type
 * into im->ztype, its place into z), then one anonymous mapping for all of
 * them (one mmap and one munmap a module, not one each: libc6-dbg has
 * seven).  Only the pages inflated into are ever touched.
 */
static int zroom(struct cr_dbgset *s, struct cr_dbgimage *im, const struct cr_dbgsec *sec,
		 struct zplace z[CR_DS_N])
{
	uint64_t total = 0;
	long a;

	for (int k = 0; k < CR_DS_N; k++) {
		z[k].at = z[k].size = z[k].skip = 0;
		if (!sec[k].size || !sec[k].compressed)
			continue;
		if (zheader(im->map + sec[k].off, &sec[k], &z[k].size, &z[k].skip, &im->ztype[k]) <
		    0)
			return -CR_EINVAL;
		z[k].at = total;
		total += (z[k].size + ZALIGN - 1) & ~(uint64_t)(ZALIGN - 1);	/* size <= 512 MiB */
	}
	if (!total)
		return 0;
	if (total > CR_DBG_INFLATE_MAX - s->inflated)
		return -CR_ERANGE;
	a = cr_sys_mmap_sparse((size_t)total);
	if (cr_sys_failed(a))
		return -CR_ERANGE;
	im->zmap = (void *)a;
	im->zlen = total;
	s->inflated += total;
	return 0;
}

/*
 * The image's file at file offsets, read with pread (the probe of
 * dwarf/info.h, and the memory of the sections read a few bytes at a time
 * all over: .debug_str, .debug_rnglists, .debug_ranges).  A few bytes read
 * through the mapping would map the 16 pages around them (the kernel's
 * fault-around), a fault that costs ~24 us on a host whose page tables a
 * hypervisor keeps, against ~1.5 us for a pread of them
 * (docs/performance.md, stops 41 and 42).  The file is opened again at the
 * first read, by path, and taken only if it is the one mapped (device,
 * inode, size); where it cannot be, the mapping is read, for the rest of
 * the report.  Each image keeps its file open until the set is closed (at
 * most CR_DBG_IMAGES descriptors: a backtrace's frames go from module to
 * module, and the names are read in their order), unless the process is
 * short of descriptors: when the one the kernel gave is less than
 * CR_DBG_FD_SPARE below RLIMIT_NOFILE's soft limit, opening it closes the
 * other images' first, so that such a process has one more held, never
 * more, and the report's other files still open.
 */
static int probe_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	struct cr_dbgimage *im = m->priv;
	struct cr_dbgset *s = im->set;
	struct statx st;
	long r = -EINTR;
	int fd;

	if (addr > m->hi || len > m->hi - addr)
		return -CR_EFAULT;
	if (im->pfd == 0) {
		im->pfd = -1;	/* until it is the file */
		fd = open_regular(im->path, &st);
		if (fd >= 0 && (st.stx_ino != im->ino || st.stx_dev_major != im->dev_major ||
				st.stx_dev_minor != im->dev_minor || st.stx_size != im->map_len)) {
			cr_sys_close(fd);
		} else if (fd >= 0) {
			if (s->nofile == 0) {
				struct rlimit l;

				s->nofile = cr_sys_prlimit(RLIMIT_NOFILE, &l) == 0 ? l.rlim_cur : 1;
			}
			if ((uint64_t)fd + CR_DBG_FD_SPARE >= s->nofile)
				for (unsigned i = 0; i < s->n; i++)
					if (&s->img[i] != im && s->img[i].pfd > 0) {
						cr_sys_close(s->img[i].pfd - 1);
						s->img[i].pfd = 0;
					}
			im->pfd = fd + 1;
		}
	}
	if (im->pfd < 0)
		return im->file.read(&im->file, addr, dst, len);
	for (int i = 0; i < 4; i++) {	/* EINTR: a bounded retry */
		r = cr_sys_pread(im->pfd - 1, dst, len, addr);
		if (r != -EINTR)
			break;
	}
	return r == (long)len ? 0 : -CR_EFAULT;
}

static int image_open(struct cr_dbgset *s, struct cr_dbgimage *im, const struct cr_module *mod)
{
	struct cr_dbgsec sec[CR_DS_N];
	struct cr_dwsect d[CR_DS_N];
	struct zplace z[CR_DS_N];
	struct mapped mf;
	char link[256];
	uint32_t crc = 0;

	im->path[0] = 0;
	if (own_file(mod, &mf, sec, link, sizeof(link), &crc) == 0) {
		if (sec[CR_DS_INFO].size && sec[CR_DS_LINE].size && sec[CR_DS_ABBREV].size) {
			size_t n = cr_strlen(mod->path);

			memcpy(im->path, mod->path, n + 1);
		} else {
			unmap(&mf);
		}
	}
	if (!im->path[0] &&
	    (find_separate(mod, link, crc, &mf, sec, im->path, sizeof(im->path)) < 0 ||
	     !sec[CR_DS_INFO].size || !sec[CR_DS_LINE].size || !sec[CR_DS_ABBREV].size)) {
		if (im->path[0])
			unmap(&mf);
		im->path[0] = 0;
		return -CR_ENOINFO;
	}
	im->map = mf.p;
	im->map_len = mf.len;
	im->ino = mf.ino;
	im->dev_major = mf.dev_major;
	im->dev_minor = mf.dev_minor;
	im->set = s;
	cr_mem_buffer(&im->file, 0, mf.p, (size_t)mf.len);
	im->file.populate = 1;	/* a mapping of the file: long reads mapped ahead */
	if (zroom(s, im, sec, z) < 0)
		return -CR_ENOINFO;	/* the caller closes what is open */
	for (int k = 0; k < CR_DS_N; k++)
		if (section(im, k, &sec[k], &z[k], &d[k]) < 0)
			return -CR_ENOINFO;
	/* The file by pread: .debug_info's unit headers that a lookup passes
	   by or starts a walk at, a long unit's window (dwarf/info.h), and the
	   sections read in scattered small pieces, each string or range list
	   in a page of its own.  The sections read from start to end, or at
	   every DIE of a walk (.debug_addr, .debug_str_offsets), stay
	   mapped. */
	im->probe.read = probe_read;
	im->probe.priv = im;
	im->probe.lo = 0;
	im->probe.hi = im->map_len;
	if (d[CR_DS_INFO].mem == &im->file)
		im->src.probe = &im->probe;
	if (d[CR_DS_LINE].mem == &im->file)
		im->line.probe = &im->probe;	/* a long line program's window */
	for (int k = 0; k < CR_DS_N; k++)
		if (d[k].mem == &im->file && (k == CR_DS_STR ||
					      k == CR_DS_RNGLISTS || k == CR_DS_RANGES))
			d[k].mem = &im->probe;
	im->src.info = d[CR_DS_INFO];
	im->src.abbrev = d[CR_DS_ABBREV];
	im->src.aranges = d[CR_DS_ARANGES];
	im->src.ranges = d[CR_DS_RANGES];
	im->src.rnglists = d[CR_DS_RNGLISTS];
	im->src.addr = d[CR_DS_ADDR];
	im->src.str = d[CR_DS_STR];
	im->src.str_offsets = d[CR_DS_STR_OFFSETS];
	im->src.line_str = d[CR_DS_LINE_STR];
	im->line.line = d[CR_DS_LINE];
	im->line.line_str = d[CR_DS_LINE_STR];
	im->line.str = d[CR_DS_STR];
	return 0;
}

const struct cr_dbgimage *cr_dbg_image(struct cr_dbgset *s, const struct cr_module *mod)
{
	struct cr_dbgimage *im;

	for (unsigned i = 0; i < s->n; i++)
		if (s->img[i].mod_lo == mod->lo && s->img[i].mod_bias == mod->bias)
			return s->img[i].ok ? &s->img[i] : NULL;
	if (s->n == CR_DBG_IMAGES)
		return NULL;
	im = &s->img[s->n++];
	memset(im, 0, offsetof(struct cr_dbgimage, zmem));	/* the rest: section() */
	im->mod_lo = mod->lo;
	im->mod_bias = mod->bias;
	if (image_open(s, im, mod) == 0) {
		im->ok = 1;
		return im;
	}
	image_close(im);
	im->map = NULL;
	im->zmap = NULL;
	return NULL;
}
