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

_Static_assert(offsetof(struct cr_regs, valid) == 280, "cr_getcontext layout");
_Static_assert(offsetof(struct cr_regs, pc) == 288, "cr_getcontext layout");

/*
 * int cr_getcontext(struct cr_regs *r): x0, ra (x1), sp (x2), gp (x3) and tp
 * (x4), which no callee changes, and the callee-saved s0-s11 (x8, x9,
 * x18-x27; psABI "Integer Register Convention"), at r->r[n] = 8 * n; pc = ra.
 * The sp does not change on return.
 */
__asm__(".text\n"
	".globl cr_getcontext\n"
	".hidden cr_getcontext\n"
	".type cr_getcontext,@function\n"
	".p2align 2\n"
	"cr_getcontext:\n"
	".cfi_startproc\n"
	"	sd zero, 0(a0)\n"
	"	sd ra, 8(a0)\n"
	"	sd sp, 16(a0)\n"
	"	sd gp, 24(a0)\n"
	"	sd tp, 32(a0)\n"
	"	sd s0, 64(a0)\n"
	"	sd s1, 72(a0)\n"
	"	sd s2, 144(a0)\n"
	"	sd s3, 152(a0)\n"
	"	sd s4, 160(a0)\n"
	"	sd s5, 168(a0)\n"
	"	sd s6, 176(a0)\n"
	"	sd s7, 184(a0)\n"
	"	sd s8, 192(a0)\n"
	"	sd s9, 200(a0)\n"
	"	sd s10, 208(a0)\n"
	"	sd s11, 216(a0)\n"
	"	sd ra, 288(a0)\n"
	"	li t0, 0x0ffc031f\n" /* bits 0-4, 8, 9, 18-27 */
	"	sd t0, 280(a0)\n"
	"	li a0, 0\n"
	"	ret\n"
	".cfi_endproc\n"
	".size cr_getcontext, .-cr_getcontext\n");

/*
 * A public entry point (context.h): the struct cr_regs (296 bytes, 304 with
 * sp 16-byte aligned, psABI "Integer Calling Convention") on the stub's
 * stack, filled as cr_getcontext fills it, with sp = the sp at entry.  ra is
 * kept in the struct across the call.  a0-a2 pass through; a3 is the struct.
 */
#define CR_ENTRY(name, body)                                                                       \
	__asm__(".text\n"                                                                          \
		".globl " #name "\n"                                                               \
		".type " #name ",@function\n"                                                      \
		".p2align 2\n" #name ":\n"                                                         \
		".cfi_startproc\n"                                                                 \
		"	addi sp, sp, -304\n"                                                         \
		".cfi_def_cfa_offset 304\n"                                                        \
		"	sd zero, 0(sp)\n"                                                            \
		"	sd ra, 8(sp)\n"                                                              \
		".cfi_offset ra, -296\n"                                                           \
		"	addi t0, sp, 304\n"                                                          \
		"	sd t0, 16(sp)\n"                                                             \
		"	sd gp, 24(sp)\n"                                                             \
		"	sd tp, 32(sp)\n"                                                             \
		"	sd s0, 64(sp)\n"                                                             \
		"	sd s1, 72(sp)\n"                                                             \
		"	sd s2, 144(sp)\n"                                                            \
		"	sd s3, 152(sp)\n"                                                            \
		"	sd s4, 160(sp)\n"                                                            \
		"	sd s5, 168(sp)\n"                                                            \
		"	sd s6, 176(sp)\n"                                                            \
		"	sd s7, 184(sp)\n"                                                            \
		"	sd s8, 192(sp)\n"                                                            \
		"	sd s9, 200(sp)\n"                                                            \
		"	sd s10, 208(sp)\n"                                                           \
		"	sd s11, 216(sp)\n"                                                           \
		"	sd ra, 288(sp)\n"                                                            \
		"	li t0, 0x0ffc031f\n"                                                         \
		"	sd t0, 280(sp)\n"                                                            \
		"	mv a3, sp\n"                                                                 \
		"	call " #body "\n"                                                            \
		"	ld ra, 8(sp)\n"                                                              \
		".cfi_restore ra\n"                                                                \
		"	addi sp, sp, 304\n"                                                          \
		".cfi_def_cfa_offset 0\n"                                                          \
		"	ret\n"                                                                       \
		".cfi_endproc\n"                                                                   \
		".size " #name ", .-" #name "\n")

CR_ENTRY(crash_backtrace_with, cr_backtrace_with_at);
CR_ENTRY(crash_backtrace, cr_backtrace_at);

/* A system call's result as the interrupted code will see it (a0, x10). */
void cr_ctx_set_ret(void *uc, long v)
{
	((ucontext_t *)uc)->uc_mcontext.__gregs[10] = (unsigned long)v;
}
