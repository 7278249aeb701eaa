/* SPDX-License-Identifier: MIT */
/*
 * special.c: each special step on a made-up process (fakeproc.h): where it
 * applies, the caller it gives; where it does not, -CR_ENOINFO and *out
 * untouched.  Then two of them in a walk, through the policy that has them.
 */
#include <stdio.h>

#include "../tap.h"
#include "crash.h"
#include "fakeproc.h"

static const struct cr_arch *x86 = &cr_arch_x86_64, *a64 = &cr_arch_aarch64;

/* A test name with arguments. */
static char nm[200];
#define N(...) (snprintf(nm, sizeof(nm), __VA_ARGS__), nm)

/* out poisoned, so that a write on failure shows. */
static struct cr_regs out, poison;

static void poison_out(void)
{
	memset(&poison, 0x5a, sizeof(poison));
	out = poison;
}

static int untouched(void)
{
	return memcmp(&out, &poison, sizeof(out)) == 0;
}

/* The tag a step that chose its reading returned (CR_STEP_TAGGED), else CR_TAG_N. */
static unsigned got_tag;

/* A step; a caller found with the step's own tag counts as 0, the tag in got_tag. */
static int step(cr_step_fn *fn, struct cr_walk *w, const struct cr_regs *in)
{
	int ret;

	poison_out();
	ret = fn(w, in, &out);
	got_tag = CR_TAG_N;
	if (ret >= CR_STEP_TAGGED(0)) {
		got_tag = (unsigned)(ret - CR_STEP_TAGGED(0));
		ret = 0;
	}
	return ret;
}

static void t_ra(void)
{
	struct cr_walk w;
	struct cr_regs r;

	fp_reset();
	fp_walk(&w, x86, 1);
	fp_regs(&r, x86, 0, fp_at(10));
	cr_reg_set(&r, 3, 0x33);	/* rbx: kept */
	fp_put64(fp_at(10), 0x401234);
	tap_is_i64(step(cr_ra_step, &w, &r), 0, "ra x86_64: the return address at [sp]");
	tap_ok(out.pc == 0x401234 && out.r[16] == 0x401234 && cr_reg_valid(&out, 16),
	       "... is the caller's pc and rip");
	tap_ok(out.r[7] == fp_at(11) && out.r[3] == 0x33 && cr_reg_valid(&out, 3),
	       "... sp past it, the other registers kept");

	fp_regs(&r, x86, 0, 0x1000);
	w.step.err_addr = 0;
	tap_is_i64(step(cr_ra_step, &w, &r), -CR_EFAULT, "ra x86_64: [sp] unreadable");
	tap_ok(w.step.err_addr == 0x1000 && untouched(), "... its address kept, *out untouched");
	r.valid = 0;
	tap_is_i64(step(cr_ra_step, &w, &r), -CR_EINVAL, "ra x86_64: no sp");

	fp_walk(&w, a64, 1);
	fp_regs(&r, a64, 0, fp_at(10));
	cr_reg_set(&r, 30, 0x0012000000401234ull);	/* a PAC in the bits above 48 */
	tap_is_i64(step(cr_ra_step, &w, &r), 0, "ra aarch64: the link register");
	tap_ok(out.pc == 0x401234 && out.r[31] == fp_at(10) && out.r[30] == 0x0012000000401234ull,
	       "... pc without its PAC, sp and x30 as they were");
	r.valid &= ~CR_BIT(30);
	tap_is_i64(step(cr_ra_step, &w, &r), -CR_EINVAL, "ra aarch64: no link register");
}

