/* SPDX-License-Identifier: MIT */
/*
 * Each engine's step (fp.c, cfi/step.c, scan.c, sig.c) on a made-up process
 * (fakeproc.h): the caller it gives, the end, and every error with the
 * address it keeps; *out untouched unless it stepped.  The sig step also on
 * a real signal frame of this process.
 */
#include <signal.h>

#include "../tap.h"
#include "cfi/cache.h"
#include "context.h"
#include "crash-int.h"
#include "fakeproc.h"

static const struct cr_arch *x86 = &cr_arch_x86_64, *a64 = &cr_arch_aarch64;
static struct cr_regs out, poison;

static int step(cr_step_fn *fn, struct cr_walk *w, const struct cr_regs *in)
{
	memset(&poison, 0x5a, sizeof(poison));
	out = poison;
	w->step.err_addr = 0x77;
	w->step.next_exact = 0;
	return fn(w, in, &out);
}

static int untouched(void)
{
	return memcmp(&out, &poison, sizeof(out)) == 0;
}

/* ------------------------------------------------------------------ fp */
static void t_fp(void)
{
	static const struct cr_arch nofp = { .name = "nofp", .nregs = 17, .sp = 7, .fp = 6, .ra = 16 };
	struct cr_walk w;
	struct cr_regs r;

	fp_reset();
	fp_walk(&w, x86, 0);
	fp_put64(fp_at(10), fp_at(20));
	fp_put64(fp_at(11), 0x401234);
	fp_regs(&r, x86, 0x401000, fp_at(5));
	cr_reg_set(&r, 6, fp_at(10));
	cr_reg_set(&r, 3, 0x33);
	tap_is_i64(step(cr_fp_step, &w, &r), 0, "fp: a frame record");
	tap_ok(out.pc == 0x401234 && out.r[16] == 0x401234 && out.r[7] == fp_at(12) &&
		       out.r[6] == fp_at(20) && out.r[3] == 0x33,
	       "... pc and rip from fp + 8, rbp from fp, sp = fp + 16, rbx kept");

	cr_reg_set(&r, 6, 0);
	tap_ok(step(cr_fp_step, &w, &r) == CR_END && untouched(), "fp: fp 0 is the outermost frame");
	cr_reg_set(&r, 6, fp_at(10) + 4);
	tap_ok(step(cr_fp_step, &w, &r) == -CR_EFAULT && w.step.err_addr == fp_at(10) + 4 &&
		       untouched(),
	       "fp: a misaligned fp, and its address");
	cr_reg_set(&r, 6, fp_at(4));
	tap_ok(step(cr_fp_step, &w, &r) == -CR_EFAULT && w.step.err_addr == fp_at(4) && untouched(),
	       "fp: fp below sp");
	cr_reg_set(&r, 6, FP_STACK + 8 * FP_NSTACK);
	tap_ok(step(cr_fp_step, &w, &r) == -CR_EFAULT && w.step.err_addr == FP_STACK + 8 * FP_NSTACK &&
		       untouched(),
	       "fp: fp past the stack");
	w.stack_hi = FP_STACK + 0x100000;	/* a stack larger than the memory that is readable */
	cr_reg_set(&r, 6, FP_STACK + 0x10000);
	tap_ok(step(cr_fp_step, &w, &r) == -CR_EFAULT && w.step.err_addr == FP_STACK + 0x10000 &&
		       untouched(),
	       "fp: the record unreadable, and its address");
	w.stack_hi = FP_STACK + sizeof(fp_stack);
	r.valid &= ~CR_BIT(6);
	tap_ok(step(cr_fp_step, &w, &r) == -CR_ENOINFO && untouched(), "fp: no fp");
	cr_reg_set(&r, 6, fp_at(10));
	w.arch = &nofp;
	tap_ok(step(cr_fp_step, &w, &r) == -CR_ENOSYS && untouched(), "fp: an arch without records");

	/* AAPCS64 6.4.6: { x29, x30 } at x29; the saved x30 may carry a PAC. */
	fp_walk(&w, a64, 0);
	fp_put64(fp_at(11), 0x0012000000401234ull);
	fp_regs(&r, a64, 0x401000, fp_at(5));
	cr_reg_set(&r, 29, fp_at(10));
	cr_reg_set(&r, 30, 0x401000);
	tap_is_i64(step(cr_fp_step, &w, &r), 0, "fp aarch64: a frame record");
	tap_ok(out.pc == 0x401234 && out.r[31] == fp_at(12) && out.r[29] == fp_at(20) &&
		       out.r[30] == 0x0012000000401234ull,
	       "... pc from x30 without its PAC, sp = x29 + 16, x29 from the record");
}

