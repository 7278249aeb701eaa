/* SPDX-License-Identifier: MIT */
/*
 * Which function symbol of a table holds an address: the rule the symbolizer
 * applies (cr_symbest_scan, a linear pass over the table, sym.c's only way
 * before this), and an address-sorted index of the same table built once per
 * module and report (cr_symidx_*) that gives the same answer with a binary
 * search.  The index lives in an anonymous mapping (no malloc in the handler)
 * and is bounded: a table larger than CR_SYMIDX_MAX, a lookup that would walk
 * back over more than CR_SYMIDX_BACK overlapping symbols, a failed mmap: the
 * caller scans the table as before.  Pure but for mmap/munmap; AS-safe.
 */
#ifndef CR_SYMIDX_H
#define CR_SYMIDX_H

#include <elf.h>

#include "common.h"

/*
 * The rule.  Candidates: defined (st_shndx != SHN_UNDEF), st_value != 0,
 * STT_FUNC, STT_GNU_IFUNC or STT_NOTYPE.  The answer for pc: the sized
 * candidate that holds it (start <= pc < start + size) with the latest start;
 * if none, the unsized one (not STT_NOTYPE) with the latest start <= pc.
 * Ties: the first in table order.
 */
struct cr_symbest {
	uint64_t start, size;	/* absolute (bias + st_value) */
	uint64_t name;		/* string table offset */
	int sized;		/* a sized symbol holds pc */
	int found;
};

/* Start with b zeroed; fold n symbols of the table, in table order, into b. */
void cr_symbest_scan(struct cr_symbest *b, const Elf64_Sym *v, uint64_t n, uint64_t bias,
		     uint64_t pc);

/*
 * The same for n pcs at once, sorted ascending (equal ones allowed): b[i]
 * (zeroed by the caller) is what cr_symbest_scan gives for pcs[i].  One
 * pass over the table (a backtrace's frames in one module: no index to
 * build, no memory to fault in).  Time: O(cnt log n) plus the pcs each
 * symbol holds (an unsized symbol: every pc above it).
 */
void cr_symbest_scan_many(struct cr_symbest *b, const uint64_t *pcs, unsigned n,
			  const Elf64_Sym *v, uint64_t cnt, uint64_t bias);

#define CR_SYMIDX_MAX (1u << 20)	/* candidates indexed; more: the linear scan */
#define CR_SYMIDX_BACK 4096		/* entries a lookup walks back over, at most */

struct cr_symidx_ent {
	uint64_t value, size;	/* st_value, st_size */
	uint64_t end;		/* sized: the highest value + size (saturated) of this
				   entry and every entry before it; unsized: unused */
	uint32_t name;		/* st_name */
	uint32_t pad;
};

/* One table's index: its sized candidates, then its unsized ones, each by st_value. */
struct cr_symidx {
	void *map;		/* NULL: none; else the sort's histograms, then room for cap
				   sized entries, cap unsized and cap for the sort */
	uint64_t cap, nsized, nunsized;
	uint64_t sized_at, unsized_at;	/* where each sorted array is: entries from the first */
	int bad;		/* a candidate did not fit: unusable */
};

/*
 * Room for a table of count symbols (mmap).  0 or -CR_ERANGE (too many, no
 * memory).  cr_symidx_add the table in its order, then cr_symidx_done.
 */
int cr_symidx_init(struct cr_symidx *ix, uint64_t count);
void cr_symidx_add(struct cr_symidx *ix, const Elf64_Sym *v, uint64_t n);
/* Sorts (stable: ties keep table order).  0, or -CR_ERANGE (unusable, freed). */
int cr_symidx_done(struct cr_symidx *ix);
void cr_symidx_free(struct cr_symidx *ix);

/*
 * cr_symbest_scan's answer over the whole table, from the index.  1 and *b
 * (found), 0 (none), -CR_ERANGE: the index cannot tell (pc below bias, a walk
 * back past CR_SYMIDX_BACK): scan the table.  Time: O(log n) plus the
 * overlapping symbols walked back over.
 */
int cr_symidx_find(const struct cr_symidx *ix, uint64_t bias, uint64_t pc, struct cr_symbest *b);

#endif
