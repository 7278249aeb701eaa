/* SPDX-License-Identifier: MIT */
/* aarch64 host glue: ucontext_t, the rt_sigframe, and the register capture. */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>

#include "context.h"
#include "str.h"

const struct cr_arch *const cr_host = &cr_arch_aarch64;

/*
 * Kernel arch/arm64 (signal.c): the handler runs with sp = the rt_sigframe
 * { siginfo info; ucontext uc; }; the frame record the kernel adds lies above
 * it.  uc_mcontext (struct sigcontext) is 16-aligned after uc_flags, uc_link,
 * uc_stack and a 1024-bit sigmask area: 176.  sigcontext is { fault_address,
 * regs[31], sp, pc, pstate, __reserved[4096] }.  glibc's ucontext_t has the
 * same layout; the asserts tie the constants to it.  qemu-user builds the
 * same frame.
 */
#define SIGINFO_SIZE 128
#define UC_REGS 184

_Static_assert(sizeof(siginfo_t) == SIGINFO_SIZE, "kernel siginfo is 128 bytes");
_Static_assert(offsetof(ucontext_t, uc_mcontext.regs) == UC_REGS, "uc_mcontext offset");
_Static_assert(offsetof(mcontext_t, sp) == offsetof(mcontext_t, regs) + 31 * 8, "sp after x30");
_Static_assert(offsetof(mcontext_t, pc) == offsetof(mcontext_t, regs) + 32 * 8, "pc after sp");

/* g[0..30] = x0-x30, g[31] = sp, g[32] = pc: DWARF 0-31 (AADWARF64 4.1) and the pc. */
static void from_gregs(const unsigned long long *g, struct cr_regs *r)
{
	memset(r, 0, sizeof(*r));
	for (unsigned n = 0; n < 32; n++)
		cr_reg_set(r, n, g[n]);
	r->pc = g[32];
}

void cr_regs_from_ucontext(const void *uc, struct cr_regs *r)
{
	from_gregs(((const ucontext_t *)uc)->uc_mcontext.regs, r);
}

/*
 * The records in __reserved (asm/sigcontext.h): { u32 magic, u32 size } heads,
 * 16-aligned, ended by magic 0.  ESR_MAGIC's record holds the fault's syndrome
 * register (exception class, read or write); the kernel adds it for faults.
 */
#define ESR_MAGIC	0x45535201
#define MAX_RECORDS	16

static int find_esr(const mcontext_t *mc, uint64_t *esr)
{
	size_t off = 0;

	for (unsigned i = 0; i < MAX_RECORDS && off + 16 <= sizeof(mc->__reserved); i++) {
		uint32_t head[2];

		memcpy(head, mc->__reserved + off, sizeof(head));
		if (head[0] == 0 || head[1] < 8 || head[1] % 16 ||
		    head[1] > sizeof(mc->__reserved) - off)
			return 0;
		if (head[0] == ESR_MAGIC && head[1] >= 16) {
			memcpy(esr, mc->__reserved + off + 8, sizeof(*esr));
			return 1;
		}
		off += head[1];
	}
	return 0;
}

void cr_ctx_extra(const void *uc, struct cr_extra *x)
{
	const mcontext_t *mc = &((const ucontext_t *)uc)->uc_mcontext;
	uint64_t esr;

	x->n = 2;
	x->name[0] = "pstate";
	x->val[0] = mc->pstate;
	x->name[1] = "far";		/* the fault address register */
	x->val[1] = mc->fault_address;
	if (find_esr(mc, &esr)) {
		x->name[2] = "esr";
		x->val[2] = esr;
		x->n = 3;
	}
}

/*
 * The sigreturn trampoline: mov x8, #139 (__NR_rt_sigreturn); svc #0.  The
 * kernel's vDSO __kernel_rt_sigreturn, qemu 10's vDSO and qemu 7.2's anonymous
 * trampoline page use these two words; a libc SA_RESTORER would too.
 */
