/* SPDX-License-Identifier: MIT */
/* Engines and the frame loop. */
#ifndef CR_UNWIND_H
#define CR_UNWIND_H

#include "module.h"
#include "row.h"

struct cr_symfiles;

/*
 * What found a frame: the report's tag ([ctx], [ra], ...).  An engine
 * (fp, cfi, scan, sig) or a special step (special.c: [ra], or [scan] for the
 * leaf step); frame #00 is the context itself.
 */
enum cr_tag {
	CR_TAG_CTX = 0,	/* frame #00: the interrupted context itself */
	CR_TAG_RA,	/* a special step: the return address at [sp] (x86_64) or in
			   the link register */
	CR_TAG_FP,
	CR_TAG_CFI,
	CR_TAG_SCAN,
	CR_TAG_SIG,
	CR_TAG_N
};

struct cr_walk {
	const struct cr_arch *arch;
	const struct cr_mem *mem;
	uint64_t stack_lo, stack_hi;	/* current stack; 0/UINT64_MAX: unknown */
	unsigned depth;			/* frame number of the frame being stepped from */
	uint8_t cache;			/* use the process-wide CFI row cache (live walks
					   of the host only) */
	uint8_t exact;			/* the frame being stepped from has an exact pc
					   (frame #00, or interrupted by a signal) */
	uint64_t cache_gen;		/* cr_cfi_fast_trace: the row cache's generation
					   its rows are read under (cfi/cache.h) */
	/* Module lookup; NULL: engines that need modules fail with -CR_ENOINFO. */
	int (*find_module)(const struct cr_walk *w, uint64_t pc, struct cr_module *out);
	/* Optional: what the trace loop needs of pc's module (lo, hi, bias,
	   eh_hdr, eh_hdr_len; module.h cr_module_quick), without reading its
	   headers; < 0 if unknown (the trace loop then uses find_module). */
	int (*module_quick)(const struct cr_walk *w, uint64_t pc, struct cr_module *out);
	int (*is_exec)(const struct cr_walk *w, uint64_t pc);	/* pc in an executable
								   mapping? 1/0/-1 unknown */
	void *ctx;			/* what the callbacks look things up in (the
					   crash path: its struct cr_maps) */
	/* Results an engine leaves beside *out (the only part it writes). */
	struct cr_stepinfo {
		uint64_t err_addr;	/* the address behind an error: unreadable
					   address, pc without info */
		uint8_t next_exact;	/* the caller's pc is exact: it was interrupted
					   by a signal (CIE 'S', kernel sigframe) */
	} step;
	/* Bounds of the stack that holds sp (crash path: from /proc/self/maps). */
	int (*stack_of)(const struct cr_walk *w, uint64_t sp, uint64_t *lo, uint64_t *hi);
	/* The module of the last lookup: consecutive frames mostly share one. */
	struct cr_module mod;
	uint8_t mod_ok;
	uint8_t scan_h_ok;		/* scan.c: scan_h is mod's build-id hash (cleared
					   whenever mod is looked up again) */
	uint64_t scan_h;
	/* Walks without the row cache (cache 0): the last rows decoded, so that
	   recursion decodes its frame once.  NULL: none. */
	struct cr_lastrows *lastrows;
	/* The first kernel signal frame the walk crossed (engine sig): the
	   address of its siginfo_t and the number of the frame it interrupted;
	   sig_info 0: none.  Set by cr_unwind, read by the report. */
	uint64_t sig_info, sig_sp;	/* sig_sp: the interrupted frame's sp */
	unsigned sig_frame;
	/* The lowest sp the walk has met on the current stack (set by cr_unwind):
	   a return address in [seen_lo, the caller's sp) is stack, never code. */
	uint64_t seen_lo;
	/* Set by cr_unwind for the scan engine and the special steps that find
	   function starts (cr_scan_function): the walk's symbol files, kept open
	   across its frames and opened at the first lookup (syms_open), so that a
	   module's .symtab is found, read and indexed once per walk, not once per
	   frame; NULL: each lookup opens its own.  And the last start found, for
	   pc fn_key - 1 (0: none): a scanned frame's caller is confirmed with the
	   lookup that the next step makes again. */
	struct cr_symfiles *syms;
	uint8_t syms_open;
	int fn_ret;
	uint8_t fn_frag;	/* a fragment's start, no entry (cr_sym_fragment, cr_cfa_entry_row) */
	uint64_t fn_key, fn_start, fn_size;
	/* Set by cr_unwind: frame #00 and the last frames reached by a step that
	   did not raise sp (a signal frame's, a leaf's caller), to find a loop. */
#define CR_LOOP_RING 4
	unsigned ndown;
	struct {
		uint64_t pc, sp;
	} down[CR_LOOP_RING];
};

