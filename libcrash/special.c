/* SPDX-License-Identifier: MIT */
/*
 * The special steps: exact frames (frame #00, or one interrupted by a signal)
 * that no engine reads right.  Each is a cr_step_fn that answers
 * -CR_ENOINFO where it does not apply, so a policy (unwind.c) lists it before
 * the engine that would misread the frame; cr_ra_step is also the whole step
 * of frame #00 when its pc is in no executable mapping.  Frames they find are
 * tagged [ra], [scan] for cr_leaf_step, [ra] or [fp] for cr_stub_step as its
 * evidence chose (docs/design.md, "Frames without an FDE").  "One row type,
 * one executor".
 */
#include "cfi/cfi.h"
#include "sym.h"
#include "unwind.h"

int cr_ra_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	struct cr_regs tmp = *in;
	uint64_t ra;

	if (!cr_reg_valid(in, a->sp))
		return -CR_EINVAL;
	if (a->ra_in_reg) {
		if (!cr_reg_valid(in, a->ra))
			return -CR_EINVAL;
		ra = in->r[a->ra];
	} else {
		if (cr_read64(w->mem, in->r[a->sp], &ra) < 0) {
			w->step.err_addr = in->r[a->sp];
			return -CR_EFAULT;
		}
		cr_reg_set(&tmp, a->sp, in->r[a->sp] + 8);
		cr_reg_set(&tmp, a->ra, ra);
	}
	tmp.pc = a->strip_ra ? a->strip_ra(ra) : ra;
	*out = tmp;
	return 0;
}

/* The function around pc, for the decoder: a sized symbol containing pc, or an unsized one. */
#define LEAF_MAX 4096	/* as the scan engine: longer distances are not decoded */

__attribute__((noinline)) static int leaf_decode_copy(struct cr_walk *w, uint64_t start,
						      size_t off, struct cr_row *row)
{
	uint8_t code[LEAF_MAX];

	if (cr_read(w->mem, start, code, off) < 0)
		return -CR_ENOINFO;
	return w->arch->scan(code, off, off, 1, row);
}

static int leaf_decode(struct cr_walk *w, uint64_t start, uint64_t pc, struct cr_row *row)
{
	size_t off = (size_t)(pc - start);
	const uint8_t *code;

	if (off >= LEAF_MAX)
		return -CR_ENOINFO;
	if ((code = cr_mem_view(w->mem, start, off)) != NULL)	/* in place where it can */
		return w->arch->scan(code, off, off, 1, row);
	return leaf_decode_copy(w, start, off, row);
}

/*
 * The prologue decoder's row at pc from the function's known start (a sized
 * symbol, an FDE's range or an unsized symbol): 0 when it says the return
 * address is still in the link register (not saved at pc), else -CR_ENOINFO.
 */
__attribute__((noinline)) static int ra_unsaved(struct cr_walk *w, const struct cr_regs *in,
						struct cr_row *row)
{
	const struct cr_arch *a = w->arch;
	uint64_t start, size;

	if (!a->scan || !cr_reg_valid(in, a->ra) ||
	    cr_scan_frame_start(w, in->pc, &start, &size) < 0 ||
	    leaf_decode(w, start, in->pc, row) < 0 || row->ra != a->ra ||
	    row->reg[a->ra].kind != CR_SAME)
		return -CR_ENOINFO;
	return 0;
}

/*
 * Does the prologue decoder, from the function's known start (here an unsized
 * symbol), give the caller s: the return address still where the call left
 * it (the link register, or [sp] on x86_64), sp where S has it?
 */
__attribute__((noinline)) static int decoder_agrees(struct cr_walk *w, const struct cr_regs *in,
						    const struct cr_regs *s)
{
	const struct cr_arch *a = w->arch;
	struct cr_stepinfo saved = w->step;
	uint64_t start, size;
	struct cr_regs t;
	struct cr_row row;
	int ok;

	ok = a->scan && cr_scan_frame_start(w, in->pc, &start, &size) == 0 &&
	     leaf_decode(w, start, in->pc, &row) == 0 &&
	     cr_row_apply(&row, w->mem, a, in, &t) == 0 && t.pc == s->pc &&
	     cr_reg_valid(&t, a->sp) && t.r[a->sp] == s->r[a->sp];
	w->step = saved;
	return ok;
}

/*
 * Is ra a call site: does the instruction before it call?  In a function of
 * known extent, cr_scan_confirm decodes from its start (within LEAF_MAX of it;
 * further in, the bytes before ra as below).  In code without one
 * (assembly with no FDE and no symbol) the bytes before ra: the last word on
 * the link-register arches, whose calls are 4 bytes (riscv64: jal/jalr, or
 * c.jalr in its last 2 bytes), the last 16 on x86_64, whose call_before
 * decodes each possible start of a call ending at ra.  Evidence, not proof:
 * the upper half of a 32-bit riscv64 instruction may read as c.jalr.
 */