static void t_stub(void)
{
	struct cr_walk w;
	struct cr_regs r;
	const uint64_t pc = FP_CODE + 0x104;
	/* CFA = sp, nothing saved: the CIE's program only. */
	static const uint8_t cie_a64[] = { 0x0c, 31, 0 };	/* DW_CFA_def_cfa sp 0 */

	static const uint32_t bl = 0x94000000;

	fp_reset();
	fp_put(0x401800 - 4, &bl, 4);	/* the caller's call: the link register is a call site */
	fp_walk(&w, a64, 1);
	fp_regs(&r, a64, pc, fp_at(10));
	cr_reg_set(&r, 30, 0x0012000000401800ull);
	cr_reg_set(&r, 19, 0x1919);
	tap_is_i64(step(cr_stub_step, &w, &r), 0, "stub: no FDE, no symbol: a stub");
	tap_ok(out.pc == 0x401800 && out.r[31] == fp_at(10) && out.r[19] == 0x1919 &&
		       out.valid == r.valid && got_tag == CR_TAG_RA,
	       "... the caller in the link register (PAC stripped), every register kept, [ra]");

	w.exact = 0;
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(), "stub: not an exact frame");
	w.exact = 1;
	fp_walk(&w, x86, 1);
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "stub: x86_64, no rsp (the registers are aarch64's)");
	fp_walk(&w, a64, 1);
	r.valid &= ~CR_BIT(30);
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(), "stub: no link register");
	cr_reg_set(&r, 30, 0x401800);
	fp_have_mod = 0;
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(), "stub: in no module");
	fp_have_mod = 1;

	fp_sym("before", FP_CODE + 0x100, 0);	/* unsized: does not say where it ends */
	fp_walk(&w, a64, 1);
	cr_reg_set(&r, 30, 0x401804);	/* no call before it, and no frame record */
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "stub: the link register is no call site, no frame record: no evidence");
	cr_reg_set(&r, 30, 0x401800);
	tap_is_i64(step(cr_stub_step, &w, &r), 0, "stub: an unsized symbol before it");
	fp_sym("around", FP_CODE + 0x100, 0x10);
	fp_walk(&w, a64, 1);
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "stub: a sized symbol around it: a function");

	fp_reset();
	fp_put(0x401800 - 4, &bl, 4);
	fp_fde(fp_cie(30, 0, cie_a64, sizeof(cie_a64)), FP_CODE + 0x100, FP_CODE + 0x110, NULL, 0);
	fp_walk(&w, a64, 1);
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "stub: an FDE covers it: a function");
	fp_mod.eh_hdr = 0x1000;	/* unreadable: no answer */
	fp_walk(&w, a64, 1);
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "stub: the tables cannot be read: not a stub");
}

/*
 * Generated code at FP_JIT + 16 called from "caller" (its call ends at RA_A),
 * which was called from "outer" (return address RA_B).  caller set up a frame
 * record at FP0: { 0, RA_B }.
 */
#define F_CALLER (FP_CODE + 0x100)
#define RA_A (F_CALLER + 0x10)
#define F_OUTER (FP_CODE + 0x200)
#define RA_B (F_OUTER + 0x20)
#define FP0 fp_at(40)

/*
 * x86_64 code from f to the call that ends at ra: push %rbp; mov %rsp,%rbp,
 * nops, call.  A function without an FDE whose frame record is the chain's
 * last: its prologue (the scan step, before fp under auto) puts the CFA at
 * rbp + 16, which rbp 0 cannot give, and the fp step ends the walk on rbp 0.
 */
static void x86_fp_func(uint64_t f, uint64_t ra)
{
	static const uint8_t prologue[] = { 0x55, 0x48, 0x89, 0xe5 };
	static const uint8_t call[] = { 0xe8, 0, 0, 0, 0 };
	static const uint8_t nop = 0x90;

	fp_put(f, prologue, sizeof(prologue));
	for (uint64_t a = f + sizeof(prologue); a < ra - sizeof(call); a++)
		fp_put(a, &nop, 1);
	fp_put(ra - sizeof(call), call, sizeof(call));
}

static void jit_setup(struct cr_regs *r, int cfa_from_fp)
{
	/* The caller's row at RA_A - 1: CFA = rbp + 16, rip at CFA - 8, rbp at
	   CFA - 16 (after push %rbp; mov %rsp,%rbp); or CFA = rsp + 8, its entry. */
	static const uint8_t rbp_row[] = { 0x0c, 6, 16, 0x90, 1, 0x86, 2 };
	static const uint8_t entry_row[] = { 0x0c, 7, 8, 0x90, 1 };
	static const uint8_t call[] = { 0xe8, 0, 0, 0, 0 };

	fp_reset();
	fp_sym("caller", F_CALLER, 0x40);
	fp_sym("outer", F_OUTER, 0x40);
	fp_put(RA_A - sizeof(call), call, sizeof(call));
	x86_fp_func(F_OUTER, RA_B);
	fp_fde(cfa_from_fp ? fp_cie(16, 0, rbp_row, sizeof(rbp_row))
			   : fp_cie(16, 0, entry_row, sizeof(entry_row)),
	       F_CALLER, F_CALLER + 0x40, NULL, 0);
	fp_put64(fp_at(20), RA_A);	/* at [sp]: the call into the generated code */
	fp_put64(FP0, 0);
	fp_put64(FP0 + 8, RA_B);
	fp_regs(r, x86, FP_JIT + 16, fp_at(20));
	cr_reg_set(r, 6, FP0);
}

