/* SPDX-License-Identifier: MIT */
/* The symbol rule and its index: symidx.h. */
#include <string.h>
#include <sys/mman.h>

#include "symidx.h"
#include "sys.h"

static void consider(struct cr_symbest *b, const Elf64_Sym *s, uint64_t bias, uint64_t pc)
{
	unsigned type = ELF64_ST_TYPE(s->st_info);
	uint64_t start = bias + s->st_value;

	if (s->st_shndx == SHN_UNDEF || s->st_value == 0 || start > pc)
		return;
	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
		return;
	if (s->st_size) {
		if (pc - start >= s->st_size)
			return;
		/* Prefer a sized container; among them the innermost (latest start). */
		if (!b->sized || start > b->start) {
			b->start = start;
			b->size = s->st_size;
			b->name = s->st_name;
			b->sized = b->found = 1;
		}
	} else if (!b->sized && (!b->found || start > b->start) && type != STT_NOTYPE) {
		b->start = start;
		b->size = 0;
		b->name = s->st_name;
		b->found = 1;
	}
}

/*
 * consider() over n symbols.  Most symbols of a large table start above pc
 * or end below it: those are passed over with two compares, without
 * consider's type and section checks (it would reject them too).
 */
void cr_symbest_scan(struct cr_symbest *b, const Elf64_Sym *v, uint64_t n, uint64_t bias,
		     uint64_t pc)
{
	uint64_t off = pc - bias;

	for (uint64_t j = 0; j < n; j++) {
		const Elf64_Sym *s = &v[j];

		/* st_value 0 or above pc (then bias + st_value > pc too, for pc >= bias) */
		if (pc >= bias && s->st_value - 1 >= off)
			continue;
		if (pc >= bias && s->st_size && off - s->st_value >= s->st_size)
			continue;
		consider(b, s, bias, pc);
	}
}

/*
 * A symbol that may hold pcs[lo..n) (the first of them at or above its
 * start): consider() for each pc it holds, if it is a candidate.  The
 * batched scans' common end; most symbols never get here.
 */
