/* SPDX-License-Identifier: MIT */
/*
 * cfa.c's cr_cfa_shape and ehframe.c's cr_eh_find_lite, the trace loop's
 * short way from an FDE to a row's shape: byte arrays in, exact shapes out;
 * then against the full way (cr_eh_find_in, cr_cfa_run_compact) on random
 * programs and at every pc of every FDE of the loaded objects.  Where the
 * short way answers, its shape must be the full way's, field by field.
 */
#include <link.h>
#include <stdint.h>
#include <stdlib.h>

#include "../tap.h"
#include "cfi/cache.h"
#include "cfi/cfi.h"
#include "loadedfde.h"
#include "testarch.h"

#define IMG 0x5000ull	/* CIE instructions at IMG, FDE instructions at IMG + FI */
#define FI 0x80
#define LO 0x1000ull
#define HI 0x2000ull

static uint8_t img[0x200];
static struct cr_mem mem;
static const struct cr_arch *arch = &test_x86;
static long cases, answered, disagree;

/* x86_64's CIE (DW_CFA_def_cfa rsp 8; DW_CFA_offset rip 1) and aarch64's (def_cfa sp 0). */
static const uint8_t cie_x86[] = { 0x0c, 0x07, 0x08, 0x90, 0x01 };
static const uint8_t cie_a64[] = { 0x0c, 0x1f, 0x00 };

struct prog {
	uint64_t code_align;
	int64_t data_align;
	uint8_t signal;
};
static struct prog prog = { 1, -8, 0 };

/* The memo's form of the arch's CIE: what cie_init would keep. */
static void cie_rules(struct cr_cie_init *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->cfa.kind = CR_REG;
	if (arch == &test_a64) {
		ci->cfa.reg = 31;
		return;
	}
	ci->cfa.reg = 7;
	ci->cfa.off = 8;
	ci->col[0] = 16;
	ci->rule[0].kind = CR_OFFSET;
	ci->rule[0].off = (int64_t)(1 * (uint64_t)prog.data_align);
	ci->n = 1;
}

static int same_shape(const struct cr_crow *a, const struct cr_crow *b)
{
	return a->shape == b->shape && a->cfa_reg == b->cfa_reg && a->cfa_off == b->cfa_off &&
	       a->cfa_fp == b->cfa_fp && a->fp_saved == b->fp_saved && a->ra_off == b->ra_off &&
	       a->fp_off == b->fp_off && a->ra_w == b->ra_w && a->fp_w == b->fp_w && a->ra == b->ra &&
	       a->signal == b->signal;
}

/*
 * The FDE program f at pc, both ways.  The short way's answer (0 with *c, or
 * 1); a disagreement is counted: an answer where the full way fails or gives
 * no trace-only shape, or any field that differs.
 */
static int both(const uint8_t *f, size_t fn, uint64_t pc, struct cr_crow *c)
{
	const uint8_t *cie = arch == &test_a64 ? cie_a64 : cie_x86;
	size_t cn = arch == &test_a64 ? sizeof(cie_a64) : sizeof(cie_x86);
	struct cr_fde fde;
	struct cr_fde_lite fl;
	struct cr_crow full;
	int r, g;

	memset(img, 0, sizeof(img));
	memcpy(img, cie, cn);
	if (fn)
		memcpy(img + FI, f, fn);
	cr_mem_buffer(&mem, IMG, img, sizeof(img));
	memset(&fde, 0, sizeof(fde));
	fde.pc_lo = LO;
	fde.pc_hi = HI;
	fde.insns = IMG + FI;
	fde.insns_end = IMG + FI + fn;
	fde.cie.code_align = prog.code_align;
	fde.cie.data_align = prog.data_align;
	fde.cie.ra = arch->ra;
	fde.cie.signal = prog.signal;
	fde.cie.version = 1;
	fde.cie.fde_enc = DW_EH_PE_udata4;
	fde.cie.lsda_enc = DW_EH_PE_omit;
	fde.cie.insns = IMG;
	fde.cie.insns_end = IMG + cn;

	memset(&fl, 0, sizeof(fl));
	fl.pc_lo = LO;
	fl.pc_hi = HI;
	fl.insns = img + FI;
	fl.len = fn;
	fl.code_align = prog.code_align;
	fl.data_align = prog.data_align;
	fl.ra = arch->ra;
	fl.signal = prog.signal;
	cie_rules(&fl.init);

	memset(c, 0x5a, sizeof(*c));
	r = cr_cfa_shape(&fl, pc, arch, c);
	g = cr_cfa_run_compact(&mem, arch, &fde, pc, &full);
	cases++;
	if (r == 0) {
		answered++;
		if (g != 0 || full.shape == CR_SHAPE_NONE || !same_shape(c, &full)) {
			if (++disagree <= 5)
				printf("# disagree at pc %#llx (%zu bytes, first %#x): full %d shape %d\n",
				       (unsigned long long)pc, fn, fn ? f[0] : 0, g,
				       g == 0 ? full.shape : -1);
		}
	} else if (r != 1) {
		disagree++;
	}
	return r;
}