static void t_jit(void)
{
	struct cr_walk w;
	struct cr_regs r;

	jit_setup(&r, 1);
	fp_walk(&w, x86, 1);
	r.valid &= ~CR_BIT(6);
	w.step.err_addr = 0x77;
	tap_is_i64(step(cr_jit_step, &w, &r), 0, "jit: no frame record: the return address at [sp]");
	tap_ok(out.pc == RA_A && out.r[7] == fp_at(21) && w.step.err_addr == 0x77 && w.exact,
	       "... its caller, sp past it; the walk's state as it was");

	cr_reg_set(&r, 6, FP0);
	fp_walk(&w, x86, 1);
	tap_is_i64(step(cr_jit_step, &w, &r), 0,
		   "jit: a frame record, and CFI from [sp] reaches its frame");
	tap_ok(out.pc == RA_A && out.r[7] == fp_at(21), "... the caller, not the record's");

	jit_setup(&r, 0);	/* CFI from RA_A does not lead to the record's frame */
	fp_walk(&w, x86, 1);
	tap_ok(step(cr_jit_step, &w, &r) == -CR_ENOINFO && untouched() && w.exact,
	       "jit: a stale return address at [sp]: the frame record applies");

	jit_setup(&r, 1);
	fp_walk(&w, x86, 0);
	tap_ok(step(cr_jit_step, &w, &r) == -CR_ENOINFO && untouched(), "jit: not an exact frame");
	fp_walk(&w, x86, 1);
	r.pc = F_CALLER + 4;
	tap_ok(step(cr_jit_step, &w, &r) == -CR_ENOINFO && untouched(), "jit: a pc in a module");
	r.pc = FP_JIT + 16;
	fp_put64(fp_at(20), F_CALLER + 0x20);	/* no call before it */
	tap_ok(step(cr_jit_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "jit: [sp] does not follow a call");
}

/* aarch64: a function at F_LEAF, pc 8 bytes in, called from RA. */
#define F_LEAF (FP_CODE + 0x300)
#define RA (FP_CODE + 0x504)

static void leaf_setup(struct cr_regs *r, int saved)
{
	static const uint32_t nops[] = { 0xd503201f, 0xd503201f, 0xd65f03c0 };	/* nop; nop; ret */
	/* stp x29, x30, [sp, #-16]!; mov x29, sp; ret */
	static const uint32_t frame[] = { 0xa9bf7bfd, 0x910003fd, 0xd65f03c0 };

	fp_reset();
	fp_sym("leaf", F_LEAF, 12);
	fp_put(F_LEAF, saved ? frame : nops, sizeof(nops));
	fp_regs(r, a64, F_LEAF + 8, fp_at(30));
	cr_reg_set(r, 30, RA);
	cr_reg_set(r, 29, fp_at(50));
}

static void t_leaf(void)
{
	struct cr_walk w;
	struct cr_regs r;

	leaf_setup(&r, 0);
	fp_walk(&w, a64, 1);
	tap_is_i64(step(cr_leaf_step, &w, &r), 0, "leaf: the link register not saved at pc");
	tap_ok(out.pc == RA && out.r[31] == fp_at(30) && out.r[29] == fp_at(50),
	       "... the caller in it, sp and fp as they were");
	w.exact = 0;
	tap_ok(step(cr_leaf_step, &w, &r) == -CR_ENOINFO && untouched(), "leaf: not an exact frame");
	fp_walk(&w, x86, 1);
	tap_ok(step(cr_leaf_step, &w, &r) == -CR_ENOINFO && untouched(), "leaf: x86_64");
	fp_walk(&w, a64, 1);
	r.valid &= ~CR_BIT(30);
	tap_ok(step(cr_leaf_step, &w, &r) == -CR_ENOINFO && untouched(), "leaf: no link register");

	leaf_setup(&r, 1);
	fp_walk(&w, a64, 1);
	tap_ok(step(cr_leaf_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "leaf: the link register saved: the frame record applies");
	leaf_setup(&r, 0);
	r.pc = FP_CODE + 0x700;	/* no symbol, no FDE: no function start */
	fp_walk(&w, a64, 1);
	tap_ok(step(cr_leaf_step, &w, &r) == -CR_ENOINFO && untouched(), "leaf: function not known");
}

/*
 * Code without an FDE or a symbol (hand-written assembly in a stripped
 * library), on each link-register arch.  X at F_X is called from C (sized
 * symbol, FDE: its frame of 32 bytes saves fp and ra, CFA = sp + 32), itself
 * called from O (sized symbol, no FDE, its fp 0: the outermost frame).  C's
 * sp is fp_at(20), its CFA fp_at(24).  X's record case: X has built a 32-byte
 * frame with its record (sp fp_at(16), CFA fp_at(20)); its pc at F_X + 0x10,
 * after the prologue; a call of its own at F_X + 0x10 returns to RA_X.
 */
#define F_C (FP_CODE + 0x100)
#define RA_C (F_C + 0x10)
#define F_O (FP_CODE + 0x200)
#define RA_O (F_O + 0x20)
#define F_X (FP_CODE + 0x800)
#define RA_X (F_X + 0x14)

struct nofde {
	const struct cr_arch *a;
	uint32_t call;			/* a call instruction */
	uint32_t prologue[4];		/* X's: a 32-byte frame with its frame record */
	int rec_below;			/* the record at the bottom of the frame, fp at it
					   (aarch64); else fp = CFA, the record below it */
};

static const struct nofde nofde_arches[] = {
	/* stp x29, x30, [sp, #-32]!; mov x29, sp; nop; nop */
	{ &cr_arch_aarch64, 0x94000000, { 0xa9be7bfd, 0x910003fd, 0xd503201f, 0xd503201f }, 1 },
	/* addi sp, sp, -32; sd ra, 24(sp); sd s0, 16(sp); addi s0, sp, 32 */
	{ &cr_arch_riscv64, 0x000000ef, { 0xfe010113, 0x00113c23, 0x00813823, 0x02010413 }, 0 },
	/* addi.d $sp, $sp, -32; st.d $ra, $sp, 24; st.d $fp, $sp, 16; addi.d $fp, $sp, 32 */
	{ &cr_arch_loongarch64, 0x54000000, { 0x02ff8063, 0x29c06061, 0x29c04076, 0x02c08076 }, 0 },
};

/* fp of a frame whose CFA is cfa, and the address of its record. */
static uint64_t nf_fp(const struct nofde *n, uint64_t cfa)
{
	return n->rec_below ? cfa - 32 : cfa;
}

static uint64_t nf_rec(const struct nofde *n, uint64_t cfa)
{
	return n->rec_below ? cfa - 32 : cfa - 16;
}

/* The process, and X's registers at pc with sp, fp and the link register ra. */
static void nofde_setup(const struct nofde *n, struct cr_regs *r, uint64_t pc, uint64_t sp,
			uint64_t fp, uint64_t ra)
{
	const struct cr_arch *a = n->a;
	const uint8_t cie[] = { 0x0c, a->sp, 0 };	/* DW_CFA_def_cfa sp 0 */
	/* DW_CFA_def_cfa_offset 32; fp and ra saved where the record is */
	const uint8_t rec_lo[] = { 0x0e, 32, 0x80 | a->fp, 4, 0x80 | a->ra, 3 };
	const uint8_t rv[] = { 0x0e, 32, 0x80 | a->fp, 2, 0x80 | a->ra, 1 };

	fp_reset();
	fp_sym("C", F_C, 0x40);
	fp_sym("O", F_O, 0x40);
	fp_put(RA_C - 4, &n->call, 4);
	fp_put(RA_O - 4, &n->call, 4);
	fp_put(F_X, n->prologue, sizeof(n->prologue));
	fp_put(RA_X - 4, &n->call, 4);
	fp_fde(fp_cie(a->ra, 0, cie, sizeof(cie)), F_C, F_C + 0x40, n->rec_below ? rec_lo : rv,
	       sizeof(rv));
	/* C's record: O's fp (0: the outermost frame) and RA_O. */
	fp_put64(nf_rec(n, fp_at(24)), 0);
	fp_put64(nf_rec(n, fp_at(24)) + 8, RA_O);
	/* X's record, when it has built it: C's fp and RA_C. */
	fp_put64(nf_rec(n, fp_at(20)), nf_fp(n, fp_at(24)));
	fp_put64(nf_rec(n, fp_at(20)) + 8, RA_C);
	fp_regs(r, a, pc, sp);
	cr_reg_set(r, a->fp, fp);
	cr_reg_set(r, a->ra, ra);
}

/* A direct call at at to target: bl (aarch64, loongarch64) or jal ra (riscv64). */
static void put_call_to(const struct nofde *n, uint64_t at, uint64_t target)
{
	uint64_t off = target - at;
	uint32_t i;

	if (n->a == &cr_arch_riscv64)
		i = (uint32_t)(((off >> 20) & 1) << 31 | ((off >> 1) & 0x3ff) << 21 |
			       ((off >> 11) & 1) << 20 | ((off >> 12) & 0xff) << 12 | 1u << 7 | 0x6f);
	else if (n->a == &cr_arch_aarch64)
		i = 0x94000000 | (uint32_t)((off >> 2) & 0x3ffffff);
	else
		i = 0x54000000 | (uint32_t)((off >> 2) & 0xffff) << 10 |
		    (uint32_t)((off >> 18) & 0x3ff);
	fp_put(at, &i, 4);
}

static int nf_is(const struct nofde *n, uint64_t pc, uint64_t sp, uint64_t fp, unsigned tag)
{
	const struct cr_arch *a = n->a;

	return out.pc == pc && out.r[a->sp] == sp && cr_reg_valid(&out, a->fp) &&
	       out.r[a->fp] == fp && got_tag == tag;
}

static void t_nofde_arch(const struct nofde *n)
{
	const struct cr_arch *a = n->a;
	static struct cr_frame f[8];
	struct cr_trace t = { .f = f, .max = 8 };
	struct cr_walk w;
	struct cr_regs r;
	const char *an = a->name;
	uint64_t fp_c = nf_fp(n, fp_at(24)), fp_x = nf_fp(n, fp_at(20));

	/* A leaf (or a stub): nothing moved, the link register holds RA_C. */
	nofde_setup(n, &r, F_X, fp_at(20), fp_c, RA_C);
	fp_walk(&w, a, 1);
	tap_is_i64(step(cr_stub_step, &w, &r), 0, N("%s no FDE, a leaf: a caller", an));
	tap_ok(nf_is(n, RA_C, fp_at(20), fp_c, CR_TAG_RA),
	       "... [ra]: the link register, sp and fp unchanged (C's record explained by CFI)");

	/* A tail call into X from a function that had torn down its frame: the
	   same registers; the caller is C (the jumping function is gone). */
	nofde_setup(n, &r, F_X + 4, fp_at(20), fp_c, RA_C);
	fp_walk(&w, a, 1);
	tap_ok(step(cr_stub_step, &w, &r) == 0 && nf_is(n, RA_C, fp_at(20), fp_c, CR_TAG_RA),
	       N("%s no FDE, reached by a tail call: [ra], C", an));

	/* X built its record: the link register agrees with it. */
	nofde_setup(n, &r, F_X + 0x10, fp_at(16), fp_x, RA_C);
	fp_walk(&w, a, 1);
	tap_is_i64(step(cr_stub_step, &w, &r), 0, N("%s no FDE, a frame record: a caller", an));
	tap_ok(nf_is(n, RA_C, fp_at(20), fp_c, CR_TAG_FP),
	       "... [fp]: the record's caller, with the CFA as sp (not sp unchanged)");

	/* ... and X called something since: the link register is X's own call's. */
	nofde_setup(n, &r, F_X + 0x18, fp_at(16), fp_x, RA_X);
	fp_walk(&w, a, 1);
	tap_ok(step(cr_stub_step, &w, &r) == 0 && nf_is(n, RA_C, fp_at(20), fp_c, CR_TAG_FP),
	       N("%s no FDE, a record and a stale link register: [fp]", an));

	/* ... and X used the link register as a scratch register. */
	nofde_setup(n, &r, F_X + 0x10, fp_at(16), fp_x, 0x1234567);
	fp_walk(&w, a, 1);
	tap_ok(step(cr_stub_step, &w, &r) == 0 && nf_is(n, RA_C, fp_at(20), fp_c, CR_TAG_FP),
	       N("%s no FDE, a record, the link register no call site: [fp]", an));

	/*
	 * A PLT entry at its first instruction: C called X directly (the call
	 * at RA_C - 4 to F_X), and fp holds an older record (one O's frame
	 * left, returning to X's call site: valid, and no CFI walk from C
	 * reaches it): the link register's call entered X, which has no frame:
	 * [ra].  Two instructions in, the same.
	 */
	for (unsigned k = 0; k < 2; k++) {
		uint64_t stale = nf_fp(n, fp_at(30));

		nofde_setup(n, &r, F_X + 4 * k, fp_at(20), stale, RA_C);
		put_call_to(n, RA_C - 4, F_X);
		fp_put64(nf_rec(n, fp_at(30)), 0);
		fp_put64(nf_rec(n, fp_at(30)) + 8, RA_X);
		fp_walk(&w, a, 1);
		tap_ok(step(cr_stub_step, &w, &r) == 0 && nf_is(n, RA_C, fp_at(20), stale, CR_TAG_RA),
		       N("%s no FDE, a stub entered by a direct call, an older record at fp: [ra] (+%u)",
			 an, 4 * k));
	}
	/* The same call to X from X itself, before pc: its own earlier call, [fp]. */
	nofde_setup(n, &r, F_X + 0x18, fp_at(16), fp_x, RA_X);
	put_call_to(n, RA_X - 4, F_X + 0x10);
	fp_walk(&w, a, 1);
	tap_ok(step(cr_stub_step, &w, &r) == 0 && nf_is(n, RA_C, fp_at(20), fp_c, CR_TAG_FP),
	       N("%s no FDE, a direct call X made itself just before pc: [fp]", an));

	/* No record (fp outside the stack) and no call site: no evidence. */
	nofde_setup(n, &r, F_X + 0x10, fp_at(16), 0x1000, 0x1234567);
	fp_walk(&w, a, 1);
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(),
	       N("%s no FDE, no record, no call site: -CR_ENOINFO", an));

	/* A record whose return address is no call site is not evidence. */
	nofde_setup(n, &r, F_X, fp_at(20), fp_c, RA_C);
	fp_put64(nf_rec(n, fp_at(24)) + 8, RA_O + 4);
	fp_walk(&w, a, 1);
	tap_ok(step(cr_stub_step, &w, &r) == 0 && nf_is(n, RA_C, fp_at(20), fp_c, CR_TAG_RA),
	       N("%s no FDE, the record's return address no call site: [ra]", an));

	/* The walk: X, C by its record, O by CFI, O's fp 0: complete. */
	for (int e = 0; e < 2; e++) {
		nofde_setup(n, &r, F_X + 0x10, fp_at(16), fp_x, RA_C);
		fp_walk(&w, a, 1);
		cr_unwind(&w, &r, cr_policy(e ? CRASH_ENGINE_FP : CRASH_ENGINE_AUTO), &t);
		tap_ok(t.n == 3 && t.stop == CR_STOP_COMPLETE && f[1].pc == RA_C &&
			       f[1].sp == fp_at(20) && f[1].tag == CR_TAG_FP && f[2].pc == RA_O &&
			       /* aarch64's fp engine: x29 + 16, a lower bound */
			       f[2].sp == (e && n->rec_below ? fp_at(22) : fp_at(24)) &&
			       f[2].tag == (e ? CR_TAG_FP : CR_TAG_CFI) && t.unconfirmed == 0,
		       N("%s %s from X's record: X, C [fp], O [%s], complete (n %u stop %u)", an,
		       e ? "fp" : "auto", e ? "fp" : "cfi", t.n, t.stop));
	}
	nofde_setup(n, &r, F_X, fp_at(20), fp_c, RA_C);
	fp_walk(&w, a, 1);
	cr_unwind(&w, &r, cr_policy(CRASH_ENGINE_AUTO), &t);
	tap_ok(t.n == 3 && t.stop == CR_STOP_COMPLETE && f[1].pc == RA_C && f[1].sp == fp_at(20) &&
		       f[1].tag == CR_TAG_RA && f[2].pc == RA_O && f[2].tag == CR_TAG_CFI,
	       N("%s auto from a leaf: X, C [ra], O [cfi], complete", an));
}

/*
 * x86_64: C (sized symbol, FDE: push %rbp, CFA = rsp + 16) calls X (no FDE, no
 * symbol) at RA_C - 5; C's CFA fp_at(24), its rbp fp_at(22) (after the push),
 * its sp at the call fp_at(22), so RA_C at fp_at(21).
 */
static void x86_setup(struct cr_regs *r, int pushed)
{
	static const uint8_t cie[] = { 0x0c, 7, 8, 0x90, 1 };	/* CFA = rsp + 8, rip at CFA - 8 */
	static const uint8_t fde[] = { 0x0e, 16, 0x86, 2 };	/* CFA = rsp + 16, rbp at CFA - 16 */
	static const uint8_t call[] = { 0xe8, 0, 0, 0, 0 };

	fp_reset();
	fp_sym("C", F_C, 0x40);
	fp_sym("O", F_O, 0x40);
	fp_put(RA_C - 5, call, 5);
	x86_fp_func(F_O, RA_O);	/* O: frame-pointer code, no FDE, outermost */
	fp_fde(fp_cie(16, 0, cie, sizeof(cie)), F_C, F_C + 0x40, fde, sizeof(fde));
	fp_put64(fp_at(22), 0);		/* C's record: O's rbp, RA_O */
	fp_put64(fp_at(23), RA_O);
	fp_put64(fp_at(21), RA_C);	/* the call into X */
	fp_put64(fp_at(20), fp_at(22));	/* X's push %rbp */
	fp_regs(r, x86, F_X + (pushed ? 4 : 0), fp_at(pushed ? 20 : 21));
	cr_reg_set(r, 6, fp_at(pushed ? 20 : 22));
}

static void t_nofde_x86(void)
{
	static struct cr_frame f[8];
	struct cr_trace t = { .f = f, .max = 8 };
	struct cr_walk w;
	struct cr_regs r;

	x86_setup(&r, 0);
	fp_walk(&w, x86, 1);
	tap_ok(step(cr_stub_step, &w, &r) == 0 && out.pc == RA_C && out.r[7] == fp_at(22) &&
		       out.r[6] == fp_at(22) && got_tag == CR_TAG_RA,
	       "x86_64 no FDE, a leaf: [ra], the return address at [sp] (C's record explained)");
	fp_walk(&w, x86, 1);
	cr_unwind(&w, &r, cr_policy(CRASH_ENGINE_AUTO), &t);
	tap_ok(t.n == 3 && t.stop == CR_STOP_COMPLETE && f[1].pc == RA_C && f[1].tag == CR_TAG_RA &&
		       f[2].pc == RA_O && f[2].tag == CR_TAG_CFI,
	       "x86_64 auto from a leaf: X, C [ra], O [cfi] (the fp engine alone skipped C)");

	x86_setup(&r, 1);
	fp_walk(&w, x86, 1);
	tap_ok(step(cr_stub_step, &w, &r) == 0 && out.pc == RA_C && out.r[7] == fp_at(22) &&
		       out.r[6] == fp_at(22) && got_tag == CR_TAG_FP,
	       "x86_64 no FDE, after push %rbp; mov %rsp, %rbp: [fp]");
	fp_walk(&w, x86, 1);
	cr_unwind(&w, &r, cr_policy(CRASH_ENGINE_AUTO), &t);
	tap_ok(t.n == 3 && t.stop == CR_STOP_COMPLETE && f[1].pc == RA_C && f[1].tag == CR_TAG_FP &&
		       f[2].pc == RA_O && f[2].sp == fp_at(24),
	       "x86_64 auto from a frame: X, C [fp], O, complete");
}

static void t_nofde(void)
{
	t_nofde_x86();
	for (unsigned i = 0; i < CR_ARRAY_SIZE(nofde_arches); i++)
		t_nofde_arch(&nofde_arches[i]);

	/* aarch64: a record opened by sub/stp (no pre-index stp before pc): the
	   record gives the caller, sp only its lower bound x29 + 16. */
	{
		const struct nofde *n = &nofde_arches[0];
		static const uint32_t other[] = { 0xd10083ff, 0xa9007bfd, 0x910003fd, 0xd503201f };
		struct cr_walk w;
		struct cr_regs r;

		nofde_setup(n, &r, F_X + 0x10, fp_at(16), fp_at(16), RA_C);
		fp_put(F_X, other, sizeof(other));	/* sub sp, sp, #32; stp x29, x30, [sp] */
		fp_walk(&w, n->a, 1);
		tap_ok(step(cr_stub_step, &w, &r) == 0 && nf_is(n, RA_C, fp_at(18), fp_at(20),
								  CR_TAG_FP),
		       "aarch64 no FDE, a record without a pre-index stp: [fp], sp x29 + 16");
		/* Pointer authentication: both return addresses signed alike. */
		nofde_setup(n, &r, F_X + 0x10, fp_at(16), fp_at(16), 0x0012000000000000ull | RA_C);
		fp_put64(fp_at(17), 0x0012000000000000ull | RA_C);
		fp_walk(&w, n->a, 1);
		tap_ok(step(cr_stub_step, &w, &r) == 0 && nf_is(n, RA_C, fp_at(20), fp_at(20),
								  CR_TAG_FP),
		       "aarch64 no FDE, signed return addresses: [fp], the CFA from the prologue");
	}

	/*
	 * A stub (a PLT entry) called from far into a long function: L (sized
	 * 0x2000, FDE: a 32-byte frame, its record at the bottom, fp at it)
	 * calls X at L + 0x17fc, past the 4 KiB the scan engine decodes of a
	 * function (zlib's inflate calls adler32@plt 7 KiB in).  The link
	 * register is a call site by the instruction before it, and CFI from it
	 * reaches the record's frame: [ra], L, not O (which the record at fp,
	 * L's own, names).
	 */
	{
		const struct nofde *n = &nofde_arches[0];
		const uint64_t f_l = FP_CODE + 0x1000, ra_l = f_l + 0x1800;
		const uint8_t cie[] = { 0x0c, 31, 0 };
		const uint8_t rec_lo[] = { 0x0e, 32, 0x80 | 29, 4, 0x80 | 30, 3 };
		struct cr_walk w;
		struct cr_regs r;

		nofde_setup(n, &r, F_X, fp_at(20), fp_at(20), ra_l);
		fp_reset();
		fp_sym("O", F_O, 0x40);
		fp_sym("L", f_l, 0x2000);
		fp_put(RA_O - 4, &n->call, 4);
		fp_put(ra_l - 4, &n->call, 4);
		fp_fde(fp_cie(30, 0, cie, sizeof(cie)), f_l, f_l + 0x2000, rec_lo, sizeof(rec_lo));
		fp_put64(fp_at(20), 0);	/* L's record: O's fp (outermost), RA_O */
		fp_put64(fp_at(21), RA_O);
		fp_walk(&w, n->a, 1);
		tap_ok(step(cr_stub_step, &w, &r) == 0 && nf_is(n, ra_l, fp_at(20), fp_at(20),
								  CR_TAG_RA),
		       "aarch64 no FDE, the link register a call 6 KiB into its function: [ra]");
	}
}

/* Through the policies: the special step's frame, tagged, then the engines go on. */
static void t_policies(void)
{
	static struct cr_frame f[8];
	struct cr_trace t = { .f = f, .max = 8 };
	struct cr_walk w;
	struct cr_regs r;

	/* outer has no FDE and the fp chain ends at FP0's record (its saved fp 0). */
	jit_setup(&r, 1);
	fp_walk(&w, x86, 1);
	cr_unwind(&w, &r, cr_policy(CRASH_ENGINE_AUTO), &t);
	tap_ok(t.n == 3 && t.stop == CR_STOP_COMPLETE && f[1].pc == RA_A && f[1].tag == CR_TAG_RA &&
		       f[2].pc == RA_B && f[2].tag == CR_TAG_CFI,
	       "auto at generated code: [ra] for its caller, then [cfi], complete");
	fp_walk(&w, x86, 1);
	cr_unwind(&w, &r, cr_policy(CRASH_ENGINE_FP), &t);
	tap_ok(t.n == 2 && t.stop == CR_STOP_COMPLETE && f[1].pc == RA_B && f[1].tag == CR_TAG_FP,
	       "fp at generated code: no jit step, the record skips the caller");

	leaf_setup(&r, 0);
	fp_walk(&w, a64, 1);
	cr_unwind(&w, &r, cr_policy(CRASH_ENGINE_FP), &t);
	tap_ok(t.n >= 2 && f[1].pc == RA && f[1].tag == CR_TAG_SCAN && f[1].sp == fp_at(30),
	       "fp at a leaf: #1 from the link register, tagged scan");
}

int main(void)
{
	t_ra();
	t_stub();
	t_jit();
	t_leaf();
	t_nofde();
	t_policies();
	return tap_done();
}
