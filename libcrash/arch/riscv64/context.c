/* SPDX-License-Identifier: MIT */
/* riscv64 host glue: ucontext_t, the rt_sigframe, and the register capture. */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>

#include "context.h"
#include "str.h"

const struct cr_arch *const cr_host = &cr_arch_riscv64;

/*
 * Kernel arch/riscv: the handler runs with sp = the rt_sigframe { siginfo info;
 * ucontext uc; } and the ucontext's uc_mcontext is struct sigcontext, whose
 * first member is user_regs_struct { pc, x1..x31 }.  uc_mcontext sits after
 * uc_flags, uc_link, uc_stack, a 1024-bit sigmask area, aligned to 16 (the FP
 * union is 16-aligned): 176.  glibc's ucontext_t has the same layout; the
 * asserts tie the constants to it.  qemu-user builds the same frame.
 */
#define SIGINFO_SIZE 128
#define UC_GREGS 176

_Static_assert(sizeof(siginfo_t) == SIGINFO_SIZE, "kernel siginfo is 128 bytes");
_Static_assert(offsetof(ucontext_t, uc_mcontext.__gregs) == UC_GREGS, "uc_mcontext offset");
_Static_assert(sizeof(((mcontext_t *)0)->__gregs) == 32 * 8, "pc + x1..x31");

/* g[0] is the pc, g[n] is xn (DWARF n, psABI "DWARF Register Numbers"); x0 is zero. */
static void from_gregs(const unsigned long *g, struct cr_regs *r)
{
	memset(r, 0, sizeof(*r));
	cr_reg_set(r, 0, 0);
	for (unsigned n = 1; n < 32; n++)
		cr_reg_set(r, n, g[n]);
	r->pc = g[0];
}

void cr_regs_from_ucontext(const void *uc, struct cr_regs *r)
{
	from_gregs(((const ucontext_t *)uc)->uc_mcontext.__gregs, r);
}

/*
 * The mcontext holds only the general registers and the FP state: no fault
 * details or flags that the report's other lines (si_addr) do not already give.
 */
void cr_ctx_extra(const void *uc, struct cr_extra *x)
{
	(void)uc;
	x->n = 0;
}

/*
 * The sigreturn trampoline: li a7, 139 (__NR_rt_sigreturn; addi a7, x0, 139);
 * ecall.  The kernel's vDSO __vdso_rt_sigreturn, qemu 10's vDSO and qemu 7.2's
 * anonymous trampoline page all use these two 32-bit words; glibc has none of
 * its own (the kernel always returns through the vDSO).
 */
static const uint32_t rt_sigreturn[2] = { 0x08b00893, 0x00000073 };

/* Both words as one little-endian word, for the fp engine's run (fp.c). */
const uint64_t cr_sigreturn_head = 0x0000007308b00893ull, cr_sigreturn_mask = ~0ull;

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
	unsigned long g[32];

	if (!is_sigreturn(m, in->pc))
		return -CR_ENOINFO;
	if (!cr_reg_valid(in, 2))
		return -CR_EINVAL;
	/* qemu's frame is shorter than glibc's ucontext_t: read the registers only. */
	if (cr_read(m, in->r[2] + SIGINFO_SIZE + UC_GREGS, g, sizeof(g)) < 0)
		return -CR_EFAULT;
	from_gregs(g, out);
	return 0;
}

/* entry.S (cr_getcontext, the public entry stubs) fills struct cr_regs at these offsets. */
_Static_assert(offsetof(struct cr_regs, valid) == 280, "cr_getcontext layout");
_Static_assert(offsetof(struct cr_regs, pc) == 288, "cr_getcontext layout");

/* A system call's result as the interrupted code will see it (a0, x10). */
void cr_ctx_set_ret(void *uc, long v)
{
	((ucontext_t *)uc)->uc_mcontext.__gregs[10] = (unsigned long)v;
}
