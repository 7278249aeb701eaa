/* SPDX-License-Identifier: MIT */
/*
 * loongarch64 system calls without libc (host only, included through sys.h).
 * The kernel's Documentation/arch/loongarch "Linux/LoongArch system call
 * ABI": `syscall 0`, the number in a7, the arguments in a0-a6, the result in
 * a0 (-4095..-1 being -errno); "t0-t8 should be considered clobbered; all
 * other registers are preserved".
 * No errno, no libc entry point: AS-safe, nothing to bind at load.
 */
#ifndef CR_LOONGARCH64_SYSCALL_H
#define CR_LOONGARCH64_SYSCALL_H

static inline long cr_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long a7 __asm__("$a7") = nr;
	register long a0 __asm__("$a0") = a;
	register long a1 __asm__("$a1") = b;
	register long a2 __asm__("$a2") = c;
	register long a3 __asm__("$a3") = d;
	register long a4 __asm__("$a4") = e;
	register long a5 __asm__("$a5") = f;

	/* "memory": the kernel reads and writes through the pointer arguments. */
	__asm__ volatile("syscall 0"
			 : "+r"(a0)
			 : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5)
			 : "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7", "$t8", "memory");
	return a0;
}

#endif
