/* SPDX-License-Identifier: MIT */
/*
 * Engine cfi, the trace loop of crash_backtrace (cr_cfi_fast_trace): pc, sp
 * and fp from frame to frame by the cached rows' shapes (row.h), without a
 * register file; at any doubt the full walk (cr_unwind with step.c's
 * cr_cfi_step), so its result is always the full walk's.
 */
/*
 * No code hoisting under gcc: a STEP row's ra_w is the low byte of the
 * slot's ra_off (cache.h), the same address as the STEP_FAR path's ra_off,
 * and gcc computes that address ahead of the branch, an instruction more in
 * every frame of the warm loop (2,580 instructions at depth 32 against 2,571
 * without it; docs/performance.md, issue 20).  clang does not.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-code-hoisting")
#endif
#include "cache.h"
#include "cfi.h"
#include "../module.h"
#include "../unwind.h"

/* The row c of (pc, key) into the cache, or into own (struct cold, below). */
static inline __attribute__((always_inline)) void put_row(uint64_t pc, uint64_t key,
							   const struct cr_crow *c,
							   struct cr_cache_slot *own)
{
	if (own)
		cr_cache_fill(own, pc, key, c);
	else
		cr_cache_put_shape(pc, key, c);	/* the full row only if not a shape */
}

/*
 * The row of the FDE around pc in the module of src into the row cache, if
 * it compacts, built compact (no full row, cfa.c): what step.c's decode
 * gives the cache; with own, into that slot of a first capture's own rows
 * instead.  h: the module's .eh_frame_hdr, parsed at its first decode in
 * this trace (*h_ok), NULL: parsed for this lookup alone.  fl: the module's
 * last lite FDE in this trace, whose CIE the next one most often shares
 * (cr_eh_find_lite_carry), NULL: none.  0, or the lookup's or
 * interpreter's error.
 */
static inline __attribute__((always_inline)) int decode(struct cr_walk *w,
							  const struct cr_ehsrc *src, uint64_t pc,
							  uint64_t key, struct cr_ehhdr *h,
							  uint8_t *h_ok, struct cr_fde_lite *fl,
							  struct cr_cache_slot *own)
{
	struct cr_fde fde;
	struct cr_fde_lite flown;
	struct cr_ehhdr hown;
	struct cr_crow crow;
	int ret;

	if (!fl) {
		fl = &flown;
		fl->cie_at = 0;
	}
	if (!h) {
		h = &hown;
		cr_eh_hdr(w->mem, src, h);
	} else if (!*h_ok) {
		cr_eh_hdr(w->mem, src, h);
		*h_ok = 1;
	}
	/* The common FDE straight to its shape; any other, or any doubt, the
	   full decoding (cfi.h: cr_eh_find_lite, cr_cfa_shape). */
	if (cr_eh_find_lite_carry(w->mem, src, h, pc, fl) == 0 &&
	    cr_cfa_shape(fl, pc, w->arch, &crow) == 0) {
		put_row(pc, key, &crow, own);
		return 0;
	}
	ret = cr_eh_find_in(w->mem, src, h, pc, &fde);
	if (ret < 0)
		return ret == -CR_EFAULT ? ret : -CR_ENOINFO;
	ret = cr_cfa_run_compact(w->mem, w->arch, &fde, pc, &crow);
	if (ret == 0)
		put_row(pc, key, &crow, own);
	return ret;
}

/* decode out of line, for the warm trace's misses (a first capture's
   inline it: cold_miss). */
CR_HOT static __attribute__((noinline)) int decode_warm(struct cr_walk *w,
							 const struct cr_ehsrc *src, uint64_t pc,
							 uint64_t key)
{
	return decode(w, src, pc, key, NULL, NULL, NULL, NULL);
}

/* The module of pc for the trace loop, if it has .eh_frame_hdr; else NULL. */
CR_HOT static const struct cr_module *trace_module(struct cr_walk *w, uint64_t pc)
{
	const struct cr_module *mod;

	/* Page 0 is never mapped: a pc there (or 0 - 1) ends the fast walk. */
	if (pc < 4095 || cr_walk_module(w, pc, &mod) < 0 || !mod->eh_hdr || mod->lo < 4096)
		return NULL;
	return mod;
}

/*
 * The state of the trace loop.  lookup: the pc to look up (the return
 * address - 1); key: the cache key of the module of the last lookup.  The
 * cache's generation its rows are read under is w->cache_gen (cache.h): kept
 * apart, so that the loop's state stays in registers.
 */
struct trace {
	uint64_t pc, lookup, sp, fp, key;
};

