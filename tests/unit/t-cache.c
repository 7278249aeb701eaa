/* SPDX-License-Identifier: MIT */
/* cfi/cache.c: the two slots of a pc, the key, page 0, the switch, the
   shapes the trace loop puts apart from the full rows. */
#include <pthread.h>
#include <string.h>

#include "../tap.h"
#include "cfi/cache.h"
#include "cfi/cfi.h"

/* The gap memo: stretches kept by module, in turn, none where the put was empty. */
static void t_gap(void)
{
	const uint64_t mod = 0x7f0000001000ull;

	cr_cache_clear();
	tap_ok(!cr_gap_memo_has(mod, 0x1000), "gap: empty: none");
	cr_gap_memo_put(mod, 0x1000, 0x2000);
	tap_ok(cr_gap_memo_has(mod, 0x1000) && cr_gap_memo_has(mod, 0x1fff) &&
		       !cr_gap_memo_has(mod, 0x2000) && !cr_gap_memo_has(mod, 0xfff),
	       "gap: [0x1000, 0x2000) holds its ends, not the pcs around it");
	tap_ok(!cr_gap_memo_has(mod + 0x1000, 0x1800), "gap: another module's key: none");
	cr_gap_memo_put(mod, 0x3000, 0x3000);
	cr_gap_memo_put(0, 0x4000, 0x5000);
	tap_ok(!cr_gap_memo_has(mod, 0x3000) && !cr_gap_memo_has(0, 0x4800),
	       "gap: an empty stretch, and key 0 (not live memory), are not kept");
	/* A stretch already held takes no slot: 7 more fit beside the first. */
	cr_gap_memo_put(mod, 0x1800, 0x1900);
	for (uint64_t k = 1; k <= CR_GAP_SLOTS - 1; k++)
		cr_gap_memo_put(mod, 0x10000 * k, 0x10000 * k + 0x100);
	tap_ok(cr_gap_memo_has(mod, 0x1000) && cr_gap_memo_has(mod, 0x10000 * (CR_GAP_SLOTS - 1)),
	       "gap: a stretch held already takes no slot (8 kept)");
	cr_gap_memo_put(mod, 0x900000, 0x900100);
	tap_ok(!cr_gap_memo_has(mod, 0x1000) && cr_gap_memo_has(mod, 0x900000) &&
		       cr_gap_memo_has(mod, 0x10000),
	       "gap: a ninth replaces the oldest");
	cr_cache_enabled = 0;
	tap_ok(!cr_gap_memo_has(mod, 0x900000), "gap: off with the cache (CRASH_CACHE=0)");
	cr_cache_enabled = 1;
	cr_cache_clear();
	tap_ok(!cr_gap_memo_has(mod, 0x900000), "gap: cleared");
}

/*
 * Writers put stretches [k * 0x100, k * 0x100 + 0x80) while readers ask:
 * a torn slot (one put's lo, another's hi) would cover a pc in the other
 * half of some 0x100, which no put covers; the sequence locks must throw
 * such reads away.
 */
#define GAP_MOD 0x7f0000002000ull
#define GAP_KS 64
static int gap_false;

static void *gap_writer(void *arg)
{
	uint64_t k = (uintptr_t)arg;

	for (unsigned i = 0; i < 20000; i++, k = (k * 13 + 7) % GAP_KS)
		cr_gap_memo_put(GAP_MOD, k * 0x100, k * 0x100 + 0x80);
	return NULL;
}

static void *gap_reader(void *arg)
{
	int bad = 0;

	for (unsigned i = (unsigned)(uintptr_t)arg; i < 100000; i += 3) {
		uint64_t pc = (i * 7919ull) % (GAP_KS * 0x100);

		if (cr_gap_memo_has(GAP_MOD, pc) && pc % 0x100 >= 0x80)
			bad++;
		if (cr_gap_memo_has(GAP_MOD + 0x1000, pc))
			bad++;
	}
	__atomic_fetch_add(&gap_false, bad, __ATOMIC_RELAXED);
	return NULL;
}

