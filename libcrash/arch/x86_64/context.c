/* SPDX-License-Identifier: MIT */
/* x86_64 host glue: ucontext_t, the rt_sigframe, and the register capture. */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>

#include "context.h"
#include "str.h"

const struct cr_arch *const cr_host = &cr_arch_x86_64;

/* DWARF number -> gregs index (psABI 3.6.2 / <sys/ucontext.h>). */
static const uint8_t greg_of[17] = {
	REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP, REG_R8,
	REG_R9,	 REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP,
};

static void from_gregs(const greg_t *g, struct cr_regs *r)
{
	memset(r, 0, sizeof(*r));
	for (unsigned n = 0; n < 17; n++)
		cr_reg_set(r, n, (uint64_t)g[greg_of[n]]);
	r->pc = (uint64_t)g[REG_RIP];
}

void cr_regs_from_ucontext(const void *uc, struct cr_regs *r)
{
	from_gregs(((const ucontext_t *)uc)->uc_mcontext.gregs, r);
}

void cr_ctx_extra(const void *uc, struct cr_extra *x)
{
	const greg_t *g = ((const ucontext_t *)uc)->uc_mcontext.gregs;

	x->n = 3;
	x->name[0] = "rflags";
	x->val[0] = (uint64_t)g[REG_EFL];
	x->name[1] = "trapno";
	x->val[1] = (uint64_t)g[REG_TRAPNO];
	x->name[2] = "err";
	x->val[2] = (uint64_t)g[REG_ERR];
}

/* glibc's __restore_rt (and musl's): mov $__NR_rt_sigreturn,%rax; syscall. */
static const uint8_t restore_rt[9] = { 0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05 };

/* Its first 8 bytes as a little-endian word, for the fp engine's run (fp.c). */
const uint64_t cr_sigreturn_head = 0x0f0000000fc0c748ull, cr_sigreturn_mask = ~0ull;

static int is_sigreturn(const struct cr_mem *m, uint64_t pc)
{
	uint8_t code[sizeof(restore_rt)];

	return cr_read(m, pc, code, sizeof(code)) == 0 && cr_memeq(code, restore_rt, sizeof(code));
}

/*
 * The kernel's struct ucontext (arch/x86 uapi): glibc's ucontext_t up to and
 * with the kernel's 8-byte sigset; the siginfo follows it in the rt_sigframe.
 */
#define KUC_SIZE (offsetof(ucontext_t, uc_sigmask) + 8)
_Static_assert(KUC_SIZE == 304, "kernel struct ucontext");

int cr_ctx_from_kernel(const struct cr_mem *m, const void *si, const void *uc, uint64_t entry_sp,
		       uint64_t entry_ra)
{
	/* At entry sp points at pretcode, the return address; uc follows it. */
	return (uintptr_t)uc == entry_sp + 8 && (uintptr_t)si == entry_sp + 8 + KUC_SIZE &&
	       is_sigreturn(m, entry_ra);
}

int cr_sigframe_info(const struct cr_mem *m, uint64_t pc, uint64_t sp, uint64_t *info)
{
	if (!is_sigreturn(m, pc))
		return -CR_ENOINFO;
	*info = sp + KUC_SIZE;	/* the handler's ret popped pretcode: sp is uc */
	return 0;
}

int cr_sigframe(const struct cr_mem *m, const struct cr_regs *in, struct cr_regs *out)
{
	greg_t g[NGREG];
	uint64_t uc;

	if (!is_sigreturn(m, in->pc))
		return -CR_ENOINFO;
	/*
	 * Kernel arch/x86 rt_sigframe: { pretcode; ucontext uc; siginfo info; }.
	 * The handler's ret popped pretcode, so sp points at uc.
	 */
	if (!cr_reg_valid(in, 7))
		return -CR_EINVAL;
	uc = in->r[7];
	if (cr_read(m, uc + offsetof(ucontext_t, uc_mcontext.gregs), g, sizeof(g)) < 0)
		return -CR_EFAULT;
	from_gregs(g, out);
	return 0;
}

/* entry.S (cr_getcontext, the public entry stubs) fills struct cr_regs at these offsets. */
_Static_assert(offsetof(struct cr_regs, valid) == 280, "cr_getcontext layout");
_Static_assert(offsetof(struct cr_regs, pc) == 288, "cr_getcontext layout");

/* A system call's result as the interrupted code will see it (rax). */
void cr_ctx_set_ret(void *uc, long v)
{
	((ucontext_t *)uc)->uc_mcontext.gregs[REG_RAX] = v;
}