#define CR_LASTROWS 8
struct cr_lastrows {
	unsigned next;			/* the slot the next row goes to */
	struct {
		uint64_t pc, key;	/* pc 0: empty */
		struct cr_crow row;
	} e[CR_LASTROWS];
};

/*
 * The module that contains pc, through w->find_module, remembered in w->mod
 * for the next frames.  0 with *out = &w->mod, or -CR_ENOINFO.
 */
int cr_walk_module(struct cr_walk *w, uint64_t pc, const struct cr_module **out);

/*
 * One step: registers of frame N in, frame N+1 out.
 * 0: *out is the caller.  CR_END: N is the outermost frame.  -CR_E*: this engine
 * cannot step here; *out untouched, the loop tries the next engine.
 * Reads memory only through w->mem; bounded work; writes nothing but *out and
 * w->step.  AS-safe.
 */
typedef int cr_step_fn(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out);

/*
 * What a step that chooses between readings by their evidence (cr_stub_step)
 * returns instead of 0 for the caller it found: the tag of the reading it
 * took, which replaces the policy's (struct cr_step) for that frame.
 */
#define CR_STEP_TAGGED(tag) (CR_END + 1 + (tag))

/* The engines: sig.c, cfi/step.c, fp.c, scan.c. */
cr_step_fn cr_sig_step, cr_cfi_step, cr_fp_step, cr_scan_step;

/*
 * The special steps (special.c), for exact frames that no engine reads right
 * (docs/design.md).  Each but cr_ra_step gives -CR_ENOINFO where it does not
 * apply (never another error; CR_END only cr_entry_step, where it applies), so
 * it can stand before the engine that would misread the frame:
 * - cr_ra_step: the caller from the return address alone, at [sp] (x86_64:
 *   sp + 8 after it) or in the link register (sp unchanged).  Frame #00 of a
 *   pc in no executable mapping (a call through a bad pointer) takes it, and
 *   only it, whatever the policy: -CR_EINVAL or -CR_EFAULT when it cannot.
 * - cr_stub_step: an exact frame in code with no FDE and no sized symbol (a
 *   pc in a module: a linker stub, or assembly without unwind tables): the
 *   caller by the return address where the call left it (cr_ra_step's, [ra])
 *   or by the frame record at fp ([fp]), chosen by evidence (docs/design.md,
 *   "Frames without an FDE"); -CR_ENOINFO when neither is a call site.
 * - cr_jit_step: an exact frame in generated code (executable, in no module):
 *   cr_ra_step's caller when its return address follows a call and either the
 *   fp engine cannot step or the CFI walk from it reaches, within 16 frames,
 *   the frame the fp engine would give.
 * - cr_leaf_step: an exact frame on a link-register arch whose function has
 *   not saved its return address at pc (the prologue decoder's row): the
 *   frame record at fp would be the caller's, and the fp engine would skip it.
 * - cr_entry_step: the exception, a frame that is not exact whose return
 *   address no call precedes, at the first byte of an FDE that none before
 *   it adjoins (makecontext's planted return address into glibc's
 *   __start_context): CR_END, the context's outermost frame.
 */
cr_step_fn cr_ra_step, cr_stub_step, cr_jit_step, cr_leaf_step, cr_entry_step;

/* One step of a policy: the function and the tag of the frames it finds. */
struct cr_step {
	cr_step_fn *fn;
	uint8_t tag;		/* enum cr_tag */
	uint8_t exact;		/* 1: for exact frames only (the special steps but ra):
				   the loop does not call it for the others */
};

/*
 * What the walk tries at each frame, in order, until a step finds the caller
 * (or the outermost frame); the walk stops with the most telling of the
 * engines' errors.  One per public engine (include/crash.h), and tests
 * declare their own.
 */
