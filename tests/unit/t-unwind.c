/* SPDX-License-Identifier: MIT */
/*
 * The frame loop and the fp engine on a synthetic x86_64 stack in a buffer:
 * a good chain, and every stop reason.
 */
#include <stdint.h>

#include "../tap.h"
#include "crash.h"
#include "unwind.h"

#define BASE 0x7fff0000ull
#define NW 64
static uint64_t stack[NW];	/* memory at [BASE, BASE + 8*NW) */
static struct cr_mem mem;

static uint64_t at(unsigned i)
{
	return BASE + 8ull * i;
}

static int code_exec(struct cr_walk *w, uint64_t pc)
{
	(void)w;
	return pc >= 0x400000 && pc < 0x500000;
}

static void walk_init(struct cr_walk *w)
{
	memset(w, 0, sizeof(*w));
	w->arch = &cr_arch_x86_64;
	w->mem = &mem;
	w->stack_lo = BASE;
	w->stack_hi = BASE + sizeof(stack);
	w->exact = 1;
	w->is_exec = (int (*)(const struct cr_walk *, uint64_t))code_exec;
}

static void regs_at(struct cr_regs *r, uint64_t pc, unsigned sp, unsigned fp)
{
	memset(r, 0, sizeof(*r));
	r->pc = pc;
	cr_reg_set(r, 16, pc);
	cr_reg_set(r, 7, at(sp));
	cr_reg_set(r, 6, fp == 0xffff ? 0 : at(fp));
}

/* Frame records: [fp] = previous fp, [fp+8] = return address. */
static void record(unsigned fp, unsigned prev, uint64_t ret)
{
	stack[fp] = prev == 0xffff ? 0 : at(prev);
	stack[fp + 1] = ret;
}

/* The names of p's steps, in order, separated by spaces. */
static const char *policy_steps(const struct cr_policy *p)
{
	static const struct {
		cr_step_fn *fn;
		const char *name;
	} names[] = { { cr_jit_step, "jit" },   { cr_cfi_step, "cfi" },	  { cr_sig_step, "sig" },
		      { cr_stub_step, "stub" }, { cr_leaf_step, "leaf" }, { cr_fp_step, "fp" },
		      { cr_entry_step, "entry" },
		      { cr_scan_step, "scan" }, { cr_ra_step, "ra" } };
	static char buf[128];
	size_t k = 0;

	buf[0] = 0;
	for (unsigned i = 0; p && i < p->n; i++) {
		const char *name = "?";

		for (unsigned j = 0; j < sizeof(names) / sizeof(names[0]); j++)
			if (names[j].fn == p->step[i].fn)
				name = names[j].name;
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", i ? " " : "", name);
	}
	return buf;
}

/* The tags of p's steps, in order. */
static const char *policy_tags(const struct cr_policy *p)
{
	static char buf[128];
	size_t k = 0;

	buf[0] = 0;
	for (unsigned i = 0; p && i < p->n; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", i ? " " : "",
				      cr_tag_name(p->step[i].tag));
	return buf;
}

static const struct cr_policy fp_only = { "fp-only", 0, 1, { CR_STEP_FP } };

static struct cr_trace run(const struct cr_regs *r, unsigned max)
{
	static struct cr_frame f[32];
	struct cr_trace t = { .f = f, .max = max };
	struct cr_walk w;

	walk_init(&w);
	cr_unwind(&w, r, &fp_only, &t);
	return t;
}

/* Without the maps (crash_backtrace): only the first page is known not to be code. */
static int low_only(const struct cr_walk *w, uint64_t pc)
{
	(void)w;
	return pc < 4096 ? 0 : -1;
}

/*
 * A scripted step: A (0x401000, sp slot 10) -> B (0x402000, slot 20) -> A again
 * through a "signal frame" (an exact caller, the stack may switch), and so on.
 */
static int cycle_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	if (in->pc == 0x401000) {
		regs_at(out, 0x402000, 20, 0xffff);
	} else {
		regs_at(out, 0x401000, 10, 0xffff);
		w->step.next_exact = 1;
	}
	return 0;
}

