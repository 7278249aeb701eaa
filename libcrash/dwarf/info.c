/* SPDX-License-Identifier: MIT */
/*
 * .debug_info (DWARF 5 sections 7.5 and 2.17, 3.3.8; DWARF 2-4 where they
 * differ), written from the standard.  A DIE is read into struct die: the
 * values of the few attributes the lookups use, by class, unresolved (an
 * index stays an index until the unit's bases are known); every other
 * attribute is skipped by its form.  Abbreviation declarations are found in
 * a fixed cache of offsets filled by one walk of the unit's table, or by a
 * linear search of the table.  Every read is bounded by its unit or section
 * through the cursor, every loop by the bytes it consumes and a
 * CR_DWINFO_MAX_* count.
 */
#include <string.h>

#include "info.h"

/* An attribute's value by class (7.5.5); V_NONE: the DIE does not have it. */
enum {
	V_NONE,
	V_ADDR,		/* u: the address */
	V_ADDRX,	/* u: an index of .debug_addr */
	V_CONST,	/* u: a constant (sdata sign-extended), a flag */
	V_REF,		/* u: a .debug_info offset in the unit, or ~0 if outside it */
	V_REF_ADDR,	/* u: a .debug_info offset, maybe in another unit */
	V_FOREIGN,	/* a reference into another file (sup, alt, type signature) */
	V_STR,		/* str: the string */
	V_STRP,		/* u: an offset in .debug_str */
	V_LINESTRP,	/* u: an offset in .debug_line_str */
	V_STRX,		/* u: an index of .debug_str_offsets */
	V_SECOFF,	/* u: an offset in another section */
	V_RNGLISTX,	/* u: an index of the unit's range list offsets */
	V_OTHER,	/* anything else: a block, data16, loclistx, a foreign string */
};

struct val {
	uint8_t cls;
	uint64_t u;
	struct cr_dwstr str;
};

/* The attributes kept from a DIE. */
enum {
	A_LOW,
	A_HIGH,
	A_RANGES,
	A_NAME,
	A_LINKAGE,
	A_ORIGIN,
	A_SPEC,
	A_CALL_FILE,
	A_CALL_LINE,
	A_CALL_COLUMN,
	A_SIBLING,
	A_STMT_LIST,
	A_COMP_DIR,
	A_LANGUAGE,
	A_STR_BASE,
	A_ADDR_BASE,
	A_RNG_BASE,
	A_N
};

struct die {
	uint64_t off;	/* in .debug_info */
	uint64_t tag;
	uint8_t children;
	struct val a[A_N];
};

/* The unit being read, and how its abbreviations are found. */
struct ctx {
	const struct cr_dwinfo_src *src;
	struct cr_dwcu cu;
	/* Code k < CR_DWINFO_ABBREV_CACHE: its declaration's offset from the
	   table + 1; 0 absent, UINT32_MAX too far (searched).  NULL: no cache. */
	uint32_t *cache;
	int cached;	/* cache holds cu's table */
	struct cr_cursor a;	/* over .debug_abbrev */
	const struct cr_dwabbrevs *ab;	/* NULL, or cu's table decoded */
	int walk;	/* reading DIEs for the walk: only its attributes are decoded */
	int wsteps;	/* ab's walk steps apply (its sizes are this unit's) */
	/* Recording a unit's walk (cr_dwwalks): entries go to rec[0, nrec). */
	struct cr_dwwalk_sub *rec;
	uint32_t nrec, maxrec, dies;	/* dies: the DIEs the walk has read */
	uint32_t grp;			/* the last entry's subprograms while more may
					   join it (rec_join); 0: closed */
	int norec;			/* the unit cannot be recorded */
	uint64_t sib;			/* the target's sibling jump, 0: none */
};

/* A declaration (7.5.3): its tag, children flag, and where its specifications start. */
struct decl {
	uint64_t tag, specs;
	uint8_t children;
};

/* Truncated data is malformed data: the cursor's past-the-end error becomes -CR_EINVAL. */
static int cerr(const struct cr_cursor *c)
{
	return c->err == -CR_ERANGE ? -CR_EINVAL : c->err;
}

static int sect_ok(const struct cr_dwsect *s)
{
	return s->mem && s->hi >= s->lo;
}

/*
 * n (1 to 8) little-endian bytes at c.  The common sizes in one inline read
 * (their value on an error differs, 0 instead of the bytes before it: every
 * caller checks c->err before it uses a value).
 */
static inline uint64_t readn(struct cr_cursor *c, unsigned n)
{
	uint64_t v = 0;

	switch (n) {
	case 8:
		return cr_u64(c);
	case 4:
		return cr_u32(c);
	case 2:
		return cr_u16(c);
	case 1:
		return cr_u8(c);
	}
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)cr_u8(c) << (8 * i);
	return v;
}

/* cr_skip, inline when the bytes are in the window (which never passes c->end). */
static inline void skip(struct cr_cursor *c, uint64_t n)
{
	uint64_t off = c->pos - c->win_lo;

	if (off <= c->win_hi - c->win_lo && c->win_hi - c->pos >= n) {
		c->pos += n;
		return;
	}
	cr_skip(c, n);
}

/* n (1 to 8) bytes at offset off of s: -CR_EINVAL if absent or outside it. */
static int sect_read(const struct cr_dwsect *s, uint64_t off, unsigned n, uint64_t *v)
{
	uint8_t b[8] = { 0 };

	if (!sect_ok(s) || off > s->hi - s->lo || n > s->hi - s->lo - off)
		return -CR_EINVAL;
	if (cr_read(s->mem, s->lo + off, b, n) < 0)
		return -CR_EFAULT;
	memcpy(v, b, 8);	/* little-endian targets only, as the cursor */
	return 0;
}

static void skip_string(struct cr_cursor *c)
{
	while (cr_u8(c))
		;
}

/* Past one declaration's attribute specifications (7.5.3). */
static int skip_specs(struct cr_cursor *a)
{
	for (unsigned i = 0; i <= CR_DWINFO_MAX_ATTRS; i++) {
		uint64_t at = cr_uleb(a), form = cr_uleb(a);

		if (form == DW_FORM_implicit_const)
			cr_sleb(a);
		if (a->err)
			return cerr(a);
		if (at == 0 && form == 0)
			return 0;
	}
	return -CR_ERANGE;
}

/* The declaration at a, its code read: tag, children, specifications. */
static int read_decl(struct cr_cursor *a, struct decl *d)
{
	d->tag = cr_uleb(a);
	d->children = cr_u8(a);
	d->specs = a->pos;
	return cerr(a);
}

/* Start a on the unit's abbreviation table. */
static int abbrev_start(struct ctx *x)
{
	const struct cr_dwsect *s = &x->src->abbrev;

	if (!sect_ok(s) || x->cu.abbrev >= s->hi - s->lo)
		return -CR_EINVAL;
	cr_cursor_init(&x->a, s->mem, s->lo + x->cu.abbrev, s->hi);
	return 0;
}

/* One walk of the table: the offsets of codes below CR_DWINFO_ABBREV_CACHE. */
static int fill_cache(struct ctx *x)
{
	uint64_t table = x->src->abbrev.lo + x->cu.abbrev;
	struct decl d;
	int ret;

	x->cached = 0;
	memset(x->cache, 0, CR_DWINFO_ABBREV_CACHE * sizeof(x->cache[0]));
	if ((ret = abbrev_start(x)) < 0)
		return ret;
	for (unsigned i = 0; i < CR_DWINFO_MAX_ABBREVS; i++) {
		uint64_t code = cr_uleb(&x->a), at = x->a.pos;

		if (x->a.err)
			return cerr(&x->a);
		if (code == 0) {
			x->cached = 1;
			return 0;
		}
		if ((ret = read_decl(&x->a, &d)) < 0 || (ret = skip_specs(&x->a)) < 0)
			return ret;
		if (code < CR_DWINFO_ABBREV_CACHE && !x->cache[code])
			x->cache[code] = at - table < UINT32_MAX - 1 ? (uint32_t)(at - table + 1)
								     : UINT32_MAX;
	}
	return -CR_ERANGE;
}

/* The declaration of code (7.5.3): the first in the table.  Absent: -CR_EINVAL. */
static int find_decl(struct ctx *x, uint64_t code, struct decl *d)
{
	const struct cr_dwsect *s = &x->src->abbrev;
	int ret;

	if (x->cached && code < CR_DWINFO_ABBREV_CACHE && x->cache[code] != UINT32_MAX) {
		if (!x->cache[code])
			return -CR_EINVAL;
		cr_cursor_init(&x->a, s->mem, s->lo + x->cu.abbrev + x->cache[code] - 1, s->hi);
		return read_decl(&x->a, d);
	}
	if ((ret = abbrev_start(x)) < 0)
		return ret;
	for (unsigned i = 0; i < CR_DWINFO_MAX_ABBREVS; i++) {
		uint64_t k = cr_uleb(&x->a);

		if (x->a.err)
			return cerr(&x->a);
		if (k == 0)
			return -CR_EINVAL;
		if ((ret = read_decl(&x->a, d)) < 0)
			return ret;
		if (k == code)
			return 0;
		if ((ret = skip_specs(&x->a)) < 0)
			return ret;
	}
	return -CR_ERANGE;
}

/* slot()'s answers for the attributes below 0x80, + 1 (0: none): one load
   a specification when a unit's abbreviations are decoded. */
static const int8_t slot_tab[0x80] = {
	[DW_AT_low_pc] = A_LOW + 1,
	[DW_AT_high_pc] = A_HIGH + 1,
	[DW_AT_ranges] = A_RANGES + 1,
	[DW_AT_name] = A_NAME + 1,
	[DW_AT_linkage_name] = A_LINKAGE + 1,
	[DW_AT_abstract_origin] = A_ORIGIN + 1,
	[DW_AT_specification] = A_SPEC + 1,
	[DW_AT_call_file] = A_CALL_FILE + 1,
	[DW_AT_call_line] = A_CALL_LINE + 1,
	[DW_AT_call_column] = A_CALL_COLUMN + 1,
	[DW_AT_sibling] = A_SIBLING + 1,
	[DW_AT_stmt_list] = A_STMT_LIST + 1,
	[DW_AT_comp_dir] = A_COMP_DIR + 1,
	[DW_AT_language] = A_LANGUAGE + 1,
	[DW_AT_str_offsets_base] = A_STR_BASE + 1,
	[DW_AT_addr_base] = A_ADDR_BASE + 1,
	[DW_AT_rnglists_base] = A_RNG_BASE + 1,
};

static inline int slot(uint64_t at)
{
	if (at < sizeof(slot_tab))
		return slot_tab[at] - 1;
	return at == DW_AT_MIPS_linkage_name ? A_LINKAGE : -1;
}

/* A value of class cls, u read from c. */
static void set(struct val *v, uint8_t cls, uint64_t u)
{
	v->cls = cls;
	v->u = u;
}

/*
 * 7.5.5, 7.5.6 Table 7.6: the value of form at c, or past it.  One
 * DW_FORM_indirect is followed (its form comes from the DIE; an
 * implicit_const or another indirect there is malformed).
 */
static int read_form(const struct ctx *x, struct cr_cursor *c, uint64_t form, int64_t implicit,
		     struct val *v)
{
	const struct cr_dwcu *cu = &x->cu;
	uint64_t u;

