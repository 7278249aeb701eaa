/* SPDX-License-Identifier: MIT */
/* Engine fp: the arch's fixed frame-record layout as a constant row. */
#include <elf.h>

#include "context.h"
#include "unwind.h"

int cr_fp_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	uint64_t fp, sp;
	int ret;

	if (!a->fp_row)
		return -CR_ENOSYS;
	if (!cr_reg_valid(in, a->fp) || !cr_reg_valid(in, a->sp))
		return -CR_ENOINFO;
	fp = in->r[a->fp];
	sp = in->r[a->sp];
	if (fp == 0)
		return CR_END;	/* thread entry clears the frame pointer (psABI) */
	/* A frame record is aligned, inside the stack and above the current sp. */
	if ((fp & 7) || fp < sp || fp < w->stack_lo || fp >= w->stack_hi) {
		w->step.err_addr = fp;
		return -CR_EFAULT;
	}
	ret = cr_row_apply(a->fp_row, w->mem, a, in, out);
	if (ret == -CR_EFAULT)
		w->step.err_addr = fp;
	return ret;
}

/*
 * The run (docs/performance.md, "fp and scan engines").  What cr_unwind does for
 * a frame whose pc is a return address under a policy whose steps for it are
 * sig (optional) then fp, is: the sig step reads the bytes at pc and takes
 * the frame if they are a sigreturn trampoline; else the fp step applies the
 * frame record at fp; then check_step refuses a caller whose pc is not code
 * or whose sp does not grow inside the stack.  The run does the same for as
 * many frames as it can prove as it goes, in one loop and without a call per
 * frame: the pc's code and the frame record lie in ranges proven readable
 * once (cr_mem_view) and kept in struct cr_fp_run, and a return address is
 * code when it lies in an executable PT_LOAD of a loaded module, found once
 * per range.  Anything else (a trampoline's bytes, fp 0 or outside the
 * proven ranges, a pc in no module) ends the run before that frame, and the
 * frame loop takes it with the policy's steps, so every frame gets what the
 * steps would give it: the run only skips their work.
 */
int cr_fp_run_init(struct cr_fp_run *r, const struct cr_walk *w, const struct cr_policy *p)
{
	unsigned i, k = 0;
	cr_step_fn *steps[2];

	r->on = 0;
	r->shape = 0;	/* the row's, read at the first frame the run may take */
	r->slo = r->clo = r->xlo = 0;
	r->slen = r->clen = r->xlen = 0;	/* empty: x - lo < 0 for no x */
	r->sdelta = r->cdelta = 0;
	if (!w->arch->fp_row || p->cfi_first || !w->mem->view)
		return 0;
	/* The policy's steps for a frame that is not exact: [sig,] fp. */
	for (i = 0; i < p->n; i++) {
		if (p->step[i].exact)
			continue;
		if (k == 2)
			return 0;
		steps[k++] = p->step[i].fn;
	}
	if (!((k == 1 && steps[0] == cr_fp_step) ||
	      (k == 2 && steps[0] == cr_sig_step && steps[1] == cr_fp_step)))
		return 0;
	r->sig = k == 2 && w->arch == cr_host;	/* the sig step reads nothing for another arch */
	r->on = 1;
	return 1;
}

/*
 * The row's shape: CFA = fp + c, fp and the return address saved near it,
 * every other register the same.  1, or 0: not a shape the run knows.
 */