static void t_badpc_loop(void)
{
	static const struct cr_policy cycle = { "cycle", 0, 1, { { cycle_step, CR_TAG_CFI, 0 } } };
	static struct cr_frame f[32];
	struct cr_trace t = { .f = f, .max = 32 };
	struct cr_walk w;
	struct cr_regs r;

	/* A return address on the stack the walk has crossed: no frame, whatever
	   is_exec cannot tell. */
	memset(stack, 0, sizeof(stack));
	record(4, 10, at(3));
	regs_at(&r, 0x400100, 2, 4);
	walk_init(&w);
	w.is_exec = low_only;
	cr_unwind(&w, &r, &fp_only, &t);
	tap_ok(t.n == 1 && t.stop == CR_STOP_BADPC && t.stop_addr == at(3),
	       "a return address between the first sp and the caller's: bad pc, no frame");
	record(4, 10, at(40));	/* above the caller's sp: not known, taken */
	walk_init(&w);
	w.is_exec = low_only;
	cr_unwind(&w, &r, &fp_only, &t);
	tap_ok(t.n >= 2 && t.f[1].pc == at(40),
	       "a stack address above the caller's sp: not provably data, kept");

	/* A (pc, sp) pair that comes again two steps later. */
	regs_at(&r, 0x401000, 10, 0xffff);
	walk_init(&w);
	cr_unwind(&w, &r, &cycle, &t);
	tap_ok(t.n == 2 && t.stop == CR_STOP_LOOP && t.stop_addr == 0x401000 &&
		       t.f[1].pc == 0x402000,
	       "a cycle through a signal frame: A, B, then A's pair again ends it as a loop");
}