	for (int hop = 0; hop < 2; hop++) {
		switch (form) {
		case DW_FORM_addr:
			set(v, V_ADDR, readn(c, cu->addr_size));
			return 0;
		case DW_FORM_addrx:
		case DW_FORM_GNU_addr_index:
			set(v, V_ADDRX, cr_uleb(c));
			return 0;
		case DW_FORM_addrx1:
		case DW_FORM_addrx2:
		case DW_FORM_addrx3:
		case DW_FORM_addrx4:
			set(v, V_ADDRX, readn(c, (unsigned)(form - DW_FORM_addrx1 + 1)));
			return 0;
		case DW_FORM_data1:
		case DW_FORM_flag:
			set(v, V_CONST, cr_u8(c));
			return 0;
		case DW_FORM_data2:
			set(v, V_CONST, cr_u16(c));
			return 0;
		case DW_FORM_data4:
			set(v, V_CONST, cr_u32(c));
			return 0;
		case DW_FORM_data8:
			set(v, V_CONST, cr_u64(c));
			return 0;
		case DW_FORM_udata:
			set(v, V_CONST, cr_uleb(c));
			return 0;
		case DW_FORM_sdata:
			set(v, V_CONST, (uint64_t)cr_sleb(c));
			return 0;
		case DW_FORM_implicit_const:
			if (hop)
				return -CR_EINVAL;
			set(v, V_CONST, (uint64_t)implicit);
			return 0;
		case DW_FORM_flag_present:
			set(v, V_CONST, 1);
			return 0;
		case DW_FORM_data16:
			cr_skip(c, 16);
			set(v, V_OTHER, 0);
			return 0;
		case DW_FORM_string:
			set(v, V_STR, 0);
			v->str.sect = &x->src->info;
			v->str.pos = c->pos;
			skip_string(c);
			return 0;
		case DW_FORM_strp:
			set(v, V_STRP, readn(c, cu->offsize));
			return 0;
		case DW_FORM_line_strp:
			set(v, V_LINESTRP, readn(c, cu->offsize));
			return 0;
		case DW_FORM_strx:
		case DW_FORM_GNU_str_index:
			set(v, V_STRX, cr_uleb(c));
			return 0;
		case DW_FORM_strx1:
		case DW_FORM_strx2:
		case DW_FORM_strx3:
		case DW_FORM_strx4:
			set(v, V_STRX, readn(c, (unsigned)(form - DW_FORM_strx1 + 1)));
			return 0;
		case DW_FORM_strp_sup:
		case DW_FORM_GNU_strp_alt:
			cr_skip(c, cu->offsize);
			set(v, V_OTHER, 0);
			return 0;
		case DW_FORM_ref_addr:
			/* 7.5.4: the address size in DWARF 2, an offset since 3. */
			set(v, V_REF_ADDR, readn(c, cu->version == 2 ? cu->addr_size : cu->offsize));
			return 0;
		case DW_FORM_ref1:
		case DW_FORM_ref2:
		case DW_FORM_ref4:
		case DW_FORM_ref8:
		case DW_FORM_ref_udata:
			u = form == DW_FORM_ref_udata ? cr_uleb(c)
			    : readn(c, form == DW_FORM_ref8 ? 8 : 1u << (form - DW_FORM_ref1));
			/* From the unit's first byte; outside it: ~0, refused where used. */
			set(v, V_REF, u < cu->end - cu->off ? cu->off + u : UINT64_MAX);
			return 0;
		case DW_FORM_ref_sup4:
			cr_skip(c, 4);
			set(v, V_FOREIGN, 0);
			return 0;
		case DW_FORM_ref_sup8:
		case DW_FORM_ref_sig8:
			cr_skip(c, 8);
			set(v, V_FOREIGN, 0);
			return 0;
		case DW_FORM_GNU_ref_alt:
			cr_skip(c, cu->offsize);
			set(v, V_FOREIGN, 0);
			return 0;
		case DW_FORM_sec_offset:
			set(v, V_SECOFF, readn(c, cu->offsize));
			return 0;
		case DW_FORM_exprloc:
		case DW_FORM_block:
			cr_skip(c, cr_uleb(c));
			set(v, V_OTHER, 0);
			return 0;
		case DW_FORM_block1:
			cr_skip(c, cr_u8(c));
			set(v, V_OTHER, 0);
			return 0;
		case DW_FORM_block2:
			cr_skip(c, cr_u16(c));
			set(v, V_OTHER, 0);
			return 0;
		case DW_FORM_block4:
			cr_skip(c, cr_u32(c));
			set(v, V_OTHER, 0);
			return 0;
		case DW_FORM_loclistx:
			cr_uleb(c);
			set(v, V_OTHER, 0);
			return 0;
		case DW_FORM_rnglistx:
			set(v, V_RNGLISTX, cr_uleb(c));
			return 0;
		case DW_FORM_indirect:
			if (hop)
				return -CR_EINVAL;
			form = cr_uleb(c);
			if (c->err)
				return cerr(c);
			break;
		default:
			return -CR_EINVAL;	/* an unknown form cannot be skipped */
		}
	}
	return -CR_EINVAL;
}

/* read_form, the forms the walk reads most inline (a sibling, a range, a name in place). */
static inline int walk_form(const struct ctx *x, struct cr_cursor *c, uint64_t form,
			    int64_t implicit, struct val *v)
{
	const struct cr_dwcu *cu = &x->cu;
	uint64_t u;

	switch (form) {
	case DW_FORM_ref4:
		u = cr_u32(c);
		set(v, V_REF, u < cu->end - cu->off ? cu->off + u : UINT64_MAX);
		return 0;
	case DW_FORM_string:
		set(v, V_STR, 0);
		v->str.sect = &x->src->info;
		v->str.pos = c->pos;
		skip_string(c);
		return 0;
	case DW_FORM_data1:
		set(v, V_CONST, cr_u8(c));
		return 0;
	case DW_FORM_data2:
		set(v, V_CONST, cr_u16(c));
		return 0;
	case DW_FORM_data4:
		set(v, V_CONST, cr_u32(c));
		return 0;
	case DW_FORM_data8:
		set(v, V_CONST, cr_u64(c));
		return 0;
	case DW_FORM_implicit_const:
		set(v, V_CONST, (uint64_t)implicit);
		return 0;
	case DW_FORM_addr:
		set(v, V_ADDR, readn(c, cu->addr_size));
		return 0;
	case DW_FORM_sec_offset:
		set(v, V_SECOFF, readn(c, cu->offsize));
		return 0;
	}
	return read_form(x, c, form, implicit, v);
}

/*
 * read_die's decoded path for the walk, its twin (the fuzzer's DWARFINFO
 * target compares the two): the attributes the walk does not need and whose
 * sizes are fixed are passed over in one step for each run of them, the
 * others read as there.  Only the walk's slots are cleared: the walk looks
 * at no other (WALK_SLOTS).
 */
static int walk_steps(struct ctx *x, struct cr_cursor *c, struct die *d, uint64_t code)
{
	const struct cr_dwabbrevs *ab = x->ab;
	unsigned first = ab->decl[code].wfirst, n = ab->decl[code].wn;
	struct val scratch;
	int ret;

	d->a[A_LOW].cls = V_NONE;
	d->a[A_HIGH].cls = V_NONE;
	d->a[A_RANGES].cls = V_NONE;
	d->a[A_SIBLING].cls = V_NONE;
	d->a[A_CALL_FILE].cls = V_NONE;
	d->a[A_CALL_LINE].cls = V_NONE;
	d->a[A_CALL_COLUMN].cls = V_NONE;
	for (unsigned i = first; i < first + n; i++) {
		unsigned sp = ab->wop[i].spec;
		int k;

		if (ab->wop[i].skip)
			skip(c, ab->wop[i].skip);
		if (sp == 0xffff)
			continue;
		k = ab->spec[sp].slot;
		if ((ret = walk_form(x, c, ab->spec[sp].form, ab->spec[sp].implicit,
				     k < 0 ? &scratch : &d->a[k])) < 0)
			return ret;
		if (c->err)
			return cerr(c);
	}
	return c->err ? cerr(c) : 0;
}

/*
 * The DIE at c (7.5.2): its abbreviation code, then its attributes in the
 * order of its declaration.  1: a null entry; 0: *d.
 */
static int read_die(struct ctx *x, struct cr_cursor *c, struct die *d)
{
	struct val scratch;
	struct decl dc = { 0, 0, 0 };
	uint64_t code;
	int ret, k;

	d->off = c->pos - x->src->info.lo;
	code = cr_uleb(c);
	if (c->err)
		return cerr(c);
	if (code == 0)
		return 1;
	if (x->ab && x->ab->table == x->cu.abbrev && code < CR_DWINFO_ABBREV_CACHE &&
	    x->ab->decl[code].present) {
		/* The decoded declaration: the same reads as below, without the table. */
		const struct cr_dwabbrevs *ab = x->ab;
		unsigned first = ab->decl[code].first, n = ab->decl[code].n;

		d->tag = ab->decl[code].tag;
		d->children = ab->decl[code].children;
		if (x->walk && x->wsteps)
			return walk_steps(x, c, d, code);
		for (k = 0; k < A_N; k++)
			d->a[k].cls = V_NONE;
		int sized = x->walk && ab->offsize == x->cu.offsize &&
			    ab->addr_size == x->cu.addr_size && ab->version == x->cu.version;

		for (unsigned i = first; i < first + n; i++) {
			if (sized && ab->spec[i].skip != 0xff) {
				skip(c, ab->spec[i].skip);	/* not the walk's: passed by */
				continue;
			}
			k = ab->spec[i].slot;
			if ((ret = read_form(x, c, ab->spec[i].form, ab->spec[i].implicit,
					     k < 0 ? &scratch : &d->a[k])) < 0)
				return ret;
			if (c->err)
				return cerr(c);
		}
		return c->err ? cerr(c) : 0;
	}
	if ((ret = find_decl(x, code, &dc)) < 0)
		return ret;
	d->tag = dc.tag;
	d->children = dc.children;
	for (k = 0; k < A_N; k++)
		d->a[k].cls = V_NONE;
	for (unsigned i = 0;; i++) {
		uint64_t at, form;
		int64_t implicit = 0;

		if (i > CR_DWINFO_MAX_ATTRS)
			return -CR_ERANGE;
		at = cr_uleb(&x->a);
		form = cr_uleb(&x->a);
		if (form == DW_FORM_implicit_const)
			implicit = cr_sleb(&x->a);
		if (x->a.err)
			return cerr(&x->a);
		if (at == 0 && form == 0)
			break;
		k = slot(at);
		if ((ret = read_form(x, c, form, implicit, k < 0 ? &scratch : &d->a[k])) < 0)
			return ret;
		if (c->err)
			return cerr(c);
	}
	return 0;
}

/* 7.27: address index idx of .debug_addr, from the unit's DW_AT_addr_base. */
static int addrx(const struct ctx *x, uint64_t idx, uint64_t *addr)
{
	const struct cr_dwcu *cu = &x->cu;

	if (idx > (UINT64_MAX - cu->addr_base) / cu->addr_size)
		return -CR_EINVAL;
	return sect_read(&x->src->addr, cu->addr_base + idx * cu->addr_size, cu->addr_size, addr);
}

static int addr_of(const struct ctx *x, const struct val *v, uint64_t *addr)
{
	if (v->cls == V_ADDR) {
		*addr = v->u;
		return 0;
	}
	if (v->cls == V_ADDRX)
		return addrx(x, v->u, addr);
	return -CR_EINVAL;
}

