/* SPDX-License-Identifier: MIT */
/*
 * riscv64 system calls without libc (host only, included through sys.h).
 * Kernel arch/riscv (entry.S, traps.c) and syscall(2)'s table: `ecall`, the
 * number in a7, the arguments in a0-a5, the result in a0 (-4095..-1 being
 * -errno); every other register preserved.
 * No errno, no libc entry point: AS-safe, nothing to bind at load.
 */
#ifndef CR_RISCV64_SYSCALL_H
#define CR_RISCV64_SYSCALL_H

static inline long cr_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long a7 __asm__("a7") = nr;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	register long a3 __asm__("a3") = d;
	register long a4 __asm__("a4") = e;
	register long a5 __asm__("a5") = f;

	/* "memory": the kernel reads and writes through the pointer arguments. */
	__asm__ volatile("ecall"
			 : "+r"(a0)
			 : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5)
			 : "memory");
	return a0;
}

#endif
