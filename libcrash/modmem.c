/* SPDX-License-Identifier: MIT */
/* Module memory proven once, remembered while the module is loaded (docs/design.md). */
#include <link.h>
#include <string.h>

#include "config.h"
#include "mem.h"
#include "modmem.h"
#include "seqlock.h"
#include "str.h"

#define PG 4096ull
#define WORK 16	/* ranges while they are computed */

/* Insert [lo, hi) into r[0..*n) kept sorted by lo; 0 if there is no room (it is dropped). */
static void insert(struct cr_modmem_range *r, unsigned *n, uint64_t lo, uint64_t hi)
{
	unsigned i;

	if (*n == WORK)
		return;	/* dropped: a range not claimed is never wrong */
	for (i = *n; i > 0 && r[i - 1].lo > lo; i--)
		r[i] = r[i - 1];
	r[i].lo = lo;
	r[i].hi = hi;
	(*n)++;
}

/* Remove [lo, hi) from every range (a range split in two needs a slot: else its top goes). */
static void cut(struct cr_modmem_range *r, unsigned *n, uint64_t lo, uint64_t hi)
{
	for (unsigned i = 0; i < *n; i++) {
		if (r[i].hi <= lo || r[i].lo >= hi)
			continue;
		if (r[i].lo < lo && r[i].hi > hi) {
			uint64_t top = r[i].hi;

			r[i].hi = lo;
			insert(r, n, hi, top);
			continue;
		}
		if (r[i].lo < lo) {
			r[i].hi = lo;
		} else if (r[i].hi > hi) {
			r[i].lo = hi;
		} else {
			/* wholly inside: gone */
			memmove(&r[i], &r[i + 1], (*n - i - 1) * sizeof(r[0]));
			(*n)--;
			i--;
		}
	}
}

/* A PT_LOAD's pages [*lo, *hi); 0 if it has no size, -1 if its addresses wrap. */
static int pages(const Elf64_Phdr *ph, uint64_t bias, uint64_t *lo, uint64_t *hi)
{
	uint64_t a = bias + ph->p_vaddr, e = a + ph->p_memsz;

	if (ph->p_memsz == 0)
		return 0;
	if (e < a || e > UINT64_MAX - PG)
		return -1;
	*lo = a & ~(PG - 1);
	*hi = (e + PG - 1) & ~(PG - 1);
	return 1;
}

unsigned cr_modmem_ranges(const Elf64_Phdr *ph, unsigned phnum, uint64_t bias, uint64_t span_lo,
			  uint64_t span_hi, struct cr_modmem_range *out, unsigned cap)
{
	struct cr_modmem_range r[WORK];
	uint64_t lo, hi;
	unsigned i, n = 0, k = 0;
	int x;

	if (cap > CR_MODMEM_RANGES)
		cap = CR_MODMEM_RANGES;
	for (i = 0; i < phnum; i++) {
		if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_R))
			continue;
		if ((x = pages(&ph[i], bias, &lo, &hi)) < 0)
			return 0;	/* headers that make no sense: nothing is claimed */
		if (x == 0)
			continue;
		if (lo < span_lo)
			lo = span_lo;
		if (hi > span_hi)
			hi = span_hi;
		if (lo < hi)
			insert(r, &n, lo, hi);
	}
	/* A page that a segment without PF_R touches is its (mapped after, or before:
	   either way not a page to claim). */
	for (i = 0; i < phnum; i++) {
		if (ph[i].p_type != PT_LOAD || (ph[i].p_flags & PF_R))
			continue;
		if ((x = pages(&ph[i], bias, &lo, &hi)) < 0)
			return 0;
		if (x)
			cut(r, &n, lo, hi);
	}
	/* Merge what overlaps or touches (cut kept the order but for a split's top: sort again). */
	for (i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && r[j - 1].lo > r[j].lo; j--) {
			struct cr_modmem_range t = r[j];

			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		if (k && r[i].lo <= out[k - 1].hi) {
			if (r[i].hi > out[k - 1].hi)
				out[k - 1].hi = r[i].hi;
			continue;
		}
		if (k == cap)
			break;
		out[k++] = r[i];
	}
	return k;
}