static __attribute__((noinline)) int shape(struct cr_fp_run *r, const struct cr_arch *a)
{
	const struct cr_row *row = a->fp_row;
	unsigned i;

	if (row->cfa.kind != CR_REG || row->cfa.reg != a->fp || row->ra >= a->nregs ||
	    row->ra == a->fp || row->ra == a->sp || row->reg[a->fp].kind != CR_OFFSET ||
	    row->reg[row->ra].kind != CR_OFFSET || row->signal)
		return 0;
	/* (columns past the arch's are not applied: cr_row_apply) */
	for (i = 0; i < a->nregs && i < CR_NREGS; i++)
		if (i != a->fp && i != row->ra && row->reg[i].kind != CR_SAME)
			return 0;
	r->cfa_off = row->cfa.off;
	r->fp_off = row->cfa.off + row->reg[a->fp].off;
	r->ra_off = row->cfa.off + row->reg[row->ra].off;
	r->lo_off = r->fp_off < r->ra_off ? r->fp_off : r->ra_off;
	r->hi_off = (r->fp_off > r->ra_off ? r->fp_off : r->ra_off) + 8;
	if (r->cfa_off < 0 || r->cfa_off > 64 || r->lo_off < -64 || r->hi_off > 64 ||
	    r->hi_off - r->lo_off > 4096)
		return 0;
	r->ra = row->ra;
	r->shape = 1;
	return 1;
}

#define PAGE 4096ull

/*
 * The stack range for fp: the page(s) of its frame record, proven readable,
 * within the walk's stack.  0, or -1: the steps take this frame.
 */
static __attribute__((noinline)) int stack_range(struct cr_fp_run *r, struct cr_walk *w,
						 uint64_t fp, uint64_t sp)
{
	const uint8_t *v;
	uint64_t lo, hi, plo, phi;

	if (fp == 0 || (fp & 7) || fp < sp || fp < w->stack_lo || fp >= w->stack_hi ||
	    fp + (uint64_t)r->lo_off > fp + (uint64_t)r->hi_off)
		return -1;
	plo = (fp + (uint64_t)r->lo_off) & ~(PAGE - 1);
	phi = ((fp + (uint64_t)r->hi_off - 1) | (PAGE - 1)) + 1;
	if (phi <= plo || !(v = cr_mem_view(w->mem, plo, phi - plo)))
		return -1;
	/* fp such that [fp + lo_off, fp + hi_off) is inside [plo, phi), and fp
	   itself inside the stack. */
	lo = plo - (uint64_t)r->lo_off;
	hi = phi - (uint64_t)r->hi_off;
	if (lo < w->stack_lo)
		lo = w->stack_lo;
	/* and the caller's sp, fp + cfa_off, not above the stack's top */
	if (hi > w->stack_hi - 1)
		hi = w->stack_hi - 1;
	if (hi > w->stack_hi - (uint64_t)r->cfa_off)
		hi = w->stack_hi - (uint64_t)r->cfa_off;
	if (hi < lo)
		return -1;
	r->slo = lo;
	r->slen = hi - lo + 1;
	r->sdelta = (uint64_t)(uintptr_t)v - plo;	/* the view's bytes of an address */
	return 0;
}

/*
 * The code range for pc: the executable PT_LOAD of its module that holds it
 * (read once per range from the module's program headers), intersected with
 * pages proven readable around pc (or all of it, where that costs nothing),
 * less the 8 bytes the trampoline filter reads.  0, or -1: the steps take
 * this frame.
 */