static void fold_from(struct cr_symbest *b, const Elf64_Sym *s, const uint64_t *pcs, unsigned lo,
		      unsigned n, uint64_t bias)
{
	uint64_t val = s->st_value, size = s->st_size;
	unsigned type = ELF64_ST_TYPE(s->st_info);

	if (s->st_shndx == SHN_UNDEF ||
	    (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
	    (!size && type == STT_NOTYPE))
		return;
	for (unsigned i = lo; i < n; i++) {
		if (size && pcs[i] - bias - val >= size)
			break;
		consider(&b[i], s, bias, pcs[i]);
	}
}

/*
 * cr_symbest_scan_many's loop for the usual batch, every pc at or above the bias and
 * fewer than 256 (low 0, the buckets made): the pcs less the bias in rel[],
 * which ends with a sentinel above every symbol's start, so that the walk
 * from a symbol's bucket to its first pc needs no bound and a symbol past
 * the last pc costs one compare: 29 instructions a symbol, was 62 (a
 * library's 17,213 symbols and 21 pcs under callgrind).
 */
static void scan_fast(struct cr_symbest *b, const uint64_t *pcs, unsigned n, const Elf64_Sym *v,
		      uint64_t cnt, uint64_t bias, uint64_t base, unsigned shift,
		      const uint8_t first[256])
{
	uint64_t rel[257], last;

	for (unsigned i = 0; i < n; i++)
		rel[i] = pcs[i] - bias;
	rel[n] = UINT64_MAX;
	last = rel[n - 1];
	for (uint64_t j = 0; j < cnt; j++) {
		const Elf64_Sym *s = &v[j];
		uint64_t val = s->st_value, size;
		unsigned lo;

		if (val - 1 >= last)
			continue;	/* 0, or above the last pc */
		lo = val <= base ? 0 : first[(val - base) >> shift];
		while (rel[lo] < val)	/* stops at the sentinel: val <= last */
			lo++;
		/* Most symbols hold none of the pcs: passed by before their type. */
		size = s->st_size;
		if (size ? rel[lo] - val >= size : lo == n)
			continue;
		fold_from(b, s, pcs, lo, n, bias);
	}
}

/*
 * cr_symbest_scan for several pcs in one pass: consider() is called for each
 * symbol and each pc whose scan would call it, in table order, so each b[i]
 * is what a scan for pcs[i] alone gives.  For a pc at or above the bias the
 * scan passes over the symbols that start above pc - bias (st_value, not
 * the biased start: no wrap-around) or end at or below it; those left are
 * the pcs from the first one at or above the symbol's start (a binary
 * search of the sorted pcs) to its end, or all above an unsized one.  The
 * pcs below the bias (no module is loaded below its bias: none in practice)
 * are given every symbol, as the scan does.
 */
void cr_symbest_scan_many(struct cr_symbest *b, const uint64_t *pcs, unsigned n,
			  const Elf64_Sym *v, uint64_t cnt, uint64_t bias)
{
	unsigned low = 0, shift = 0;
	uint64_t base = 0;
	uint8_t first[256];	/* bucket k: the first pc with (pc - bias - base) >> shift >= k */

	while (low < n && pcs[low] < bias)
		low++;
	/* Where a symbol's pcs start, without a binary search for each: the
	   pcs' span cut in 256 buckets (at most 255 pcs: else the search). */
	if (low < n && n - low < 256) {
		base = pcs[low] - bias;
		while (((pcs[n - 1] - bias - base) >> shift) > 255)
			shift++;
		for (unsigned k = 0, i = low; k < 256; k++) {
			while (i < n && ((pcs[i] - bias - base) >> shift) < k)
				i++;
			first[k] = (uint8_t)(i - low);
		}
	}
	if (low == 0 && n > 0 && n < 256) {
		scan_fast(b, pcs, n, v, cnt, bias, base, shift, first);
		return;
	}
	for (uint64_t j = 0; j < cnt; j++) {
		const Elf64_Sym *s = &v[j];
		unsigned lo = low, hi = n;
		uint64_t val = s->st_value;

		for (unsigned i = 0; i < low; i++)
			consider(&b[i], s, bias, pcs[i]);
		if (low == n || val == 0 || val > pcs[n - 1] - bias)
			continue;
		/* The first pc with pc - bias >= val: from its bucket, else by a
		   binary search. */
		if (n - low < 256) {
			lo = val <= base ? low : low + first[(val - base) >> shift];
			while (lo < n && pcs[lo] - bias < val)
				lo++;
			hi = lo;
		}
		while (lo < hi) {
			unsigned mid = lo + (hi - lo) / 2;

			if (pcs[mid] - bias < val)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* Most symbols hold none of the pcs: passed by before their type. */
		if (lo == n || (s->st_size && pcs[lo] - bias - val >= s->st_size))
			continue;
		fold_from(b, s, pcs, lo, n, bias);
	}
}

#define COUNTS (8 * 256 * sizeof(uint32_t))	/* the radix sort's histograms, in the mapping */

static size_t map_len(uint64_t cap)
{
	return COUNTS + 3 * (size_t)cap * sizeof(struct cr_symidx_ent);
}

static struct cr_symidx_ent *sized(const struct cr_symidx *ix)
{
	return (struct cr_symidx_ent *)((uint8_t *)ix->map + COUNTS);
}

int cr_symidx_init(struct cr_symidx *ix, uint64_t count)
{
	long a;

	memset(ix, 0, sizeof(*ix));
	if (count == 0 || count > CR_SYMIDX_MAX)
		return -CR_ERANGE;
	/* Sized, unsized and the sort's other half, each room for the whole
	   table: only the pages written are ever touched. */
	a = cr_sys_mmap(NULL, map_len(count), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (cr_sys_failed(a))
		return -CR_ERANGE;
	ix->map = (void *)a;
	ix->cap = count;
	return 0;
}

void cr_symidx_free(struct cr_symidx *ix)
{
	if (ix->map)
		cr_sys_munmap(ix->map, map_len(ix->cap));
	memset(ix, 0, sizeof(*ix));
}

/* The candidates of cr_symbest_scan: sized ones, and unsized ones but STT_NOTYPE. */
void cr_symidx_add(struct cr_symidx *ix, const Elf64_Sym *v, uint64_t n)
{
	if (!ix->map)
		return;
	for (uint64_t i = 0; i < n; i++) {
		const Elf64_Sym *s = &v[i];
		unsigned type = ELF64_ST_TYPE(s->st_info);
		struct cr_symidx_ent *e;

		if (s->st_shndx == SHN_UNDEF || s->st_value == 0 ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
		    (!s->st_size && type == STT_NOTYPE))
			continue;
		if (ix->nsized + ix->nunsized == ix->cap) {
			ix->bad = 1;	/* more symbols than the table was said to have */
			return;
		}
		e = s->st_size ? &sized(ix)[ix->nsized++] : &sized(ix)[ix->cap + ix->nunsized++];
		e->value = s->st_value;
		e->size = s->st_size;
		e->name = s->st_name;
	}
}

/*
 * LSD radix sort of a[0, n) by value, a byte at a time, into a or tmp: the
 * one returned (stable, so entries
 * of equal value keep table order); bytes that are the same in every entry
 * are not looked at (a module's functions span a few megabytes: three
 * passes, after one over the values that finds which bytes differ).
 */
static struct cr_symidx_ent *radix(struct cr_symidx_ent *a, struct cr_symidx_ent *tmp, uint64_t n,
				   uint32_t *cnt)
{
	struct cr_symidx_ent *src = a, *dst = tmp, *t;
	unsigned digit[8], nd = 0;
	uint64_t diff = 0;

	for (uint64_t i = 0; i < n; i++)
		diff |= a[i].value ^ a[0].value;
	for (unsigned d = 0; d < 8; d++)
		if ((diff >> (8 * d)) & 255)
			digit[nd++] = d;
	memset(cnt, 0, COUNTS);
	for (uint64_t i = 0; i < n; i++)
		for (unsigned j = 0; j < nd; j++)
			cnt[j * 256 + ((a[i].value >> (8 * digit[j])) & 255)]++;
	for (unsigned j = 0; j < nd; j++) {
		uint32_t *c = cnt + j * 256, sum = 0;
		unsigned sh = 8 * digit[j];

		for (unsigned k = 0; k < 256; k++) {
			uint32_t x = c[k];

			c[k] = sum;
			sum += x;
		}
		for (uint64_t i = 0; i < n; i++)
			dst[c[(src[i].value >> sh) & 255]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	return src;
}

int cr_symidx_done(struct cr_symidx *ix)
{
	struct cr_symidx_ent *r[3], *s, *u;
	uint64_t end = 0;

	if (!ix->map || ix->bad) {
		cr_symidx_free(ix);
		return -CR_ERANGE;
	}
	/* Each sort ends in its own region or in the free one: no copy back. */
	r[0] = sized(ix);
	r[1] = r[0] + ix->cap;
	r[2] = r[1] + ix->cap;
	s = ix->nsized ? radix(r[0], r[2], ix->nsized, ix->map) : r[0];
	u = ix->nunsized ? radix(r[1], s == r[0] ? r[2] : r[0], ix->nunsized, ix->map) : r[1];
	ix->sized_at = (uint64_t)(s - r[0]);
	ix->unsized_at = (uint64_t)(u - r[0]);
	for (uint64_t i = 0; i < ix->nsized; i++) {
		struct cr_symidx_ent *e = &s[i];	/* the prefix maximum of the ends */
		uint64_t e_end = e->value + e->size < e->value ? UINT64_MAX : e->value + e->size;

		end = e_end > end ? e_end : end;
		e->end = end;
	}
	return 0;
}

/* How many of a[0, n) have value <= off (they come first). */
static uint64_t upto(const struct cr_symidx_ent *a, uint64_t n, uint64_t off)
{
	uint64_t lo = 0, hi = n;

	while (lo < hi) {	/* a binary search: at most 64 rounds */
		uint64_t mid = lo + (hi - lo) / 2;

		if (a[mid].value <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int hit(struct cr_symbest *b, const struct cr_symidx_ent *e, uint64_t bias, int sized)
{
	b->start = bias + e->value;
	b->size = e->size;
	b->name = e->name;
	b->sized = sized;
	b->found = 1;
	return 1;
}

int cr_symidx_find(const struct cr_symidx *ix, uint64_t bias, uint64_t pc, struct cr_symbest *b)
{
	const struct cr_symidx_ent *s, *u;
	uint64_t off = pc - bias, k, best;
	unsigned steps = 0;

	memset(b, 0, sizeof(*b));
	/* Below bias the scan's arithmetic wraps; at the very top an end cannot hold it. */
	if (!ix->map || pc < bias || off == UINT64_MAX)
		return -CR_ERANGE;
	s = sized(ix) + ix->sized_at;
	u = sized(ix) + ix->unsized_at;
	/* The sized ones that start at or below off, from the latest back,
	   while one of them or an earlier one still ends above off. */
	for (k = upto(s, ix->nsized, off); k > 0 && s[k - 1].end > off; k--) {
		if (++steps > CR_SYMIDX_BACK)
			return -CR_ERANGE;
		if (off - s[k - 1].value >= s[k - 1].size)
			continue;
		/* The latest start; of equal starts that hold off, the first in table order. */
		best = k - 1;
		for (uint64_t i = k - 1; i > 0 && s[i - 1].value == s[k - 1].value; i--) {
			if (++steps > CR_SYMIDX_BACK)
				return -CR_ERANGE;
			if (off - s[i - 1].value < s[i - 1].size)
				best = i - 1;
		}
		return hit(b, &s[best], bias, 1);
	}
	/* No sized one: the unsized one with the latest start, the first of equals. */
	k = upto(u, ix->nunsized, off);
	if (k == 0)
		return 0;
	for (best = k - 1; best > 0 && u[best - 1].value == u[k - 1].value; best--)
		if (++steps > CR_SYMIDX_BACK)
			return -CR_ERANGE;
	return hit(b, &u[best], bias, 0);
}