#ifdef HAVE__DL_FIND_OBJECT
/*
 * The modules' records: a few slots, each under a sequence lock (seqlock.h),
 * keyed by all that _dl_find_object says of the module (docs/design.md,
 * "Remembered proofs": a module unloaded and another loaded at the same
 * address must not meet the first one's record).  n 0: the module's headers
 * could not be read or made no sense: asked no more, its pages are proven
 * as any others.
 */
#define SLOTS 16
#define WAYS 4
struct key {
	uint64_t start, end, eh, lm, ld, bias;
	uint64_t hdr[2];	/* .eh_frame_hdr's first 12 bytes: .eh_frame and the FDE count */
};
struct rec {
	struct key k;
	uint64_t n;
	struct cr_modmem_range r[CR_MODMEM_RANGES];
};
/*
 * In one page of .bss (2,304 bytes), which a process's first capture writes
 * once and does not read first while slots_used says no slot was ever
 * written: a fresh page read before it is written faults twice (the zero
 * page, then the copy), ~2-3 us each on the test machine (docs/performance.md,
 * issue 20).  slots_used is in .data, whose page the loader has written.
 */
static struct slot {
	uint64_t seq;
	struct rec rec;
} slots[SLOTS] __attribute__((aligned(4096)));
CR_INSTALL_DATA static int slots_used;
CR_INSTALL_DATA static int learn_off;	/* cr_modmem_reset(0); in .data, as slots_used */
/* The home slots of the modules asked about (a bit each): a module is learned
   at a question after its first, whose mark writes no slot.  A bit that
   another module set only makes a module learned one question early. */
CR_INSTALL_DATA static uint64_t seen;
_Static_assert(SLOTS <= 64, "a bit a home slot");

_Static_assert(sizeof(struct rec) % 8 == 0, "copied as 64-bit words");

CR_HOT static unsigned home(uint64_t start)
{
	return (unsigned)((start * 0x9e3779b97f4a7c15ull) >> 60) % SLOTS;
}

CR_HOT static int same_key(const struct key *a, const struct key *b)
{
	return a->start == b->start && a->end == b->end && a->eh == b->eh && a->lm == b->lm &&
	       a->ld == b->ld && a->bias == b->bias && a->hdr[0] == b->hdr[0] &&
	       a->hdr[1] == b->hdr[1];
}

CR_HOT static int get(const struct key *k, struct rec *out)
{
	if (!__atomic_load_n(&slots_used, __ATOMIC_ACQUIRE))
		return -1;	/* nothing stored yet: no slot read */
	for (unsigned i = 0, h = home(k->start); i < WAYS; i++) {
		struct slot *s = &slots[(h + i) % SLOTS];
		uint64_t seq = cr_seq_begin(&s->seq);

		if ((seq & 1) || seq == 0 ||
		    __atomic_load_n(&s->rec.k.start, __ATOMIC_RELAXED) != k->start)
			continue;
		cr_seq_load(out, &s->rec, sizeof(*out));
		if (cr_seq_still(&s->seq, seq) && same_key(&out->k, k))
			return 0;
	}
	return -1;
}

