/* SPDX-License-Identifier: MIT */
/*
 * x86_64 system calls without libc (host only, included through sys.h).
 * AMD64 psABI A.2.1 and the kernel's entry_64.S: the number in rax, the
 * arguments in rdi, rsi, rdx, r10, r8, r9 (r10, not rcx: `syscall` writes the
 * return address into rcx and rflags into r11, so both are clobbered); the
 * result in rax, -4095..-1 being -errno.  Every other register is preserved.
 * No errno, no libc entry point: AS-safe, nothing to bind at load.
 */
#ifndef CR_X86_64_SYSCALL_H
#define CR_X86_64_SYSCALL_H

static inline long cr_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	/* "memory": the kernel reads and writes through the pointer arguments. */
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

#endif