static __attribute__((noinline)) int code_range(struct cr_fp_run *r, struct cr_walk *w,
						uint64_t pc)
{
	const struct cr_module *mod;
	const Elf64_Phdr *ph;
	const uint8_t *v;
	uint64_t slo = 0, shi = 0, plo, phi, delta, page = pc & ~(PAGE - 1), sp0, sp1;
	unsigned i;
	int x;

	if (pc < PAGE)
		return -1;
	/* The segment of the last range, if it holds pc: the next page of a
	   module's code needs only its proof. */
	if (pc - r->xlo < r->xlen) {
		slo = r->xlo;
		shi = r->xlo + r->xlen;
		goto page;
	}
	if (cr_walk_module(w, pc, &mod) < 0 || !mod->phnum || mod->phnum > 64 ||
	    mod->phdr < mod->lo || mod->phdr >= mod->hi ||
	    !(ph = cr_mem_view(w->mem, mod->phdr, mod->phnum * sizeof(*ph))))
		return -1;
	for (i = 0; i < mod->phnum; i++) {
		if (ph[i].p_type != PT_LOAD || (ph[i].p_flags & (PF_X | PF_R)) != (PF_X | PF_R))
			continue;
		slo = mod->bias + ph[i].p_vaddr;
		shi = slo + ph[i].p_memsz;
		if (slo <= pc && pc < shi && slo < shi)
			break;
	}
	if (i == mod->phnum)
		return -1;
	r->xlo = slo;
	r->xlen = shi - slo;
page:
	/* What a map of the process says (the crash path), if it says no. */
	if ((x = w->is_exec ? w->is_exec(w, pc) : -1) == 0)
		return -1;
	/*
	 * A walk that tells no page's execute permission from another's (x < 0:
	 * crash_backtrace's, with no maps), in memory that shows the whole
	 * segment at no cost (a loaded module's readable segments, modmem.h; a
	 * buffer): the segment is the range, so a chain through a module's code
	 * takes no call per page.  The 8 bytes at pc stay inside its last page.
	 */
	sp0 = slo & ~(PAGE - 1);
	sp1 = (shi + PAGE - 1) & ~(PAGE - 1);
	if (x < 0 && sp1 > sp0 && (v = cr_mem_view_free(w->mem, sp0, sp1 - sp0)) != NULL) {
		phi = shi - 1 < sp1 - 8 ? shi - 1 : sp1 - 8;
		if (pc >= slo && pc <= phi) {
			r->clo = slo;
			r->clen = phi - slo + 1;
			r->cdelta = (uint64_t)(uintptr_t)v - sp0;
			return 0;
		}
	}
	/* pc's page, and the next one if the 8 bytes cross into it: no more,
	   for a page the process has not touched would be faulted in by the
	   proof (a page-cache fault per page: microseconds). */
	plo = page;
	phi = page + ((pc & (PAGE - 1)) > PAGE - 8 ? 2 * PAGE : PAGE);
	if (!(v = cr_mem_view(w->mem, plo, phi - plo)))
		return -1;
	delta = (uint64_t)(uintptr_t)v - plo;
	if (plo < slo)
		plo = slo;
	phi -= 8;
	if (phi > shi - 1)
		phi = shi - 1;
	if (pc < plo || pc > phi)
		return -1;
	r->clo = plo;
	r->clen = phi - plo + 1;
	r->cdelta = delta;
	return 0;
}

#define BATCH 32	/* frames found before they are recorded (no call in the loop) */

/* Where the loop puts its frames: pc[], and sp[] unless it is NULL. */
struct batch {
	uint64_t *pc, *sp;
	uint64_t rec;		/* the last frame record read (its caller's sp - CFA) */
	int redo;		/* a range's view is not the memory itself: run_any goes on */
	uint64_t pcbuf[BATCH], spbuf[BATCH];	/* pc, sp: a trace that wants more than pcs */
};

/*
 * The loop, for a record layout known at compile time (FP, RA, CFA: the
 * offsets from fp; STRIP: the arch strips return addresses; SPS: b->sp is
 * wanted), from fp and sp of a frame whose pc has been asked the sig
 * question: up to max frames into b.  It keeps what it tests in registers
 * and makes no call but where a range must be proven (stack_range,
 * code_range): per frame the record's checks and two loads, the caller's pc
 * checked against the code range (0 is never in it), the trampoline filter
 * of that pc.  fp >= sp (the fp step's check) and CFA > 0, or fp > sp, make
 * the caller's sp grow.
 */
