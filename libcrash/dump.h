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

#endif