/*
 * A first capture (the cache's generation 0: no slot was ever written) reads
 * no slot of a page of the cache it has not written itself: such a page is
 * fresh .bss, which a read maps to the zero page and the write after it
 * copies, two page faults (~5 us here) where a put's write alone costs one
 * (docs/performance.md, issue 20).  cold->pages: bit n, page n of the cache
 * (64 slots) written by this trace's puts; the other pages' slots are taken
 * as misses, which every slot of a cache never written is.
 */
#define CR_CACHE_PAGE_SLOTS (4096 / sizeof(struct cr_cache_slot))	/* 64 */
_Static_assert(CR_CACHE_SLOTS / CR_CACHE_PAGE_SLOTS <= 32, "one bit a page in a uint32_t");
/*
 * The last two modules w->module_quick gave a first capture (struct cold's
 * mods[0 .. n - 1]; next: the one to replace when both are in use): a pc
 * in [lo, hi) is in that module, the loader's answer for any pc of its
 * span, so a first capture asks _dl_find_object once per module, not once
 * per frame; with its
 * .eh_frame_hdr once parsed (h, if h_ok), whose table view is one of this
 * trace's (docs/performance.md, issue 20).  Kept for one trace only.
 */
struct mod_memo {
	uint64_t lo, hi, key;
	struct cr_ehsrc src;	/* cr_cfi_src's */
	struct cr_ehhdr h;
	uint8_t h_ok;
	struct cr_fde_lite fl;	/* the last FDE's, with its CIE kept (cr_eh_find_lite_carry) */
};
/*
 * A process's first capture (the first to take cold_trace: cr_cache_first)
 * writes no row to the cache.  It keeps its rows in rows[] (own), the last
 * CR_COLD_ROWS it decoded, which the trace loop reads as it reads the
 * cache's slots: a first capture is most often the only one (a crash
 * handler's, an assertion's), and each fresh page of the cache it would
 * write is a page fault, 4 of them for bench/chain's 32 frames, ~9 us each
 * on a host whose page faults are slow (docs/performance.md, issue 20).
 * From the second capture on, the rows go to the cache.  The first capture
 * goes to the cache too (own = 0) where keeping to itself would decode a row
 * twice: at a pc it already passed (a recursion whose cycle rows[] does not
 * hold), or past CR_COLD_OWN_FRAMES frames (which bounds the search for a
 * repeat: frames[0 .. *at)).
 */
#define CR_COLD_ROWS 4
#define CR_COLD_OWN_FRAMES 128
struct cold {
	uint32_t pages;
	uint8_t own;
	unsigned next_row;
	struct cr_cache_slot rows[CR_COLD_ROWS];
	void *const *frames, *const *at;	/* the trace's frames so far, the current one at *at */
	uint64_t seen[4];	/* cold_repeat's */
	struct mod_memo mods[2];
	unsigned n, next;
};


static inline unsigned cold_page(uint64_t pc)
{
	return (unsigned)(cr_cache_slot_of(pc) - cr_cache_slots) / (unsigned)CR_CACHE_PAGE_SLOTS;
}

/*
 * 1 if a first capture that keeps its rows should stop: the current frame's
 * pc is one it passed, or it is CR_COLD_OWN_FRAMES frames deep.  The frames
 * so far are searched only where the pc's bit in cold->seen (a hash of
 * each pc it decoded, 256 bits: every frame's pc was decoded or found in
 * its rows, so decoded before) is set: a pc whose bit is clear is new.
 * (With 128 bits, the searches cost bench/chain's first capture 600 more
 * instructions at depth 32 and 11,000 more at depth 128.)
 */
static inline int cold_repeat(struct cold *cold)
{
	uint64_t pc = (uint64_t)(uintptr_t)*cold->at, h = (pc * 0x9e3779b97f4a7c15ull) >> 56;
	uint64_t bit = 1ull << (h & 63);

	if (cold->at - cold->frames >= CR_COLD_OWN_FRAMES)
		return 1;
	if (!(cold->seen[h >> 6] & bit)) {
		cold->seen[h >> 6] |= bit;
		return 0;
	}
	for (void *const *p = cold->frames; p < cold->at; p++)
		if (*p == *cold->at)
			return 1;
	return 0;
}

/* The row of (pc, key) in a first capture's own rows, or NULL.  The last
   one decoded first: the trace loop's look right after a decode finds it
   there. */
