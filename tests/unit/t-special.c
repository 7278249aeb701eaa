/* SPDX-License-Identifier: MIT */
/*
 * special.c: each special step on a made-up process (fakeproc.h): where it
 * applies, the caller it gives; where it does not, -CR_ENOINFO and *out
 * untouched.  Then two of them in a walk, through the policy that has them.
 */
#include "../tap.h"
#include "crash.h"
#include "fakeproc.h"

static const struct cr_arch *x86 = &cr_arch_x86_64, *a64 = &cr_arch_aarch64;

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

static int step(cr_step_fn *fn, struct cr_walk *w, const struct cr_regs *in)
{
	poison_out();
	return fn(w, in, &out);
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

	fp_reset();
	fp_walk(&w, a64, 1);
	fp_regs(&r, a64, pc, fp_at(10));
	cr_reg_set(&r, 30, 0x0012000000401800ull);
	cr_reg_set(&r, 19, 0x1919);
	tap_is_i64(step(cr_stub_step, &w, &r), 0, "stub: no FDE, no symbol: a stub");
	tap_ok(out.pc == 0x401800 && out.r[31] == fp_at(10) && out.r[19] == 0x1919 &&
		       out.valid == r.valid,
	       "... the caller in the link register (PAC stripped), every register kept");

	w.exact = 0;
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(), "stub: not an exact frame");
	w.exact = 1;
	fp_walk(&w, x86, 1);
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "stub: x86_64 (the return address is on the stack)");
	fp_walk(&w, a64, 1);
	r.valid &= ~CR_BIT(30);
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(), "stub: no link register");
	cr_reg_set(&r, 30, 0x401800);
	fp_have_mod = 0;
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(), "stub: in no module");
	fp_have_mod = 1;

	fp_sym("before", FP_CODE + 0x100, 0);	/* unsized: does not say where it ends */
	fp_walk(&w, a64, 1);
	tap_is_i64(step(cr_stub_step, &w, &r), 0, "stub: an unsized symbol before it");
	fp_sym("around", FP_CODE + 0x100, 0x10);
	fp_walk(&w, a64, 1);
	tap_ok(step(cr_stub_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "stub: a sized symbol around it: a function");

	fp_reset();
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
	fp_put(RA_B - sizeof(call), call, sizeof(call));
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
	t_policies();
	return tap_done();
}