#define B(...) ((const uint8_t[]){ __VA_ARGS__ }), sizeof((const uint8_t[]){ __VA_ARGS__ })

static int step(const struct cr_crow *c, unsigned reg, int32_t off, int32_t ra_off)
{
	return c->shape == CR_SHAPE_STEP && c->cfa_reg == reg && c->cfa_off == off &&
	       c->ra_off == ra_off && c->ra_w == (uint8_t)(ra_off + CR_SHAPE_WINDOW);
}

static void t_x86(void)
{
	struct cr_crow c;

	arch = &test_x86;
	tap_ok(both(NULL, 0, LO, &c) == 0 && step(&c, 7, 8, -8) && !c.fp_saved && !c.cfa_fp &&
		       c.ra == 16 && c.n == 0,
	       "the CIE's row: CFA rsp + 8, rip at CFA - 8");
	/* advance_loc 1; def_cfa_offset 16 */
	tap_ok(both(B(0x41, 0x0e, 0x10), LO, &c) == 0 && step(&c, 7, 8, -8), "before an advance");
	tap_ok(both(B(0x41, 0x0e, 0x10), LO + 1, &c) == 0 && step(&c, 7, 16, -8),
	       "at the advance's location");
	/* push rbp; mov rbp, rsp: def_cfa_offset 16, offset rbp 2, def_cfa_register rbp */
	tap_ok(both(B(0x41, 0x0e, 0x10, 0x86, 0x02, 0x43, 0x0d, 0x06), LO + 5, &c) == 0 &&
		       step(&c, 6, 16, -8) && c.cfa_fp && c.fp_saved && c.fp_off == -16 &&
		       c.fp_w == CR_SHAPE_WINDOW - 16,
	       "a frame-pointer frame: CFA rbp + 16, rbp saved at CFA - 16");
	tap_ok(both(B(0x41, 0x0e, 0x10, 0x86, 0x02, 0x43, 0x0d, 0x06), LO + 3, &c) == 0 &&
		       step(&c, 7, 16, -8) && c.fp_saved && !c.cfa_fp,
	       "... before the def_cfa_register's location");
	/* def_cfa rbp 16 */
	tap_ok(both(B(0x0c, 0x06, 0x10), LO, &c) == 0 && step(&c, 6, 16, -8) && c.cfa_fp,
	       "def_cfa");
	/* remember_state; def_cfa_offset 8; advance 1; restore_state (GCC's epilogue) */
	tap_ok(both(B(0x41, 0x0e, 0x10, 0x41, 0x0a, 0x0e, 0x08, 0x41, 0x0b), LO + 2, &c) == 0 &&
		       step(&c, 7, 8, -8),
	       "remember_state, then a change");
	tap_ok(both(B(0x41, 0x0e, 0x10, 0x41, 0x0a, 0x0e, 0x08, 0x41, 0x0b), LO + 3, &c) == 0 &&
		       step(&c, 7, 16, -8),
	       "restore_state gives the remembered row back");
	tap_ok(both(B(0x02, 0x80, 0x0e, 0x10), LO + 0x7f, &c) == 0 && c.cfa_off == 8 &&
		       both(B(0x02, 0x80, 0x0e, 0x10), LO + 0x80, &c) == 0 && c.cfa_off == 16,
	       "advance_loc1");
	tap_ok(both(B(0x03, 0x00, 0x01, 0x0e, 0x10), LO + 0xff, &c) == 0 && c.cfa_off == 8 &&
		       both(B(0x03, 0x00, 0x01, 0x0e, 0x10), LO + 0x100, &c) == 0 &&
		       c.cfa_off == 16,
	       "advance_loc2 (little-endian)");
	tap_ok(both(B(0x0e, 0x90, 0x03), LO, &c) == 0 && c.cfa_off == 400,
	       "a two-byte ULEB128 operand");
	tap_ok(both(B(0x00, 0x00, 0x0e, 0x10), LO, &c) == 0 && c.cfa_off == 16, "nops");
	/* offset rip 2; advance 1; restore rip: back to the CIE's rule */
	tap_ok(both(B(0x90, 0x02, 0x41, 0xd0), LO, &c) == 0 && step(&c, 7, 8, -16) &&
		       both(B(0x90, 0x02, 0x41, 0xd0), LO + 1, &c) == 0 && step(&c, 7, 8, -8),
	       "restore: the CIE's rule again");
	/* offset rbp 2; restore rbp: no CIE rule, so none */
	tap_ok(both(B(0x86, 0x02, 0xc6), LO, &c) == 0 && !c.fp_saved && c.fp_off == 0,
	       "restore of a column the CIE gave no rule: same value");
	tap_ok(both(B(0x07, 0x10), LO, &c) == 0 && c.shape == CR_SHAPE_END, "undefined rip: END");
	tap_ok(both(B(0x90, 0x30), LO, &c) == 0 && c.shape == CR_SHAPE_STEP_FAR &&
		       c.ra_off == -384 && c.ra_w == 0,
	       "rip saved out of the window: STEP_FAR");
	tap_ok(both(B(0x86, 0x40), LO, &c) == 0 && c.shape == CR_SHAPE_STEP_FAR && c.fp_saved,
	       "rbp saved out of the window: STEP_FAR");
	tap_ok(both(B(0x83, 0x02, 0x8c, 0x03, 0x8d, 0x04, 0x8e, 0x05, 0x8f, 0x06), LO, &c) == 0 &&
		       step(&c, 7, 8, -8),
	       "other callee-saved registers do not change the shape");
	tap_ok(both(B(0x0e, 0x10, 0x0f, 0x02, 0x77, 0x08, 0x0e, 0x08), LO + 4, &c) == 1,
	       "declines: def_cfa_expression (a PLT's FDE)");
	tap_ok(both(B(0x2e, 0x10), LO, &c) == 1, "declines: GNU_args_size");
	tap_ok(both(B(0x09, 0x10, 0x00), LO, &c) == 1, "declines: register");
	tap_ok(both(B(0x14, 0x06, 0x01), LO, &c) == 1, "declines: val_offset");
	tap_ok(both(B(0x87, 0x01), LO, &c) == 1, "declines: a rule for rsp (no trace-only shape)");
	tap_ok(both(B(0x86, 0x02, 0x07, 0x06), LO, &c) == 1, "declines: rbp undefined");
	tap_ok(both(B(0x0d, 0x03), LO, &c) == 1, "declines: a CFA from rbx");
	tap_ok(both(B(0x0e, 0x80, 0x80, 0x01), LO, &c) == 1, "declines: a three-byte operand");
	tap_ok(both(B(0x0e), LO, &c) == 1 && both(B(0x02), LO, &c) == 1 &&
		       both(B(0x03, 0x01), LO, &c) == 1 && both(B(0x86), LO, &c) == 1,
	       "declines: truncated operands");
	tap_ok(both(B(0x0b), LO, &c) == 1, "declines: restore_state with nothing remembered");
	tap_ok(both(B(0x0a, 0x0a, 0x0a, 0x0a, 0x0a), LO, &c) == 1,
	       "declines: remember_state past the stack");
	tap_ok(both(B(0x0a, 0x0a, 0x0a, 0x0a, 0x0b), LO, &c) == 0, "four remembered rows");
	tap_ok(both(B(0x04, 0x01, 0x00, 0x00, 0x00), LO, &c) == 1, "declines: advance_loc4");
	tap_ok(both(B(0x01, 0, 0, 0, 0), LO, &c) == 1, "declines: set_loc");
	tap_ok(both(NULL, 0, LO - 1, &c) == 1 && both(NULL, 0, HI, &c) == 1,
	       "declines: a pc outside the FDE");
	prog.signal = 1;
	tap_ok(both(NULL, 0, LO, &c) == 1, "declines: a signal frame's CIE");
	tap_ok(both(B(0x07, 0x10), LO, &c) == 0 && c.shape == CR_SHAPE_END && c.signal,
	       "... but its outermost frame is END");
	prog.signal = 0;
	prog.data_align = (int64_t)1 << 33;
	tap_ok(both(NULL, 0, LO, &c) == 1, "declines: an offset past 32 bits");
	prog.data_align = -8;
	prog.code_align = (uint64_t)1 << 33;
	tap_ok(both(B(0x41, 0x0e, 0x10), LO, &c) == 1, "declines: a code alignment past 32 bits");
	prog.code_align = 4;
	tap_ok(both(B(0x41, 0x0e, 0x10), LO + 3, &c) == 0 && c.cfa_off == 8 &&
		       both(B(0x41, 0x0e, 0x10), LO + 4, &c) == 0 && c.cfa_off == 16,
	       "a code alignment factor scales advances");
	prog.code_align = 1;
}