CR_HOT static void put(const struct rec *r)
{
	unsigned h = home(r->k.start), i;
	int used = __atomic_load_n(&slots_used, __ATOMIC_ACQUIRE);
	struct slot *s;
	uint64_t seq = 0;

	/* An empty slot of the four, or one of this start (the module it had is
	   gone: its key is no longer loaded there), else the home slot. */
	for (i = 0; i < WAYS && used; i++) {
		s = &slots[(h + i) % SLOTS];
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == 0 ||
		    __atomic_load_n(&s->rec.k.start, __ATOMIC_RELAXED) == r->k.start)
			break;
	}
	s = &slots[(h + (i < WAYS ? i : 0)) % SLOTS];
	/* No slot written yet: claim the home slot by an exchange from 0, whose
	   first access to the page is a write (one fault, not two). */
	if (used ? !cr_seq_claim(&s->seq, &seq)
		 : !__atomic_compare_exchange_n(&s->seq, &seq, 1, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
		return;	/* another writer (perhaps the code we interrupted): not now */
	if (!used)
		__atomic_thread_fence(__ATOMIC_RELEASE);
	cr_seq_store(&s->rec, r, sizeof(*r));
	cr_seq_release(&s->seq, seq);
	if (!used)
		__atomic_store_n(&slots_used, 1, __ATOMIC_RELEASE);
}

/* 1 if key_of reads the table's head in place: 12 bytes, 4-aligned, inside the span. */
static inline int head_read(const struct key *k)
{
	return k->eh >= k->start && k->eh < k->end && k->eh + 12 <= k->end && !(k->eh & 3);
}

CR_HOT static int key_of(uint64_t addr, struct key *k)
{
	struct dl_find_object fo;
	const struct link_map *lm;

	if (_dl_find_object((void *)(uintptr_t)addr, &fo) != 0 || !(lm = fo.dlfo_link_map))
		return -1;
	k->start = (uintptr_t)fo.dlfo_map_start;
	k->end = (uintptr_t)fo.dlfo_map_end;
	k->eh = (uintptr_t)fo.dlfo_eh_frame;
	k->lm = (uintptr_t)lm;
	/* A span that is the loader's: whole pages around addr (the main
	   program's, mapped by the kernel or qemu-user, may not be: module.c) */
	if ((k->start & (PG - 1)) || addr < k->start || addr >= k->end)
		return -1;
	/* The loader's own record of the module, alive while it is loaded. */
	k->ld = (uintptr_t)lm->l_ld;
	k->bias = lm->l_addr;
	/*
	 * And the table's head: where its .eh_frame is and how many functions
	 * it lists, so that a rebuild of a library loaded at the same place
	 * with the same span meets its own record.  Read in place: the table
	 * _dl_find_object gives is there for unwinders to read in place
	 * (libgcc's _Unwind_Find_FDE does, unchecked), and a valid one has 12
	 * bytes at least.
	 */
	k->hdr[0] = k->hdr[1] = 0;
	if (head_read(k)) {
		uint32_t w[3];

		__builtin_memcpy(w, (const void *)(uintptr_t)k->eh, 12);
		k->hdr[0] = w[0] | (uint64_t)w[1] << 32;
		k->hdr[1] = w[2];
	}
	return 0;
}

#define HDR_PHDRS 24	/* program headers read in one go with the ELF header */

/*
 * The module's record from its headers, read through m: the ELF
 * header at its start (the first PT_LOAD maps the file from offset 0, with
 * the program headers after the header), its PT_LOADs, the first of which
 * must start the span.  Stored even when empty (n 0), then checked: the
 * module still loaded with the same key, else not stored (it changed while
 * we read: the bytes may be another module's).
 */
/* Not inlined: its ~1.5 KiB of headers would sit in every question's frame,
   and a first capture's deepest frames reach a page of the stack the
   process never used (a page fault, ~3 us: docs/performance.md, issue 20). */
static __attribute__((noinline)) void learn(const struct key *k, const struct cr_mem *m,
					     struct rec *out)
{
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph[HDR_PHDRS];
	} h;
	struct key again;
	uint64_t lowest = UINT64_MAX, lo, hi;
	unsigned i;

	memset(out, 0, sizeof(*out));
	out->k = *k;
	if (cr_read(m, k->start, &h, sizeof(h)) < 0 ||
	    !cr_memeq(h.eh.e_ident, ELFMAG, SELFMAG) || h.eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    h.eh.e_phentsize != sizeof(Elf64_Phdr) || h.eh.e_phnum == 0 ||
	    h.eh.e_phnum > HDR_PHDRS || h.eh.e_phoff != sizeof(Elf64_Ehdr))
		goto store;
	for (i = 0; i < h.eh.e_phnum; i++)
		if (h.ph[i].p_type == PT_LOAD && pages(&h.ph[i], k->bias, &lo, &hi) > 0 &&
		    lo < lowest)
			lowest = lo;
	/* The headers are this module's: its first segment is where the span starts. */
	if (lowest != k->start)
		goto store;
	out->n = cr_modmem_ranges(h.ph, h.eh.e_phnum, k->bias, k->start, k->end, out->r,
				  CR_MODMEM_RANGES);
store:
	if (key_of(k->start, &again) == 0 && same_key(&again, k))
		put(out);
}