static const uint32_t rt_sigreturn[2] = { 0xd2801168, 0xd4000001 };

/* Both words as one little-endian word, for the fp engine's run (fp.c). */
const uint64_t cr_sigreturn_head = 0xd4000001d2801168ull, cr_sigreturn_mask = ~0ull;

/*
 * The kernel (and qemu) enter the handler with x29 = a frame record { x29, x30 }
 * of the interrupted code, put right after a struct rt_sigframe of this size
 * when the frame has no SVE/SME extra data (arch/arm64 get_sigframe()).  The
 * handler returns with x29 restored, so the trampoline frame has it too.
 */
#define RT_SIGFRAME_SIZE (SIGINFO_SIZE + sizeof(ucontext_t))
_Static_assert(SIGINFO_SIZE + sizeof(ucontext_t) == 4688, "kernel struct rt_sigframe");

static int is_sigreturn(const struct cr_mem *m, uint64_t pc)
{
	uint32_t code[2];

	return cr_read(m, pc, code, sizeof(code)) == 0 &&
	       cr_memeq(code, rt_sigreturn, sizeof(code));
}

int cr_ctx_from_kernel(const struct cr_mem *m, const void *si, const void *uc, uint64_t entry_sp,
		       uint64_t entry_ra)
{
	return (uintptr_t)si == entry_sp && (uintptr_t)uc == entry_sp + SIGINFO_SIZE &&
	       is_sigreturn(m, entry_ra);
}

int cr_sigframe_info(const struct cr_mem *m, uint64_t pc, uint64_t sp, uint64_t *info)
{
	if (!is_sigreturn(m, pc))
		return -CR_ENOINFO;
	*info = sp;	/* the rt_sigframe starts with the siginfo */
	return 0;
}

int cr_sigframe(const struct cr_mem *m, const struct cr_regs *in, struct cr_regs *out)
{
	unsigned long long g[33], rec[2];
	uint64_t frame[2];
	unsigned n = 0;
	int have_rec, ret = -CR_EINVAL;

	if (!is_sigreturn(m, in->pc))
		return -CR_ENOINFO;
	/*
	 * The frame is at sp, when sp is exact (cfi); the fp engine only
	 * approximates sp, so the frame record at x29 both places the frame and
	 * checks it: its x29 and x30 are the frame's.  No match, no garbage.  Two
	 * candidates, each read once.
	 */
	have_rec = cr_reg_valid(in, 29) && cr_read(m, in->r[29], rec, sizeof(rec)) == 0 &&
		   (rec[0] | rec[1]);	/* zeros would match any zeroed memory */
	if (cr_reg_valid(in, 31))
		frame[n++] = in->r[31];
	if (have_rec)
		frame[n++] = in->r[29] - RT_SIGFRAME_SIZE;
	for (unsigned i = 0; i < n; i++) {
		/* x0-x30, sp, pc; never the whole frame (its size varies with SVE/SME state). */
		if (cr_read(m, frame[i] + SIGINFO_SIZE + UC_REGS, g, sizeof(g)) < 0) {
			ret = -CR_EFAULT;
			continue;
		}
		if (have_rec && (rec[0] != g[29] || rec[1] != g[30])) {
			ret = -CR_EINVAL;
			continue;
		}
		from_gregs(g, out);
		return 0;
	}
	return ret;
}

/* entry.S (cr_getcontext, the public entry stubs) fills struct cr_regs at these offsets. */
_Static_assert(offsetof(struct cr_regs, valid) == 280, "cr_getcontext layout");
_Static_assert(offsetof(struct cr_regs, pc) == 288, "cr_getcontext layout");

/* A system call's result as the interrupted code will see it (x0). */
void cr_ctx_set_ret(void *uc, long v)
{
	((ucontext_t *)uc)->uc_mcontext.regs[0] = (unsigned long long)v;
}
