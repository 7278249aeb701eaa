/* SPDX-License-Identifier: MIT */
/*
 * A fixed-size cache of CFI rows keyed by (lookup pc, module), shared by all
 * threads, with no lock and no allocation: one sequence lock (seqlock.h), the
 * generation cr_cache_gen, guards all slots.  A writer takes it (odd) with a compare and
 * swap or, if another writer has it, does not cache; a reader takes what it
 * read as a miss if the generation was odd or changed meanwhile.  So a signal
 * handler that interrupts a writer in its own thread cannot deadlock or use a
 * torn row.  One generation rather than one per slot: the trace loop checks
 * it once a trace, not twice a frame (writes are rare once the cache is warm;
 * a trace that overlapped one is walked again the full way).  The module key
 * (its start and its .eh_frame_hdr) keeps a row of an unloaded library from
 * serving another mapped at the same address.  A pc has two slots (cache.c):
 * its home slot, where the last put or promotion left it, and the other slot
 * of its pair.
 */
#ifndef CR_CFI_CACHE_H
#define CR_CFI_CACHE_H

#include "../row.h"
#include "../seqlock.h"

#define CR_CACHE_SLOTS 1024	/* power of two */

/* 0 and *c filled on a hit (either slot), -CR_ENOINFO on a miss. */
int cr_cache_get(uint64_t pc, uint64_t mod, struct cr_crow *c);

/*
 * The slots, for the trace loop's inline reader (cache.c owns them): the
 * key and the shape (row.h) the trace loop steps by, 32 bytes, in a 64-byte
 * slot, so that the slots of 1 KiB of code share a page of the cache and a
 * first capture writes few fresh pages (each a page fault, ~2.5 us here:
 * docs/performance.md, issue 20).  One slot a cache line: two a line (32-
 * byte slots) made the warm loop 8-22 ns slower at depths 32-64 of
 * bench/chain on this machine (AMD EPYC), the same code, whatever the
 * cause; 64 bytes are as fast as the 128 of before.  The full compact row, which the full walk
 * applies (step.c), is in cr_cache_rows at the slot's index, only if full:
 * a put of the trace loop writes the shape alone when it can step by it.
 * The trace loop's byte offsets of a STEP row's slots (row.h: ra_w, fp_w) are
 * the low bytes of ra_off and fp_off (ra_off + 256 mod 256), read as bytes:
 * any byte a reader of a slot being rewritten gets is as safe as ra_w's.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CR_CACHE_LOW 3
#else
#define CR_CACHE_LOW 0
#endif
struct cr_cache_slot {
	uint64_t pc, mod;	/* pc 0: never written (no row is kept for page 0) */
	uint8_t shape, cfa_fp, fp_saved;	/* as struct cr_crow's (row.h) */
	uint8_t full;		/* cr_cache_rows[index] holds the row */
	int32_t cfa_off;
	union {
		int32_t ra_off;
		uint8_t ra_b[4];	/* [CR_CACHE_LOW]: the low byte, ra_w */
	};
	union {
		int32_t fp_off;
		uint8_t fp_b[4];
	};
	uint8_t pad[32];	/* one slot a cache line (above) */
};
extern struct cr_cache_slot cr_cache_slots[CR_CACHE_SLOTS];
extern struct cr_crow cr_cache_rows[CR_CACHE_SLOTS];
extern uint64_t cr_cache_gen;	/* odd while a writer writes a slot */
extern int cr_cache_enabled;

/* A reader's start: the generation, odd if a writer is at work (then: a miss). */
static inline uint64_t cr_cache_begin(void)
{
	return cr_seq_begin(&cr_cache_gen);
}

/* A reader's end: 1 if no writer wrote since cr_cache_begin() gave g (even). */
static inline int cr_cache_still(uint64_t g)
{
	return cr_seq_still(&cr_cache_gen, g);
}

/*
 * A pc's home slot: bits 4-13 of the pc, direct-mapped (16 bytes of code a
 * slot, the slots in the order of the code, 16 KiB of code around the cache).
 * The return addresses of one capture lie in few stretches of code (a
 * program's hot functions lie together), so a first capture writes few
 * pages of the cache: each fresh page of .bss costs two page faults (the
 * read that maps the zero page, then the write), ~5 us here, where a hash of
 * the whole pc spread a 32-frame capture's rows over 20 of its 32 pages
 * (docs/performance.md, issue 20).  And no multiply: cheaper than the hash
 * in the trace loop.  Return addresses less than 16 bytes apart, or a
 * multiple of 16 KiB apart (in different modules, at random: as likely as
 * with a hash), share a home slot: the other slot of the pair (cache.c)
 * keeps both.
 */
#define CR_CACHE_PC_SHIFT 4
static inline struct cr_cache_slot *cr_cache_slot_of(uint64_t pc)
{
	return &cr_cache_slots[(pc >> CR_CACHE_PC_SHIFT) & (CR_CACHE_SLOTS - 1)];
}