static void t_a64(void)
{
	struct cr_crow c;
	uint8_t many[2 * 14];

	arch = &test_a64;
	/* def_cfa_offset 32; offset x29 4; offset x30 3 */
	tap_ok(both(B(0x41, 0x0e, 0x20, 0x9d, 0x04, 0x9e, 0x03), LO + 1, &c) == 0 &&
		       step(&c, 31, 32, -24) && c.fp_saved && c.fp_off == -32,
	       "aarch64: a frame record, x29 and x30 saved");
	tap_ok(both(NULL, 0, LO, &c) == 1, "aarch64: a leaf (x30 not saved) has no trace-only shape");
	tap_ok(both(B(0x2d), LO, &c) == 1, "declines: negate_ra_state");
	/* 14 columns saved: more than a compact row holds */
	for (unsigned k = 0; k < 14; k++) {
		many[2 * k] = (uint8_t)(0x80 | (k + 16));
		many[2 * k + 1] = (uint8_t)(k + 1);
	}
	tap_ok(both(many, 24, LO, &c) == 1 && both(many, 26, LO, &c) == 1 &&
		       both(many, sizeof(many), LO, &c) == 1,
	       "declines: rows with no return address rule, or too many rules");
	many[0] = 0x9e;	/* x30 among them */
	tap_ok(both(many, 2 * 13, LO, &c) == 0 && both(many, 2 * 14, LO, &c) == 1,
	       "13 rules compact, 14 do not");
	arch = &test_x86;
}