/* ----------------------------------------------------------------- cfi */
#define F (FP_CODE + 0x100)

/*
 * F: push %rbp at F, mov %rsp,%rbp at F + 1, body from F + 4 to F + 0x40.
 * The CIE: CFA = rsp + 8, rip at CFA - 8 (undefined if outermost); 'S' if
 * signal.
 */
static void cfi_setup(int signal, int outermost)
{
	static const uint8_t cie[] = { 0x0c, 7, 8, 0x90, 1 };
	static const uint8_t cie_end[] = { 0x0c, 7, 8, 0x07, 16 };	/* DW_CFA_undefined rip */
	/* advance 1; def_cfa_offset 16; offset rbp 2; advance 3; def_cfa_register rbp */
	static const uint8_t fde[] = { 0x41, 0x0e, 16, 0x86, 2, 0x43, 0x0d, 6 };

	fp_reset();
	fp_fde(outermost ? fp_cie(16, signal, cie_end, sizeof(cie_end))
			 : fp_cie(16, signal, cie, sizeof(cie)),
	       F, F + 0x40, fde, sizeof(fde));
	fp_put64(fp_at(10), fp_at(30));	/* the saved rbp (after the push) */
	fp_put64(fp_at(11), 0x401777);	/* the return address */
	fp_put64(fp_at(30), 0);
}