/* A string at offset off of s: s absent or off outside it is malformed. */
static int str_at(const struct cr_dwsect *s, uint64_t off, struct cr_dwstr *out)
{
	if (!sect_ok(s) || off >= s->hi - s->lo)
		return -CR_EINVAL;
	out->sect = s;
	out->pos = s->lo + off;
	return 0;
}

/* The string of v; a value of another class (a foreign string): none. */
static int str_of(const struct ctx *x, const struct val *v, struct cr_dwstr *out)
{
	const struct cr_dwcu *cu = &x->cu;
	uint64_t off;
	int ret;

	out->sect = NULL;
	out->pos = 0;
	switch (v->cls) {
	case V_STR:
		*out = v->str;
		return 0;
	case V_STRP:
		return str_at(&x->src->str, v->u, out);
	case V_LINESTRP:
		return str_at(&x->src->line_str, v->u, out);
	case V_STRX:
		/* 7.26: an offset of offsize bytes, from DW_AT_str_offsets_base. */
		if (v->u > (UINT64_MAX - cu->str_offsets_base) / cu->offsize)
			return -CR_EINVAL;
		if ((ret = sect_read(&x->src->str_offsets, cu->str_offsets_base + v->u * cu->offsize,
				     cu->offsize, &off)) < 0)
			return ret;
		return str_at(&x->src->str, off, out);
	}
	return 0;
}

/* 2.17.3, DWARF 4 .debug_ranges: address pairs from base; (~0, a) sets the base. */
static int ranges4(const struct ctx *x, uint64_t off, uint64_t pc, int *hit, uint64_t *first)
{
	const struct cr_dwsect *s = &x->src->ranges;
	unsigned asz = x->cu.addr_size;
	uint64_t base = x->cu.low_pc, max = asz == 8 ? UINT64_MAX : (1ull << (8 * asz)) - 1;
	struct cr_cursor c;

	if (!sect_ok(s) || off >= s->hi - s->lo)
		return -CR_EINVAL;
	cr_cursor_init(&c, s->mem, s->lo + off, s->hi);
	for (unsigned i = 0; i < CR_DWINFO_MAX_RANGES; i++) {
		uint64_t lo = readn(&c, asz), hi = readn(&c, asz);

		if (c.err)
			return cerr(&c);
		if (lo == 0 && hi == 0)
			return 0;
		if (lo == max) {
			base = hi;
			continue;
		}
		if (*first == UINT64_MAX)
			*first = base + lo;
		if (pc - base >= lo && pc - base < hi && pc >= base) {
			*hit = 1;
			return 0;
		}
	}
	return -CR_ERANGE;
}

/* 2.17.3, DWARF 5 .debug_rnglists: the entries of Table 7.30 up to end_of_list. */
static int rnglist5(const struct ctx *x, uint64_t off, uint64_t pc, int *hit, uint64_t *first)
{
	const struct cr_dwsect *s = &x->src->rnglists;
	unsigned asz = x->cu.addr_size;
	uint64_t base = x->cu.low_pc, lo = 0, hi = 0;
	struct cr_cursor c;
	int ret = 0;

	if (!sect_ok(s) || off >= s->hi - s->lo)
		return -CR_EINVAL;
	cr_cursor_init(&c, s->mem, s->lo + off, s->hi);
	for (unsigned i = 0; i < CR_DWINFO_MAX_RANGES; i++) {
		unsigned kind = cr_u8(&c);
		int range = 1;

		switch (kind) {
		case DW_RLE_end_of_list:
			return cerr(&c);
		case DW_RLE_base_addressx:
			ret = addrx(x, cr_uleb(&c), &base);
			range = 0;
			break;
		case DW_RLE_startx_endx:
			if ((ret = addrx(x, cr_uleb(&c), &lo)) == 0)
				ret = addrx(x, cr_uleb(&c), &hi);
			break;
		case DW_RLE_startx_length:
			if ((ret = addrx(x, cr_uleb(&c), &lo)) == 0)
				hi = lo + cr_uleb(&c);
			break;
		case DW_RLE_offset_pair:
			lo = base + cr_uleb(&c);
			hi = base + cr_uleb(&c);
			break;
		case DW_RLE_base_address:
			base = readn(&c, asz);
			range = 0;
			break;
		case DW_RLE_start_end:
			lo = readn(&c, asz);
			hi = readn(&c, asz);
			break;
		case DW_RLE_start_length:
			lo = readn(&c, asz);
			hi = lo + cr_uleb(&c);
			break;
		default:
			return c.err ? cerr(&c) : -CR_EINVAL;
		}
		if (c.err)
			return cerr(&c);
		if (ret < 0)
			return ret;
		if (range && *first == UINT64_MAX)
			*first = lo;
		if (range && lo <= pc && pc < hi) {
			*hit = 1;
			return 0;
		}
	}
	return -CR_ERANGE;
}

/* DW_AT_ranges v: does its list hold pc?  DWARF 5 rnglistx goes through the offsets at
   DW_AT_rnglists_base (7.28); sec_offset is from the section's start. */
static int in_ranges(const struct ctx *x, const struct val *v, uint64_t pc, int *hit,
		     uint64_t *first)
{
	const struct cr_dwcu *cu = &x->cu;
	uint64_t off;
	int ret;

	if (v->cls == V_RNGLISTX) {
		if (cu->version < 5 || v->u > (UINT64_MAX - cu->rnglists_base) / cu->offsize)
			return -CR_EINVAL;
		if ((ret = sect_read(&x->src->rnglists, cu->rnglists_base + v->u * cu->offsize,
				     cu->offsize, &off)) < 0)
			return ret;
		if (off > UINT64_MAX - cu->rnglists_base)
			return -CR_EINVAL;
		return rnglist5(x, cu->rnglists_base + off, pc, hit, first);
	}
	if (v->cls != V_SECOFF && v->cls != V_CONST)
		return -CR_EINVAL;
	return cu->version >= 5 ? rnglist5(x, v->u, pc, hit, first)
				: ranges4(x, v->u, pc, hit, first);
}

/*
 * 2.17: the DIE's addresses, DW_AT_ranges or DW_AT_low_pc with DW_AT_high_pc
 * (an address, or from DWARF 4 a constant offset from low_pc).  *has: it has
 * any; *hit: they hold pc; *low: low_pc, or the first range's start up to the
 * one that holds pc (UINT64_MAX: none).
 */
static int die_pc(const struct ctx *x, const struct die *d, uint64_t pc, int *has, int *hit,
		  uint64_t *low)
{
	const struct val *hv = &d->a[A_HIGH];
	uint64_t lo, hi;
	int ret;

	*has = *hit = 0;
	*low = UINT64_MAX;
	if (d->a[A_RANGES].cls != V_NONE) {
		*has = 1;
		return in_ranges(x, &d->a[A_RANGES], pc, hit, low);
	}
	if (d->a[A_LOW].cls == V_NONE || hv->cls == V_NONE)
		return 0;
	*has = 1;
	if ((ret = addr_of(x, &d->a[A_LOW], &lo)) < 0)
		return ret;
	if (hv->cls == V_CONST)
		hi = lo + hv->u;
	else if ((ret = addr_of(x, hv, &hi)) < 0)
		return ret;
	*hit = lo <= pc && pc < hi;
	*low = lo;
	return 0;
}

/*
 * 7.5.1: the header of the unit at off.  cu->end is set as soon as the
 * length is known (the scans go on past a unit of another type:
 * -CR_ENOSYS).  c is left on the first DIE.
 */
static int header(const struct cr_dwinfo_src *src, uint64_t off, struct cr_dwcu *cu,
		  struct cr_cursor *c)
{
	const struct cr_dwsect *s = &src->info;
	uint64_t len;
	int ret;

	if (!sect_ok(s) || off >= s->hi - s->lo)
		return -CR_EINVAL;
	memset(cu, 0, sizeof(*cu));
	cr_cursor_init(c, s->mem, s->lo + off, s->hi);
	if ((ret = cr_dw_unit_length(c, &len, &cu->offsize)) < 0)
		return ret;
	cu->off = off;
	cu->end = c->pos + len - s->lo;
	cr_cursor_limit(c, c->pos + len);
	len = cr_u16(c);
	if (c->err)
		return cerr(c);
	if (len < 2 || len > 5)
		return -CR_EINVAL;
	cu->version = (uint8_t)len;
	cu->unit_type = DW_UT_compile;
	if (cu->version >= 5) {
		cu->unit_type = cr_u8(c);
		cu->addr_size = cr_u8(c);
		cu->abbrev = readn(c, cu->offsize);
	} else {
		cu->abbrev = readn(c, cu->offsize);
		cu->addr_size = cr_u8(c);
	}
	if (c->err)
		return cerr(c);
	if (cu->unit_type != DW_UT_compile && cu->unit_type != DW_UT_partial)
		return cu->unit_type >= DW_UT_type && cu->unit_type <= DW_UT_split_type ? -CR_ENOSYS
											 : -CR_EINVAL;
	if (cu->addr_size == 0 || cu->addr_size > 8)
		return -CR_EINVAL;
	cu->die = c->pos - s->lo;
	/* 7.26, 7.27, 7.28: past the header of a section's first contribution. */
	cu->str_offsets_base = cu->offsize == 8 ? 16 : 8;
	cu->addr_base = cu->offsize == 8 ? 16 : 8;
	cu->rnglists_base = cu->offsize == 8 ? 20 : 12;
	return 0;
}

/* The unit at off into x (x->cache not filled) and its first DIE into d. */
static void decode_abbrevs(struct ctx *x, struct cr_dwabbrevs *ab);

static int unit(struct ctx *x, uint64_t off, struct die *d, struct cr_dwabbrevs *ab)
{
	struct cr_dwcu *cu = &x->cu;
	struct cr_cursor c;
	const struct val *v;
	int ret;

	x->cached = 0;
	/* The header and the unit's DIE, a few bytes at the unit's start, by
	   pread where the source has a probe (not a page fault that maps 16
	   pages for them); by the section's memory if that fails. */
	if (x->src->probe) {
		struct cr_dwinfo_src ps = *x->src;

		ps.info.mem = x->src->probe;
		if ((ret = header(&ps, off, cu, &c)) == -CR_EFAULT)
			ret = header(x->src, off, cu, &c);
	} else {
		ret = header(x->src, off, cu, &c);
	}
	if (ret < 0)
		return ret;
	if (ab) {	/* the unit's table decoded once, for this DIE and the walks after */
		if (ab->mem != x->src->abbrev.mem || ab->table != cu->abbrev)
			decode_abbrevs(x, ab);
		if (ab->mem == x->src->abbrev.mem && ab->table == cu->abbrev)
			x->ab = ab;
	}
	if ((ret = read_die(x, &c, d)) == -CR_EFAULT && c.mem != x->src->info.mem) {
		cr_cursor_init(&c, x->src->info.mem, x->src->info.lo + cu->die,
			       x->src->info.lo + cu->end);
		ret = read_die(x, &c, d);
	}
	if (ret != 0)
		return ret > 0 ? -CR_EINVAL : ret;	/* a unit needs a DIE */
	if (d->tag != DW_TAG_compile_unit && d->tag != DW_TAG_partial_unit)
		return -CR_EINVAL;
	cu->tag = (uint16_t)d->tag;
	/* The bases first: the other attributes' indexes go through them. */
	if ((v = &d->a[A_STR_BASE])->cls == V_SECOFF) {
		cu->str_offsets_base = v->u;
		cu->has |= CR_DWCU_STR_OFFSETS_BASE;
	}
	if ((v = &d->a[A_ADDR_BASE])->cls == V_SECOFF) {
		cu->addr_base = v->u;
		cu->has |= CR_DWCU_ADDR_BASE;
	}
	if ((v = &d->a[A_RNG_BASE])->cls == V_SECOFF) {
		cu->rnglists_base = v->u;
		cu->has |= CR_DWCU_RNGLISTS_BASE;
	}
	/* DWARF 2-3 give a section offset as data4 or data8. */
	if ((v = &d->a[A_STMT_LIST])->cls == V_SECOFF || v->cls == V_CONST) {
		cu->stmt_list = v->u;
		cu->has |= CR_DWCU_STMT_LIST;
	}
	if ((v = &d->a[A_LANGUAGE])->cls == V_CONST) {
		cu->language = v->u;
		cu->has |= CR_DWCU_LANGUAGE;
	}
	if (d->a[A_LOW].cls != V_NONE) {
		if ((ret = addr_of(x, &d->a[A_LOW], &cu->low_pc)) < 0)
			return ret;
		cu->has |= CR_DWCU_LOW_PC;
	}
	if ((ret = str_of(x, &d->a[A_NAME], &cu->name)) < 0 ||
	    (ret = str_of(x, &d->a[A_COMP_DIR], &cu->comp_dir)) < 0)
		return ret;
	return 0;
}

