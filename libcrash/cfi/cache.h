/* SPDX-License-Identifier: MIT */
/*
 * A fixed-size cache of CFI rows keyed by (lookup pc, module), shared by all
 * threads, with no lock and no allocation: each slot is a sequence lock.  A
 * reader that sees a slot being written, or written meanwhile, takes it as a
 * miss; a writer that finds the slot busy does not cache.  So a signal handler
 * that interrupts a writer in its own thread cannot deadlock or read a torn
 * row.  The module key (its start and its .eh_frame_hdr) keeps a row of an
 * unloaded library from serving another mapped at the same address.
 */
#ifndef CR_CFI_CACHE_H
#define CR_CFI_CACHE_H

#include "../row.h"

#define CR_CACHE_SLOTS 1024	/* power of two */

/* 0 and *c filled on a hit, -CR_ENOINFO on a miss. */
int cr_cache_get(uint64_t pc, uint64_t mod, struct cr_crow *c);

/* The same, filling only the shape fields (the first CR_CROW_SHAPE bytes). */
#define CR_CROW_SHAPE 24
int cr_cache_get_shape(uint64_t pc, uint64_t mod, struct cr_crow *c);
void cr_cache_put(uint64_t pc, uint64_t mod, const struct cr_crow *c);

/* Control, for tests and benchmarks (not thread-safe). */
void cr_cache_clear(void);
extern int cr_cache_enabled;	/* 1 by default; benchmarks turn it off to measure it */

#endif