static void t_cfi(void)
{
	struct cr_lastrows rows;
	struct cr_walk w;
	struct cr_regs r;

	cfi_setup(0, 0);
	fp_walk(&w, x86, 1);
	fp_regs(&r, x86, F, fp_at(11));
	tap_is_i64(step(cr_cfi_step, &w, &r), 0, "cfi: the entry row (exact pc)");
	tap_ok(out.pc == 0x401777 && out.r[7] == fp_at(12) && !w.step.next_exact,
	       "... CFA = rsp + 8, the caller's pc from CFA - 8");
	fp_regs(&r, x86, F + 1, fp_at(10));
	tap_is_i64(step(cr_cfi_step, &w, &r), 0, "cfi: after push %rbp (exact pc)");
	tap_ok(out.pc == 0x401777 && out.r[7] == fp_at(12) && out.r[6] == fp_at(30),
	       "... CFA = rsp + 16, rbp restored");
	w.exact = 0;
	fp_regs(&r, x86, F + 1, fp_at(11));
	tap_is_i64(step(cr_cfi_step, &w, &r), 0, "cfi: a return address F + 1 is looked up at F");
	tap_ok(out.pc == 0x401777 && out.r[7] == fp_at(12) && !cr_reg_valid(&out, 6),
	       "... the entry row: CFA = rsp + 8 (rbp unknown, as it came in)");
	fp_regs(&r, x86, F + 0x10, fp_at(2));
	cr_reg_set(&r, 6, fp_at(10));
	tap_is_i64(step(cr_cfi_step, &w, &r), 0, "cfi: the body");
	tap_ok(out.pc == 0x401777 && out.r[7] == fp_at(12) && out.r[6] == fp_at(30),
	       "... CFA = rbp + 16");

	fp_regs(&r, x86, F + 0x81, fp_at(2));
	tap_ok(step(cr_cfi_step, &w, &r) == -CR_ENOINFO && w.step.err_addr == F + 0x80 && untouched(),
	       "cfi: no FDE covers the pc: its lookup pc kept");
	fp_have_mod = 0;
	tap_ok(step(cr_cfi_step, &w, &r) == -CR_ENOINFO && w.step.err_addr == F + 0x80 && untouched(),
	       "cfi: in no module");
	fp_have_mod = 1;
	fp_mod.eh_hdr = 0;
	fp_walk(&w, x86, 0);
	tap_ok(step(cr_cfi_step, &w, &r) == -CR_ENOINFO && untouched(), "cfi: a module without tables");
	fp_mod.eh_hdr = FP_BASE + FP_EHHDR;
	fp_walk(&w, x86, 1);
	fp_regs(&r, x86, F, 0x1000);
	tap_ok(step(cr_cfi_step, &w, &r) == -CR_EFAULT && untouched(), "cfi: the saved pc unreadable");

	cfi_setup(1, 0);
	fp_walk(&w, x86, 0);
	fp_regs(&r, x86, F + 1, fp_at(11));
	tap_ok(step(cr_cfi_step, &w, &r) == 0 && w.step.next_exact,
	       "cfi: a signal frame's CIE ('S'): the caller's pc is exact");
	cfi_setup(0, 1);
	fp_walk(&w, x86, 1);
	fp_regs(&r, x86, F, fp_at(11));
	tap_ok(step(cr_cfi_step, &w, &r) == CR_END && untouched(),
	       "cfi: an undefined return address: the outermost frame");

	/* makecontext's planted return address: F, the first byte of the only
	   FDE, after bytes that are no call (zeros), not exact. */
	cfi_setup(0, 0);
	fp_walk(&w, x86, 0);
	fp_regs(&r, x86, F, fp_at(11));
	tap_ok(step(cr_cfi_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "entry: cfi has no FDE at F - 1");
	tap_ok(step(cr_entry_step, &w, &r) == CR_END && untouched(),
	       "entry: a return address at an FDE's start, no FDE nor call before: outermost");
	w.exact = 1;
	tap_ok(step(cr_entry_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "entry: not for an exact pc (a function's entry)");
	w.exact = 0;
	fp_regs(&r, x86, F + 1, fp_at(11));
	tap_ok(step(cr_entry_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "entry: not inside an FDE");
	fp_put(F - 5, (const uint8_t[]){ 0xe8, 0, 0, 0, 0 }, 5);	/* call rel32 */
	fp_regs(&r, x86, F, fp_at(11));
	tap_ok(step(cr_entry_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "entry: a call before it (the last instruction of FDE-less code)");
	fp_reset();
	{
		size_t c = fp_cie(16, 0, (const uint8_t[]){ 0x0c, 7, 8, 0x90, 1 }, 5);

		fp_fde(c, F - 0x10, F, (const uint8_t[]){ 0 }, 1);
		fp_fde(c, F, F + 0x40, (const uint8_t[]){ 0 }, 1);
	}
	fp_walk(&w, x86, 0);
	tap_ok(step(cr_entry_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "entry: an FDE ends at F (a noreturn call's return address)");

	/* Walks without the row cache keep their last rows (w->lastrows). */
	cfi_setup(0, 0);
	fp_walk(&w, x86, 1);
	memset(&rows, 0, sizeof(rows));
	w.lastrows = &rows;
	fp_regs(&r, x86, F + 1, fp_at(10));
	tap_ok(step(cr_cfi_step, &w, &r) == 0 && rows.e[0].pc == F + 1,
	       "cfi: the row goes to the walk's last rows");
	memset(fp_img + FP_EHFRAME, 0xff, 0x100);	/* the tables gone: only the last rows know */
	w.mod_ok = 0;
	tap_ok(step(cr_cfi_step, &w, &r) == 0 && out.r[6] == fp_at(30) && out.r[7] == fp_at(12),
	       "... and serves it again");

	/* Live walks (w->cache): the process-wide row cache. */
	cfi_setup(0, 0);
	cr_cache_clear();
	fp_walk(&w, x86, 1);
	w.cache = 1;
	fp_regs(&r, x86, F + 1, fp_at(10));
	tap_ok(step(cr_cfi_step, &w, &r) == 0, "cfi: a live walk decodes the row");
	memset(fp_img + FP_EHFRAME, 0xff, 0x100);
	w.mod_ok = 0;
	tap_ok(step(cr_cfi_step, &w, &r) == 0 && out.r[6] == fp_at(30), "... and finds it cached");
	out = r;
	tap_ok(cr_cfi_step_cached(&w, &out) == 0 && out.pc == 0x401777 && out.r[7] == fp_at(12),
	       "... cr_cfi_step_cached steps in place");
	out = r;
	w.step.next_exact = 1;	/* left by the step before: it crossed a signal frame */
	tap_ok(cr_cfi_step_cached(&w, &out) == 0 && !w.step.next_exact,
	       "... a row without 'S': the caller is not exact, whatever the step before left");
	out = r;
	out.pc = F + 2;
	tap_ok(cr_cfi_step_cached(&w, &out) == -CR_ENOINFO && out.pc == F + 2,
	       "... another pc: not cached, untouched");

	/* The gap memo (cache.h): code that no FDE covers, looked up once. */
	cfi_setup(0, 0);
	cr_cache_clear();
	fp_walk(&w, x86, 0);
	w.cache = 1;
	fp_regs(&r, x86, F + 0x81, fp_at(11));
	tap_ok(step(cr_cfi_step, &w, &r) == -CR_ENOINFO && untouched() &&
		       w.step.err_addr == F + 0x80,
	       "cfi, live: no FDE covers F + 0x80");
	{
		uint64_t key = cr_module_key(&fp_mod);
		static const uint8_t cie[] = { 0x0c, 7, 8, 0x90, 1 };
		size_t c;

		tap_ok(cr_gap_memo_has(key, F + 0x40) && cr_gap_memo_has(key, F + 0x80) &&
			       cr_gap_memo_has(key, ~0ull - 1) && !cr_gap_memo_has(key, F + 0x3f) &&
			       !cr_gap_memo_has(key + 1, F + 0x80),
		       "... the stretch from the FDE's end (F + 0x40) on is remembered, for its module");
		/* An FDE there now, in a table that changed under a loaded module
		   (as none does): the memo answers, the table is not read. */
		c = fp_cie(16, 0, cie, sizeof(cie));
		fp_fde(c, F + 0x80, F + 0xc0, NULL, 0);
		tap_ok(step(cr_cfi_step, &w, &r) == -CR_ENOINFO && untouched(),
		       "... the next lookup there is the memo's");
		tap_ok(cr_cfi_range(&w, F + 0x90, &(uint64_t){ 0 }, &(uint64_t){ 0 }) == -CR_ENOINFO,
		       "... and cr_cfi_range's (the entry step's)");
		w.cache = 0;
		tap_ok(step(cr_cfi_step, &w, &r) == 0 && out.pc == 0x401777,
		       "... a walk without the cache reads the table");
		w.cache = 1;
		cr_cache_clear();
		tap_ok(step(cr_cfi_step, &w, &r) == 0 && out.pc == 0x401777 && out.r[7] == fp_at(12),
		       "... cleared, the live walk reads it too");
		tap_ok(!cr_gap_memo_has(key, F + 0x80) && !cr_gap_memo_has(key, F + 0x40),
		       "... no stretch remembered when an FDE is found");
	}
	cr_cache_clear();
}

/* ---------------------------------------------------------------- scan */
static void t_scan(void)
{
	static const uint8_t prologue[] = { 0x55, 0x48, 0x89, 0xe5, 0x90, 0x90, 0xc9, 0xc3 };
	static const uint8_t cie[] = { 0x0c, 7, 8, 0x90, 1 };
	static const struct cr_arch noscan = { .name = "noscan", .nregs = 17, .sp = 7, .fp = 6,
					       .ra = 16 };
	struct cr_walk w;
	struct cr_regs r;

	fp_reset();
	fp_sym("f", F, sizeof(prologue));
	fp_put(F, prologue, sizeof(prologue));
	fp_put64(fp_at(10), fp_at(30));
	fp_put64(fp_at(11), 0x401777);
	fp_walk(&w, x86, 1);
	fp_regs(&r, x86, F + 4, fp_at(2));
	cr_reg_set(&r, 6, fp_at(10));
	tap_is_i64(step(cr_scan_step, &w, &r), 0, "scan: after push %rbp; mov %rsp,%rbp");
	tap_ok(out.pc == 0x401777 && out.r[7] == fp_at(12) && out.r[6] == fp_at(30) &&
		       w.step.err_addr == 0,
	       "... CFA = rbp + 16");
	fp_regs(&r, x86, F + 1, fp_at(10));
	tap_is_i64(step(cr_scan_step, &w, &r), 0, "scan: after push %rbp");
	tap_ok(out.pc == 0x401777 && out.r[7] == fp_at(12) && out.r[6] == fp_at(30),
	       "... CFA = rsp + 16");
	w.exact = 0;
	fp_regs(&r, x86, F + 5, fp_at(2));	/* a return address: the function of F + 4 */
	cr_reg_set(&r, 6, fp_at(10));
	tap_ok(step(cr_scan_step, &w, &r) == 0 && out.pc == 0x401777 && out.r[7] == fp_at(12),
	       "scan: a return address inside the body");

	fp_entry(F);
	fp_walk(&w, x86, 1);
	fp_regs(&r, x86, F + 4, fp_at(2));
	tap_ok(step(cr_scan_step, &w, &r) == CR_END && w.step.err_addr == 0 && untouched(),
	       "scan: the module's entry point is the outermost frame");
	fp_entry(FP_BASE);
	r.pc = F + 0x100;
	tap_ok(step(cr_scan_step, &w, &r) == -CR_ENOSTART && w.step.err_addr == F + 0x100 &&
		       untouched(),
	       "scan: no symbol, no FDE: no function start, the pc kept");
	w.arch = &noscan;
	tap_ok(step(cr_scan_step, &w, &r) == -CR_ENOSYS && untouched(), "scan: an arch without a decoder");

	/* No symbol: the FDE's range is the function (its rows are not used). */
	fp_reset();
	fp_fde(fp_cie(16, 0, cie, sizeof(cie)), F, F + sizeof(prologue), NULL, 0);
	fp_put(F, prologue, sizeof(prologue));
	fp_put64(fp_at(10), fp_at(30));
	fp_put64(fp_at(11), 0x401777);
	fp_walk(&w, x86, 1);
	fp_regs(&r, x86, F + 4, fp_at(2));
	cr_reg_set(&r, 6, fp_at(10));
	tap_ok(step(cr_scan_step, &w, &r) == 0 && out.r[7] == fp_at(12) && out.r[6] == fp_at(30),
	       "scan: the function start from the FDE");

	/* aarch64: only the innermost frame may have its return address in x30. */
	static const uint32_t leaf[] = { 0xd503201f, 0xd503201f, 0xd65f03c0 };

	fp_reset();
	fp_sym("leaf", F, sizeof(leaf));
	fp_put(F, leaf, sizeof(leaf));
	fp_walk(&w, a64, 1);
	fp_regs(&r, a64, F + 8, fp_at(4));
	cr_reg_set(&r, 30, 0x401777);
	tap_ok(step(cr_scan_step, &w, &r) == 0 && out.pc == 0x401777 && out.r[31] == fp_at(4),
	       "scan aarch64: frame #00 of a leaf: the caller in x30");
	w.exact = 0;
	tap_ok(step(cr_scan_step, &w, &r) == -CR_EINVAL && untouched(),
	       "scan aarch64: a caller's frame cannot have it there");
}

/* --------------------------------------------------------- the fp run */
static int no_info(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *o)
{
	(void)w;
	(void)in;
	(void)o;
	return -CR_ENOINFO;
}

/*
 * The module's code as one executable PT_LOAD (the run's code ranges come
 * from the program headers), frame records at fp_at(rec[i]) for x86_64:
 * the caller's fp, then the return address ra[i].
 */
static uint8_t free_views;	/* the memory's views cost nothing: code ranges are segments */

/* crash_backtrace's is_exec: nothing known past the first page. */
static int unknown_exec(const struct cr_walk *w, uint64_t pc)
{
	(void)w;
	return pc < 4096 ? 0 : -1;
}

/* A walk of the fake process as run_same makes it. */
static void run_walk(struct cr_walk *w)
{
	fp_walk(w, x86, 0);
	if (free_views)
		w->is_exec = unknown_exec;
}

static void run_setup(const unsigned *rec, const uint64_t *ra, unsigned n)
{
	Elf64_Phdr ph = { .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_vaddr = FP_CODE - FP_BASE,
			  .p_memsz = FP_BASE + FP_MODLEN - FP_CODE };

	fp_reset();
	fp_mem.free_views = free_views;
	fp_put(fp_mod.phdr, &ph, sizeof(ph));
	fp_mod.phnum = 1;
	for (unsigned i = 0; i < n; i++) {
		fp_put64(fp_at(rec[i]), i + 1 < n ? fp_at(rec[i + 1]) : 0);
		fp_put64(fp_at(rec[i]) + 8, ra[i]);
	}
}

/* The walk with the run (the fp engine's policy) and without it (the same
   steps, and one after fp that finds nothing: not the run's shape). */
static int run_same(const char *what, unsigned first, unsigned max, unsigned *ran)
{
	static const struct cr_policy steps = { "fp-steps", 0, 5,
						{ CR_STEP_SIG, CR_STEP_STUB, CR_STEP_LEAF, CR_STEP_FP,
						  { no_info, CR_TAG_FP, 0 } } };
	static struct cr_frame fa[64], fb[64];
	static void *pcs[64];
	struct cr_trace ta = { .f = fa, .max = max }, tb = { .f = fb, .max = max };
	struct cr_trace tc = { .pcs = pcs, .max = max };
	struct cr_fp_run run;
	struct cr_walk w;
	struct cr_regs r;
	int same;

	run_walk(&w);
	fp_regs(&r, x86, F + 0x20, fp_at(first) - 16);
	cr_reg_set(&r, 6, fp_at(first));
	cr_unwind(&w, &r, cr_policy(CRASH_ENGINE_FP), &ta);
	run_walk(&w);
	cr_unwind(&w, &r, &steps, &tb);
	same = ta.n == tb.n && ta.stop == tb.stop && ta.stop_addr == tb.stop_addr;
	for (unsigned i = 0; same && i < ta.n; i++)
		same = fa[i].pc == fb[i].pc && fa[i].sp == fb[i].sp && fa[i].tag == fb[i].tag &&
		       fa[i].flags == fb[i].flags;
	/* And with the pcs only (crash_backtrace's trace: the run writes them in place). */
	run_walk(&w);
	cr_unwind(&w, &r, cr_policy(CRASH_ENGINE_FP), &tc);
	same &= tc.n == ta.n && tc.stop == ta.stop && tc.stop_addr == ta.stop_addr;
	for (unsigned i = 0; same && i < ta.n; i++)
		same = pcs[i] == (void *)(uintptr_t)fa[i].pc;
	if (!same) {
		printf("# with the run: %u frames, stop %u at %#llx; the steps: %u, stop %u at %#llx\n",
			 ta.n, ta.stop, (unsigned long long)ta.stop_addr, tb.n, tb.stop,
			 (unsigned long long)tb.stop_addr);
		for (unsigned i = 0; i < ta.n || i < tb.n; i++)
			printf("# #%u %#llx %#llx %u %u | %#llx %#llx %u %u\n", i,
				 (unsigned long long)fa[i].pc, (unsigned long long)fa[i].sp, fa[i].tag,
				 fa[i].flags, (unsigned long long)fb[i].pc,
				 (unsigned long long)fb[i].sp, fb[i].tag, fb[i].flags);
	}
	/* How many frames the run itself found from the first frame. */
	run_walk(&w);
	ta.n = 0;
	*ran = cr_fp_run_init(&run, &w, cr_policy(CRASH_ENGINE_FP)) ? cr_fp_run(&run, &w, &r, &ta)
								     : 0;
	tap_ok(same, what);
	return ta.n;
}

static void t_fp_run(void)
{
	static const unsigned rec[] = { 10, 20, 30, 40, 50 };
	uint64_t ra[] = { F + 0x100, F + 0x200, F + 0x300, F + 0x400, F + 0x500 };
	unsigned ran;

	run_setup(rec, ra, 5);
	run_same("run: a chain to fp 0, as the steps give it", 10, 64, &ran);
	tap_is_u64(ran, 5, "run: ... its five callers found by the run");
	run_same("run: the frame limit, as the steps give it", 10, 3, &ran);
	tap_is_u64(ran, 3, "run: ... three frames by the run");
	ra[2] = FP_JIT + 0x10;	/* generated code: in no module, the steps' frame */
	run_setup(rec, ra, 5);
	run_same("run: a return address in no module, as the steps give it", 10, 64, &ran);
	tap_is_u64(ran, 2, "run: ... the run stops before that frame");
	ra[2] = 0;
	run_setup(rec, ra, 5);
	run_same("run: a return address 0, as the steps give it", 10, 64, &ran);
	tap_is_u64(ran, 2, "run: ... the run stops before it");
	ra[2] = FP_BASE + 0x10;	/* the module's headers: not its executable segment */
	run_setup(rec, ra, 5);
	run_same("run: a return address outside the code, as the steps give it", 10, 64, &ran);
	tap_is_u64(ran, 2, "run: ... the run stops before it");
	ra[1] = F + 0x1200;	/* callers on three pages of the code */
	ra[2] = F + 0x5300;
	run_setup(rec, ra, 5);
	run_same("run: return addresses on several pages, as the steps give it", 10, 64, &ran);
	tap_is_u64(ran, 5, "run: ... all five found by the run");
	ra[1] = F + 0x200;
	ra[2] = F + 0x300;
	run_setup(rec, ra, 5);
	fp_put64(fp_at(30), fp_at(40) + 4);	/* misaligned */
	run_same("run: a misaligned record, as the steps give it", 10, 64, &ran);
	tap_is_u64(ran, 3, "run: ... the run stops before it");
	run_setup(rec, ra, 5);
	fp_put64(fp_at(30), fp_at(5));	/* below sp */
	run_same("run: a record below sp, as the steps give it", 10, 64, &ran);
	run_setup(rec, ra, 5);
	fp_put64(fp_at(30), FP_STACK + 8 * FP_NSTACK + 64);	/* off the stack */
	run_same("run: a record off the stack, as the steps give it", 10, 64, &ran);
	if (cr_host == x86) {
		/* glibc's __restore_rt at a return address: the sig step's frame */
		static const uint8_t restore_rt[9] = { 0x48, 0xc7, 0xc0, 0x0f, 0x00,
						       0x00, 0x00, 0x0f, 0x05 };

		run_setup(rec, ra, 5);
		fp_put(F + 0x300, restore_rt, sizeof(restore_rt));
		run_same("run: a sigreturn trampoline, as the steps give it", 10, 64, &ran);
		tap_is_u64(ran, 3, "run: ... the run stops at its frame");
	}
	run_setup(rec, ra, 5);
	fp_mod.phnum = 0;	/* no program headers: no code range, the steps' frames */
	run_same("run: a module without program headers, as the steps give it", 10, 64, &ran);
	tap_is_u64(ran, 0, "run: ... none by the run");
}

/* ----------------------------------------------------------------- sig */
static int sig_ok;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	static const struct cr_policy sig_first = { "sig-first", 0, 3,
						    { CR_STEP_SIG, CR_STEP_STUB, CR_STEP_CFI } };
	static struct cr_frame f[64];
	struct cr_trace t = { .f = f, .max = 64 };
	struct cr_regs start, at;
	struct cr_walk w;

	(void)sig;
	(void)si;
	cr_regs_from_ucontext(uc, &at);
	cr_getcontext(&start);
	cr_walk_live(&w, NULL, start.r[cr_host->sp], 0);
	cr_unwind(&w, &start, &sig_first, &t);
	for (unsigned i = 1; i < t.n; i++)
		if (f[i].tag == CR_TAG_SIG)
			sig_ok = f[i].pc == at.pc && (f[i].flags & CR_FRAME_EXACT) &&
				 f[i].sp == at.r[cr_host->sp];
}

static void t_sig(void)
{
	const struct cr_arch *other = cr_host == x86 ? a64 : x86;
	struct sigaction sa;
	struct cr_walk w;
	struct cr_regs r;

	fp_reset();
	fp_walk(&w, other, 1);
	fp_regs(&r, other, F, fp_at(4));
	tap_ok(step(cr_sig_step, &w, &r) == -CR_ENOINFO && untouched(),
	       "sig: another arch's frame (its trampolines are not this host's)");
	fp_walk(&w, cr_host, 1);
	fp_regs(&r, cr_host, F, fp_at(4));
	tap_ok(step(cr_sig_step, &w, &r) == -CR_ENOINFO && untouched(), "sig: not a trampoline");
	r.pc = 0x1000;
	tap_ok(step(cr_sig_step, &w, &r) == -CR_ENOINFO && untouched(), "sig: an unreadable pc");

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	tap_ok(sig_ok, "sig: a real signal frame gives the interrupted pc and sp, exact");
}

int main(void)
{
	t_fp();
	t_cfi();
	t_scan();
	t_fp_run();
	/* Again where views cost nothing (a loaded module's code, remembered:
	   modmem.h): each code range is the whole executable segment. */
	free_views = 1;
	t_fp_run();
	t_sig();
	return tap_done();
}
