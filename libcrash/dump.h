/* SPDX-License-Identifier: MIT */
/*
 * The report's memory sections (issue 18; docs/report-format.md): the bytes
 * near the pc, the sp and every register that points into a mapping, and
 * the memory map with the fault address marked.  AS-safe: every byte is read
 * through cr_mem, the map through read(2) of /proc/self/maps.
 */
#ifndef CR_DUMP_H
#define CR_DUMP_H

#include "report.h"

/* One row's 16 bytes from addr; ok[i] 0 where byte i cannot be read. */
void cr_dump_read_row(const struct cr_mem *m, uint64_t addr, uint8_t *b, uint8_t *ok);

/*
 * The memory blocks, in the report's order: fn gets the register's name,
 * its value v, the block's first address (16 rows of 16 bytes from there)
 * and the module v lies in (NULL: none).
 */
typedef void cr_dump_block_fn(void *arg, const char *name, uint64_t v, uint64_t start,
			      const char *module);
void cr_dump_blocks(const struct cr_crash *c, const struct cr_mem *m, cr_dump_block_fn *fn,
		    void *arg);

/* "memory near pc (MODULE):" and its rows, then sp and the registers. */
void cr_dump_memory(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m);

/* "memory map (N entries):", one line a mapping, "--->" where the fault address falls. */
void cr_dump_maps(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m);

/* One row: 16 bytes from addr, "-- " where unreadable, then their ASCII (tests). */
void cr_dump_row(struct cr_out *o, const struct cr_mem *m, uint64_t addr);

/*
 * One line of /proc/self/maps parsed: "lo-hi perms offset dev inode path".
 * 0, or -1 if it is not such a line.  path points into line (NUL-terminated
 * by the caller's buffer; "" if none).
 */
struct cr_mapline {
	uint64_t lo, hi, offset;
	char perms[5];
	const char *path;
};
int cr_dump_parse_line(char *line, size_t len, struct cr_mapline *l);

/* What the memory map says of one mapping, and where the fault address falls. */
enum { CR_MARK_NONE, CR_MARK_IN, CR_MARK_BEFORE_FIRST, CR_MARK_BETWEEN };
struct cr_mapfacts {
	struct cr_mapline l;
	unsigned index;			/* the mapping's line, from 0 */
	const struct cr_module *mod;	/* a loaded module's mapping: its module; else NULL */
	int has_fault, marked;		/* the fault address, and has it been placed */
	uint64_t fault;
	int mark;			/* CR_MARK_*: the fault address is in this mapping, or
					   before it (and after the one before, if any) */
};
typedef void cr_dump_map_fn(void *arg, const struct cr_mapfacts *f);

/*
 * /proc/self/maps read whole into a static buffer, when it fits and no other
 * report holds the buffer (t->p NULL otherwise: the readers below read the
 * file themselves).  Each load is followed by an unload.
 */
struct cr_maps_text {
	char *p;
	size_t len;
};
void cr_dump_maps_load(struct cr_maps_text *t);
void cr_dump_maps_unload(struct cr_maps_text *t);

/* The lines of [s, s + len) to fn (0: go on), a line cut at 512 bytes; the number of lines. */
int cr_dump_text_lines(const char *s, size_t len, int (*fn)(void *arg, char *line, size_t len),
		       void *arg);

/* The number of mappings (lines of /proc/self/maps; t may be NULL), or -1. */
int cr_dump_map_count(const struct cr_maps_text *t);

/*
 * Each mapping to fn (from t's text, or the file's when t is NULL or not
 * loaded).  Returns 1 when the fault address lies after the last mapping
 * (placed nowhere), else 0.
 */
int cr_dump_maps_each(const struct cr_crash *c, const struct cr_mem *m,
		      const struct cr_maps_text *t, cr_dump_map_fn *fn, void *arg);

#endif
