/* SPDX-License-Identifier: MIT */
/*
 * aarch64 system calls without libc (host only, included through sys.h).
 * Kernel arch/arm64 (entry-common.c, syscall.c) and syscall(2)'s table:
 * `svc #0`, the number in x8, the arguments in x0-x5, the result in x0
 * (-4095..-1 being -errno); every other register, and the flags, preserved.
 * No errno, no libc entry point: AS-safe, nothing to bind at load.
 */
#ifndef CR_AARCH64_SYSCALL_H
#define CR_AARCH64_SYSCALL_H

static inline long cr_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;

	/* "memory": the kernel reads and writes through the pointer arguments. */
	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	return x0;
}

#endif