static void t_gap_threads(void)
{
	pthread_t t[4];
	int ok = 1;

	cr_cache_clear();
	for (uintptr_t i = 0; i < 4; i++)
		ok &= pthread_create(&t[i], NULL, i < 2 ? gap_writer : gap_reader, (void *)i) == 0;
	for (unsigned i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	tap_ok(ok && gap_false == 0, "gap: two writers, two readers: no pc outside every put answered");
	cr_cache_clear();
}

static struct cr_crow row_of(int32_t cfa_off)
{
	struct cr_crow c;

	memset(&c, 0, sizeof(c));
	c.shape = CR_SHAPE_STEP;
	c.cfa_off = cfa_off;
	c.ra_off = -8;
	return c;
}

/* A pc above base whose home slot is pc0's (the hash spreads pcs: search). */
static uint64_t same_home(uint64_t pc0, uint64_t base)
{
	for (uint64_t pc = base; pc < base + (1u << 24); pc++)
		if (pc != pc0 && cr_cache_slot_of(pc) == cr_cache_slot_of(pc0))
			return pc;
	return 0;
}

static int home_has(uint64_t pc, uint64_t mod)
{
	const struct cr_cache_slot *s = cr_cache_slot_of(pc);

	return s->pc == pc && s->mod == mod;
}

int main(void)
{
	const uint64_t mod = 0x7f0000001000ull, a = 0x401234, b = same_home(a, 0x500000),
		       c = same_home(a, b + 1);
	struct cr_crow r, ra = row_of(16), rb = row_of(32), rc = row_of(48);

	tap_ok(b && c && b != c, "three pcs with one home slot");
	cr_cache_clear();
	tap_is_i64(cr_cache_get(a, mod, &r), -CR_ENOINFO, "empty: miss");

	cr_cache_put(a, mod, &ra);
	tap_ok(cr_cache_get(a, mod, &r) == 0 && r.cfa_off == 16, "put, then hit");
	tap_is_i64(cr_cache_get(a, mod + 0x1000, &r), -CR_ENOINFO, "another module's key: miss");

	/* b hashes home like a: a moves to the other slot, both stay. */
	cr_cache_put(b, mod, &rb);
	tap_ok(home_has(b, mod), "the last put is at home");
	tap_ok(cr_cache_get(a, mod, &r) == 0 && r.cfa_off == 16, "the one it displaced: still a hit");
	tap_ok(cr_cache_get(b, mod, &r) == 0 && r.cfa_off == 32, "the new one: a hit");

	/* Bringing a home (what the trace loop does on a miss at home) swaps them. */
	tap_is_i64(cr_cache_promote(a, mod), 0, "promote a");
	tap_ok(home_has(a, mod), "promoted: a at home");
	tap_ok(cr_cache_get(b, mod, &r) == 0 && r.cfa_off == 32, "b kept in the other slot");

	/* A third pc of the same pair: the oldest (b, in the other slot) goes. */
	cr_cache_put(c, mod, &rc);
	tap_ok(home_has(c, mod), "third: at home");
	tap_ok(cr_cache_get(a, mod, &r) == 0 && r.cfa_off == 16, "second newest kept");
	tap_is_i64(cr_cache_get(b, mod, &r), -CR_ENOINFO, "oldest evicted");

	/* The same pc again: replaced in place, the other slot untouched. */
	cr_cache_put(c, mod, &rb);
	tap_ok(cr_cache_get(c, mod, &r) == 0 && r.cfa_off == 32, "same pc: replaced");
	tap_ok(cr_cache_get(a, mod, &r) == 0 && r.cfa_off == 16, "same pc: the other kept");

	/* Neighbouring return addresses (16 bytes apart: neighbouring home
	   slots) and a third row aliasing the first: all three kept, the
	   other slot of a pair is not the neighbour (cache.h: CR_CACHE_PAIR). */
	{
		const uint64_t x = 0x402000, y = x + 16, z = same_home(x, 0x7f0000000000ull);
		const uint64_t far = x + 8192;	/* its home: the other slot of x's pair */

		cr_cache_clear();
		cr_cache_put(x, mod, &ra);
		cr_cache_put(y, mod, &rb);
		cr_cache_put(z, mod, &rc);
		tap_ok(cr_cache_slot_of(far) - cr_cache_slots ==
			       ((cr_cache_slot_of(x) - cr_cache_slots) ^ CR_CACHE_PAIR),
		       "pairs: the other slot is the home of the code 8 KiB away");
		tap_ok(cr_cache_get(x, mod, &r) == 0 && r.cfa_off == 16 &&
			       cr_cache_get(y, mod, &r) == 0 && r.cfa_off == 32 &&
			       cr_cache_get(z, mod, &r) == 0 && r.cfa_off == 48 && home_has(y, mod),
		       "pairs: neighbours and a third aliasing one of them are all kept");
		/* The other slot taken by a row at its own home: the displaced row
		   is dropped, the home row stays where the trace loop finds it. */
		cr_cache_clear();
		cr_cache_put(far, mod, &rb);
		cr_cache_put(x, mod, &ra);
		cr_cache_put(z, mod, &rc);
		tap_ok(home_has(far, mod) && home_has(z, mod) && cr_cache_get(far, mod, &r) == 0 &&
			       r.cfa_off == 32 && cr_cache_get(x, mod, &r) == -CR_ENOINFO,
		       "pairs: a row at its own home is not evicted by a displaced one");
		cr_cache_clear();
	}

	/* Rules: a put stores those in use; a shorter row over a longer one,
	   and both moved between the slots, come back as put. */
	struct cr_crow r5 = row_of(64), r2 = row_of(80);

	r5.n = 5;
	r2.n = 2;
	for (unsigned k = 0; k < 5; k++) {
		r5.col[k] = (uint8_t)k;
		r5.kind[k] = CR_OFFSET;
		r5.off[k] = -8 * (int32_t)(k + 1);
	}
	r2.col[0] = 6;
	r2.col[1] = 16;
	r2.kind[0] = r2.kind[1] = CR_OFFSET;
	r2.off[0] = -16;
	r2.off[1] = -8;
	cr_cache_put(c, mod, &r5);
	cr_cache_put(c, mod, &r2);
	tap_ok(cr_cache_get(c, mod, &r) == 0 && r.n == 2 && r.col[0] == 6 && r.col[1] == 16 &&
		       r.off[0] == -16 && r.off[1] == -8 && r.cfa_off == 80,
	       "a row of 2 rules over one of 5: its own rules");
	cr_cache_put(b, mod, &r5);
	tap_is_i64(cr_cache_promote(c, mod), 0, "promote c");
	tap_ok(cr_cache_get(b, mod, &r) == 0 && r.n == 5 && r.off[4] == -40 && r.off[0] == -8,
	       "5 rules moved to the other slot and back");
	tap_ok(cr_cache_get(c, mod, &r) == 0 && r.n == 2 && r.col[1] == 16 && r.cfa_off == 80,
	       "and the 2 rules promoted with their own row");
	tap_is_i64(cr_cache_promote(a, mod), -CR_ENOINFO, "promote: not in the other slot");
	tap_is_i64(cr_cache_promote(c, mod), -CR_ENOINFO, "promote: already at home");

	cr_cache_put(0x800, mod, &ra);
	tap_is_i64(cr_cache_get(0x800, mod, &r), -CR_ENOINFO, "never a pc in page 0");

	/* Locality (cache.h): the return addresses of 1 KiB of code have
	   distinct home slots in at most two pages of the cache, so a first
	   capture writes few fresh pages. */
	{
		uintptr_t lo = (uintptr_t)-1, hi = 0;
		int distinct = 1;

		for (uint64_t pc = 0x401000; pc < 0x401400; pc += 16) {
			uintptr_t s = (uintptr_t)cr_cache_slot_of(pc);

			lo = s < lo ? s : lo;
			hi = s > hi ? s : hi;
			if (pc > 0x401000 && cr_cache_slot_of(pc) == cr_cache_slot_of(pc - 16))
				distinct = 0;
		}
		tap_ok(distinct && hi / 4096 - lo / 4096 <= 1 &&
			       (hi - lo) / sizeof(struct cr_cache_slot) <= 63,
		       "pcs of 1 KiB of code 16 bytes apart: distinct home slots in at most two pages");
	}

	/* The trace loop's puts (cr_cache_put_shape): a STEP, STEP_FAR or END
	   row's shape in its slot, no full row written (a first capture
	   touches no page of cr_cache_rows); NONE with its full row. */
	{
		static const struct cr_crow zero;
		const struct cr_cache_slot *s = cr_cache_slot_of(a);
		const struct cr_crow *full = &cr_cache_rows[s - cr_cache_slots];
		struct cr_crow st = row_of(96), nn = row_of(112), far = row_of(128);
		int ok = 1;

		cr_cache_clear();
		st.fp_saved = 1;
		st.fp_off = -16;
		st.ra_w = (uint8_t)(st.ra_off + CR_SHAPE_WINDOW);
		st.fp_w = (uint8_t)(st.fp_off + CR_SHAPE_WINDOW);
		st.n = 1;
		st.col[0] = 6;
		st.kind[0] = CR_OFFSET;
		st.off[0] = -16;
		cr_cache_put_shape(a, mod, &st);
		tap_ok(home_has(a, mod) && s->shape == CR_SHAPE_STEP && s->cfa_off == 96 &&
			       s->ra_off == -8 && s->fp_saved && s->fp_off == -16 && !s->full,
		       "a STEP row put by the trace loop: its shape at home");
		tap_ok(!memcmp(full, &zero, sizeof(zero)), "and no full row written");
		tap_is_i64(cr_cache_get(a, mod, &r), -CR_ENOINFO,
			   "the full walk finds no full row for it");
		cr_cache_put(a, mod, &st);
		tap_ok(cr_cache_get(a, mod, &r) == 0 && r.n == 1 && r.off[0] == -16 && s->full &&
			       s->shape == CR_SHAPE_STEP,
		       "the full walk's put: the full row, the same shape");
		cr_cache_put_shape(a, mod, &st);
		tap_is_i64(cr_cache_get(a, mod, &r), -CR_ENOINFO,
			   "a shape put over it: no full row claimed");

		/* Moved to the other slot and back, each keeps what it had. */
		cr_cache_put(b, mod, &r5);
		tap_ok(home_has(b, mod) && cr_cache_get(b, mod, &r) == 0 && r.n == 5,
		       "a full row at home");
		tap_is_i64(cr_cache_get(a, mod, &r), -CR_ENOINFO, "the shape moved: still no full row");
		tap_ok(cr_cache_promote(a, mod) == 0 && home_has(a, mod) && !s->full &&
			       s->cfa_off == 96 && s->fp_off == -16,
		       "the shape promoted home");
		tap_ok(cr_cache_get(b, mod, &r) == 0 && r.n == 5 && r.off[4] == -40,
		       "the full row swapped to the other slot with its rules");

		nn.shape = CR_SHAPE_NONE;
		cr_cache_put_shape(c, mod, &nn);
		tap_ok(cr_cache_get(c, mod, &r) == 0 && r.cfa_off == 112 && r.shape == CR_SHAPE_NONE,
		       "a NONE row put by the trace loop: its full row (the full walk follows)");
		far.shape = CR_SHAPE_STEP_FAR;
		far.ra_off = -4096;
		cr_cache_put_shape(a, mod, &far);
		tap_ok(home_has(a, mod) && s->shape == CR_SHAPE_STEP_FAR && s->ra_off == -4096 &&
			       !s->full,
		       "a STEP_FAR row: its offsets in the slot");

		/* ra_w and fp_w are the low bytes of ra_off and fp_off (cache.h). */
		for (int32_t off = -CR_SHAPE_WINDOW; off < 0 && ok; off++) {
			st.ra_off = off;
			st.fp_off = off;
			cr_cache_put_shape(a, mod, &st);
			ok = s->ra_b[CR_CACHE_LOW] == (uint8_t)(off + CR_SHAPE_WINDOW) &&
			     s->fp_b[CR_CACHE_LOW] == (uint8_t)(off + CR_SHAPE_WINDOW);
		}
		tap_ok(ok, "a slot's ra_b/fp_b [CR_CACHE_LOW]: ra_w, fp_w for every STEP offset");
	}

	/* The generation: a writer at work (odd) makes every read a miss and
	   every other put a no-op; a put moves it on by 2. */
	uint64_t g = cr_cache_gen;

	tap_ok(!(g & 1), "the generation is even between writes");
	cr_cache_put(a, mod, &rb);
	tap_is_u64(cr_cache_gen, g + 2, "a put: the generation + 2");
	cr_cache_gen = g + 3;
	tap_is_i64(cr_cache_get(a, mod, &r), -CR_ENOINFO, "a writer at work: a miss");
	cr_cache_put(a, mod, &rc);
	tap_is_u64(cr_cache_gen, g + 3, "a writer at work: a put waits for nobody, writes nothing");
	cr_cache_gen = g + 4;
	tap_ok(cr_cache_get(a, mod, &r) == 0 && r.cfa_off == 32, "the row of the last put");
	tap_ok(cr_cache_still(g + 4) && !cr_cache_still(g + 2), "a reader sees a write");
	cr_cache_put(b, mod, &ra);	/* a to the other slot */
	cr_cache_gen = g + 5;
	tap_is_i64(cr_cache_promote(a, mod), -CR_ENOINFO, "a writer at work: no promotion");
	tap_ok(home_has(b, mod) && cr_cache_gen == g + 5, "and nothing written");
	cr_cache_gen = g + 6;

	/* The CIE memo: by (address, module), both parts given back as put. */
	struct cr_cie cie, got;
	struct cr_cie_init ci, gi;

	memset(&cie, 0, sizeof(cie));
	memset(&ci, 0, sizeof(ci));
	cie.addr = 0x402000;
	cie.code_align = 1;
	cie.data_align = -8;
	cie.ra = 16;
	ci.n = 1;
	ci.col[0] = 16;
	ci.rule[0].kind = CR_OFFSET;
	ci.rule[0].off = -8;
	ci.cfa.kind = CR_REG;
	ci.cfa.reg = 7;
	ci.cfa.off = 8;
	cr_cache_clear();
	tap_is_i64(cr_cie_memo_get(cie.addr, mod, &got, &gi), -CR_ENOINFO, "memo empty: miss");
	cr_cie_memo_put(cie.addr, mod, &cie, &ci);
	tap_ok(cr_cie_memo_get(cie.addr, mod, &got, &gi) == 0 && !memcmp(&got, &cie, sizeof(cie)) &&
		       !memcmp(&gi, &ci, sizeof(ci)),
	       "memo: put, then the same CIE and rules");
	tap_ok(cr_cie_memo_get(cie.addr, mod, NULL, &gi) == 0 && cr_cie_memo_get(cie.addr, mod, &got,
										 NULL) == 0,
	       "memo: either part alone");
	tap_is_i64(cr_cie_memo_get(cie.addr, mod + 0x1000, &got, &gi), -CR_ENOINFO,
		   "memo: another module's key: miss");
	tap_is_i64(cr_cie_memo_get(cie.addr + 8, mod, &got, &gi), -CR_ENOINFO,
		   "memo: another address: miss");
	cr_cie_memo_put(cie.addr, 0, &cie, &ci);
	tap_is_i64(cr_cie_memo_get(cie.addr, 0, &got, &gi), -CR_ENOINFO,
		   "memo: key 0 (not live memory) is never kept");
	cr_cache_enabled = 0;
	tap_is_i64(cr_cie_memo_get(cie.addr, mod, &got, &gi), -CR_ENOINFO,
		   "memo: off with the cache (CRASH_CACHE=0)");
	cr_cache_enabled = 1;
	cr_cache_clear();
	tap_is_i64(cr_cie_memo_get(cie.addr, mod, &got, &gi), -CR_ENOINFO, "memo: cleared");
	t_gap();
	t_gap_threads();
	return tap_done();
}