int main(void)
{
	struct cr_regs r;
	struct cr_trace t;

	cr_mem_buffer(&mem, BASE, stack, sizeof(stack));

	/* pc0 (fp 4) -> 0x401000 (fp 10) -> 0x402000 (fp 20) -> 0x403000 (fp 0: end) */
	memset(stack, 0, sizeof(stack));
	record(4, 10, 0x401000);
	record(10, 20, 0x402000);
	record(20, 0xffff, 0x403000);
	regs_at(&r, 0x400100, 2, 4);
	t = run(&r, 32);
	tap_is_u64(t.n, 4, "good chain: 4 frames");
	tap_is_u64(t.stop, CR_STOP_COMPLETE, "good chain: complete (fp 0 ends it)");
	tap_is_u64(t.f[0].pc, 0x400100, "#0 pc");
	tap_is_u64(t.f[0].tag, CR_TAG_CTX, "#0 from the context");
	tap_ok(t.f[0].flags & CR_FRAME_EXACT, "#0 exact");
	tap_is_u64(t.f[1].pc, 0x401000, "#1 pc");
	tap_is_u64(t.f[1].sp, at(6), "#1 sp = fp + 16");
	tap_is_u64(t.f[1].tag, CR_TAG_FP, "#1 tagged fp");
	tap_ok(!(t.f[1].flags & CR_FRAME_EXACT), "#1 not exact");
	tap_is_u64(t.f[3].pc, 0x403000, "#3 pc");

	t = run(&r, 2);
	tap_is_u64(t.n, 2, "frame limit: 2 frames");
	tap_is_u64(t.stop, CR_STOP_MAXFRAMES, "frame limit: reason");

	/* A wild frame pointer: outside the stack. */
	regs_at(&r, 0x400100, 2, 0);
	cr_reg_set(&r, 6, 0x7ffd00000007ull);
	t = run(&r, 32);
	tap_is_u64(t.n, 1, "wild fp: only #0");
	tap_is_u64(t.stop, CR_STOP_BADMEM, "wild fp: invalid memory");
	tap_is_u64(t.stop_addr, 0x7ffd00000007ull, "wild fp: its address");

	/* A chain that points back down: the sp would go backwards. */
	memset(stack, 0, sizeof(stack));
	record(10, 4, 0x401000);
	record(4, 10, 0x402000);
	regs_at(&r, 0x400100, 8, 10);
	t = run(&r, 32);
	tap_is_u64(t.stop, CR_STOP_BADMEM, "fp below sp is refused");
	tap_is_u64(t.n, 2, "... after one good frame");

	/* The return address is no code. */
	memset(stack, 0, sizeof(stack));
	record(4, 10, 0x12345);
	regs_at(&r, 0x400100, 2, 4);
	t = run(&r, 32);
	tap_is_u64(t.stop, CR_STOP_BADPC, "non-code return address");
	tap_is_u64(t.stop_addr, 0x12345, "... and its value");
	tap_is_u64(t.n, 1, "... is not recorded as a frame");

	/* The same frame again: a loop. */
	memset(stack, 0, sizeof(stack));
	record(4, 4, 0x401000);
	regs_at(&r, 0x400100, 2, 4);
	t = run(&r, 32);
	tap_is_u64(t.stop, CR_STOP_BADMEM, "self-referencing fp: refused (fp below new sp)");

	/* Unreadable memory at the record (the stack ends). */
	memset(stack, 0, sizeof(stack));
	regs_at(&r, 0x400100, 2, NW - 1);
	t = run(&r, 32);
	tap_is_u64(t.stop, CR_STOP_BADMEM, "record past the readable stack");

	/* No engine that can step: CFI without modules. */
	static const struct cr_policy cfi_only = { "cfi-only", 0, 1, { CR_STEP_CFI } };
	static struct cr_frame f[4];
	struct cr_trace t2 = { .f = f, .max = 4 };
	struct cr_walk w;
	walk_init(&w);
	regs_at(&r, 0x400100, 2, 4);
	cr_unwind(&w, &r, &cfi_only, &t2);
	tap_is_u64(t2.stop, CR_STOP_NOINFO, "no info: reason");
	tap_is_u64(t2.stop_addr, 0x400100, "no info: exact pc of frame #0");

	/* A pc in no executable mapping: the caller from [sp]. */
	memset(stack, 0, sizeof(stack));
	stack[2] = 0x401234;
	record(4, 0xffff, 0x402000);
	regs_at(&r, 0, 2, 4);
	t = run(&r, 32);
	tap_ok(t.f[0].flags & CR_FRAME_NOEXEC, "pc 0 flagged");
	tap_is_u64(t.f[1].pc, 0x401234, "caller from [sp]");
	tap_is_u64(t.f[1].sp, at(3), "sp + 8");
	tap_is_u64(t.f[1].tag, CR_TAG_RA, "tagged ra");
	tap_is_u64(t.f[2].pc, 0x402000, "then the fp chain");
	tap_is_u64(t.stop, CR_STOP_COMPLETE, "and complete");

	/* The policy of each public engine: its steps in order. */
	tap_is_str(policy_steps(cr_policy(CRASH_ENGINE_AUTO)), "jit cfi sig entry stub leaf scan fp",
		   "auto: jit cfi sig entry stub leaf scan fp");
	tap_is_str(policy_tags(cr_policy(CRASH_ENGINE_AUTO)), "ra cfi sig cfi ra scan scan fp",
		   "auto: their tags");
	tap_ok(cr_policy(CRASH_ENGINE_AUTO)->cfi_first, "auto: cached rows first");
	tap_is_str(policy_steps(cr_policy(CRASH_ENGINE_CFI)), "cfi sig entry stub",
		   "cfi: cfi sig entry stub");
	tap_ok(cr_policy(CRASH_ENGINE_CFI)->cfi_first, "cfi: cached rows first");
	tap_is_str(policy_steps(cr_policy(CRASH_ENGINE_FP)), "sig stub leaf fp",
		   "fp: sig stub leaf fp");
	tap_is_str(policy_tags(cr_policy(CRASH_ENGINE_FP)), "sig ra scan fp", "fp: their tags");
	tap_ok(!cr_policy(CRASH_ENGINE_FP)->cfi_first, "fp: no cached rows");
	tap_is_str(policy_steps(cr_policy(CRASH_ENGINE_SCAN)), "sig stub scan", "scan: sig stub scan");
	tap_ok(!cr_policy(CRASH_ENGINE_SCAN)->cfi_first, "scan: no cached rows");
	tap_is_str(cr_policy(CRASH_ENGINE_FP)->name, "fp", "the report's engine name");
	tap_ok(cr_policy(CRASH_ENGINE_ALL) == NULL && cr_policy(-1) == NULL && cr_policy(5) == NULL,
	       "all (and anything else) is no walk");
	tap_is_str(cr_tag_name(CR_TAG_SCAN), "scan", "tag name");
	tap_is_str(cr_tag_name(CR_TAG_N), "?", "no tag");
	t_badpc_loop();
	return tap_done();
}