/* cr_cfa_cie_rules: a CIE's program to the memo's rules. */
static int cie_is(const struct cr_cie_init *ci, unsigned reg, int64_t off, unsigned n)
{
	return ci->cfa.kind == CR_REG && ci->cfa.reg == reg && ci->cfa.off == off && ci->n == n;
}

static void t_cie(void)
{
	struct cr_cie cie = { .code_align = 1, .data_align = -8, .ra = 16 };
	struct cr_cie_init ci;

	tap_ok(cr_cfa_cie_rules(B(0x0c, 0x07, 0x08, 0x90, 0x01), &cie, &ci) == 0 &&
		       cie_is(&ci, 7, 8, 1) && ci.col[0] == 16 && ci.rule[0].kind == CR_OFFSET &&
		       ci.rule[0].off == -8,
	       "CIE rules: x86_64's (CFA rsp + 8, rip at CFA - 8)");
	tap_ok(cr_cfa_cie_rules(B(0x0c, 0x1f, 0x00, 0x00, 0x00), &cie, &ci) == 0 &&
		       cie_is(&ci, 31, 0, 0),
	       "CIE rules: aarch64's (CFA sp), nops");
	tap_ok(cr_cfa_cie_rules(cie_x86, 0, &cie, &ci) == 0 && ci.cfa.kind == CR_UNDEF && ci.n == 0,
	       "CIE rules: an empty program leaves the CFA undefined");
	tap_ok(cr_cfa_cie_rules(B(0x0d, 0x06), &cie, &ci) == 0 && cie_is(&ci, 6, 0, 0),
	       "CIE rules: def_cfa_register on no CFA: offset 0");
	tap_ok(cr_cfa_cie_rules(B(0x0c, 0x07, 0x08, 0x0e, 0x90, 0x03, 0x0d, 0x06), &cie, &ci) == 0 &&
		       cie_is(&ci, 6, 400, 0),
	       "CIE rules: def_cfa_offset, def_cfa_register");
	/* rbx, rbp, rip, r12 given rules out of order: kept in column order */
	tap_ok(cr_cfa_cie_rules(B(0x90, 0x01, 0x86, 0x02, 0x83, 0x03, 0x07, 0x0c), &cie, &ci) == 0 &&
		       ci.n == 4 && ci.col[0] == 3 && ci.col[1] == 6 && ci.col[2] == 12 &&
		       ci.col[3] == 16 && ci.rule[0].off == -24 && ci.rule[2].kind == CR_UNDEF &&
		       ci.rule[3].off == -8,
	       "CIE rules: columns in order, offsets factored, undefined");
	tap_ok(cr_cfa_cie_rules(B(0x90, 0x01, 0x90, 0x02), &cie, &ci) == 0 && ci.n == 1 &&
		       ci.rule[0].off == -16,
	       "CIE rules: a column given twice keeps the last rule");
	tap_ok(cr_cfa_cie_rules(B(0xbf, 0x01, 0x07, 0x30), &cie, &ci) == 0 && ci.n == 0,
	       "CIE rules: columns we do not track are dropped");
	tap_ok(cr_cfa_cie_rules(B(0x80, 1, 0x81, 1, 0x82, 1, 0x83, 1, 0x84, 1), &cie, &ci) == 1,
	       "CIE rules: five columns: not kept");
	tap_ok(cr_cfa_cie_rules(B(0x0e, 0x10), &cie, &ci) == 1,
	       "CIE rules: def_cfa_offset with no CFA: the full interpreter decides");
	tap_ok(cr_cfa_cie_rules(B(0x41), &cie, &ci) == 1 && cr_cfa_cie_rules(B(0xd0), &cie, &ci) == 1 &&
		       cr_cfa_cie_rules(B(0x0a), &cie, &ci) == 1 &&
		       cr_cfa_cie_rules(B(0x0f, 0x01, 0x30), &cie, &ci) == 1 &&
		       cr_cfa_cie_rules(B(0x08, 0x10), &cie, &ci) == 1,
	       "CIE rules: advances, restore, remember_state, expressions, same_value decline");
	tap_ok(cr_cfa_cie_rules(B(0x0c, 0x07), &cie, &ci) == 1 &&
		       cr_cfa_cie_rules(B(0x90), &cie, &ci) == 1 &&
		       cr_cfa_cie_rules(B(0x0c, 0x80, 0x80, 0x01, 0x08), &cie, &ci) == 1,
	       "CIE rules: truncated and three-byte operands decline");
}

