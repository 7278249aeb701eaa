/* SPDX-License-Identifier: MIT */
/*
 * The DWARF of a loaded module, for the report's file:line and inlined
 * frames: found where GDB and the distributions put it, mapped read-only,
 * its sections located and, where compressed, inflated into anonymous
 * mappings.  Which file:
 *   1. the module's own file, if it has .debug_info and .debug_line;
 *   2. ROOT/.build-id/xx/rest.debug under each root of CRASH_DEBUG_PATH
 *      (colon-separated; default /usr/lib/debug);
 *   3. its .gnu_debuglink's NAME: DIR/NAME, DIR/.debug/NAME and ROOT/DIR/NAME
 *      for each root (DIR: the module's directory);
 *   4. the debuginfod client's cache (DEBUGINFOD_CACHE_PATH, else
 *      $XDG_CACHE_HOME/debuginfod_client, else $HOME/.cache/debuginfod_client):
 *      BUILDID/debuginfo, only if it is already there (nothing is downloaded).
 * A candidate is taken only if it is what the module was linked with: its
 * build-id equals the module's (read from memory at the crash); where either
 * has none, a debuglink's CRC-32 of the whole file decides (1: the file must
 * carry the module's build-id when the module has one).
 *
 * AS-safe: open, statx, mmap, munmap, close, no allocation.  Files are opened
 * O_NONBLOCK (a FIFO planted at a debug path must not block the handler) and
 * only regular files are mapped.  A file truncated by someone else after it
 * is mapped makes a read past its new end fault: that is a fault inside the
 * crash handler, which ends in the original signal's default action with
 * what the report had (handler.c), as for any page unmapped under the report.
 */
#ifndef CR_DEBUGINFO_H
#define CR_DEBUGINFO_H

#include "dwarf/info.h"
#include "inflate.h"
#include "unzstd.h"
#include "module.h"

/* The sections a lookup reads, in the order of cr_dbg_names (debuginfo.c). */
enum {
	CR_DS_INFO, CR_DS_ABBREV, CR_DS_ARANGES, CR_DS_RANGES, CR_DS_RNGLISTS, CR_DS_ADDR,
	CR_DS_STR, CR_DS_STR_OFFSETS, CR_DS_LINE_STR, CR_DS_LINE, CR_DS_N
};

#define CR_DBG_IMAGES 8			/* modules with DWARF in one report */
#define CR_DBG_INFLATE_MAX (512u << 20)	/* bytes inflated in one report */
#define CR_DBG_PATH 512			/* a debug file's path */
#define CR_DBG_FD_SPARE 16		/* descriptors below the limit that a report
					   leaves free before it holds more than one */

/* One module's DWARF.  Sections point into the mapping or an inflated copy. */
struct cr_dbgimage {
	uint64_t mod_lo, mod_bias;	/* the module (mod_lo 0: a free slot) */
	int ok;				/* 1: src and line are usable */
	const uint8_t *map;		/* the file, mapped (NULL: none) */
	uint64_t map_len;
	struct cr_mem file;		/* over map, at file offsets */
	uint64_t ino;			/* the file mapped */
	uint32_t dev_major, dev_minor;
	struct cr_mem probe;		/* the file read with pread, at file offsets (src.probe;
					   the scattered sections' memory) */
	int pfd;			/* the probe's descriptor + 1; 0: not open; -1: none (the mapping) */
	uint8_t ztype[CR_DS_N];		/* CR_ELFCOMPRESS_* of a compressed section */
	struct cr_dbgset *set;		/* whose decoder scratch they use */
	void *zmap;			/* the inflated sections, each at a 64-byte boundary */
	uint64_t zlen;
	struct cr_dwinfo_src src;
	struct cr_dwline_src line;
	char path[CR_DBG_PATH];		/* the file that has the DWARF ("": none) */
	/* Last, and set only for a compressed section (the fields above are
	   cleared when the image is opened: 1,016 bytes, not the 9.4 KiB with
	   these, three pages of the report's static memory touched for each
	   module, a few microseconds each). */
	struct cr_mem zmem[CR_DS_N];	/* compressed sections, at offset 0, inflated as far as
					   reads go (cr_inflate_lazy) */
	struct cr_inflate_lazy lazy[CR_DS_N];	/* zlib (zstd[k] unused) */
	struct cr_unzstd_lazy zstd[CR_DS_N];	/* zstd (lazy[k] unused) */
};

/* The images of one report.  cr_dbgset_close unmaps them all. */
struct cr_dbgset {
	struct cr_dbgimage img[CR_DBG_IMAGES];
	unsigned n;
	uint64_t inflated;		/* bytes inflated so far */
	uint64_t nofile;		/* RLIMIT_NOFILE's soft limit, asked at the first
					   probe_read (0: not yet) */
	struct cr_inflate inf;		/* the decoders' scratch */
	struct cr_unzstd unzstd;
};

/* Where to look: pointers into the environment, kept from install time. */
struct cr_dbgcfg {
	const char *roots;		/* CRASH_DEBUG_PATH; NULL: /usr/lib/debug */
	const char *dcache;		/* DEBUGINFOD_CACHE_PATH */
	const char *xdg;		/* XDG_CACHE_HOME */
	const char *home;		/* HOME */
};
extern struct cr_dbgcfg cr_dbgcfg;

void cr_dbgset_init(struct cr_dbgset *s);
void cr_dbgset_close(struct cr_dbgset *s);

/*
 * mod's DWARF, found and mapped at its first use in this set.  NULL: none
 * (no file, a file of another build, no .debug_info/.debug_line, the set is
 * full, a section that cannot be inflated).  AS-safe; see above.
 */
const struct cr_dbgimage *cr_dbg_image(struct cr_dbgset *s, const struct cr_module *mod);

/*
 * The separate debug file of mod (steps 2 to 4 above) into path, without
 * mapping its DWARF: for the symbol table reader.  0 or -CR_ENOINFO (path "").
 */
int cr_dbg_find_file(const struct cr_module *mod, char *path, size_t cap);

/* The pieces, for tests. */
/* CRC-32 (ISO 3309, reflected 0xedb88320, as .gnu_debuglink's) of [p, p + len), continuing crc. */
uint32_t cr_crc32(uint32_t crc, const void *p, size_t len);
/*
 * The sections of the ELF file image [p, p + len) named in cr_dbg_names (and
 * their .zdebug_ forms) into sec (file offsets; size 0: absent), and its
 * .gnu_debuglink (name into link, "" if none; CRC into *crc) and build-id
 * (into id, length into *idlen, 0: none).  0 or -CR_EINVAL (not a 64-bit
 * little-endian ELF file, or section headers out of the file).
 */
struct cr_dbgsec {
	uint64_t off, size;
	uint8_t compressed;		/* 1: SHF_COMPRESSED; 2: .zdebug_ (GNU) */
};
int cr_dbg_elf(const uint8_t *p, uint64_t len, struct cr_dbgsec sec[CR_DS_N], char *link,
	       size_t linkcap, uint32_t *crc, uint8_t *id, unsigned *idlen);

#endif