static int call_site(struct cr_walk *w, uint64_t ra)
{
	const struct cr_arch *a = w->arch;
	struct cr_regs r;
	uint64_t start, size;
	size_t n = a->ra_in_reg ? 4 : 16;
	uint8_t code[16];

	if (ra < 4096 || (a->ra_in_reg && (ra & 1)) || !a->call_before ||
	    (w->is_exec && w->is_exec(w, ra) == 0))
		return 0;
	r.pc = ra;	/* all cr_scan_confirm reads */
	/* Decoded from the function's start (x86_64's instruction boundaries)
	   within what the scan engine reads of a function; further in (zlib's
	   inflate calls adler32@plt 7 KiB in), as in an unknown function: the
	   bytes before it. */
	if (cr_scan_function(w, ra - 1, &start, &size) == 0 && size && ra - start <= size &&
	    ra - start <= LEAF_MAX)
		return cr_scan_confirm(w, &r);
	if (cr_read(w->mem, ra - n, code, n) < 0)
		return 0;
	return a->call_before(code, n);
}

/*
 * Does the CFI walk from a (the caller by the return address alone) reach b
 * (the caller by the frame record at fp) within LOOKAHEAD frames: the same
 * pc, sp not below b's (the fp engine's sp is a lower bound on aarch64)?  Then
 * the record belongs to one of a's callers and a explains both, while a stale
 * return address (left at [sp] by an earlier call, or in the link register by
 * the function's own call) does not.  w as it was after.
 */
#define LOOKAHEAD 16
__attribute__((noinline)) static int explains(struct cr_walk *w, const struct cr_regs *a_caller,
					      const struct cr_regs *b_caller)
{
	const struct cr_arch *a = w->arch;
	struct cr_stepinfo saved = w->step;
	struct cr_regs r[2];
	uint8_t exact = w->exact;
	int ok = 0;

	w->exact = 0;	/* a's pc, and its callers', are return addresses */
	r[0] = *a_caller;
	for (unsigned k = 0; k < LOOKAHEAD && !ok; k++) {
		if (cr_cfi_step(w, &r[k & 1], &r[(k + 1) & 1]) != 0 ||
		    !cr_reg_valid(&r[(k + 1) & 1], a->sp) ||
		    r[(k + 1) & 1].r[a->sp] <= r[k & 1].r[a->sp])
			break;
		ok = r[(k + 1) & 1].pc == b_caller->pc &&
		     r[(k + 1) & 1].r[a->sp] >= b_caller->r[a->sp];
	}
	w->exact = exact;
	w->step = saved;
	return ok;
}

/*
 * aarch64's frame record does not say where the CFA is (AAPCS64 6.4.6: the
 * record may sit anywhere in its frame; the fp engine's x29 + 16 is a lower
 * bound), and a caller whose CFA is sp-based (GCC's) needs the exact one.  The
 * frame-record prologue found backward from pc (arch->record_start), decoded
 * up to pc, gives it, and the callee-saved registers stored beside it, when
 * its row agrees with the record at fp: CFA from x29, the saved x29 at x29
 * and the return address at x29 + 8, the same caller.  Otherwise *r stays.
 */
__attribute__((noinline)) static void record_cfa(struct cr_walk *w, const struct cr_module *mod,
						 const struct cr_regs *in, struct cr_regs *r)
{
	const struct cr_arch *a = w->arch;
	uint64_t lo = in->pc - mod->lo > LEAF_MAX ? in->pc - LEAF_MAX : mod->lo;
	const uint8_t *code = cr_mem_view(w->mem, lo, (size_t)(in->pc - lo));
	struct cr_regs t;
	struct cr_row row;
	long at;

	if (!code) {	/* the code may start on a page that cannot be read */
		lo = in->pc & ~4095ull;
		lo = lo > mod->lo ? lo : mod->lo;
		if (!(code = cr_mem_view(w->mem, lo, (size_t)(in->pc - lo))))
			return;
	}
	at = a->record_start(code, (size_t)(in->pc - lo));
	if (at < 0 || a->scan(code + at, (size_t)(in->pc - lo) - (size_t)at,
			      (size_t)(in->pc - lo) - (size_t)at, 1, &row) < 0)
		return;
	if (row.cfa.kind != CR_REG || row.cfa.reg != a->fp || row.ra != a->ra ||
	    row.reg[a->ra].kind != CR_OFFSET || row.cfa.off + row.reg[a->ra].off != 8 ||
	    row.reg[a->fp].kind != CR_OFFSET || row.cfa.off + row.reg[a->fp].off != 0)
		return;
	if (cr_row_apply(&row, w->mem, a, in, &t) == 0 && t.pc == r->pc &&
	    cr_reg_valid(&t, a->sp) && t.r[a->sp] >= r->r[a->sp])
		*r = t;
}

