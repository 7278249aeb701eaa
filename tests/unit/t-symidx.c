/* SPDX-License-Identifier: MIT */
/*
 * symidx.c: the address-sorted symbol index against its twin, the linear
 * scan (cr_symbest_scan, what sym.c did alone before): hand-made tables with
 * nested and equal-start containers, unsized and NOTYPE symbols, undefined
 * ones and st_value 0, exact answers; then random tables, every answer of
 * the index equal to the scan's.  Its refusals: pc below the bias, more
 * symbols than announced, a walk back past CR_SYMIDX_BACK.  The batch
 * (cr_symbest_scan_many) against the scan too, pc by pc.
 */
#include <stdlib.h>

#include "../tap.h"
#include "symidx.h"

static Elf64_Sym sym(uint64_t value, uint64_t size, unsigned type, uint32_t name)
{
	Elf64_Sym s;

	memset(&s, 0, sizeof(s));
	s.st_value = value;
	s.st_size = size;
	s.st_info = ELF64_ST_INFO(STB_GLOBAL, type);
	s.st_shndx = 1;
	s.st_name = name;
	return s;
}

static int build(struct cr_symidx *ix, const Elf64_Sym *v, uint64_t n, uint64_t chunk)
{
	if (cr_symidx_init(ix, n) < 0)
		return -1;
	for (uint64_t i = 0; i < n; i += chunk)	/* in pieces, as sym.c reads tables */
		cr_symidx_add(ix, v + i, n - i < chunk ? n - i : chunk);
	return cr_symidx_done(ix);
}

/* The index's answer equals the scan's (found, start, size, name, sized); 1 if so. */
static int same(const struct cr_symidx *ix, const Elf64_Sym *v, uint64_t n, uint64_t bias,
		uint64_t pc)
{
	struct cr_symbest a = { 0 }, b;
	int r = cr_symidx_find(ix, bias, pc, &b);

	cr_symbest_scan(&a, v, n, bias, pc);
	if (r < 0)
		return 0;
	if (r != a.found)
		return 0;
	return !a.found || (a.start == b.start && a.size == b.size && a.name == b.name &&
			    a.sized == b.sized);
}

/* The answer for pc as "name" or "-". */
static uint64_t name_at(const struct cr_symidx *ix, uint64_t bias, uint64_t pc)
{
	struct cr_symbest b;
	int r = cr_symidx_find(ix, bias, pc, &b);

	return r < 0 ? 1000 + (uint64_t)-r : r == 0 ? 0 : b.name;
}

