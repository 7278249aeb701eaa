/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <string.h>

#include "cache.h"
#include "cfi.h"

/* Page-aligned: 64 slots in the order of the code on one page. */
struct cr_cache_slot cr_cache_slots[CR_CACHE_SLOTS] __attribute__((aligned(4096)));
struct cr_crow cr_cache_rows[CR_CACHE_SLOTS] __attribute__((aligned(4096)));
/*
 * The generation and the CIE memo in .data, not .bss: a capture reads them
 * before it writes them, and a fresh page of .bss read first faults twice
 * (the zero page, then the copy), ~5 us for a first capture here; .data's
 * page is one the loader has already written (its relocations), where the
 * 3.2 KiB fit today (docs/performance.md, issue 20).  If .data outgrows it
 * they cost what they did.
 */
#define CR_WRITTEN_PAGE __attribute__((section(".data")))
uint64_t cr_cache_gen CR_WRITTEN_PAGE;
static int cr_cache_first_done CR_WRITTEN_PAGE;
int cr_cache_enabled = 1;

static struct cr_cache_slot *slot_of(uint64_t pc)
{
	return cr_cache_slot_of(pc);
}

_Static_assert((CR_CACHE_SLOTS & (CR_CACHE_SLOTS - 1)) == 0, "slot_of masks");
_Static_assert(sizeof(struct cr_crow) % 4 == 0 && offsetof(struct cr_crow, off) % 4 == 0,
	       "copied as 32-bit words");
_Static_assert(sizeof(struct cr_cache_slot) == 64, "slot size: one a cache line (CR_CACHE_PAIR_PAGES)");

static struct cr_crow *row_of(const struct cr_cache_slot *s)
{
	return &cr_cache_rows[s - cr_cache_slots];
}

/*
 * Word-wise atomic copies: the row is read while a writer may change it
 * (the generation then rejects it).  The header and the rules in use only.
 */