int cr_dwinfo_unit_ab(const struct cr_dwinfo_src *src, uint64_t off, struct cr_dwcu *cu,
		      struct cr_dwabbrevs *ab)
{
	struct ctx x;
	struct die d;
	int ret;

	memset(&x, 0, sizeof(x));
	x.src = src;
	if ((ret = unit(&x, off, &d, ab)) < 0)
		return ret;
	*cu = x.cu;
	return 0;
}

int cr_dwinfo_unit(const struct cr_dwinfo_src *src, uint64_t off, struct cr_dwcu *cu)
{
	return cr_dwinfo_unit_ab(src, off, cu, NULL);
}

/*
 * 6.1.2: the set of .debug_aranges at *pos: its unit's .debug_info offset
 * (*info), its version (*ver), address and segment sizes, and c limited to
 * it and past its header; *pos moves to the next set.  0 or the error.
 */
static int aranges_set(const struct cr_dwinfo_src *src, uint64_t *pos, struct cr_cursor *c,
		       uint64_t *info, unsigned *ver, unsigned *asz, unsigned *seg, uint64_t *start)
{
	const struct cr_dwsect *s = &src->aranges;
	uint64_t len;
	uint8_t osz;
	int ret;

	cr_cursor_init(c, s->mem, *pos, s->hi);
	if ((ret = cr_dw_unit_length(c, &len, &osz)) < 0)
		return ret;
	*start = *pos;
	*pos = c->pos + len;
	cr_cursor_limit(c, *pos);
	*ver = cr_u16(c);
	*info = readn(c, osz);
	*asz = cr_u8(c);
	*seg = cr_u8(c);
	return c->err ? cerr(c) : 0;
}

/*
 * 6.1.2: a version 2 set's tuples, one at a time, for both walks of the
 * sets (aranges(), cr_dwinfo_find_cu_many): in place where they are two
 * 8-byte addresses without a segment and the memory lets us, else through
 * the cursor that aranges_set left past the set's header.
 */
struct tuples {
	struct cr_cursor c;
	const uint8_t *t;	/* in place: the next tuple; NULL: through c */
	uint64_t left;		/* in place: the set's bytes from t */
	unsigned asz, seg, k;
};

/* The first tuple, aligned to the tuple's size from the set's start.  0 or -CR_EINVAL. */
static int tuples_begin(const struct cr_dwsect *s, struct tuples *tp, uint64_t start,
			uint64_t end)
{
	uint64_t tuple;

	if (tp->asz == 0 || tp->asz > 8 || tp->seg > 8)
		return -CR_EINVAL;
	tuple = 2 * tp->asz + tp->seg;
	cr_skip(&tp->c, (tuple - (tp->c.pos - start) % tuple) % tuple);
	tp->k = 0;
	tp->t = NULL;
	if (tp->asz == 8 && tp->seg == 0 && !tp->c.err && tp->c.pos < end) {
		tp->t = cr_mem_view(s->mem, tp->c.pos, end - tp->c.pos);
		tp->left = end - tp->c.pos;
	}
	return 0;
}

/*
 * The next tuple [*a, *a + *len): 1; the terminator: 0; -CR_EINVAL: cut
 * short (truncated data is malformed); -CR_ERANGE: CR_DWINFO_MAX_RANGES
 * tuples and no terminator.
 */
static inline int tuples_next(struct tuples *tp, uint64_t *a, uint64_t *len)
{
	uint64_t sg = 0;

	if (tp->k++ == CR_DWINFO_MAX_RANGES)
		return -CR_ERANGE;
	if (tp->t) {
		if (tp->left < 16)
			return -CR_EINVAL;
		memcpy(a, tp->t, 8);	/* little-endian targets only, as the cursor */
		memcpy(len, tp->t + 8, 8);
		tp->t += 16;
		tp->left -= 16;
	} else {
		sg = tp->seg ? readn(&tp->c, tp->seg) : 0;
		*a = readn(&tp->c, tp->asz);
		*len = readn(&tp->c, tp->asz);
		if (tp->c.err)
			return cerr(&tp->c);
	}
	return sg || *a || *len;
}

/*
 * 6.1.2: the version 2 sets of .debug_aranges, every tuple of each.  [*lo,
 * *hi) (span not NULL): around pc, where the answer is the same: inside the
 * tuple found, outside every tuple before it (those below pc end at or
 * below *lo, those above start at or above *hi).
 */
static int aranges(const struct cr_dwinfo_src *src, uint64_t pc, uint64_t *off, uint64_t *span)
{
	const struct cr_dwsect *s = &src->aranges;
	struct tuples tp;
	uint64_t pos = s->lo;

	for (unsigned i = 0; i < CR_DWINFO_MAX_UNITS && pos < s->hi; i++) {
		uint64_t info, start, a, len;
		unsigned ver;
		int ret;

		if ((ret = aranges_set(src, &pos, &tp.c, &info, &ver, &tp.asz, &tp.seg, &start)) < 0)
			return ret;
		if (ver != 2)
			continue;	/* a later version we do not know: its set is skipped */
		if ((ret = tuples_begin(s, &tp, start, pos)) < 0)
			return ret;
		while ((ret = tuples_next(&tp, &a, &len)) == 1) {
			if (pc >= a && pc - a < len) {
				*off = info;
				if (span) {
					span[0] = a > span[0] ? a : span[0];
					span[1] = len < span[1] - a ? a + len : span[1];
				}
				return 0;
			}
			if (span && a > pc)
				span[1] = a < span[1] ? a : span[1];
			else if (span)
				span[0] = a + len > span[0] ? a + len : span[0];	/* a + len <= pc */
		}
		if (ret < 0)
			return ret;
	}
	return pos < s->hi ? -CR_ERANGE : -CR_ENOINFO;
}

/*
 * The walk of the units for a pc .debug_aranges does not have: which
 * units it may pass by.  6.1.2: a set describes "the portion of the
 * program's address space that is covered by a single compilation unit",
 * so a unit that has a version 2 set (all of whose tuples aranges() read)
 * does not hold the pc, and its DIE need not be read.  The sets are taken
 * in turn as the walk's offsets grow: producers and linkers write them in
 * their units' order.  Where they are not, a unit whose set was passed
 * already is read, as without sets; a malformed set ends the passing by.
 */
struct listed {
	uint64_t pos;		/* the next set */
	uint64_t info;		/* the unit of the set before it; UINT64_MAX: none left */
	uint8_t off;		/* malformed: pass nothing by */
};

static void listed_next(const struct cr_dwinfo_src *src, struct listed *l)
{
	struct cr_cursor c;
	uint64_t info, start;
	unsigned ver, asz, seg;

	for (unsigned i = 0; i < CR_DWINFO_MAX_UNITS; i++) {
		if (l->pos >= src->aranges.hi) {
			l->info = UINT64_MAX;
			return;
		}
		if (aranges_set(src, &l->pos, &c, &info, &ver, &asz, &seg, &start) < 0)
			break;
		if (ver == 2) {
			l->info = info;
			return;
		}
	}
	l->off = 1;
}

/* Whether the unit at .debug_info offset off has a set (offsets asked in increasing order). */
static int listed_has(const struct cr_dwinfo_src *src, struct listed *l, uint64_t off)
{
	for (unsigned i = 0; i < CR_DWINFO_MAX_UNITS && !l->off && l->info < off; i++)
		listed_next(src, l);
	return !l->off && l->info == off;
}

/*
 * cr_dwinfo_find_cu_many: one tuple [a, a + len) against the sorted pcs:
 * each pc inside that no earlier tuple held gets the set's unit.
 */
struct many {
	const uint64_t *pcs;
	unsigned n, left;
	uint64_t *off;
	uint8_t *found;
};