static inline const struct cr_cache_slot *own_row(const struct cold *cold, uint64_t pc, uint64_t key)
{
	_Static_assert((CR_COLD_ROWS & (CR_COLD_ROWS - 1)) == 0, "a mask");
#pragma GCC unroll 4
	for (unsigned k = 1; k <= CR_COLD_ROWS; k++) {
		const struct cr_cache_slot *r = &cold->rows[(cold->next_row - k) & (CR_COLD_ROWS - 1)];

		if (r->pc == pc && pc && r->mod == key)
			return r;
	}
	return NULL;
}

/* 1 if the slots of pc may be read: a warm trace, or a page this one wrote. */
static inline int cold_readable(const struct cold *cold, uint64_t pc)
{
	return !cold || (cold->pages >> cold_page(pc) & 1);
}

/* The same for the other slot of pc's pair (cache.h: 8 KiB of code away,
   another page), which cr_cache_promote reads. */
static inline int cold_pair_readable(const struct cold *cold, uint64_t pc)
{
	return !cold || (cold->pages >> (cold_page(pc) ^ CR_CACHE_PAIR_PAGES) & 1);
}

/*
 * The home slot of (pc, key) if it holds that row, else NULL.  No sequence
 * check: the trace checks the generation once, at its end (and in miss()),
 * and uses a row it has not checked yet only in ways that are safe whatever
 * its fields hold (trace_step).
 */
static inline __attribute__((always_inline)) const struct cr_cache_slot *slot_for(uint64_t pc,
										  uint64_t key)
{
	const struct cr_cache_slot *s = cr_cache_slot_of(pc);

	if (__builtin_expect(__atomic_load_n(&s->pc, __ATOMIC_RELAXED) != pc ||
				     __atomic_load_n(&s->mod, __ATOMIC_RELAXED) != key,
			     0))
		return NULL;
	return s;
}

/* The row of (pc, key) for the trace loop: a first capture's own, or the
   home slot's where the trace may read it (cold_readable). */
static inline __attribute__((always_inline)) const struct cr_cache_slot *
trace_slot(const struct cold *cold, uint64_t pc, uint64_t key)
{
	if (cold && cold->own)
		return own_row(cold, pc, key);
	return cold_readable(cold, pc) ? slot_for(pc, key) : NULL;
}

/*
 * A miss of the trace loop at lookup (old: the key of the last lookup): the
 * key of lookup's module, with its row brought to its home slot (from the
 * other slot of its pair: cache.h) or decoded into it.  The caller looks
 * again; the row may still not be there, if it does not compact or another
 * thread wrote the slot meanwhile, and then the second look fails.  0 (no key
 * is 0: .eh_frame_hdr lies inside its module, above its start): no module
 * with tables, or no row, or a writer wrote since w->cache_gen (the rows used
 * so far may be torn): the full walk decides.  Before it writes, the rows read
 * so far are checked against w->cache_gen; after, w->cache_gen is the
 * generation its own write left.
 * On a hit no module is looked up: a row cached under the current module's
 * key was found for a pc inside that module (the key, its start and
 * .eh_frame_hdr, is what identifies a module to the cache).  Into another
 * module, w->module_quick gives what the loop needs of it where it can (the
 * live walk: _dl_find_object alone, no program header read, no copy of a
 * whole module), so neither a warm nor a first capture parses a module at
 * each crossing.  So a first capture decodes as it goes (into its own
 * rows, or the cache: struct cold) and stays in the loop, rather than
 * walking everything again.
 */