#define CR_POLICY_STEPS 8
struct cr_policy {
	const char *name;	/* "auto", "fp", "cfi", "scan": the report's "engine ..." */
	uint8_t cfi_first;	/* its first engine is cfi: a cached row of the CFI row
				   cache may step a frame before the steps are tried
				   (cr_cfi_step_cached), and crash_backtrace's trace
				   loop (cr_cfi_fast_trace) gives its walk's result */
	uint8_t n;		/* steps in step[] */
	struct cr_step step[CR_POLICY_STEPS];
};

/* Steps, by name, for policies. */
#define CR_STEP_SIG { cr_sig_step, CR_TAG_SIG, 0 }
#define CR_STEP_CFI { cr_cfi_step, CR_TAG_CFI, 0 }
#define CR_STEP_FP { cr_fp_step, CR_TAG_FP, 0 }
#define CR_STEP_SCAN { cr_scan_step, CR_TAG_SCAN, 0 }
#define CR_STEP_STUB { cr_stub_step, CR_TAG_RA, 1 }
#define CR_STEP_JIT { cr_jit_step, CR_TAG_RA, 1 }
#define CR_STEP_LEAF { cr_leaf_step, CR_TAG_SCAN, 1 }
#define CR_STEP_ENTRY { cr_entry_step, CR_TAG_CFI, 0 }	/* not exact frames only */

/*
 * The policy of a public engine (enum crash_engine): AUTO, FP, CFI, SCAN;
 * NULL for any other value (ALL is a report of one backtrace per engine, not
 * a walk).  The one place where the public engine becomes the walk's policy
 * (unwind.c has them all).
 */
const struct cr_policy *cr_policy(int engine);

/*
 * A step from the frame at pc, sp found frame number idx (next) interrupted
 * by a signal: if pc is the host's sigreturn trampoline, note its siginfo
 * (w->sig_info) unless one is noted already.  Whichever engine crossed it
 * (glibc's __restore_rt has CFI; the vDSO's are found by sig).
 */
void cr_sig_note(struct cr_walk *w, uint64_t pc, uint64_t sp, const struct cr_regs *next,
		 unsigned idx);

/*
 * The CFI step from the row cache only, updating r in place.  0: stepped;
 * -CR_ENOINFO: not cached (or the row does not apply), r untouched: take the
 * full path.  Never CR_END (the outermost frame takes the full path).
 */
int cr_cfi_step_cached(struct cr_walk *w, struct cr_regs *r);

/*
 * The start and size of the function that contains pc (scan.c): a sized
 * symbol, else the FDE's range, else an unsized symbol (size 0).  0, or
 * -CR_ENOSTART (none, or pc past its symbol's end: a PLT stub).
 */
int cr_scan_function(struct cr_walk *w, uint64_t pc, uint64_t *start, uint64_t *size);
/* cr_scan_function for a decoder that reads a frame from the start: a
   fragment's (NAME.cold: no entry, no prologue; its symbol's name, or its
   FDE's first instructions, say so) is -CR_ENOSTART. */
int cr_scan_frame_start(struct cr_walk *w, uint64_t pc, uint64_t *start, uint64_t *size);

/*
 * Is out, the caller a scan step found from in, confirmed (docs/scan.md)?
 * Its return address lies in a function of known extent and the instruction
 * before it is a call (arch->call_before); the sp checks are cr_unwind's.
 * 1 or 0.  Reads through w->mem; AS-safe.
 */
int cr_scan_confirm(struct cr_walk *w, const struct cr_regs *out);

/*
 * A trace-only walk (pc, sp, fp) from start with cached rows only, reading
 * through f (w->mem must be &f->m): the pcs of frames 0..max-1, as
 * cr_unwind would record them, go to out[0..].  Returns the number of frames
 * when it reached the outermost frame or max (max > 0), or
 * -CR_ENOINFO as soon as a frame has no row of a simple shape (a frame not
 * cached is decoded into the cache first) or a check fails: then nothing it
 * wrote counts and the caller walks again with cr_unwind.  For callers that
 * want return addresses only (crash_backtrace).  AS-safe.
 */
struct cr_mem_fast;
int cr_cfi_fast_trace(struct cr_walk *w, struct cr_mem_fast *f, const struct cr_regs *start,
		      unsigned max, void **out);

#define CR_FRAME_EXACT 1	/* pc is exact (frame #00, signal frames, trampolines) */
#define CR_FRAME_NOEXEC 2	/* frame #00's pc is in no executable mapping */
#define CR_FRAME_CONFIRMED 4	/* a [scan] frame whose return address follows a call */

