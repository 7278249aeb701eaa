/* SPDX-License-Identifier: MIT */
/* /proc/self/maps, read with open/read only (AS-safe), into fixed storage. */
#ifndef CR_MAPS_H
#define CR_MAPS_H

#include "common.h"

#define CR_MAP_R 1
#define CR_MAP_W 2
#define CR_MAP_X 4
#define CR_MAP_STACK 8	/* the main thread's [stack] */
#define CR_MAP_FILE 16	/* a file's pages (inode not 0) */

struct cr_map {
	uint64_t lo, hi;
	uint32_t flags;	/* CR_MAP_* */
};

/*
 * PROCMAP_QUERY (Linux 6.11 include/uapi/linux/fs.h): _IOWR('f', 17, struct
 * procmap_query), 104 bytes, on a descriptor of /proc/self/maps.  Declared
 * here: Debian 12's headers predate it.  (maps.c; mem.c for the [stack].)
 */
struct cr_procmap_query {
	uint64_t size, query_flags, query_addr;
	uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
_Static_assert(sizeof(struct cr_procmap_query) == 104, "the kernel's layout");
#define CR_PROCMAP_QUERY 0xc0686611ul	/* _IOWR('f', 17, 104 bytes) */

#define CR_MAPS_MAX 4096

struct cr_maps {
	unsigned n;
	int truncated;	/* more mappings than CR_MAPS_MAX */
	int query;	/* query mode (cr_maps_open): m[] holds the mappings asked
			   about so far, the kernel (fd qfd) is asked about others */
	int qfd;
	struct cr_map last;	/* query mode, m[] full: the last answer */
	struct cr_map m[CR_MAPS_MAX];
};

/* Read /proc/self/maps into t.  Returns the count or -errno.  AS-safe, bounded. */
int cr_maps_load(struct cr_maps *t);

/*
 * The maps for lookups, the cheapest way the kernel offers: with
 * PROCMAP_QUERY (Linux 6.11+) an ioctl per mapping asked about, without the
 * kernel formatting every line of /proc/self/maps (~25-50 us a crash on a
 * small process); else cr_maps_load.  The answers are the same (t-maps
 * compares them).  > 0 (1 in query mode), or -errno.  cr_maps_close() after.
 * AS-safe, bounded.
 */
int cr_maps_open(struct cr_maps *t);
void cr_maps_close(struct cr_maps *t);

/* Parse maps text (tests).  Returns the count. */
int cr_maps_parse(struct cr_maps *t, const char *text, size_t len);

/* The same, fed chunk bytes at a time as cr_maps_load reads it (lines cut between reads). */
int cr_maps_parse_chunks(struct cr_maps *t, const char *text, size_t len, size_t chunk);

/* The mapping that contains addr, or NULL (binary search: the kernel lists them sorted). */
const struct cr_map *cr_maps_find(struct cr_maps *t, uint64_t addr);

/*
 * Bounds of the stack that holds sp: its mapping, or, when sp sits in the guard
 * gap below one (stack overflow), the first mapping above within 1 MiB.
 * 0 or -CR_ENOINFO.
 */
int cr_maps_stack(struct cr_maps *t, uint64_t sp, uint64_t *lo, uint64_t *hi);

/*
 * A stack overflow: fault lies in a guard page or the guard gap just below a
 * writable mapping (within 1 MiB, cr_maps_stack's rule), and the faulting
 * thread's sp is that close to it, on that stack or below it.  1 or 0; no
 * guess when the maps do not say (0).
 */
int cr_maps_overflow(struct cr_maps *t, uint64_t fault, uint64_t sp);

#endif