static inline __attribute__((always_inline)) uint64_t miss_in(struct cr_walk *w, uint64_t lookup,
								 uint64_t old, struct cold *cold)
{
	struct cr_module q;
	const struct cr_module *mod = &q;
	struct cr_ehsrc src;
	struct mod_memo *e = NULL;
	uint64_t key;
	unsigned i;
	int readable;

	if (cold)
		for (i = 0; i < cold->n && !e; i++)
			if (lookup >= cold->mods[i].lo && lookup < cold->mods[i].hi)
				e = &cold->mods[i];
	if (e) {
		key = e->key;
	} else if (w->module_quick && lookup >= 4095 && w->module_quick(w, lookup, &q) == 0) {
		/* module_quick answers only for a module with .eh_frame_hdr
		   (module.h); page 0 never holds one (what trace_module says). */
		if (q.lo < 4096)
			return 0;
		key = cr_module_key(&q);
		if (cold) {
			i = cold->n < 2 ? cold->n++ : cold->next;	/* the older of the two */
			cold->next = i ^ 1;
			e = &cold->mods[i];
			e->lo = q.lo;
			e->hi = q.hi;
			e->key = key;
			e->h_ok = 0;
			e->fl.cie_at = 0;
			cr_cfi_src(&q, w->cache, &e->src);
		}
	} else {
		if (!(mod = trace_module(w, lookup)))
			return 0;
		key = cr_module_key(mod);
	}
	if (cold && cold->own) {
		if (key != old && own_row(cold, lookup, key))
			return key;
		if (!cold_repeat(cold)) {
			struct cr_cache_slot *o = &cold->rows[cold->next_row++ & (CR_COLD_ROWS - 1)];

			o->pc = 0;	/* (if the decode fails) */
			if (!e)
				cr_cfi_src(mod, w->cache, &src);
			return decode(w, e ? &e->src : &src, lookup, key, e ? &e->h : NULL,
				      e ? &e->h_ok : NULL, e ? &e->fl : NULL, o) < 0
				       ? 0
				       : key;
		}
		cold->own = 0;	/* the cache from here on */
	}
	readable = cold_readable(cold, lookup);
	if (readable && key != old && slot_for(lookup, key))
		return key;
	if (!cr_cache_still(w->cache_gen))
		return 0;
	/* From the other slot to home, or decoded. */
	if (!(readable && cold_pair_readable(cold, lookup) && cr_cache_promote(lookup, key) == 0)) {
		if (!e)
			cr_cfi_src(mod, w->cache, &src);
		if (!cold ? decode_warm(w, &src, lookup, key) < 0
			  : decode(w, e ? &e->src : &src, lookup, key, e ? &e->h : NULL,
				   e ? &e->h_ok : NULL, e ? &e->fl : NULL, NULL) < 0)
			return 0;
	}
	if (cold)
		cold->pages |= 1u << cold_page(lookup);	/* (unless another writer was at work) */
	w->cache_gen = cr_cache_begin();
	return w->cache_gen & 1 ? 0 : key;
}

/* miss_in for a warm trace and for a first one, apart: in the warm one no
   test of cold remains (the memo of modules is the first capture's). */
CR_HOT static __attribute__((noinline)) uint64_t miss(struct cr_walk *w, uint64_t lookup, uint64_t old)
{
	return miss_in(w, lookup, old, NULL);
}

CR_HOT static __attribute__((noinline)) uint64_t cold_miss(struct cr_walk *w, uint64_t lookup,
							    uint64_t old, struct cold *cold)
{
	return miss_in(w, lookup, old, cold);
}

/*
 * One frame from the row cached for t->lookup.  The row may be torn (it is
 * checked with the trace), so every field is read once and any value is
 * safe: the CFA is checked against the proven window after it is computed,
 * a STEP row's slots are bytes below it that cannot leave the window
 * (row.h: ra_w, fp_w, which are the low bytes of ra_off and fp_off: cache.h),
 * other shapes read through the checked reader.
 */
static inline __attribute__((always_inline)) int
trace_step(struct cr_walk *w, struct cr_mem_fast *f, struct trace *t, uint64_t (*strip)(uint64_t),
	   struct cold *cold)
{
	const struct cr_cache_slot *s = trace_slot(cold, t->lookup, t->key);
	uint64_t cfa, ra, fp = t->fp, x, v;
	uint32_t word;
	struct {
		uint8_t shape, cfa_fp, fp_saved, full;
	} fl;	/* the slot's shape, cfa_fp, fp_saved and full, read as one word */

	if (__builtin_expect(!s, 0) &&
	    (!(t->key = (cold ? cold_miss(w, t->lookup, t->key, cold)
					 : miss(w, t->lookup, t->key))) ||
	     !(s = trace_slot(cold, t->lookup, t->key))))
		return -CR_ENOINFO;
	word = __atomic_load_n((const uint32_t *)(const void *)&s->shape, __ATOMIC_RELAXED);
	__builtin_memcpy(&fl, &word, sizeof(fl));
	cfa = (fl.cfa_fp ? t->fp : t->sp) +
	      (uint64_t)(int64_t)__atomic_load_n(&s->cfa_off, __ATOMIC_RELAXED);
	x = cfa - f->wlo;
	if (__builtin_expect(fl.shape == CR_SHAPE_STEP && x < f->wspan, 1)) {
		/* [cfa - CR_FAST_WINDOW, cfa + 8) is proven: any byte below is in it. */
		const uint8_t *base = (const uint8_t *)(uintptr_t)(cfa - CR_SHAPE_WINDOW);

		__builtin_memcpy(&ra,
				 base + __atomic_load_n(&s->ra_b[CR_CACHE_LOW], __ATOMIC_RELAXED), 8);
		if (fl.fp_saved)
			__builtin_memcpy(&fp,
					 base + __atomic_load_n(&s->fp_b[CR_CACHE_LOW], __ATOMIC_RELAXED),
					 8);
	} else if (fl.shape == CR_SHAPE_STEP || fl.shape == CR_SHAPE_STEP_FAR) {
		x = (uint64_t)(int64_t)__atomic_load_n(&s->ra_off, __ATOMIC_RELAXED);
		if (cr_mem_fast_read64(f, cfa + x, &v) < 0)
			return -CR_ENOINFO;
		ra = v;
		if (fl.fp_saved) {
			x = (uint64_t)(int64_t)__atomic_load_n(&s->fp_off, __ATOMIC_RELAXED);
			if (cr_mem_fast_read64(f, cfa + x, &v) < 0)
				return -CR_ENOINFO;
			fp = v;
		}
	} else {
		return fl.shape == CR_SHAPE_END ? CR_END : -CR_ENOINFO;
	}
	/* cr_unwind's checks (no row is cached for a pc in page 0: cache.c);
	   any doubt goes to the full walk. */
	if (__builtin_expect(cfa <= t->sp, 0))
		return -CR_ENOINFO;
	t->pc = strip ? strip(ra) : ra;
	t->lookup = t->pc - 1;
	t->sp = cfa;
	t->fp = fp;
	return 0;
}