/*
 * Random programs of the instructions the short way takes and some it does
 * not, each at random pcs: every answer must be the full way's.
 */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static void t_random(void)
{
	static const uint8_t ops[] = { 0x00, 0x02, 0x03, 0x07, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e,
				       0x08, 0x09, 0x2e, 0x14, 0x40, 0x80, 0xc0 };
	uint8_t f[48];
	struct cr_crow c;
	long before = answered, n = 0;

	for (unsigned i = 0; i < 60000; i++) {
		size_t len = 0;

		arch = i & 1 ? &test_a64 : &test_x86;
		prog.data_align = i % 5 == 0 ? 4 : -8;
		prog.code_align = i % 7 == 0 ? 4 : 1;
		while (len < sizeof(f) - 4 && rnd() % 12) {
			uint8_t op = ops[rnd() % sizeof(ops)];

			if (op >= 0x40)
				op |= (uint8_t)(rnd() % 64 & (op == 0x40 ? 0x3f : 0x3f));
			if (op == 0x80 || op == 0xc0 || (op & 0xc0) == 0x80 || (op & 0xc0) == 0xc0)
				op = (uint8_t)((op & 0xc0) | (rnd() % 3 == 0 ? rnd() % 40 : arch->ra));
			f[len++] = op;
			/* operands: mostly small, some two-byte, some cut */
			if ((op & 0xc0) == 0x80 || (op >= 0x07 && op <= 0x0e && op != 0x0a && op != 0x0b) ||
			    op == 0x2e || op == 0x14) {
				unsigned nops = op == 0x0c || op == 0x09 || op == 0x14 ? 2 : 1;

				for (unsigned k = 0; k < nops && len < sizeof(f); k++) {
					uint64_t v = rnd() % 10 ? rnd() % 40 : rnd() % 300;

					if (op == 0x0d || (op == 0x0c && k == 0))
						v = rnd() % 4 ? arch->sp : (rnd() % 2 ? arch->fp : v);
					if (v >= 128 && len + 1 < sizeof(f)) {
						f[len++] = (uint8_t)(0x80 | (v & 0x7f));
						f[len++] = (uint8_t)(v >> 7);
					} else {
						f[len++] = (uint8_t)(v & 0x7f);
					}
				}
			} else if (op == 0x02 || op == 0x03) {
				for (unsigned k = 0; k < (op == 0x02 ? 1u : 2u) && len < sizeof(f); k++)
					f[len++] = (uint8_t)(rnd() % 8);
			}
		}
		for (unsigned k = 0; k < 3; k++) {
			both(f, len, LO + rnd() % 96, &c);
			n++;
		}
	}
	arch = &test_x86;
	prog.data_align = -8;
	prog.code_align = 1;
	printf("# random programs: %ld cases, %ld answered by the short way\n", n, answered - before);
	tap_ok(answered - before > n / 10, "the short way answers many random programs");
}