/*
 * Did the call that left s's return address enter the code at pc: a direct
 * call (arch->call_target) to at most STUB_SPAN bytes before pc?  Then that
 * code has not built a frame of its own (a PLT entry is 16 bytes on all four
 * arches, and builds none), and a frame record at fp with another return
 * address is a stale one: the caller's, or older (riscv64, a SIGPROF at
 * strlen@plt's first instruction, called from a function without frame
 * pointers: the record at s0 was one its own caller had left).
 */
#define STUB_SPAN 16
static int entered(struct cr_walk *w, const struct cr_regs *s, uint64_t pc)
{
	const struct cr_arch *a = w->arch;
	size_t n = a->ra_in_reg ? 8 : 5;
	uint8_t code[8];
	uint64_t t;

	/* (not a call this code made itself before pc: its return address is
	   in (t, pc]) */
	return a->call_target && s->pc > n && cr_read(w->mem, s->pc - n, code, n) == 0 &&
	       a->call_target(code, n, s->pc, &t) && t <= pc && pc - t < STUB_SPAN &&
	       !(s->pc > t && s->pc <= pc);
}

/*
 * Linkers emit no FDE for the PLT on aarch64 and riscv64, and stubs have no
 * symbol; the psABIs let PLT entries and veneers use only the scratch
 * registers (AAPCS64 6.1.1 IP0/IP1 x16/x17; RISC-V psABI "Procedure Linkage
 * Table": t1-t3), never sp or the link register: the caller is in the link
 * register, sp unchanged (S).  But hand-written assembly has neither FDE nor
 * symbol either (OpenSSL's perlasm in a stripped libcrypto), and once it has
 * built a frame record (AAPCS64 6.4.6 at x29; RISC-V psABI "Frame Pointer
 * Convention" and LoongArch psABI at fp - 16) S repeats the caller and reads
 * its frame from the wrong sp; the record gives the caller (R).  Chosen by
 * evidence (docs/design.md, "Frames without an FDE"):
 * - R: the record is valid (fp engine: aligned, in the stack, above sp) and
 *   its return address is a call site; S: the link register's is.
 * - Both, same return address: the function saved its link register into
 *   that record and has called nothing since: R.
 * - Both, different: S if the link register's call entered this very code
 *   (entered(): a direct call to at most 16 bytes before pc), if the CFI walk
 *   from S reaches R's frame (the record is a caller's), or if the prologue
 *   decoder, from a known start, gives S's caller; else R (the link register
 *   holds the return address of the function's own earlier call).
 * - One of them: that one.  Neither: -CR_ENOINFO (the other steps go on).
 * A pc in a module, with no FDE and no sized symbol around it (an unsized
 * one, like crti's _init before .plt, does not say where it ends).  x86_64
 * (whose linkers give the PLT an FDE) has the same two readings of such
 * code: S is the return address at [sp] (sp + 8 after it), R the record at
 * rbp.
 */
__attribute__((noinline)) static int stub(struct cr_walk *w, const struct cr_regs *in,
					  struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	const struct cr_module *mod;
	struct cr_ehsrc src = { 0 };
	struct cr_stepinfo saved = w->step;
	struct cr_regs s, r;
	struct cr_fde fde;
	struct cr_sym sym;
	int ret, s_ok, r_ok;

	if ((a->ra_in_reg && !cr_reg_valid(in, a->ra)) || !cr_reg_valid(in, a->sp))
		return -CR_ENOINFO;
	if (cr_walk_module(w, in->pc, &mod) < 0)
		return -CR_ENOINFO;
	if (mod->eh_hdr) {
		src.eh_hdr = mod->eh_hdr;
		src.eh_hdr_len = mod->eh_hdr_len;
		src.eh_frame_end = mod->hi;
		src.bases.data = mod->eh_hdr;
		ret = cr_eh_find(w->mem, &src, in->pc, &fde);
		if (ret != -CR_ENOINFO)
			return -CR_ENOINFO;	/* an FDE (or no answer): not a stub */
	}
	if (cr_sym_find(w->mem, mod, in->pc, &sym) == 0 && sym.size &&
	    in->pc - sym.start < sym.size)
		return -CR_ENOINFO;
	s_ok = cr_ra_step(w, in, &s) == 0 && call_site(w, s.pc);
	r_ok = cr_fp_step(w, in, &r) == 0 && cr_reg_valid(&r, a->sp) &&
	       r.r[a->sp] > in->r[a->sp] && call_site(w, r.pc);
	w->step = saved;
	if (r_ok && s_ok && r.pc != s.pc &&
	    (entered(w, &s, in->pc) || explains(w, &s, &r) || decoder_agrees(w, in, &s)))
		r_ok = 0;	/* the record is a caller's, or older */
	if (r_ok) {
		if (a->record_start && cr_walk_module(w, in->pc, &mod) == 0)
			record_cfa(w, mod, in, &r);
		*out = r;
		return CR_STEP_TAGGED(CR_TAG_FP);
	}
	if (!s_ok)
		return -CR_ENOINFO;
	*out = s;
	return CR_STEP_TAGGED(CR_TAG_RA);
}