/*
 * The other slot of a pair: the home slot of the code 8 KiB away (modulo
 * the cache's 16 KiB), on another page (CR_CACHE_PAIR_PAGES pages away).
 * Not the neighbouring slot: two return addresses 16 bytes apart have
 * neighbouring home slots, and with those a pair, a third row aliasing
 * either evicted one of them at every capture (two decodes a capture in
 * half of bench/chain's threads at depth 128: docs/performance.md, stop
 * 33).  Rows 8 KiB apart in one stretch of hot code are rarer.
 */
#define CR_CACHE_PAIR (CR_CACHE_SLOTS / 2)
#define CR_CACHE_PAIR_PAGES (CR_CACHE_PAIR * sizeof(struct cr_cache_slot) / 4096)

/* Into pc's home slot with its full row; the row that was there moves to the
   other slot, unless a row at its own home is there (then it is dropped). */
void cr_cache_put(uint64_t pc, uint64_t mod, const struct cr_crow *c);

/*
 * The same for the trace loop: the shape alone if the trace loop steps by
 * it (STEP, STEP_FAR, END), the full row too if not (NONE: the full walk,
 * which will apply it, follows).  A full walk that finds no full row for a
 * pc decodes it again and puts it with cr_cache_put.
 */
void cr_cache_put_shape(uint64_t pc, uint64_t mod, const struct cr_crow *c);

/* The shape of c for (pc, mod) into s, a slot of the caller's own, not the
   cache's (a first capture's: trace.c, struct cold); never a full row. */
void cr_cache_fill(struct cr_cache_slot *s, uint64_t pc, uint64_t mod, const struct cr_crow *c);

/* 1 for the process's first caller, 0 for every other: the first capture,
   which keeps its rows to itself (trace.c, struct cold). */
int cr_cache_first(void);

/* (pc, mod) from the other slot of its pair to its home slot (their
   contents swapped).  0, or -CR_ENOINFO: not there, or another writer. */
int cr_cache_promote(uint64_t pc, uint64_t mod);

/*
 * The CIE memo: parsed CIEs with the rules of their initial instructions, by
 * (CIE address, module key), for live walks.  Linkers merge identical CIEs, so
 * a module has a few (libc 3, for 3,713 FDEs): a first capture parses and runs
 * each once, not once per FDE.  Each slot has a sequence lock of its own (seqlock.h).  A CIE
 * whose program sets more than CR_CIE_INIT_MAX columns, or leaves a
 * remembered state, is not kept.
 */
#define CR_CIE_SLOTS 16		/* power of two */
#define CR_CIE_INIT_MAX 4
struct cr_cie_init {
	struct cr_rule cfa;
	struct cr_rule rule[CR_CIE_INIT_MAX];
	uint8_t col[CR_CIE_INIT_MAX];
	uint8_t n;
	uint8_t pad[3];
};
struct cr_cie;

/* 0 with *cie and/or *init (either may be NULL) filled, or -CR_ENOINFO. */
int cr_cie_memo_get(uint64_t addr, uint64_t mod, struct cr_cie *cie, struct cr_cie_init *init);
void cr_cie_memo_put(uint64_t addr, uint64_t mod, const struct cr_cie *cie,
		     const struct cr_cie_init *init);

/*
 * The memo's CIE at (addr, mod) as cr_eh_find_lite needs it: its code and
 * data alignment factors, return-address column and 'S' into fl (cfi.h),
 * with the rules of its initial instructions (fl->init); enc: its FDE
 * pointer encoding, LSDA encoding and 'z'.  A few fields rather than the
 * whole CIE (a first capture's decodes: issue 20).  0, or -CR_ENOINFO.
 */
struct cr_fde_lite;
int cr_cie_memo_lite(uint64_t addr, uint64_t mod, struct cr_fde_lite *fl, uint8_t enc[3]);

/*
 * The gap memo: stretches of a module's code that no FDE covers, by module
 * key, for live walks (cfi/step.c).  Under `auto`, a frame in code without
 * unwind tables (hand-written assembly, a -fno-asynchronous-unwind-tables
 * build) cost a failed lookup, the search of .eh_frame_hdr and one FDE's
 * parse (~1,600 instructions), before scan or fp read it; a stretch
 * remembered costs a few compares.  [lo, hi) is where the lookup of
 * cr_eh_find_gap gives "none" for every pc (ehframe.c): a module's tables
 * do not change while it is loaded, and its key changes with another module
 * at its address, as the row cache's does.  Each slot has a sequence lock of
 * its own (seqlock.h); a put replaces the slots in turn.
 */
#define CR_GAP_SLOTS 8
/* 1 if a stretch of module mod without FDEs holds pc, else 0. */
int cr_gap_memo_has(uint64_t mod, uint64_t pc);
void cr_gap_memo_put(uint64_t mod, uint64_t lo, uint64_t hi);

/* Control, for tests and benchmarks (not thread-safe).  cr_cache_enabled:
   1 by default; benchmarks turn it off to measure it. */
void cr_cache_clear(void);

#endif