/*
 * Every FDE of every loaded object, at every pc of its first 512 bytes and
 * every 7th after, on the host's arch: both ways from the module's own
 * tables in place (a fast reader, as crash_backtrace's), the full way first
 * (it fills the CIE memo the short way reads).
 */
static long real_pcs, real_full_shape, real_answered, real_disagree;
static long carry_kept, carry_base_kept, carry_disagree;
static long real_cies, real_cies_lite, real_cies_bad;
static struct cr_mem_fast fast;

static int same_rule(const struct cr_rule *a, const struct cr_rule *b)
{
	return a->kind == b->kind && a->reg == b->reg && a->len == b->len && a->off == b->off;
}

/*
 * The FDE's CIE the first time it is seen: what the memo gets from the
 * short way (cr_eh_find_lite's own parse and cr_cfa_cie_rules, memo empty)
 * must be what it gets from the full interpreter.
 */
static void real_cie(const struct cr_ehsrc *src, const struct cr_ehhdr *h,
		     const struct cr_fde *fde)
{
	static uint64_t seen[256];
	static unsigned nseen;
	struct cr_fde_lite fl;
	struct cr_fde f2;
	struct cr_crow c;
	struct cr_cie c1, c2;
	struct cr_cie_init i1, i2;
	int ok = 1;

	for (unsigned k = 0; k < nseen; k++)
		if (seen[k] == fde->cie.addr)
			return;
	/* An FDE the lookup finds at its own first pc (not one that shares it). */
	if (cr_eh_find_in(&fast.m, src, h, fde->pc_lo, &f2) != 0 || f2.addr != fde->addr)
		return;
	if (nseen < 256)
		seen[nseen++] = fde->cie.addr;
	real_cies++;
	cr_cache_clear();
	if (cr_eh_find_lite(&fast.m, src, h, fde->pc_lo, &fl) != 0)
		return;
	real_cies_lite++;
	if (cr_cie_memo_get(fde->cie.addr, src->modkey, &c1, &i1) != 0)
		ok = 0;
	cr_cache_clear();
	/* (The row may not compact: the memo is filled before that is known.) */
	if (cr_eh_find_in(&fast.m, src, h, fde->pc_lo, &f2) != 0 ||
	    (cr_cfa_run_compact(&fast.m, cr_host, &f2, fde->pc_lo, &c), 0) ||
	    cr_cie_memo_get(fde->cie.addr, src->modkey, &c2, &i2) != 0)
		ok = 0;
	if (ok) {
		ok = c1.code_align == c2.code_align && c1.data_align == c2.data_align &&
		     c1.ra == c2.ra && c1.fde_enc == c2.fde_enc && c1.lsda_enc == c2.lsda_enc &&
		     c1.aug_z == c2.aug_z && c1.signal == c2.signal && c1.insns == c2.insns &&
		     c1.insns_end == c2.insns_end && c1.version == c2.version &&
		     same_rule(&i1.cfa, &i2.cfa) && i1.n == i2.n;
		for (unsigned k = 0; ok && k < i1.n && k < CR_CIE_INIT_MAX; k++)
			ok = i1.col[k] == i2.col[k] && same_rule(&i1.rule[k], &i2.rule[k]);
		ok = ok && fl.code_align == c2.code_align && fl.data_align == c2.data_align &&
		     fl.ra == c2.ra && fl.signal == c2.signal;
	}
	if (!ok && ++real_cies_bad <= 5)
		printf("# CIE at %#llx: the memo differs\n", (unsigned long long)fde->cie.addr);
}