/* n frames, if no writer wrote the cache during the trace; else the full walk. */
static inline int trace_end(const struct cr_walk *w, int n)
{
	return cr_cache_still(w->cache_gen) ? n : -CR_ENOINFO;
}

/* The frames into out: as cr_cfi_fast_trace. */
static inline __attribute__((always_inline)) int
trace_loop(struct cr_walk *w, struct cr_mem_fast *f, struct trace t, unsigned max, void **out,
	   uint64_t (*strip)(uint64_t), struct cold *cold)
{
	int ret;

	/* out[0 .. max - 1], indexed from its end: i runs from -max to 0. */
	out += max;
	for (long i = -(long)max;;) {
		out[i] = (void *)(uintptr_t)t.pc;
		if (cold)
			cold->at = &out[i];
		if (++i == 0)
			break;
		if ((ret = trace_step(w, f, &t, strip, cold)) != 0)
			return ret == CR_END ? trace_end(w, (int)(max + (unsigned long)i)) : ret;
	}
	/* The last frame was not looked up: its pc has the checks still to pass. */
	return t.pc < 4096 ? -CR_ENOINFO : trace_end(w, (int)max);
}

/* The trace of a first capture (struct cold), out of the warm loop's way. */
CR_HOT static __attribute__((noinline)) int cold_trace(struct cr_walk *w, struct cr_mem_fast *f,
					      struct trace t, unsigned max, void **out)
{
	struct cold cold;

	cold.pages = 0;
	cold.n = 0;
	cold.next = 0;
	cold.own = (uint8_t)cr_cache_first();
	cold.next_row = 0;
	for (unsigned k = 0; k < CR_COLD_ROWS; k++)
		cold.rows[k].pc = 0;
	cold.frames = out;
	cold.at = out;
	cold.seen[0] = cold.seen[1] = cold.seen[2] = cold.seen[3] = 0;

	/* A process's first capture: modules marked, not learned, since what
	   it would cost this capture is more than its own proofs of their
	   tables (modmem.h); no pages proven ahead (mem.c).  A cold trace
	   after it (the second, which fills the cache) learns them, as a warm
	   one does. */
	f->cold = cold.own;
	return trace_loop(w, f, t, max, out, w->arch->strip_ra, &cold);
}

CR_HOT int cr_cfi_fast_trace(struct cr_walk *w, struct cr_mem_fast *f, const struct cr_regs *start,
		      unsigned max, void **out)
{
	const struct cr_arch *a = w->arch;
	struct trace t = { .key = 0 };

	if (!w->cache || !cr_cache_enabled || !cr_reg_valid(start, a->sp) ||
	    !cr_reg_valid(start, a->fp) || start->pc < 4096 || max == 0)
		return -CR_ENOINFO;
	w->cache_gen = cr_cache_begin();
	if (w->cache_gen & 1)
		return -CR_ENOINFO;	/* a writer is at work, maybe the code we interrupted */
	t.pc = start->pc;
	t.lookup = w->exact ? t.pc : t.pc - 1;
	t.sp = start->r[a->sp];
	t.fp = start->r[a->fp];
	if (__builtin_expect(w->cache_gen == 0, 0))
		return cold_trace(w, f, t, max, out);
	if (!a->strip_ra)
		return trace_loop(w, f, t, max, out, NULL, NULL);
	return trace_loop(w, f, t, max, out, a->strip_ra, NULL);
}