static void many_tuple(struct many *m, uint64_t a, uint64_t len, uint64_t info)
{
	unsigned lo = 0, hi = m->n;

	while (lo < hi) {	/* the first pc >= a */
		unsigned mid = (lo + hi) / 2;

		if (m->pcs[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->n && m->pcs[lo] - a < len; lo++)
		if (!m->found[lo]) {
			m->found[lo] = 1;
			m->off[lo] = info;
			m->left--;
		}
}

int cr_dwinfo_find_cu_many(const struct cr_dwinfo_src *src, const uint64_t *pcs, unsigned n,
			   uint64_t *off, uint8_t *found)
{
	const struct cr_dwsect *s = &src->aranges;
	struct tuples tp;
	struct many m;
	uint64_t pos = s->lo;

	if (n > CR_DWINFO_MANY)
		n = CR_DWINFO_MANY;
	for (unsigned i = 0; i < n; i++)
		found[i] = 0;
	for (unsigned i = 1; i < n; i++)
		if (pcs[i] < pcs[i - 1])
			return -CR_EINVAL;
	if (!sect_ok(s) || n == 0)
		return 0;
	m.pcs = pcs;
	m.n = m.left = n;
	m.off = off;
	m.found = found;
	/* The sets as aranges() reads them, up to the end or a malformed part:
	   what was read before it answers as aranges() would (it reads the
	   same tuples first). */
	for (unsigned i = 0; i < CR_DWINFO_MAX_UNITS && pos < s->hi && m.left; i++) {
		uint64_t info, start, a, len;
		unsigned ver;
		int ret;

		if (aranges_set(src, &pos, &tp.c, &info, &ver, &tp.asz, &tp.seg, &start) < 0)
			break;
		if (ver != 2)
			continue;
		if (tuples_begin(s, &tp, start, pos) < 0)
			break;
		while ((ret = tuples_next(&tp, &a, &len)) == 1)
			many_tuple(&m, a, len, info);
		if (ret < 0)
			break;
	}
	return (int)(n - m.left);
}

int cr_dwinfo_find_cu(const struct cr_dwinfo_src *src, uint64_t pc, uint64_t *off)
{
	return cr_dwinfo_find_cu_span(src, pc, off, NULL, NULL);
}

int cr_dwinfo_find_cu_span(const struct cr_dwinfo_src *src, uint64_t pc, uint64_t *off,
			   uint64_t *lo, uint64_t *hi)
{
	const struct cr_dwsect *s = &src->info;
	uint64_t pos = 0, low, span[2] = { 0, UINT64_MAX };
	struct cr_dwinfo_src hsrc;
	struct listed l;
	struct ctx x;
	struct die d;
	int ret, has, hit;

	if (lo && hi) {	/* pc alone, unless .debug_aranges says more */
		*lo = pc;
		*hi = pc + 1;
	}
	if (sect_ok(&src->aranges) && (ret = aranges(src, pc, off, span)) != -CR_ENOINFO) {
		if (ret == 0 && lo && hi) {
			*lo = span[0];
			*hi = span[1];
		}
		return ret;
	}
	if (!sect_ok(s))
		return -CR_ENOINFO;
	memset(&x, 0, sizeof(x));
	x.src = src;
	/* The headers of the units passed by: through the probe if any. */
	hsrc = *src;
	if (src->probe)
		hsrc.info.mem = src->probe;
	l.pos = src->aranges.lo;
	l.info = UINT64_MAX;
	l.off = !sect_ok(&src->aranges);
	if (!l.off)
		listed_next(src, &l);
	for (unsigned i = 0; i < CR_DWINFO_MAX_UNITS; i++) {
		if (pos >= s->hi - s->lo)
			return -CR_ENOINFO;
		if (listed_has(src, &l, pos)) {
			struct cr_cursor c;

			ret = header(&hsrc, pos, &x.cu, &c);
			if (ret < 0 && ret != -CR_ENOSYS)
				return ret;
			pos = x.cu.end;
			continue;
		}
		ret = unit(&x, pos, &d, NULL);
		if (ret == -CR_ENOSYS) {
			pos = x.cu.end;
			continue;
		}
		if (ret < 0)
			return ret;
		if ((ret = die_pc(&x, &d, pc, &has, &hit, &low)) < 0)
			return ret;
		if (hit) {
			*off = pos;
			return 0;
		}
		pos = x.cu.end;
	}
	return -CR_ERANGE;
}

/* Make the unit that holds .debug_info offset off x's (walking the unit headers up to it). */
static int goto_unit(struct ctx *x, uint64_t off)
{
	const struct cr_dwsect *s = &x->src->info;
	struct cr_cursor c;
	struct die d;
	uint64_t pos = 0;
	int ret;

	if (off >= x->cu.die && off < x->cu.end)
		return 0;
	for (unsigned i = 0; i < CR_DWINFO_MAX_UNITS; i++) {
		if (pos >= s->hi - s->lo)
			return -CR_EINVAL;	/* past the section */
		ret = header(x->src, pos, &x->cu, &c);
		if (ret < 0 && ret != -CR_ENOSYS)
			return ret;
		if (off < x->cu.end) {
			if (ret < 0 || off < x->cu.die)
				return -CR_EINVAL;	/* into a header, or a type unit */
			return unit(x, pos, &d, NULL);
		}
		pos = x->cu.end;
	}
	return -CR_ERANGE;
}

/*
 * 3.3.8.1, 2.13: the name of the DIE at off: a linkage name wherever found
 * on the way through abstract_origin and specification, else the first
 * DW_AT_name.
 */
static int die_name(struct ctx *x, struct cr_cursor *c, struct die *d, uint64_t off,
		    struct cr_dwframe *f)
{
	const struct cr_dwsect *s = &x->src->info;
	const struct cr_mem *pm;
	struct cr_dwstr str;
	const struct val *next;
	int ret;

	f->name.sect = NULL;
	f->name.pos = 0;
	f->linkage = 0;
	for (unsigned hop = 0; hop < CR_DWINFO_MAX_REFS; hop++) {
		if ((ret = goto_unit(x, off)) < 0)
			return ret;
		/* In a long unit, walked through the window (walk_window), a
		   declaration far from the walk (a class's, at the unit's start)
		   by pread where the source has a probe, not by a page fault
		   that maps 16 pages for a DIE (the same bytes); in a short one
		   the walk has mapped those pages, and a pread would cost a
		   system call or three for nothing. */
		pm = x->src->probe && x->cu.end - x->cu.off >= CR_DWWALK_WIN_MIN ? x->src->probe
										: s->mem;
		cr_cursor_init(c, pm, s->lo + off, s->lo + x->cu.end);
		if ((ret = read_die(x, c, d)) == -CR_EFAULT && pm != s->mem) {
			cr_cursor_init(c, s->mem, s->lo + off, s->lo + x->cu.end);
			ret = read_die(x, c, d);	/* the file not read: its mapping */
		}
		if (ret != 0)
			return ret > 0 ? -CR_EINVAL : ret;	/* a reference to a null entry */
		if ((ret = str_of(x, &d->a[A_LINKAGE], &str)) < 0)
			return ret;
		if (str.sect) {
			f->name = str;
			f->linkage = 1;
			return 0;
		}
		if ((ret = str_of(x, &d->a[A_NAME], &str)) < 0)
			return ret;
		if (!f->name.sect)
			f->name = str;
		next = d->a[A_ORIGIN].cls != V_NONE ? &d->a[A_ORIGIN] : &d->a[A_SPEC];
		switch (next->cls) {
		case V_NONE:
		case V_FOREIGN:
			return 0;
		case V_REF:
			if (next->u < x->cu.die || next->u >= x->cu.end)
				return -CR_EINVAL;
			off = next->u;
			break;
		case V_REF_ADDR:
			if (next->u >= s->hi - s->lo)
				return -CR_EINVAL;
			off = next->u;
			break;
		default:
			return -CR_EINVAL;
		}
	}
	return -CR_ERANGE;	/* a cycle, or a longer chain than we follow */
}

/* A frame of the walk: its DIE, its depth, its call site. */
struct link {
	uint64_t die, low;
	uint32_t depth;
	uint8_t inlined;
	uint64_t call_file, call_line, call_column;
};

static uint64_t konst(const struct val *v)
{
	return v->cls == V_CONST ? v->u : 0;
}

/*
 * Can the children of a DIE with this tag describe code (a subprogram, an
 * inlined call, a block)?  Scopes only: namespaces and modules (clang puts
 * definitions in their namespace) and the blocks of code themselves.  The
 * children of types (their members' declarations: GCC and clang put member
 * function definitions at the unit's level, with DW_AT_specification),
 * of variables and of parameters are not walked.
 */
static int may_hold_code(unsigned tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_module || tag == DW_TAG_subprogram ||
	       tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block ||
	       tag == DW_TAG_try_block || tag == DW_TAG_catch_block;
}

/*
 * A DIE with addresses that the walk examined outside any subprogram, for
 * cr_dwwalks: a subprogram is recorded (with the sibling jump a walk that
 * misses it would take: after the DIE, at pos); inlined code there is not
 * (whether the walk goes into it depends on the pc).
 */
/*
 * A new entry of the record for the subprogram DIE at off (in the section)
 * at depth, read after dies DIEs, with no span yet (read again for each
 * pc); NULL when the unit cannot be recorded (x->norec).
 */
_Static_assert(CR_DWINFO_MAX_DIES <= 1u << 24 && (CR_DWINFO_MAX_DIES & (CR_DWINFO_MAX_DIES - 1)) == 0,
	       "a record's dies field is 24 bits, read with a mask");
static struct cr_dwwalk_sub *rec_new(struct ctx *x, uint64_t off, unsigned depth, uint32_t dies)
{
	struct cr_dwwalk_sub *e;

	if (x->nrec == x->maxrec || off < x->cu.off || off - x->cu.off > UINT32_MAX ||
	    depth > 255 || dies >= CR_DWINFO_MAX_DIES) {
		x->norec = 1;
		return NULL;
	}
	e = &x->rec[x->nrec++];
	e->off = (uint32_t)(off - x->cu.off);
	e->dd = dies | (uint32_t)depth << 24;
	e->lo = e->len = 0;
	x->grp = 0;
	return e;
}

/* What rec_new packed into e->dd: the DIEs read before it, and its depth. */
static inline uint32_t rec_dies(const struct cr_dwwalk_sub *e)
{
	return e->dd & (CR_DWINFO_MAX_DIES - 1);
}

static inline unsigned rec_depth(const struct cr_dwwalk_sub *e)
{
	return e->dd >> 24;
}

/* e's code is [lo, hi): kept when it fits the entry's fields (a lo below
   the base wraps above them), else e stays one to read again (the same
   answers, more slowly). */
static void rec_span(const struct ctx *x, struct cr_dwwalk_sub *e, uint64_t lo, uint64_t hi)
{
	uint64_t base = x->cu.low_pc;

	if (lo - base <= UINT32_MAX && hi > lo && hi - lo <= UINT32_MAX) {
		e->lo = (uint32_t)(lo - base);
		e->len = (uint32_t)(hi - lo);
	}
}

/*
 * A subprogram walk_fast passed by, whose code is [lo, hi), joins the last
 * entry when that is an open group of fewer than CR_DWWALK_GROUP and the
 * union still fits its fields: the entry, or NULL (a new one is needed).
 */
static struct cr_dwwalk_sub *rec_join(struct ctx *x, uint64_t lo, uint64_t hi)
{
	uint64_t base = x->cu.low_pc, ulo, uhi;
	struct cr_dwwalk_sub *e;

	if (x->grp == 0 || x->grp >= CR_DWWALK_GROUP || hi <= lo)
		return NULL;
	e = &x->rec[x->nrec - 1];
	ulo = base + e->lo;
	uhi = ulo + e->len;
	if (lo < ulo)
		ulo = lo;
	if (hi > uhi)
		uhi = hi;
	if (ulo - base > UINT32_MAX || uhi - ulo > UINT32_MAX)
		return NULL;
	e->lo = (uint32_t)(ulo - base);
	e->len = (uint32_t)(uhi - ulo);
	x->grp++;
	return e;
}

static void record(struct ctx *x, const struct die *d, unsigned depth, uint64_t pos)
{
	struct cr_dwwalk_sub *e;
	const struct val *sib = &d->a[A_SIBLING];
	uint64_t lo, hi;

	if (d->tag != DW_TAG_subprogram) {
		x->norec = 1;
		return;
	}
	if (!(e = rec_new(x, d->off, depth, x->dies)))
		return;
	if (d->a[A_RANGES].cls == V_NONE && addr_of(x, &d->a[A_LOW], &lo) == 0) {
		if (d->a[A_HIGH].cls == V_CONST)
			rec_span(x, e, lo, lo + d->a[A_HIGH].u);
		else if (addr_of(x, &d->a[A_HIGH], &hi) == 0)
			rec_span(x, e, lo, hi);
	}
	x->sib = d->children && sib->cls == V_REF && sib->u >= pos && sib->u < x->cu.end ? sib->u : 0;
}

/*
 * The walk (see info.h): depth is the nesting of the next DIE; skip >= 0:
 * inside the children of a DIE at depth skip whose ranges miss pc.  1: done.
 */
static int walk_die(struct ctx *x, struct cr_cursor *c, struct die *d, uint64_t pc,
		    struct link *ch, unsigned *n, unsigned *depth, int *skip)
{
	int ret, has = 0, hit = 0, jump = 0;
	uint64_t low;

	if ((ret = read_die(x, c, d)) < 0)
		return ret;
	if (ret > 0) {	/* the end of a list of children */
		if (*depth == 0)
			return 0;	/* padding after the unit's DIE */
		--*depth;
		if (*skip >= 0 && *depth <= (unsigned)*skip)
			*skip = -1;
		return *n && *depth <= ch[0].depth;	/* out of the subprogram */
	}
	if (*skip < 0 && *depth > 0 &&
	    (d->tag == DW_TAG_subprogram || d->tag == DW_TAG_inlined_subroutine ||
	     d->tag == DW_TAG_lexical_block)) {
		if ((ret = die_pc(x, d, pc, &has, &hit, &low)) < 0)
			return ret;
		if (x->rec && !*n && has)
			record(x, d, *depth, c->pos - x->src->info.lo);
		if (hit && (d->tag == DW_TAG_subprogram || (*n && d->tag != DW_TAG_lexical_block))) {
			if (d->tag == DW_TAG_subprogram)
				*n = 0;	/* a nested subprogram: the innermost wins */
			if (*n == CR_DWINFO_MAX_FRAMES)
				return -CR_ERANGE;
			ch[*n].die = d->off;
			ch[*n].low = low;
			ch[*n].depth = *depth;
			ch[*n].inlined = d->tag == DW_TAG_inlined_subroutine;
			ch[*n].call_file = konst(&d->a[A_CALL_FILE]);
			ch[*n].call_line = konst(&d->a[A_CALL_LINE]);
			ch[*n].call_column = konst(&d->a[A_CALL_COLUMN]);
			++*n;
			if (!d->children && d->tag == DW_TAG_subprogram)
				return 1;
		}
		/* A subprogram without addresses (a declaration, an abstract
		   instance) holds no code either. */
		jump = d->tag == DW_TAG_subprogram ? !hit : has && !hit;
	} else if (*skip < 0 && *depth > 0 && !may_hold_code(d->tag)) {
		jump = 1;	/* a type's members, a function's parameters */
	} else {
		jump = *skip >= 0;
	}
	if (!d->children)
		return 0;
	if (jump && d->a[A_SIBLING].cls == V_REF && d->a[A_SIBLING].u >= c->pos - x->src->info.lo &&
	    d->a[A_SIBLING].u < x->cu.end) {
		cr_skip(c, d->a[A_SIBLING].u - (c->pos - x->src->info.lo));
		return 0;
	}
	if (jump && *skip < 0)
		*skip = (int)*depth;
	if (++*depth > CR_DWINFO_MAX_DEPTH)
		return -CR_ERANGE;
	return 0;
}

/* n (1 to 8) little-endian bytes at p; the common sizes as one load. */
static inline uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	uint32_t w;

	switch (n) {	/* little-endian targets only, as the cursor */
	case 8:
		memcpy(&v, p, 8);
		return v;
	case 4:
		memcpy(&w, p, 4);
		return w;
	}
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/*
 * The end of a DIE of declaration dc with strings or blocks (nvar): from
 * *q, its attributes' start in u, through the runs and the variable
 * attributes to *q, its end.  -CR_EINVAL: past end, or a length of more
 * than 4 bytes of LEB128 (read_die reads it then).
 */
static int var_end(const uint8_t *u, uint64_t end, const struct cr_dwabbrev_decl *dc,
		   uint64_t *q)
{
	uint64_t p = *q;

	for (unsigned j = 0; j <= dc->nvar; j++) {
		uint64_t n = 0;

		if (dc->run[j] > end - p)
			return -CR_EINVAL;
		p += dc->run[j];
		if (j == dc->nvar)
			break;
		switch (dc->var[j]) {
		case CR_DWVAR_STRING:
			while (p < end && u[p])	/* (no memchr: not on the allowlist) */
				p++;
			if (p >= end)
				return -CR_EINVAL;
			p++;
			continue;
		case CR_DWVAR_BLOCK1:
			if (p >= end)
				return -CR_EINVAL;
			n = u[p++];
			break;
		default:	/* CR_DWVAR_BLOCK: a ULEB128 length */
			for (unsigned b = 0;; b++) {
				if (b == 4 || p >= end)
					return -CR_EINVAL;
				n |= (uint64_t)(u[p] & 0x7f) << (7 * b);
				if (!(u[p++] & 0x80))
					break;
			}
			break;
		}
		if (n > end - p)
			return -CR_EINVAL;
		p += n;
	}
	*q = p;
	return 0;
}

/*
 * walk_die in place, for the DIEs whose declarations the walk can take
 * without reading them (CR_DWFAST_*, decode_fast) and for null entries:
 * u holds the unit's bytes (x->cu.off to x->cu.end), c is at a DIE in it.
 * Each such DIE is taken as walk_die would take it, its code read, its
 * sibling, low_pc and high_pc read where they lie, then passed by one add
 * (or jumped to its sibling); a subprogram whose addresses miss pc is
 * recorded as record() does.  Stops before the first DIE it cannot take:
 * another declaration, a code above the cache or of more than two bytes, a
 * unit's own DIE, a subprogram that holds pc, a null entry that ends the
 * walk, a DIE past the unit's end or that would nest too deep: walk_die
 * reads that one (and finds the same error, if any).  *i counts the DIEs
 * as the walk's loop does, within the same bound.
 */
static void walk_fast(struct ctx *x, const uint8_t *u, uint64_t uend, struct cr_cursor *c,
		      uint64_t pc, const struct link *ch, unsigned nch, unsigned *depth, int *skip,
		      unsigned *i)
{
	const struct cr_dwabbrev_decl *decl = x->ab->decl;
	uint64_t cuoff = x->cu.off, base = x->src->info.lo + cuoff, ulen = x->cu.end - cuoff;
	uint64_t pos = c->pos - base, end = c->end - base;	/* in u */
	unsigned d = *depth, k = *i, asz = x->cu.addr_size;
	unsigned stop = nch ? ch[0].depth : 0;	/* a null entry at stop + 1 ends the walk */
	int sk = *skip, rec = x->rec && !nch;

	if (c->err || c->pos < base || c->end < c->pos || end > ulen)
		return;
	if (end > uend)
		end = uend;	/* a window's end: a DIE past it stops the walk here */
	for (; k < CR_DWINFO_MAX_DIES && pos < end; k++) {
		const struct cr_dwabbrev_decl *dc;
		uint64_t code = u[pos], next = pos + 1, sib = UINT64_MAX;
		unsigned jump;

		if (code & 0x80) {
			if (end - pos < 2 || (u[pos + 1] & 0x80))
				break;
			code = (code & 0x7f) | (uint64_t)u[pos + 1] << 7;
			next++;
		}
		if (code == 0) {	/* the end of a list of children */
			if (d > 0) {
				if (nch && d - 1 <= stop)
					break;	/* out of the subprogram: walk_die ends it */
				if (--d, sk >= 0 && d <= (unsigned)sk)
					sk = -1;
			}
			pos = next;
			continue;
		}
		if (code >= CR_DWINFO_ABBREV_CACHE || !decl[code].fast || d == 0)
			break;
		dc = &decl[code];
		const uint8_t *a = u + next;
		if (!dc->nvar) {
			if (dc->size > end - next)
				break;
			next += dc->size;
		} else if (var_end(u, end, dc, &next) < 0) {
			break;	/* past the unit: read_die's error */
		}
		const uint8_t *z = u + next;
		unsigned e = dc->end, children = dc->children;

		if (dc->sibw) {
			uint64_t v = le(e & 1 ? z - dc->sib : a + dc->sib, dc->sibw);

			/* read_form's reference: from the unit's start, in it;
			   walk_die's jump: forward */
			if (v < ulen && v >= next)
				sib = v;
		}
		jump = sk >= 0 || dc->jump;
		if (children && !(jump && sib != UINT64_MAX) && d + 1 > CR_DWINFO_MAX_DEPTH)
			break;	/* walk_die's error */
		if (dc->fast == CR_DWFAST_SUB && sk < 0) {
			uint64_t lo = le(e & 2 ? z - dc->low : a + dc->low, asz),
				 hi = le(e & 4 ? z - dc->high : a + dc->high, dc->hw);

			if (dc->hc)
				hi += lo;
			if (lo <= pc && pc < hi)
				break;	/* the chain's subprogram */
			if (rec) {	/* record(), or a group's next (rec_join) */
				struct cr_dwwalk_sub *r = rec_join(x, lo, hi);

				if (!r && (r = rec_new(x, cuoff + pos, d, k))) {
					rec_span(x, r, lo, hi);
					x->grp = r->len != 0;	/* a group opens */
				}
				if (r)
					x->sib = children && sib != UINT64_MAX ? cuoff + sib : 0;
			}
		}
		pos = next;
		if (!children)
			continue;
		if (jump && sib != UINT64_MAX) {
			pos = sib;
			continue;
		}
		if (jump && sk < 0)
			sk = (int)d;
		d++;
	}
	c->pos = base + pos;
	*depth = d;
	*skip = sk;
	*i = k;
}

/*
 * The size of a value of form in x's unit when it is fixed (7.5.6), else
 * 0xff: what the walk can pass by without reading it.
 */
static uint8_t fixed_size(const struct ctx *x, uint64_t form)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag: case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4: case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return x->cu.addr_size;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		return x->cu.offsize;
	case DW_FORM_ref_addr:	/* DWARF 2: an address's size */
		return x->cu.version <= 2 ? x->cu.addr_size : x->cu.offsize;
	}
	return 0xff;
}