CR_HOT int cr_modmem_find(uint64_t addr, uint64_t len, uint64_t *lo, uint64_t *hi,
		   const struct cr_mem *hdr)
{
	struct key k;
	struct rec r;

	if (len == 0 || addr + len < addr || __atomic_load_n(&learn_off, __ATOMIC_RELAXED) ||
	    key_of(addr, &k) < 0)
		return 0;
	/* From here on addr is in a module _dl_find_object knows: -1 if not
	   claimed, with [*lo, *hi) the pages of its table's head if key_of
	   read it in place (its read proved them, as a proof would have). */
	*lo = *hi = 0;
	if (head_read(&k)) {
		*lo = k.eh & ~(PG - 1);
		*hi = (k.eh + 12 + PG - 1) & ~(PG - 1);
	}
	/*
	 * Learned at a module's second question, not its first, and never
	 * without hdr (a process's first capture: mem.c): a process that
	 * captures once (a crash, a cold capture) has its pages proven by the
	 * reads it makes anyway, and the headers (a proof), their ranges (~1,200
	 * instructions a module), the slot's page and ELFMAG's would only add to
	 * it (two page faults and a system call, ~8 us on the test machine:
	 * docs/performance.md, issue 20).  The first question's mark is a bit in
	 * .data, whose page is written already.
	 */
	if (get(&k, &r) < 0) {
		uint64_t bit = 1ull << home(k.start);

		if (!(__atomic_load_n(&seen, __ATOMIC_RELAXED) & bit)) {
			__atomic_fetch_or(&seen, bit, __ATOMIC_RELAXED);
			return -1;
		}
		if (!hdr)
			return -1;
		learn(&k, hdr, &r);
	}
	for (unsigned i = 0; i < r.n && i < CR_MODMEM_RANGES; i++)
		if (addr >= r.r[i].lo && addr + len <= r.r[i].hi) {
			*lo = r.r[i].lo;
			*hi = r.r[i].hi;
			return 1;
		}
	*lo = *hi = 0;	/* (learned: its table's head is in its ranges if anywhere) */
	return -1;
}

void cr_modmem_reset(int learn_)
{
	for (unsigned i = 0; i < SLOTS; i++) {
		struct slot *s = &slots[i];
		uint64_t seq;

		if (cr_seq_claim(&s->seq, &seq)) {
			memset(&s->rec, 0, sizeof(s->rec));
			__atomic_store_n(&s->seq, 0, __ATOMIC_RELEASE);
		}
	}
	__atomic_store_n(&seen, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&learn_off, !learn_, __ATOMIC_RELAXED);
}
#else
/* glibc < 2.35: nothing tells whether a module is still loaded without its lock. */
int cr_modmem_find(uint64_t addr, uint64_t len, uint64_t *lo, uint64_t *hi,
		   const struct cr_mem *hdr)
{
	(void)hdr;
	(void)addr;
	(void)len;
	(void)lo;
	(void)hi;
	return 0;
}

void cr_modmem_reset(int learn)
{
	(void)learn;
}
#endif