CR_HOT static void load_row(struct cr_crow *dst, const struct cr_crow *src)
{
	uint32_t *d = (uint32_t *)dst;
	const uint32_t *s = (const uint32_t *)src;
	size_t words = offsetof(struct cr_crow, off) / 4;

#pragma GCC unroll 16	/* the header: 13 words, a constant (seqlock.h's cr_seq_load) */
	for (size_t i = 0; i < words; i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
	for (size_t k = 0; k < dst->n && k < CR_CROW_MAX; k++)
		dst->off[k] = __atomic_load_n(&src->off[k], __ATOMIC_RELAXED);
}

CR_HOT static void store_row(struct cr_crow *dst, const struct cr_crow *src)
{
	uint32_t *d = (uint32_t *)dst;
	const uint32_t *s = (const uint32_t *)src;
	size_t words = offsetof(struct cr_crow, off) / 4;

	/* What load_row reads: the header and the rules in use. */
#pragma GCC unroll 16
	for (size_t i = 0; i < words; i++)
		__atomic_store_n(&d[i], s[i], __ATOMIC_RELAXED);
	for (size_t k = 0; k < src->n && k < CR_CROW_MAX; k++)
		__atomic_store_n(&dst->off[k], src->off[k], __ATOMIC_RELAXED);
}

/* The full row of (pc, mod) if s holds it, read under the generation.  0, or -CR_ENOINFO. */
CR_HOT static int get_slot(const struct cr_cache_slot *s, uint64_t pc, uint64_t mod, struct cr_crow *c)
{
	uint64_t g = cr_cache_begin();

	if ((g & 1) || !pc || __atomic_load_n(&s->pc, __ATOMIC_RELAXED) != pc ||
	    __atomic_load_n(&s->mod, __ATOMIC_RELAXED) != mod ||
	    !__atomic_load_n(&s->full, __ATOMIC_RELAXED))
		return -CR_ENOINFO;
	load_row(c, row_of(s));
	return cr_cache_still(g) ? 0 : -CR_ENOINFO;
}

/*
 * Two slots per pc: its home slot (cr_cache_slot_of, the only one the trace
 * loop reads inline) and the other slot of its pair.  A put goes home and
 * moves what was there to the other slot, so two hot pcs that hash alike do
 * not evict each other: each stays findable, and the one looked up last is
 * at home.
 */
static struct cr_cache_slot *other_of(const struct cr_cache_slot *s)
{
	return &cr_cache_slots[(size_t)(s - cr_cache_slots) ^ CR_CACHE_PAIR];
}

CR_HOT int cr_cache_get(uint64_t pc, uint64_t mod, struct cr_crow *c)
{
	const struct cr_cache_slot *s = slot_of(pc);

	if (!cr_cache_enabled)
		return -CR_ENOINFO;
	return get_slot(s, pc, mod, c) == 0 || get_slot(other_of(s), pc, mod, c) == 0
		       ? 0
		       : -CR_ENOINFO;
}

/* The shape of s: its fields, from c (a row) or another slot's. */
struct shape {
	uint8_t shape, cfa_fp, fp_saved, full;
	int32_t cfa_off, ra_off, fp_off;
};

static struct shape shape_of_row(const struct cr_crow *c, int full)
{
	return (struct shape){ c->shape, c->cfa_fp, c->fp_saved, (uint8_t)full,
			       c->cfa_off, c->ra_off, c->fp_off };
}

static struct shape shape_of_slot(const struct cr_cache_slot *s)
{
	return (struct shape){ s->shape, s->cfa_fp, s->fp_saved, s->full,
			       s->cfa_off, s->ra_off, s->fp_off };
}

/* Write (pc, mod, shape h, the row c if h.full) into s; the caller holds the generation. */
CR_HOT static void put_slot(struct cr_cache_slot *s, uint64_t pc, uint64_t mod,
			    const struct shape *h, const struct cr_crow *c)
{
	__atomic_store_n(&s->pc, pc, __ATOMIC_RELAXED);
	__atomic_store_n(&s->mod, mod, __ATOMIC_RELAXED);
	__atomic_store_n(&s->shape, h->shape, __ATOMIC_RELAXED);
	__atomic_store_n(&s->cfa_fp, h->cfa_fp, __ATOMIC_RELAXED);
	__atomic_store_n(&s->fp_saved, h->fp_saved, __ATOMIC_RELAXED);
	__atomic_store_n(&s->full, h->full, __ATOMIC_RELAXED);
	__atomic_store_n(&s->cfa_off, h->cfa_off, __ATOMIC_RELAXED);
	__atomic_store_n(&s->ra_off, h->ra_off, __ATOMIC_RELAXED);
	__atomic_store_n(&s->fp_off, h->fp_off, __ATOMIC_RELAXED);
	if (h->full && c != row_of(s))
		store_row(row_of(s), c);
}

/* cr_cache_put and cr_cache_put_shape: full, or the shape alone. */
CR_HOT static void put(uint64_t pc, uint64_t mod, const struct cr_crow *c, int full)
{
	struct cr_cache_slot *s = slot_of(pc);
	struct shape h = shape_of_row(c, full), oh;
	uint64_t g, old;

	/* Never a pc in page 0, which is never mapped: the trace loop relies on it. */
	if (!cr_cache_enabled || pc < 4096 || !cr_seq_claim(&cr_cache_gen, &g))
		return;	/* another writer (maybe the code we interrupted) is at work */
	/* The slot's first access a write (an exchange): a first capture reads
	   no slot before it puts (trace.c), and a fresh .bss page written first
	   faults once, read first twice (the zero page, then the copy).  The
	   slot is torn until put_slot ends, as with any write: the generation,
	   odd now, makes readers take it as a miss. */
	old = __atomic_exchange_n(&s->pc, pc, __ATOMIC_RELAXED);
	/* Another pc's row at home goes to the other slot (no other writer now:
	   these plain reads see what the last writer left), unless that slot
	   holds a row at its own home: then it is dropped, rather than evict
	   a row the trace loop finds inline (cache.h: CR_CACHE_PAIR). */
	if (old && (old != pc || s->mod != mod)) {
		struct cr_cache_slot *o = other_of(s);
		uint64_t opc = o->pc;

		if (!opc || cr_cache_slot_of(opc) != o) {
			oh = shape_of_slot(s);
			put_slot(o, old, s->mod, &oh, row_of(s));
		}
	}
	put_slot(s, pc, mod, &h, c);
	cr_seq_release(&cr_cache_gen, g);
}

CR_HOT void cr_cache_put(uint64_t pc, uint64_t mod, const struct cr_crow *c)
{
	put(pc, mod, c, 1);
}

CR_HOT void cr_cache_put_shape(uint64_t pc, uint64_t mod, const struct cr_crow *c)
{
	put(pc, mod, c, c->shape == CR_SHAPE_NONE);
}

CR_HOT void cr_cache_fill(struct cr_cache_slot *s, uint64_t pc, uint64_t mod, const struct cr_crow *c)
{
	struct shape h = shape_of_row(c, 0);

	s->pc = pc;
	s->mod = mod;
	s->shape = h.shape;
	s->cfa_fp = h.cfa_fp;
	s->fp_saved = h.fp_saved;
	s->full = 0;
	s->cfa_off = h.cfa_off;
	s->ra_off = h.ra_off;
	s->fp_off = h.fp_off;
}

CR_HOT int cr_cache_first(void)
{
	return __atomic_exchange_n(&cr_cache_first_done, 1, __ATOMIC_RELAXED) == 0;
}

CR_HOT int cr_cache_promote(uint64_t pc, uint64_t mod)
{
	struct cr_cache_slot *s = slot_of(pc), *o = other_of(s);
	struct shape hs, ho;
	struct cr_crow rs;
	uint64_t g, spc, smod;

	/* A look first, without the generation: the trace loop asks at each of
	   its misses, and most are not in the other slot either. */
	if (!cr_cache_enabled || pc < 4096 || __atomic_load_n(&o->pc, __ATOMIC_RELAXED) != pc ||
	    __atomic_load_n(&o->mod, __ATOMIC_RELAXED) != mod ||
	    !cr_seq_claim(&cr_cache_gen, &g))
		return -CR_ENOINFO;
	/* The writer alone now: plain reads see what the last writer left. */
	if (o->pc != pc || o->mod != mod) {
		/* Nothing written: the generation back as it was, so that no
		   reader takes it for a write (no other writer came meanwhile). */
		__atomic_store_n(&cr_cache_gen, g, __ATOMIC_RELEASE);
		return -CR_ENOINFO;
	}
	spc = s->pc;
	smod = s->mod;
	hs = shape_of_slot(s);
	ho = shape_of_slot(o);
	if (hs.full)
		rs = *row_of(s);
	put_slot(s, pc, mod, &ho, row_of(o));
	if (spc)
		put_slot(o, spc, smod, &hs, hs.full ? &rs : NULL);
	else
		__atomic_store_n(&o->pc, 0, __ATOMIC_RELAXED);	/* one copy of a pc's row */
	cr_seq_release(&cr_cache_gen, g);
	return 0;
}

static struct cie_slot {
	uint64_t seq;		/* odd while being written, 0: never written */
	uint64_t addr, mod;
	struct cr_cie cie;
	struct cr_cie_init init;
} cie_slots[CR_CIE_SLOTS] CR_WRITTEN_PAGE;

_Static_assert(sizeof(struct cr_cie) % 8 == 0 && sizeof(struct cr_cie_init) % 8 == 0 &&
		       offsetof(struct cie_slot, cie) % 8 == 0 &&
		       offsetof(struct cie_slot, init) % 8 == 0,
	       "copied as 64-bit words");

static struct cie_slot *cie_slot_of(uint64_t addr)
{
	return &cie_slots[(uint32_t)((uint32_t)addr * 0x9e3779b1u) >> (32 - 4)];
}
_Static_assert(CR_CIE_SLOTS == 1 << 4, "cie_slot_of uses 4 bits");

/* The slot of (addr, mod) if it holds that CIE, its sequence in *seq; else NULL. */
static inline __attribute__((always_inline)) const struct cie_slot *
memo_find(uint64_t addr, uint64_t mod, uint64_t *seq)
{
	const struct cie_slot *s = cie_slot_of(addr);

	*seq = cr_seq_begin(&s->seq);
	if (!cr_cache_enabled || !mod || (*seq & 1) || *seq == 0 ||
	    __atomic_load_n(&s->addr, __ATOMIC_RELAXED) != addr ||
	    __atomic_load_n(&s->mod, __ATOMIC_RELAXED) != mod)
		return NULL;
	return s;
}

CR_HOT int cr_cie_memo_get(uint64_t addr, uint64_t mod, struct cr_cie *cie, struct cr_cie_init *init)
{
	uint64_t seq;
	const struct cie_slot *s = memo_find(addr, mod, &seq);

	if (!s)
		return -CR_ENOINFO;
	if (cie)
		cr_seq_load(cie, &s->cie, sizeof(*cie));
	if (init)
		cr_seq_load(init, &s->init, sizeof(*init));
	return cr_seq_still(&s->seq, seq) ? 0 : -CR_ENOINFO;
}

CR_HOT int cr_cie_memo_lite(uint64_t addr, uint64_t mod, struct cr_fde_lite *fl, uint8_t enc[3])
{
	uint64_t seq;
	const struct cie_slot *s = memo_find(addr, mod, &seq);

	if (!s)
		return -CR_ENOINFO;
	fl->code_align = __atomic_load_n(&s->cie.code_align, __ATOMIC_RELAXED);
	fl->data_align = __atomic_load_n(&s->cie.data_align, __ATOMIC_RELAXED);
	fl->ra = __atomic_load_n(&s->cie.ra, __ATOMIC_RELAXED);
	fl->signal = __atomic_load_n(&s->cie.signal, __ATOMIC_RELAXED);
	enc[0] = __atomic_load_n(&s->cie.fde_enc, __ATOMIC_RELAXED);
	enc[1] = __atomic_load_n(&s->cie.lsda_enc, __ATOMIC_RELAXED);
	enc[2] = __atomic_load_n(&s->cie.aug_z, __ATOMIC_RELAXED);
	cr_seq_load(&fl->init, &s->init, sizeof(fl->init));
	return cr_seq_still(&s->seq, seq) ? 0 : -CR_ENOINFO;
}

CR_HOT void cr_cie_memo_put(uint64_t addr, uint64_t mod, const struct cr_cie *cie,
		     const struct cr_cie_init *init)
{
	struct cie_slot *s = cie_slot_of(addr);
	uint64_t seq;

	if (!cr_cache_enabled || !mod || !cr_seq_claim(&s->seq, &seq))
		return;
	__atomic_store_n(&s->addr, addr, __ATOMIC_RELAXED);
	__atomic_store_n(&s->mod, mod, __ATOMIC_RELAXED);
	cr_seq_store(&s->cie, cie, sizeof(*cie));
	cr_seq_store(&s->init, init, sizeof(*init));
	cr_seq_release(&s->seq, seq);
}

/*
 * The slots in .bss, and the count of puts in .data: .data's page is full
 * (the slots there pushed cr_cache_gen into a page of its own, which the
 * loader then wrote at every start-up: two page faults more for every
 * process, tests/abi/check-symbols.sh), and a process that never puts reads
 * no slot, so never maps their page.
 */
static struct gap_slot {
	uint64_t seq;		/* odd while being written, 0: never written */
	uint64_t mod, lo, hi;
} gap_slots[CR_GAP_SLOTS];
static unsigned gap_next CR_WRITTEN_PAGE;	/* puts so far: the slot the next takes */

CR_HOT int cr_gap_memo_has(uint64_t mod, uint64_t pc)
{
	if (!cr_cache_enabled || !mod || !__atomic_load_n(&gap_next, __ATOMIC_ACQUIRE))
		return 0;
	for (unsigned i = 0; i < CR_GAP_SLOTS; i++) {
		const struct gap_slot *s = &gap_slots[i];
		uint64_t seq = cr_seq_begin(&s->seq);

		if ((seq & 1) || seq == 0 ||
		    __atomic_load_n(&s->mod, __ATOMIC_RELAXED) != mod ||
		    pc < __atomic_load_n(&s->lo, __ATOMIC_RELAXED) ||
		    pc >= __atomic_load_n(&s->hi, __ATOMIC_RELAXED))
			continue;
		if (cr_seq_still(&s->seq, seq))
			return 1;
	}
	return 0;
}

void cr_gap_memo_put(uint64_t mod, uint64_t lo, uint64_t hi)
{
	struct gap_slot *s;
	uint64_t seq;

	if (!cr_cache_enabled || !mod || lo >= hi || cr_gap_memo_has(mod, lo))
		return;
	s = &gap_slots[__atomic_fetch_add(&gap_next, 1, __ATOMIC_RELAXED) % CR_GAP_SLOTS];
	if (!cr_seq_claim(&s->seq, &seq))
		return;	/* another writer has it: not remembered */
	__atomic_store_n(&s->mod, mod, __ATOMIC_RELAXED);
	__atomic_store_n(&s->lo, lo, __ATOMIC_RELAXED);
	__atomic_store_n(&s->hi, hi, __ATOMIC_RELAXED);
	cr_seq_release(&s->seq, seq);
}

void cr_cache_clear(void)
{
	cr_cache_gen += 2;
	memset(cr_cache_slots, 0, sizeof(cr_cache_slots));
	memset(cr_cache_rows, 0, sizeof(cr_cache_rows));
	memset(cie_slots, 0, sizeof(cie_slots));
	memset(gap_slots, 0, sizeof(gap_slots));
	gap_next = 0;
}