static void fixed(void)
{
	Elf64_Sym v[] = {
		sym(0x1000, 0x100, STT_FUNC, 1),	/* outer */
		sym(0x1040, 0x20, STT_FUNC, 2),	/* nested in outer */
		sym(0x1040, 0x40, STT_FUNC, 3),	/* same start, longer: 2 comes first */
		sym(0x2000, 0, STT_FUNC, 4),	/* unsized */
		sym(0x2000, 0, STT_FUNC, 5),	/* unsized, same start: 4 first */
		sym(0x2100, 0, STT_NOTYPE, 6),	/* unsized NOTYPE: never */
		sym(0x3000, 0x10, STT_NOTYPE, 7),	/* sized NOTYPE: a container */
		sym(0x3000, 0x10, STT_OBJECT, 8),	/* an object: never */
		sym(0x4000, 0x10, STT_GNU_IFUNC, 9),
		sym(0, 0x10000, STT_FUNC, 10),	/* st_value 0: never */
		sym(0x5000, 0x10, STT_FUNC, 11),
		sym(0x1050, 0x4, STT_FUNC, 12),	/* innermost at 0x1050 */
	};
	uint64_t n = CR_ARRAY_SIZE(v), bias = 0x7f0000000000ull;
	struct cr_symidx ix;

	v[10].st_shndx = SHN_UNDEF;	/* 11 undefined: never */
	tap_is_i64(build(&ix, v, n, 5), 0, "a table of 12: indexed");
	tap_is_u64(ix.nsized + ix.nunsized, 8,
		   "   8 candidates (no object, unsized NOTYPE, value 0, undefined)");
	tap_is_u64(name_at(&ix, bias, bias + 0x1000), 1, "0x1000: outer");
	tap_is_u64(name_at(&ix, bias, bias + 0x1045), 2, "0x1045: nested, of equal starts the first");
	tap_is_u64(name_at(&ix, bias, bias + 0x1065), 3, "0x1065: the longer of equal starts");
	tap_is_u64(name_at(&ix, bias, bias + 0x1052), 12, "0x1052: the innermost");
	tap_is_u64(name_at(&ix, bias, bias + 0x1090), 1, "0x1090: past the nested ones, outer");
	tap_is_u64(name_at(&ix, bias, bias + 0x1100), 0, "0x1100: past outer, no unsized below");
	tap_is_u64(name_at(&ix, bias, bias + 0x2050), 4, "0x2050: the first unsized of equals");
	tap_is_u64(name_at(&ix, bias, bias + 0x2150), 4, "0x2150: NOTYPE unsized passed over");
	tap_is_u64(name_at(&ix, bias, bias + 0x3008), 7, "0x3008: a sized NOTYPE container");
	tap_is_u64(name_at(&ix, bias, bias + 0x3010), 4, "0x3010: past it, the unsized one");
	tap_is_u64(name_at(&ix, bias, bias + 0x4001), 9, "0x4001: an IFUNC");
	tap_is_u64(name_at(&ix, bias, bias + 0x5010), 4, "0x5010: in an undefined one: the unsized one");
	tap_is_u64(name_at(&ix, bias, bias + 0x10), 0, "0x10: below every symbol: none");
	tap_is_u64(name_at(&ix, bias, bias - 1), 1000 + CR_ERANGE, "below the bias: -CR_ERANGE");
	tap_is_u64(name_at(&ix, 0, UINT64_MAX), 1000 + CR_ERANGE, "pc - bias ~0: -CR_ERANGE");
	int all = 1;

	for (uint64_t pc = bias; pc < bias + 0x6000; pc++)
		all &= same(&ix, v, n, bias, pc);
	tap_ok(all, "every pc of 0x6000: the scan's answer");
	cr_symidx_free(&ix);
	tap_ok(ix.map == NULL, "freed");

	/* More symbols than announced: unusable, freed. */
	tap_is_i64(cr_symidx_init(&ix, 3), 0, "room for 3");
	cr_symidx_add(&ix, v, 5);
	tap_is_i64(cr_symidx_done(&ix), -CR_ERANGE, "5 candidates in room for 3: -CR_ERANGE");
	tap_ok(ix.map == NULL && cr_symidx_find(&ix, 0, 0x1000, &(struct cr_symbest){ 0 }) < 0,
	       "   and no index");
	tap_is_i64(cr_symidx_init(&ix, 0), -CR_ERANGE, "an empty table: not indexed");
	tap_is_i64(cr_symidx_init(&ix, CR_SYMIDX_MAX + 1ull), -CR_ERANGE,
		   "past CR_SYMIDX_MAX: not indexed");
}

/* A container over more small symbols than a lookup walks back over. */
static void deep(void)
{
	static Elf64_Sym v[CR_SYMIDX_BACK + 10];
	uint64_t n = CR_ARRAY_SIZE(v);
	struct cr_symidx ix;

	v[0] = sym(0x1000, 0x100000, STT_FUNC, 1);
	for (uint64_t i = 1; i < n; i++)
		v[i] = sym(0x2000 + 0x10 * i, 8, STT_FUNC, (uint32_t)(i + 1));
	tap_is_i64(build(&ix, v, n, 64), 0, "a container over 4106 symbols: indexed");
	tap_is_u64(name_at(&ix, 0, 0x2000 + 0x10 * 5 + 4), 6, "inside a small one: it");
	tap_is_u64(name_at(&ix, 0, 0x2000 + 0x10 * 20 + 9), 1, "a gap 20 entries in: the container");
	tap_is_u64(name_at(&ix, 0, 0x2000 + 0x10 * (n - 1) + 9), 1000 + CR_ERANGE,
		   "a gap past CR_SYMIDX_BACK entries in: -CR_ERANGE (scan)");
	cr_symidx_free(&ix);
}