static inline __attribute__((always_inline)) unsigned
run_loop(struct cr_fp_run *r, struct cr_walk *w, uint64_t fp, uint64_t sp, unsigned max,
	 struct batch *b, const int64_t FP, const int64_t RA, const int64_t CFA, const int STRIP,
	 const int ZD, const int SPS)
{
	const uint64_t mask = r->sig ? cr_sigreturn_mask : 0;
	const uint64_t head = r->sig ? cr_sigreturn_head : ~0ull;	/* no sig step: never equal */
	/*
	 * The lowest fp the next record may have: the fp step's fp >= sp
	 * (fp > sp where CFA <= 0).  Each record read raises it past itself,
	 * so once a record is in the proven range [slo, shi), lo >= slo and
	 * fp >= lo && fp < shi asks both (two tests, no flag arithmetic).
	 */
	uint64_t lo = sp + (CFA <= 0), shi = r->slo + r->slen, clo = r->clo, clen = r->clen;
	/* address -> the view's bytes; ZD: 0 (the live process: views are the memory) */
	uint64_t sdelta = ZD ? 0 : r->sdelta, cdelta = ZD ? 0 : r->cdelta;
	uint64_t nfp, npc, word, *pcs = b->pc, *sps = b->sp;
	unsigned n = 0;

	b->redo = 0;
	b->rec = 0;
	if (lo < r->slo)
		shi = 0;	/* the first record takes the proof's path */
	while (n < max) {
		/* The fp step: an aligned record at or above sp, inside the stack. */
		if (__builtin_expect(fp >= shi, 0) || __builtin_expect(fp < lo, 0) ||
		    __builtin_expect((fp & 7) != 0, 0)) {
			if (fp < lo || stack_range(r, w, fp, lo - (CFA <= 0)) < 0)
				break;
			shi = r->slo + r->slen;
			if (ZD && r->sdelta) {
				b->redo = 1;
				break;
			}
			sdelta = ZD ? 0 : r->sdelta;
		}
		__builtin_memcpy(&nfp, (const void *)(uintptr_t)(fp + sdelta + (uint64_t)FP), 8);
		__builtin_memcpy(&npc, (const void *)(uintptr_t)(fp + sdelta + (uint64_t)RA), 8);
		if (STRIP)
			npc = w->arch->strip_ra(npc);
		/* check_step's: the caller's pc is code. */
		if (__builtin_expect(npc - clo >= clen, 0)) {
			if (code_range(r, w, npc) < 0)
				break;
			clo = r->clo;
			clen = r->clen;
			if (ZD && r->cdelta) {
				b->redo = 1;
				break;
			}
			cdelta = ZD ? 0 : r->cdelta;
		}
		pcs[n] = npc;
		if (SPS)
			sps[n] = fp + (uint64_t)CFA;
		n++;
		b->rec = fp;
		lo = fp + (uint64_t)CFA + (CFA <= 0);
		fp = nfp;
		/* The next step's sig question: a trampoline at the caller's pc? */
		__builtin_memcpy(&word, (const void *)(uintptr_t)(npc + cdelta), 8);
		if ((word & mask) == head)
			break;
	}
	return n;
}

typedef unsigned run_fn(struct cr_fp_run *r, struct cr_walk *w, uint64_t fp, uint64_t sp,
			unsigned max, struct batch *b);

/* One copy of the loop per layout and output: the offsets are immediates, the
   views the memory itself (else run_any). */
#define RUN(name, FP, RA, CFA, STRIP, SPS)                                                 \
	static __attribute__((noinline)) unsigned name(struct cr_fp_run *r, struct cr_walk *w, \
						       uint64_t fp, uint64_t sp, unsigned max, \
						       struct batch *b)                        \
	{                                                                                  \
		return run_loop(r, w, fp, sp, max, b, FP, RA, CFA, STRIP, 1, SPS);         \
	}
RUN(run_a, 0, 8, 16, 0, 0)		/* x86_64 */
RUN(run_a_sps, 0, 8, 16, 0, 1)
RUN(run_a_strip, 0, 8, 16, 1, 0)	/* aarch64 */
RUN(run_a_strip_sps, 0, 8, 16, 1, 1)
RUN(run_b, -16, -8, 0, 0, 0)		/* riscv64, loongarch64 */
RUN(run_b_sps, -16, -8, 0, 0, 1)

static __attribute__((noinline)) unsigned run_any(struct cr_fp_run *r, struct cr_walk *w,
						  uint64_t fp, uint64_t sp, unsigned max,
						  struct batch *b)
{
	return run_loop(r, w, fp, sp, max, b, r->fp_off, r->ra_off, r->cfa_off,
			w->arch->strip_ra != NULL, 0, 1);
}