/* The variable-sized forms the walk in place passes (CR_DWVAR_*), else 0. */
static unsigned var_form(uint64_t form)
{
	switch (form) {
	case DW_FORM_string:
		return CR_DWVAR_STRING;
	case DW_FORM_exprloc:
	case DW_FORM_block:
		return CR_DWVAR_BLOCK;
	case DW_FORM_block1:
		return CR_DWVAR_BLOCK1;
	}
	return 0;
}

/*
 * The in-place walk's view of a declaration (walk_fast), built as
 * decode_abbrevs reads its specifications (struct fastv), then kept:
 * only when every attribute has a fixed size in x's unit but at most 4
 * strings or blocks, the sibling, low_pc and high_pc the walk reads lie
 * before the first of those or after the last, and its addresses, if any,
 * are a subprogram's low_pc (DW_FORM_addr) and high_pc (addr, or data1-8:
 * an offset from low_pc).  An attribute given twice: the last wins, as in
 * read_die.
 */
struct fastv {
	unsigned size, run, nvar, sibw, hw, hc, ok;
	unsigned at[3], seg[3];	/* sibling, low, high */
	unsigned has_low, has_high, low_ok, high_ok;
	uint8_t var[4];
	uint16_t runs[5];
};

/* One specification: form (of fixed size n, 0xff: none; v: CR_DWVAR_*) for slot k. */
static inline void fast_spec(struct fastv *f, unsigned form, unsigned n, unsigned v, int k)
{
	if (v)
		n = 0;
	if (n == 0xff || k == A_RANGES) {	/* a LEB128, another block: read it */
		f->ok = 0;
		return;
	}
	if (k == A_SIBLING || k == A_LOW || k == A_HIGH) {
		unsigned w = k == A_SIBLING ? 0 : k == A_LOW ? 1 : 2;

		f->at[w] = f->run;
		f->seg[w] = f->nvar;
		if (k == A_SIBLING) {	/* only a reference in the unit is jumped to (walk_die) */
			f->sibw = form == DW_FORM_ref1 || form == DW_FORM_ref2 ||
					  form == DW_FORM_ref4 || form == DW_FORM_ref8
				  ? n : 0;
		} else if (k == A_LOW) {
			f->has_low = 1;
			f->low_ok = form == DW_FORM_addr;
		} else {
			f->has_high = 1;
			f->hw = n;
			f->hc = form == DW_FORM_data1 || form == DW_FORM_data2 ||
				form == DW_FORM_data4 || form == DW_FORM_data8;
			f->high_ok = f->hc || form == DW_FORM_addr;
		}
	}
	if (v) {
		if (f->nvar == 4) {
			f->ok = 0;
			return;
		}
		f->runs[f->nvar] = (uint16_t)f->run;
		f->var[f->nvar++] = (uint8_t)v;
		f->run = 0;
		return;
	}
	f->run += n;
	f->size += n;
}