/*
 * cr_eh_find_lite_carry with one struct kept from pc to pc, FDE to FDE and
 * module to module, as a trace keeps it: the same answer and fields as the
 * lite way from nothing (r, fl and c: its answer, FDE and shape).  Counts
 * the lookups that kept the CIE and the shapes that kept its base.
 */
static void real_carry(const struct cr_ehsrc *src, const struct cr_ehhdr *h, uint64_t pc, int rf,
		       int r, const struct cr_fde_lite *fl, const struct cr_crow *c)
{
	static struct cr_fde_lite k;	/* zero: no CIE */
	uint64_t before = k.cie_at;
	struct cr_crow kc;
	int rk, ok;

	rk = cr_eh_find_lite_carry(&fast.m, src, h, pc, &k);
	ok = rk == rf;
	if (ok && rk == 0) {
		if (before && before == k.cie_at)
			carry_kept++;
		ok = fl->pc_lo == k.pc_lo && fl->pc_hi == k.pc_hi && fl->insns == k.insns &&
		     fl->len == k.len && fl->code_align == k.code_align &&
		     fl->data_align == k.data_align && fl->ra == k.ra && fl->signal == k.signal &&
		     fl->init.n == k.init.n && same_rule(&fl->init.cfa, &k.init.cfa);
		for (unsigned i = 0; ok && i < k.init.n && i < CR_CIE_INIT_MAX; i++)
			ok = fl->init.col[i] == k.init.col[i] &&
			     same_rule(&fl->init.rule[i], &k.init.rule[i]);
		if (k.base_arch == cr_host)
			carry_base_kept++;
		rk = cr_cfa_shape(&k, pc, cr_host, &kc);
		ok = ok && rk == r && (r != 0 || same_shape(&kc, c));
	}
	if (!ok && ++carry_disagree <= 5)
		printf("# carry differs at pc %#llx\n", (unsigned long long)pc);
}