struct cr_frame {
	uint64_t pc, sp;	/* pc: exact for frame 0 and signal frames, else the return address */
	uint8_t tag;		/* enum cr_tag: what found this frame */
	uint8_t flags;		/* CR_FRAME_* */
};

enum cr_stop {
	CR_STOP_COMPLETE = 0,	/* reached the outermost frame */
	CR_STOP_NOINFO,		/* no engine could step from pc stop_addr */
	CR_STOP_BADMEM,		/* unreadable memory at stop_addr */
	CR_STOP_MAXFRAMES,
	CR_STOP_SP_BACKWARDS,	/* caller's sp not above ours (stop_addr: the bad sp) */
	CR_STOP_LOOP,
	CR_STOP_BADPC,		/* caller's pc is 0 or not code (stop_addr: the pc) */
	CR_STOP_BADSP,		/* caller's sp is outside the stack (stop_addr: the sp) */
	CR_STOP_NOSTART,	/* only scan was left, and no function start is known for
				   pc stop_addr */
};

struct cr_trace {
	struct cr_frame *f;	/* frames go here; NULL: only to sink */
	void (*sink)(struct cr_trace *t, const struct cr_frame *f);
	void *arg;		/* for sink */
	void **pcs;		/* NULL, or each frame's pc goes to pcs[n] too (crash_backtrace) */
	unsigned n, max;
	uint8_t stop;		/* enum cr_stop */
	uint64_t stop_addr;
	unsigned unconfirmed;	/* [scan] frames without CR_FRAME_CONFIRMED: a complete
				   trace is reliable only if 0 */
};

/* Record a frame: into t->f[t->n] if t->f, to the sink if any. */
static inline void cr_trace_emit(struct cr_trace *t, uint64_t pc, uint64_t sp, uint8_t tag,
				 uint8_t flags)
{
	struct cr_frame f = { pc, sp, tag, flags };

	if (t->f)
		t->f[t->n] = f;
	if (t->pcs)
		t->pcs[t->n] = (void *)(uintptr_t)pc;
	if (t->sink)
		t->sink(t, &f);
	t->n++;
}

/*
 * The fp engine's run (fp.c): what cr_unwind would do for frames that are
 * not exact under a policy whose steps for them are [sig,] fp, done in one
 * loop over ranges proven once.  cr_fp_run_init says whether it applies to
 * the walk (1) or not (0); cr_fp_run steps from *cur (not exact) as far as
 * it can, records those frames in t and leaves *cur the last of them, as the
 * steps would have: returns their number (0: the steps take *cur).
 */
struct cr_fp_run {
	uint8_t on, sig;		/* applies; the sig step is in the policy */
	uint8_t shape;			/* the offsets below are known */
	uint8_t ra;			/* the row's return-address column */
	int64_t cfa_off, fp_off, ra_off;	/* CFA, saved fp, return address: fp + off */
	int64_t lo_off, hi_off;		/* the record: [fp + lo_off, fp + hi_off) */
	/* Proven: a frame record at fp, fp - slo < slen, is readable in place
	   and inside the stack; 8 bytes at pc, pc - clo < clen, are readable in
	   place and pc is in an executable segment of a module (len 0: none). */
	uint64_t slo, slen, clo, clen;
	/* Where the view of each range has an address's bytes: at address +
	   delta (0 for the live process, whose views are the memory itself). */
	uint64_t sdelta, cdelta;
	uint64_t xlo, xlen;	/* the executable segment of the last code range */
};
int cr_fp_run_init(struct cr_fp_run *r, const struct cr_walk *w, const struct cr_policy *p);
unsigned cr_fp_run(struct cr_fp_run *r, struct cr_walk *w, struct cr_regs *cur,
		   struct cr_trace *t);

/* "ctx", "ra", "fp", "cfi", "scan", "sig" for the report; "?" if unknown. */
const char *cr_tag_name(unsigned tag);

/*
 * Walk from start (frame #00) with policy p, filling t->f[0..max).  Always
 * records frame #00; w->exact says whether start->pc is exact (a ucontext) or
 * a return address (a capture made by a call).  Returns t->n.  AS-safe,
 * bounded by t->max steps.
 */
unsigned cr_unwind(struct cr_walk *w, const struct cr_regs *start, const struct cr_policy *p,
		   struct cr_trace *t);

#endif