/* The view of declaration code (of tag) kept, or fast 0. */
static void fast_keep(struct cr_dwabbrevs *ab, unsigned code, uint64_t tag, struct fastv *f)
{
	struct cr_dwabbrev_decl *dc = &ab->decl[code];

	dc->fast = 0;
	if (!f->ok)
		return;
	f->runs[f->nvar] = (uint16_t)f->run;
	if (f->has_low && f->has_high) {
		/* die_pc reads them (an address of another form goes through
		   .debug_addr, or fails): read_die's */
		if (tag != DW_TAG_subprogram || !f->low_ok || !f->high_ok)
			return;
		dc->fast = CR_DWFAST_SUB;
	} else {
		dc->fast = CR_DWFAST_PLAIN;	/* die_pc: none */
	}
	dc->end = 0;
	for (unsigned w = 0; w < 3; w++) {
		/* What the walk reads: in the first run, or in the last (from
		   the end: the bytes from the attribute to the DIE's end). */
		if ((w == 0 ? !f->sibw : dc->fast != CR_DWFAST_SUB) || f->seg[w] == 0)
			continue;
		if (f->seg[w] != f->nvar) {
			dc->fast = 0;
			return;
		}
		dc->end |= (uint8_t)(1u << w);
		f->at[w] = f->run - f->at[w];
	}
	/* walk_die's jump outside a skipped subtree: a subprogram without
	   addresses; a block without them is walked into; other DIEs by tag. */
	dc->jump = tag == DW_TAG_subprogram ? 1
		   : tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block
			   ? 0
			   : !may_hold_code((unsigned)tag);
	dc->size = (uint16_t)f->size;	/* <= 257 * 16 */
	dc->sib = (uint16_t)f->at[0];
	dc->sibw = (uint8_t)f->sibw;
	dc->low = (uint16_t)f->at[1];
	dc->high = (uint16_t)f->at[2];
	dc->hw = (uint8_t)f->hw;
	dc->hc = (uint8_t)f->hc;
	dc->nvar = (uint8_t)f->nvar;
	memcpy(dc->var, f->var, sizeof(f->var));
	memcpy(dc->run, f->runs, sizeof(f->runs));
}

/* The attributes the walk reads: ranges, the sibling to jump, an inline's call site. */
#define WALK_SLOTS                                                                             \
	(1u << A_LOW | 1u << A_HIGH | 1u << A_RANGES | 1u << A_SIBLING | 1u << A_CALL_FILE | \
	 1u << A_CALL_LINE | 1u << A_CALL_COLUMN)

/*
 * Decode x's unit's abbreviation table into ab (codes below
 * CR_DWINFO_ABBREV_CACHE; the first declaration of a code wins, as in
 * find_decl).  A table that does not fit, or is malformed, leaves ab empty:
 * the walk reads the table itself (and finds the same error, if any).  One
 * pass: each specification is stored, added to the walk's steps and to the
 * in-place view as it is read.
 */
static void decode_abbrevs(struct ctx *x, struct cr_dwabbrevs *ab)
{
	unsigned nspec = 0;
	/* The codes declared so far, kept or not: a later declaration of a
	   code whose first one was not kept (its tag too large) must not be
	   (find_decl takes the first). */
	uint8_t seen[CR_DWINFO_ABBREV_CACHE / 8];
	/* fixed_size() in this unit and var_form() for the forms of DWARF 5
	   (7.5.6: below 0x2d; every variable form the walk passes is), once:
	   each specification's is a load. */
	uint8_t fsz[0x30], fvar[0x30];

	for (unsigned f = 0; f < sizeof(fsz); f++) {
		fsz[f] = fixed_size(x, f);
		fvar[f] = (uint8_t)var_form(f);
	}
	ab->mem = NULL;
	ab->all = 1;
	/* Only the codes the last table had (a unit after another: each
	   frame of a backtrace that goes from module to module). */
	memset(ab->decl, 0, (ab->ndecl < CR_DWINFO_ABBREV_CACHE ? ab->ndecl : CR_DWINFO_ABBREV_CACHE) *
				    sizeof(ab->decl[0]));
	ab->ndecl = 0;
	memset(seen, 0, sizeof(seen));
	if (abbrev_start(x) < 0)
		return;
	for (unsigned i = 0; i < CR_DWINFO_MAX_ABBREVS; i++) {
		uint64_t code = cr_uleb(&x->a), tag;
		unsigned first = nspec, keep, w = first, acc = 0;
		struct fastv fv;
		uint8_t children;

		if (x->a.err)
			return;
		if (code == 0) {
			ab->mem = x->src->abbrev.mem;
			ab->table = x->cu.abbrev;
			ab->offsize = x->cu.offsize;
			ab->addr_size = x->cu.addr_size;
			ab->version = x->cu.version;
			return;
		}
		tag = cr_uleb(&x->a);
		children = cr_u8(&x->a);
		keep = code < CR_DWINFO_ABBREV_CACHE && !(seen[code / 8] >> (code % 8) & 1) &&
		       tag <= UINT16_MAX;
		if (code < CR_DWINFO_ABBREV_CACHE)
			seen[code / 8] |= (uint8_t)(1u << (code % 8));
		if (!keep)
			ab->all = 0;
		memset(&fv, 0, sizeof(fv));
		fv.ok = 1;
		for (unsigned k = 0;; k++) {
			uint64_t at, form;
			int64_t implicit;
			unsigned n, v;
			int sl;

			cr_uleb_pair(&x->a, &at, &form);
			implicit = form == DW_FORM_implicit_const ? cr_sleb(&x->a) : 0;

			if (x->a.err || k > CR_DWINFO_MAX_ATTRS)
				return;
			if (at == 0 && form == 0)
				break;
			if (!keep)
				continue;
			if (nspec == CR_DWABBREV_SPECS || form > UINT16_MAX)
				return;
			sl = slot(at);
			if (form < sizeof(fsz)) {
				n = fsz[form];
				v = fvar[form];
			} else {
				n = fixed_size(x, form);
				v = 0;
			}
			ab->spec[nspec].form = (uint16_t)form;
			ab->spec[nspec].implicit = implicit;
			ab->spec[nspec].slot = (int8_t)sl;
			ab->spec[nspec].size = (uint8_t)n;
			/* The walk's steps: runs of skips merged, each before a
			   read (never more steps than specifications: they fit). */
			if (n != 0xff && !(sl >= 0 && (WALK_SLOTS >> sl & 1))) {
				ab->spec[nspec].skip = (uint8_t)n;
				acc += n;
			} else {
				ab->spec[nspec].skip = 0xff;	/* read it */
				ab->wop[w].skip = (uint16_t)acc;
				ab->wop[w++].spec = (uint16_t)nspec;
				acc = 0;
			}
			if (fv.ok)
				fast_spec(&fv, (unsigned)form, n, v, sl);
			nspec++;
		}
		if (keep) {
			if (acc) {
				ab->wop[w].skip = (uint16_t)acc;
				ab->wop[w++].spec = 0xffff;
			}
			if (code >= ab->ndecl)
				ab->ndecl = (uint16_t)(code + 1);	/* < CR_DWINFO_ABBREV_CACHE */
			ab->decl[code].wfirst = (uint16_t)first;
			ab->decl[code].wn = (uint16_t)(w - first);
			ab->decl[code].first = (uint16_t)first;
			ab->decl[code].n = (uint16_t)(nspec - first);
			ab->decl[code].tag = (uint16_t)tag;
			ab->decl[code].children = children;
			ab->decl[code].present = 1;
			fast_keep(ab, (unsigned)code, tag, &fv);
		}
	}
}

int cr_dwinfo_inlines(const struct cr_dwinfo_src *src, const struct cr_dwcu *cu, uint64_t pc,
		      struct cr_dwframe *f, unsigned cap, unsigned *n)
{
	return cr_dwinfo_inlines_ab(src, cu, pc, f, cap, n, NULL);
}

int cr_dwinfo_inlines_ab(const struct cr_dwinfo_src *src, const struct cr_dwcu *cu, uint64_t pc,
			 struct cr_dwframe *f, unsigned cap, unsigned *n, struct cr_dwabbrevs *ab)
{
	return cr_dwinfo_inlines_wk(src, cu, pc, f, cap, n, ab, NULL);
}

/*
 * walk_fast over w's window of the unit's bytes, read with pread (the
 * source's probe) at c->pos whenever the walk leaves the window or stops
 * within CR_DWWALK_WIN_SLACK of its end (a DIE that the window cuts): the
 * same steps as in place, with the unit's bytes copied instead of mapped
 * (CR_DWWALK_WIN).  Returns with c->pos where walk_fast stopped for a
 * reason of its own (walk_die reads that DIE), or -CR_EFAULT if a read
 * failed (the caller walks in place from c->pos).
 */
#ifdef CR_DWWALK_SMALL
#define CR_DWWALK_WIN_SLACK 32u
#else
#define CR_DWWALK_WIN_SLACK 4096u
#endif
_Static_assert(CR_DWWALK_WIN_SLACK < CR_DWWALK_WIN / 2, "a window moves on by half itself at least");

/*
 * .debug_info's memory as the walk's cursor reads it while a window is in
 * use: the window's bytes where a read lies wholly in it (walk_die's DIEs
 * among walk_fast's), else the memory itself.  Its views of the window
 * last until the window moves, and walk_window drops the cursor's then.
 */
struct winmem {
	struct cr_mem m;
	const struct cr_mem *under;
	const struct cr_dwwalks *w;
};

static const void *winmem_view(const struct cr_mem *m, uint64_t addr, size_t len)
{
	const struct winmem *wm = m->priv;
	const struct cr_dwwalks *w = wm->w;

	if (w->wmem && addr >= w->wlo && addr < w->whi)	/* past its end: NULL, the cursor asks less */
		return len <= w->whi - addr ? w->win + (addr - w->wlo) : NULL;
	return cr_mem_view(wm->under, addr, len);
}

static int winmem_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	const struct winmem *wm = m->priv;
	const struct cr_dwwalks *w = wm->w;

	if (w->wmem && addr >= w->wlo && addr < w->whi && len <= w->whi - addr) {
		memcpy(dst, w->win + (addr - w->wlo), len);
		return 0;
	}
	return wm->under->read(wm->under, addr, dst, len);
}