static void real_one(const struct cr_ehsrc *src, const struct cr_ehhdr *h, uint64_t pc)
{
	struct cr_fde fde;
	struct cr_fde_lite fl;
	struct cr_crow full, c;
	int g = -1, r, rf;

	real_pcs++;
	if (cr_eh_find_in(&fast.m, src, h, pc, &fde) == 0)
		g = cr_cfa_run_compact(&fast.m, cr_host, &fde, pc, &full);
	if (g == 0 && full.shape != CR_SHAPE_NONE)
		real_full_shape++;
	r = rf = cr_eh_find_lite(&fast.m, src, h, pc, &fl);
	if (r == 0) {
		/* The FDE the full way found, and its CIE. */
		if (fl.pc_lo != fde.pc_lo || fl.pc_hi != fde.pc_hi ||
		    fl.code_align != fde.cie.code_align || fl.data_align != fde.cie.data_align ||
		    fl.ra != fde.cie.ra || fl.signal != fde.cie.signal ||
		    (uint64_t)(uintptr_t)fl.insns != fde.insns || fl.len != fde.insns_end - fde.insns) {
			if (++real_disagree <= 5)
				printf("# lite FDE differs at pc %#llx\n", (unsigned long long)pc);
			return;
		}
		r = cr_cfa_shape(&fl, pc, cr_host, &c);
	}
	real_carry(src, h, pc, rf, r, &fl, &c);
	if (r == 0) {
		real_answered++;
		if (g != 0 || full.shape == CR_SHAPE_NONE || !same_shape(&c, &full))
			if (++real_disagree <= 5)
				printf("# shape differs at pc %#llx: full %d\n", (unsigned long long)pc,
				       g);
	}
}

/* Each FDE: its CIE the first time, then its pcs. */
static void real_fde(const struct cr_ehsrc *src, const struct cr_fde *fde, void *arg)
{
	static struct cr_ehhdr h;
	static uint64_t hdr_of;

	(void)arg;
	if (hdr_of != src->eh_hdr) {
		hdr_of = src->eh_hdr;
		cr_eh_hdr(&fast.m, src, &h);
	}
	if (h.ret < 0)
		return;
	real_cie(src, &h, fde);
	for (uint64_t pc = fde->pc_lo; pc < fde->pc_hi; pc += pc - fde->pc_lo < 512 ? 1 : 7)
		real_one(src, &h, pc);
}

int main(void)
{
	t_x86();
	t_a64();
	t_cie();
	t_random();
	tap_is_i64(disagree, 0, "the short way's every answer is the full way's");
	printf("# %ld cases, %ld answered\n", cases, answered);

	cr_mem_fast_init(&fast);
	each_loaded_fde(real_fde, NULL);
	printf("# %s: %ld pcs, %ld with a trace-only shape, %ld answered by the short way\n",
	       cr_host->name, real_pcs, real_full_shape, real_answered);
	tap_ok(real_pcs > 100000, "many real pcs (libc, ld.so, the test)");
	tap_is_i64(real_disagree, 0, "real FDEs: the short way's every answer is the full way's");
	tap_ok(real_answered > real_full_shape * 9 / 10,
	       "real FDEs: the short way answers most rows that have a trace-only shape");
	printf("# carried: %ld lookups kept their CIE, %ld shapes its base\n", carry_kept,
	       carry_base_kept);
	tap_is_i64(carry_disagree, 0, "real FDEs: a CIE carried from lookup to lookup gives the same");
	tap_ok(carry_kept > real_pcs / 2 && carry_base_kept > real_pcs / 2,
	       "real FDEs: most lookups keep the last one's CIE and base");
	printf("# %ld CIEs, %ld read the short way\n", real_cies, real_cies_lite);
	tap_ok(real_cies_lite > 0 && real_cies_lite >= real_cies / 2,
	       "real CIEs: most read the short way into an empty memo");
	tap_is_i64(real_cies_bad, 0, "real CIEs: the short way's memo is the full interpreter's");
	return tap_done();
}
