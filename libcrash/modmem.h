/* SPDX-License-Identifier: MIT */
/*
 * Module memory proven once (docs/design.md, "Remembered proofs"): the pages
 * of a loaded module's PT_LOAD segments with PF_R are readable for as long as
 * the module stays loaded, so a capture that asks _dl_find_object whether a
 * module holding an address is loaded needs no system call to read there.
 * Per module, keyed by what _dl_find_object says of it, the readable ranges
 * are remembered (read from its program headers once).
 */
#ifndef CR_MODMEM_H
#define CR_MODMEM_H

#include <elf.h>

#include "common.h"

/* The most ranges a module keeps (after merging adjacent segments): others are forgotten. */
#define CR_MODMEM_RANGES 4

struct cr_modmem_range {
	uint64_t lo, hi;	/* [lo, hi): whole 4 KiB pages */
};

/*
 * The pages that are readable while the module is loaded, from its program
 * headers ph[0..phnum) and load bias: each PT_LOAD with PF_R and a size,
 * rounded out to 4 KiB pages (the loader and the kernel map whole pages),
 * less every page that a PT_LOAD without PF_R touches (the later mapping
 * wins), inside [span_lo, span_hi) (the loader's span of the module: holes
 * between segments are PROT_NONE or unmapped, and claimed by no segment),
 * merged, in address order, at most cap (<= CR_MODMEM_RANGES) kept.
 * Returns the number of ranges in out.  Pure: reads ph only.
 */
unsigned cr_modmem_ranges(const Elf64_Phdr *ph, unsigned phnum, uint64_t bias, uint64_t span_lo,
			  uint64_t span_hi, struct cr_modmem_range *out, unsigned cap);

/*
 * [addr, addr + len) inside a range that cr_modmem_ranges gives for a module
 * _dl_find_object finds loaded now: 1 with the range in *lo, *hi; -1 if addr
 * is in such a module but not claimed (not learned yet, its headers unread or
 * senseless, a page no PF_R segment holds): its pages are proven, and mem.c
 * proves no more of them than a read needs (file pages: docs/performance.md,
 * issue 20); else 0 (no _dl_find_object, a module it does not know).  With
 * -1, [*lo, *hi) (empty: *lo == *hi) are the pages of the first 12 bytes of
 * the module's .eh_frame_hdr, which the question read in place (the table
 * _dl_find_object gives is there for unwinders to read: docs/design.md,
 * "Remembered proofs"): readable at that moment, as a proof would say.
 * A module is learned at a question after its first: its ELF and program
 * headers read through hdr (a reader that checks every read, and asks no
 * module: cr_mem_fast's proofs, one system call); hdr NULL: not learned now
 * (a process's first capture).  Later questions read nothing.  AS-safe,
 * lock-free.
 */
struct cr_mem;
int cr_modmem_find(uint64_t addr, uint64_t len, uint64_t *lo, uint64_t *hi,
		   const struct cr_mem *hdr);

/* Forget every module (tests); learn: 0 makes cr_modmem_find answer 0 (benchmarks, tests). */
void cr_modmem_reset(int learn);

#endif