static void winmem_init(struct winmem *wm, const struct cr_mem *under, const struct cr_dwwalks *w)
{
	memset(wm, 0, sizeof(*wm));
	wm->m.read = winmem_read;
	wm->m.view = winmem_view;
	wm->m.lo = under->lo;
	wm->m.hi = under->hi;
	wm->m.priv = wm;
	wm->under = under;
	wm->w = w;
}

static int walk_window(struct ctx *x, struct cr_dwwalks *w, const struct cr_mem *probe,
		       struct cr_cursor *c, uint64_t pc, const struct link *ch, unsigned nch,
		       unsigned *depth, int *skip, unsigned *i)
{
	uint64_t base = x->src->info.lo + x->cu.off;

	for (unsigned k = 0; k < CR_DWINFO_MAX_DIES && *i < CR_DWINFO_MAX_DIES && c->pos < c->end;
	     k++) {
		uint64_t at = c->pos;
		int fresh = 0;

		if (w->wmem != probe || at < w->wlo || at >= w->whi ||
		    (w->whi < c->end && w->whi - at < CR_DWWALK_WIN_SLACK)) {
			uint64_t len = c->end - at < CR_DWWALK_WIN ? c->end - at : CR_DWWALK_WIN;

			w->wmem = NULL;
			if (w->win_fresh) {
				cr_mem_populate_write(w->win, CR_DWWALK_WIN);
				w->win_fresh = 0;
			}
			if (probe->read(probe, at, w->win, (size_t)len) < 0)
				return -CR_EFAULT;
			w->wmem = probe;
			w->wlo = at;
			w->whi = at + len;
			fresh = 1;
			/* the cursor's view of the old bytes, if it had one, goes */
			cr_cursor_init(c, c->mem, at, c->end);
		}
		/* u as walk_fast indexes it, from the unit's start: the window
		   moved down by its offset in the unit (only [wlo, whi) of it
		   is read: walk_fast's end is the window's) */
		walk_fast(x, (const uint8_t *)((uintptr_t)w->win - (uintptr_t)(w->wlo - base)),
			  w->whi - base, c, pc, ch, nch, depth, skip, i);
		if (c->pos >= c->end || c->err)
			return 0;
		if (c->pos < w->whi && (w->whi >= c->end || w->whi - c->pos >= CR_DWWALK_WIN_SLACK))
			return 0;	/* not the window's end: a DIE for walk_die */
		if (fresh && c->pos == at)
			return 0;	/* a DIE longer than the slack */
	}
	return 0;
}

/*
 * Where unit u's record starts pc's walk: the cursor, depth and count of
 * DIEs at the first recorded subprogram that holds pc, or where the first
 * walk stopped.  0, or what the walk would have failed with there.
 */
static int resume(struct ctx *x, const struct cr_dwwalks *w, unsigned u, uint64_t pc,
		  struct cr_cursor *c, struct die *d, unsigned *depth, unsigned *dies)
{
	const struct cr_dwsect *s = &x->src->info;
	int ret, has, hit;
	uint64_t low;

	for (uint32_t k = 0; k < w->unit[u].n; k++) {
		const struct cr_dwwalk_sub *e = &w->sub[w->unit[u].first + k];
		uint64_t off = x->cu.off + e->off;

		if (e->len) {
			if (pc - x->cu.low_pc - e->lo >= e->len)
				continue;
		} else {
			cr_cursor_init(c, s->mem, s->lo + off, s->lo + x->cu.end);
			if ((ret = read_die(x, c, d)) != 0)
				return ret > 0 ? -CR_EINVAL : ret;
			if ((ret = die_pc(x, d, pc, &has, &hit, &low)) < 0)
				return ret;
			if (!hit)
				continue;
		}
		cr_cursor_init(c, s->mem, s->lo + off, s->lo + x->cu.end);
		*depth = rec_depth(e);
		*dies = rec_dies(e);
		return 0;
	}
	cr_cursor_init(c, s->mem, s->lo + w->unit[u].stop, s->lo + x->cu.end);
	*depth = w->unit[u].stop_depth;
	*dies = w->unit[u].stop_dies;
	return 0;
}

int cr_dwinfo_inlines_wk(const struct cr_dwinfo_src *src, const struct cr_dwcu *cu, uint64_t pc,
			 struct cr_dwframe *f, unsigned cap, unsigned *n, struct cr_dwabbrevs *ab,
			 struct cr_dwwalks *w)
{
	unsigned u = CR_DWWALK_UNITS, first = 0;
	const struct cr_dwsect *s = &src->info;
	uint32_t cache[CR_DWINFO_ABBREV_CACHE];
	struct link ch[CR_DWINFO_MAX_FRAMES];
	const uint8_t *ub;
	struct cr_cursor c;
	struct ctx x;
	struct die d;
	unsigned nch = 0, depth = 0, i;
	int ret = 0, skip = -1, win;
	struct winmem wm;

	if (!sect_ok(s) || cu->die < cu->off || cu->end > s->hi - s->lo || cu->die > cu->end)
		return -CR_EINVAL;
	memset(&x, 0, sizeof(x));
	x.src = src;
	x.cu = *cu;
	x.cache = cache;
	if (ab) {
		if (ab->mem != src->abbrev.mem || ab->table != cu->abbrev)
			decode_abbrevs(&x, ab);
		if (ab->mem == src->abbrev.mem && ab->table == cu->abbrev)
			x.ab = ab;
	}
	/* The cache of offsets is for the codes ab does not hold: none when it
	   holds the whole table (decoded without an error, the table would
	   fill the cache without one: the same reads). */
	if ((!x.ab || !x.ab->all) && (ret = fill_cache(&x)) < 0)
		return ret;
	cr_cursor_init(&c, s->mem, s->lo + cu->die, s->lo + cu->end);
	x.walk = 1;
	x.wsteps = x.ab && x.ab->offsize == cu->offsize && x.ab->addr_size == cu->addr_size &&
		   x.ab->version == cu->version;
	i = 0;
	for (unsigned k = 0; w && w->sub && k < w->nunits; k++)
		if (w->unit[k].mem == s->mem && w->unit[k].lo == s->lo && w->unit[k].cu == cu->off)
			u = k;
	if (u < CR_DWWALK_UNITS) {
		if ((ret = resume(&x, w, u, pc, &c, &d, &depth, &i)) < 0)
			return ret;
	} else if (w && w->sub && w->nunits < CR_DWWALK_UNITS) {
		x.rec = w->sub + w->used;	/* kept below if the walk goes well */
		x.maxrec = CR_DWWALK_SUBS - w->used;
		first = w->used;
	}
	/* The unit's bytes for walk_fast (the abbreviations decoded for this
	   unit's sizes): a long unit's through the window, else in place. */
	win = x.wsteps && w && w->win && src->probe && cu->end - cu->off >= CR_DWWALK_WIN_MIN;
	if (win) {	/* walk_die's DIEs from the window too */
		winmem_init(&wm, s->mem, w);
		cr_cursor_init(&c, &wm.m, c.pos, c.end);
	}
	ub = x.wsteps && !win ? cr_mem_view(s->mem, s->lo + cu->off, cu->end - cu->off) : NULL;
	if (ub && c.pos < c.end)	/* the walk reads on from c.pos, in order */
		cr_mem_populate(s->mem, ub + (c.pos - s->lo - cu->off), c.end - c.pos);
	if (x.ab)
		ab->nfast = 0;
	for (; i < CR_DWINFO_MAX_DIES && c.pos < c.end; i++) {
		if (win) {
			unsigned i0 = i;
			int wr = walk_window(&x, w, src->probe, &c, pc, ch, nch, &depth, &skip, &i);

			ab->nfast += i - i0;
			if (i >= CR_DWINFO_MAX_DIES || c.pos >= c.end)
				break;
			if (wr < 0) {	/* the file cannot be read: in place from here */
				win = 0;
				cr_cursor_init(&c, s->mem, c.pos, c.end);
				ub = cr_mem_view(s->mem, s->lo + cu->off, cu->end - cu->off);
			}
		}
		if (ub) {
			unsigned i0 = i;

			walk_fast(&x, ub, cu->end - cu->off, &c, pc, ch, nch, &depth, &skip, &i);
			ab->nfast += i - i0;
			if (i >= CR_DWINFO_MAX_DIES || c.pos >= c.end)
				break;
		}
		x.dies = i;
		if ((ret = walk_die(&x, &c, &d, pc, ch, &nch, &depth, &skip)) < 0)
			return ret;
		if (ret > 0)
			break;
	}
	x.walk = 0;
	if (x.rec && !x.norec && i < CR_DWINFO_MAX_DIES &&
	    ((ret > 0 && x.nrec && ch[0].die == x.cu.off + x.rec[x.nrec - 1].off) ||
	     (nch == 0 && c.pos >= c.end))) {
		/* Recorded: the next walk that misses the last subprogram goes on
		   after it (its sibling jump, else its end: its DIEs were read).
		   Not when the chain's subprogram is one nested in it. */
		u = w->nunits++;
		w->unit[u].mem = s->mem;
		w->unit[u].lo = s->lo;
		w->unit[u].cu = cu->off;
		w->unit[u].first = first;
		w->unit[u].n = x.nrec;
		w->unit[u].stop = x.sib && nch ? x.sib : c.pos - s->lo;
		w->unit[u].stop_depth = nch ? ch[0].depth : depth;
		w->unit[u].stop_dies =
			x.sib && nch ? rec_dies(&x.rec[x.nrec - 1]) + 1 : (nch ? i + 1 : i);
		w->used += x.nrec;
	}
	if (i == CR_DWINFO_MAX_DIES)
		return -CR_ERANGE;
	if (ret == 0 && nch && depth > ch[0].depth)
		return -CR_EINVAL;	/* the unit ends inside the subprogram: truncated */
	if (nch == 0)
		return -CR_ENOINFO;
	if (nch > cap)
		return -CR_ERANGE;
	/* Names, innermost first; a reference may lead to another unit and back. */
	for (i = 0; i < nch; i++) {
		const struct link *l = &ch[nch - 1 - i];
		struct cr_dwframe fr;

		if (x.cu.off != cu->off) {
			x.cu = *cu;
			if ((ret = fill_cache(&x)) < 0)
				return ret;
		}
		if ((ret = die_name(&x, &c, &d, l->die, &fr)) < 0)
			return ret;
		fr.die = l->die;
		fr.low = l->low;
		fr.inlined = l->inlined;
		fr.call_file = l->call_file;
		fr.call_line = l->call_line;
		fr.call_column = l->call_column;
		f[i] = fr;
	}
	*n = nch;
	return 0;
}

int cr_dwinfo_str(const struct cr_dwstr *s, char *buf, size_t cap)
{
	struct cr_cursor c;
	size_t n = 0;

	if (cap == 0)
		return -CR_ERANGE;
	buf[0] = 0;
	if (!s->sect)
		return -CR_ENOINFO;
	if (!sect_ok(s->sect) || s->pos < s->sect->lo)
		return -CR_EINVAL;
	cr_cursor_init(&c, s->sect->mem, s->pos, s->sect->hi);
	for (;;) {
		uint8_t b = cr_u8(&c);

		if (c.err) {
			buf[0] = 0;
			return cerr(&c);
		}
		if (b == 0)
			break;
		if (n + 1 >= cap) {
			buf[0] = 0;
			return -CR_ERANGE;
		}
		buf[n++] = (char)b;
	}
	buf[n] = 0;
	return 0;
}
