/* SPDX-License-Identifier: MIT */
/* loongarch64 host glue: ucontext_t, the rt_sigframe, and the register capture. */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>

#include "context.h"

const struct cr_arch *const cr_host = &cr_arch_loongarch64;

/*
 * Kernel arch/loongarch (signal.c): the handler runs with sp = the rt_sigframe
 * { siginfo rs_info; ucontext rs_uctx; }, the extended contexts (FPU, LSX,
 * LASX) above it.  uc_mcontext (struct sigcontext { sc_pc, sc_regs[32],
 * sc_flags, sc_extcontext[] }) is 16-aligned after uc_flags, uc_link, uc_stack
 * and a 1024-bit sigmask area: 176.  glibc's ucontext_t has the same layout;
 * the asserts tie the constants to it.  qemu-user builds the same frame.
 */
#define SIGINFO_SIZE 128
#define UC_PC 176

_Static_assert(sizeof(siginfo_t) == SIGINFO_SIZE, "kernel siginfo is 128 bytes");
_Static_assert(offsetof(ucontext_t, uc_mcontext.__pc) == UC_PC, "uc_mcontext offset");
_Static_assert(offsetof(mcontext_t, __gregs) == 8, "sc_regs after sc_pc");

/* g[0] = pc, g[1 + n] = rn: DWARF n (LoongArch ELF psABI "DWARF Register Numbers"). */
static void from_gregs(const unsigned long long *g, struct cr_regs *r)
{
	memset(r, 0, sizeof(*r));
	for (unsigned n = 0; n < 32; n++)
		cr_reg_set(r, n, g[1 + n]);
	r->pc = g[0];
}

void cr_regs_from_ucontext(const void *uc, struct cr_regs *r)
{
	from_gregs(&((const ucontext_t *)uc)->uc_mcontext.__pc, r);
}

/*
 * sc_flags (asm/sigcontext.h): SC_USED_FP (bit 0), SC_ADDRERR_RD (bit 30) and
 * SC_ADDRERR_WR (bit 31): whether an address error was a load or a store.
 */
void cr_ctx_extra(const void *uc, struct cr_extra *x)
{
	x->n = 1;
	x->name[0] = "flags";
	x->val[0] = ((const ucontext_t *)uc)->uc_mcontext.__flags;
}

/*
 * The sigreturn trampoline: li.w a7, 139 (__NR_rt_sigreturn); syscall 0.  The
 * assembler expands li.w of a 12-bit unsigned value to ori a7, zero, 139
 * (0x03822c0b: the kernel's vDSO __vdso_rt_sigreturn, qemu's); addi.w a7, zero,
 * 139 (0x02822c0b) is the same instruction spelled another way.
 */
static const uint32_t li_a7[2] = { 0x03822c0b, 0x02822c0b };
#define SYSCALL_0 0x002b0000

/* For the fp engine's run (fp.c): the syscall word after either li (a filter). */
const uint64_t cr_sigreturn_head = (uint64_t)SYSCALL_0 << 32,
	       cr_sigreturn_mask = 0xffffffff00000000ull;

static int is_sigreturn(const struct cr_mem *m, uint64_t pc)
{
	uint32_t code[2];

	return cr_read(m, pc, code, sizeof(code)) == 0 && code[1] == SYSCALL_0 &&
	       (code[0] == li_a7[0] || code[0] == li_a7[1]);
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
	unsigned long long g[33];

	if (!is_sigreturn(m, in->pc))
		return -CR_ENOINFO;
	if (!cr_reg_valid(in, 3))
		return -CR_EINVAL;
	/* pc and r0-r31 only: the extended contexts make the frame's size vary. */
	if (cr_read(m, in->r[3] + SIGINFO_SIZE + UC_PC, g, sizeof(g)) < 0)
		return -CR_EFAULT;
	from_gregs(g, out);
	return 0;
}

/* entry.S (cr_getcontext, the public entry stubs) fills struct cr_regs at these offsets. */
_Static_assert(offsetof(struct cr_regs, valid) == 280, "cr_getcontext layout");
_Static_assert(offsetof(struct cr_regs, pc) == 288, "cr_getcontext layout");

/* A system call's result as the interrupted code will see it (a0, r4). */
void cr_ctx_set_ret(void *uc, long v)
{
	((ucontext_t *)uc)->uc_mcontext.__gregs[4] = (unsigned long long)v;
}