/* Random tables: nested, overlapping, equal starts, every type; every answer the scan's. */
static void random_tables(void)
{
	static Elf64_Sym v[3000];
	unsigned bad = 0, total = 0;

	srand(17);
	for (int round = 0; round < 40; round++) {
		uint64_t n = 1 + (uint64_t)rand() % CR_ARRAY_SIZE(v), span = 1 + (uint64_t)rand() % 0x40000;
		uint64_t bias = round & 1 ? 0x555500000000ull : 0;
		struct cr_symidx ix;
		static const unsigned types[] = { STT_FUNC, STT_FUNC, STT_FUNC, STT_NOTYPE,
						  STT_GNU_IFUNC, STT_OBJECT };

		for (uint64_t i = 0; i < n; i++) {
			uint64_t val = (uint64_t)rand() % span, size = (uint64_t)rand() % 5 == 0 ? 0 : (uint64_t)rand() % (1 + (uint64_t)rand() % 0x800);

			if (rand() % 50 == 0 && i)
				val = v[rand() % i].st_value;	/* an equal start */
			if (round % 8 == 7)
				val |= 0x1234000000000000ull;	/* high bytes that differ */
			v[i] = sym(val, size, types[rand() % 6], (uint32_t)i);
			if (rand() % 40 == 0)
				v[i].st_shndx = SHN_UNDEF;
		}
		if (build(&ix, v, n, 1 + (uint64_t)rand() % 700) < 0) {
			bad++;
			continue;
		}
		for (int k = 0; k < 3000; k++) {
			uint64_t pc = bias + (uint64_t)rand() % (span + 0x1000);

			if (round % 8 == 7)
				pc |= 0x1234000000000000ull;
			total++;
			if (!same(&ix, v, n, bias, pc) && ++bad < 5)
				printf("#   round %d pc 0x%llx differs\n", round, (unsigned long long)pc);
		}
		cr_symidx_free(&ix);
	}
	printf("# %u lookups\n", total);
	tap_ok(bad == 0 && total == 120000, "40 random tables, 120,000 pcs: the scan's answers");
}

/*
 * cr_symbest_scan_many: random tables (as above, pcs below the bias too) and
 * sorted batches of 1 to 64 pcs with repeats, each answer equal to a scan
 * for that pc alone, in table chunks as sym.c folds them.
 */
static void many_tables(void)
{
	static Elf64_Sym v[3000];
	unsigned bad = 0, total = 0;

	srand(18);
	for (int round = 0; round < 40; round++) {
		uint64_t n = 1 + (uint64_t)rand() % CR_ARRAY_SIZE(v), span = 1 + (uint64_t)rand() % 0x40000;
		uint64_t bias = round & 1 ? 0x555500000000ull : 0, chunk = 1 + (uint64_t)rand() % 700;
		static const unsigned types[] = { STT_FUNC, STT_FUNC, STT_FUNC, STT_NOTYPE,
						  STT_GNU_IFUNC, STT_OBJECT };

		for (uint64_t i = 0; i < n; i++) {
			uint64_t val = (uint64_t)rand() % span, size = (uint64_t)rand() % 5 == 0 ? 0 : (uint64_t)rand() % (1 + (uint64_t)rand() % 0x800);

			if (rand() % 50 == 0 && i)
				val = v[rand() % i].st_value;
			if (round % 8 == 7)
				val |= 0x1234000000000000ull;
			if (rand() % 300 == 0)
				val = UINT64_MAX - (uint64_t)rand() % 0x100;	/* start + size wraps */
			v[i] = sym(val, size, types[rand() % 6], (uint32_t)i);
			if (rand() % 40 == 0)
				v[i].st_shndx = SHN_UNDEF;
		}
		for (int k = 0; k < 60; k++) {
			uint64_t pcs[64];
			struct cr_symbest b[64];
			unsigned np = 1 + (unsigned)rand() % 64;

			for (unsigned i = 0; i < np; i++) {
				pcs[i] = bias + (uint64_t)rand() % (span + 0x1000);
				if (rand() % 20 == 0)
					pcs[i] = (uint64_t)rand() % 0x100;	/* below the bias */
				if (round % 8 == 7)
					pcs[i] |= 0x1234000000000000ull;
				if (i && rand() % 10 == 0)
					pcs[i] = pcs[i - 1];	/* a repeat */
			}
			for (unsigned i = 1; i < np; i++)	/* sorted */
				for (unsigned j = i; j > 0 && pcs[j - 1] > pcs[j]; j--) {
					uint64_t t = pcs[j];

					pcs[j] = pcs[j - 1];
					pcs[j - 1] = t;
				}
			memset(b, 0, sizeof(b));
			for (uint64_t i = 0; i < n; i += chunk)
				cr_symbest_scan_many(b, pcs, np, v + i, n - i < chunk ? n - i : chunk, bias);
			for (unsigned i = 0; i < np; i++) {
				struct cr_symbest a = { 0 };

				cr_symbest_scan(&a, v, n, bias, pcs[i]);
				total++;
				if ((a.found != b[i].found ||
				     (a.found && (a.start != b[i].start || a.size != b[i].size ||
						  a.name != b[i].name || a.sized != b[i].sized))) &&
				    ++bad < 5)
					printf("#   round %d pc 0x%llx differs\n", round,
					       (unsigned long long)pcs[i]);
			}
		}
	}
	printf("# %u batched lookups\n", total);
	tap_ok(bad == 0 && total > 40000, "40 random tables, batches of 1-64 pcs: each pc the scan's answer");
}

int main(void)
{
	fixed();
	deep();
	random_tables();
	many_tables();
	return tap_done();
}