unsigned cr_fp_run(struct cr_fp_run *r, struct cr_walk *w, struct cr_regs *cur,
		   struct cr_trace *t)
{
	const struct cr_arch *a = w->arch;
	const unsigned fpn = a->fp, spn = a->sp;
	/* Only the pcs wanted (crash_backtrace): straight into its buffer, as
	   many as it has room for (64-bit targets: a pointer is the 8 bytes of
	   its address); else 32 at a time with their sps, then recorded. */
	const int direct = t->pcs && !t->f && !t->sink;
	run_fn *loop = run_any;
	struct batch b;
	uint64_t pc = cur->pc, word, fp, sp;
	unsigned n = 0, k, i, max;
	int more = 1;

	_Static_assert(sizeof(void *) == sizeof(uint64_t), "64-bit");
	if (!r->on || !cr_reg_valid(cur, fpn) || !cr_reg_valid(cur, spn) || t->n >= t->max)
		return 0;
	fp = cur->r[fpn];
	sp = cur->r[spn];
	/* A frame pointer that is no frame record's (code built without them):
	   the steps take the frame at once, no range is proven for it. */
	if (fp == 0 || (fp & 7) || fp < sp || fp < w->stack_lo || fp >= w->stack_hi)
		return 0;
	if (!r->shape && !shape(r, a)) {
		r->on = 0;
		return 0;
	}
	/* The sig step's question for the first pc; the loop asks it of each caller. */
	if (pc - r->clo >= r->clen && code_range(r, w, pc) < 0)
		return 0;
	__builtin_memcpy(&word, (const void *)(uintptr_t)(pc + r->cdelta), 8);
	if (r->sig && (word & cr_sigreturn_mask) == cr_sigreturn_head)
		return 0;
	if (r->fp_off == 0 && r->ra_off == 8 && r->cfa_off == 16)
		loop = a->strip_ra ? (direct ? run_a_strip : run_a_strip_sps)
				   : (direct ? run_a : run_a_sps);
	else if (r->fp_off == -16 && r->ra_off == -8 && r->cfa_off == 0 && !a->strip_ra)
		loop = direct ? run_b : run_b_sps;
	for (unsigned round = 0; t->n < t->max && round < 1u << 16; round++) {
		int any = (r->sdelta | r->cdelta) != 0;

		max = t->max - t->n;
		if (direct && !any) {
			b.pc = (uint64_t *)(void *)(t->pcs + t->n);
			b.sp = NULL;
		} else {
			b.pc = b.pcbuf;
			b.sp = b.spbuf;
			max = max < BATCH ? max : BATCH;
		}
		k = (any ? run_any : loop)(r, w, fp, sp, max, &b);
		if (b.pc != b.pcbuf)
			t->n += k;
		else if (direct) {
			__builtin_memcpy(t->pcs + t->n, b.pc, k * sizeof(b.pc[0]));
			t->n += k;
		} else {
			for (i = 0; i < k; i++)
				cr_trace_emit(t, b.pc[i], b.sp[i], CR_TAG_FP, 0);
		}
		if (k) {
			/* The registers as the row leaves them: fp, the return
			   address's column (the last record's, read again: it was
			   proven) and sp set, the others kept, none past the
			   arch's columns. */
			uint64_t rec = b.rec;

			cur->valid &= CR_BIT(a->nregs) - 1;
			if (cr_read64(w->mem, rec + (uint64_t)r->fp_off, &fp) < 0 ||
			    cr_read64(w->mem, rec + (uint64_t)r->ra_off, &cur->r[r->ra]) < 0) {
				cur->valid &= ~(CR_BIT(fpn) | CR_BIT(r->ra));	/* cannot happen */
				more = 0;
			} else {
				cur->valid |= CR_BIT(r->ra);
			}
			sp = rec + (uint64_t)r->cfa_off;
			cur->r[fpn] = fp;
			cur->r[spn] = sp;
			cur->pc = b.pc[k - 1];
		}
		n += k;
		if ((k < max && !b.redo) || !more)
			break;
	}
	return n;
}