/*
 * makecontext (glibc) plants the return address of a context's first
 * function: the first byte of __start_context (x86_64) or __startcontext
 * (aarch64), whose FDE starts there, after padding that no FDE covers and that
 * is no call.  Looked up at pc - 1 (DWARF5 6.4.4) no FDE applies; the one at
 * pc describes that code's own entry, not a caller (empty: glibc marks the
 * context's end so).  So no engine knows a caller of this frame: it is the
 * context's outermost.  The fp engine would read the frame record getcontext
 * saved before makecontext, on another stack (crash_backtrace has no stack
 * bounds to refuse it), and go on with frames of the code that made the
 * context.  A frame with a return address (not exact) only: exact pcs at an
 * FDE's start are every function's entry.
 */
__attribute__((noinline)) static int entry(struct cr_walk *w, const struct cr_regs *in)
{
	const struct cr_arch *a = w->arch;
	size_t n = a->ra_in_reg ? 4 : 16;
	uint64_t lo, hi;
	uint8_t code[16];

	if (!a->call_before || in->pc < 4096 + n ||
	    cr_cfi_range(w, in->pc, &lo, &hi) < 0 || lo != in->pc ||
	    cr_cfi_range(w, in->pc - 1, &lo, &hi) != -CR_ENOINFO ||
	    cr_read(w->mem, in->pc - n, code, n) < 0 || a->call_before(code, n))
		return -CR_ENOINFO;
	return CR_END;
}

int cr_entry_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	(void)out;
	return w->exact ? -CR_ENOINFO : entry(w, in);
}

/* Most frames are not exact: they pay only this test (the body is out of line). */
int cr_stub_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	return w->exact ? stub(w, in, out) : -CR_ENOINFO;
}

/*
 * Two readings of the caller of generated code (no unwind table, symbol or
 * function start): (A) the function has not moved sp nor saved anything yet,
 * the return address is at [sp] (x86_64) or in the link register; (B) it has
 * set up a frame record, the fp engine's.  Both are common, and B over a
 * function without a record silently skips its caller (or more: past
 * callers without records).  A is taken when its return address is confirmed
 * (it follows a call in a function of known extent, cr_scan_confirm) and
 * either the fp step fails or A explains B (explains(): the CFI walk from A
 * reaches B's frame).
 */
__attribute__((noinline)) static int jit(struct cr_walk *w, const struct cr_regs *in,
					 struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	const struct cr_module *mod;
	struct cr_regs ra_caller, fp_caller;
	struct cr_stepinfo saved = w->step;
	int ok;

	if (cr_walk_module(w, in->pc, &mod) == 0 || cr_ra_step(w, in, &ra_caller) < 0 ||
	    !cr_scan_confirm(w, &ra_caller)) {
		w->step = saved;
		return -CR_ENOINFO;
	}
	ok = cr_fp_step(w, in, &fp_caller) < 0 || !cr_reg_valid(&fp_caller, a->sp) ||
	     explains(w, &ra_caller, &fp_caller);
	w->step = saved;
	if (!ok)
		return -CR_ENOINFO;
	*out = ra_caller;
	return 0;
}

int cr_jit_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	return w->exact ? jit(w, in, out) : -CR_ENOINFO;
}

/*
 * A function that has not saved its return address (a leaf never does; or
 * the pc is in a prologue) has no frame record of its own, so the record at
 * fp is its caller's and the fp engine would skip the caller.  The prologue
 * decoder says whether the link register is saved at pc: if not, its row (ra
 * in the link register, CFA from sp, or from fp where a GCC leaf saved only
 * fp) is the step.  -CR_ENOINFO otherwise, or when the function is not known:
 * the frame record applies.
 */
__attribute__((noinline)) static int leaf(struct cr_walk *w, const struct cr_regs *in,
					  struct cr_regs *out)
{
	struct cr_row row;

	if (ra_unsaved(w, in, &row) < 0)
		return -CR_ENOINFO;
	return cr_row_apply(&row, w->mem, w->arch, in, out) == 0 ? 0 : -CR_ENOINFO;
}

int cr_leaf_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	if (!w->exact || !w->arch->ra_in_reg)
		return -CR_ENOINFO;
	return leaf(w, in, out);
}
