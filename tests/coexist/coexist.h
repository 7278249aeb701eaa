/* SPDX-License-Identifier: MIT */
/*
 * The kernel's own struct sigaction, for rt_sigaction(2) made as a raw system
 * call: that bypasses every sigaction() wrapper (glibc's and libcrash's), so a
 * program sees which handler the kernel really has.  The layout is the
 * kernel's uapi one: x86_64 and aarch64 have sa_restorer, riscv64 and
 * loongarch64 do not.  Under qemu-user the system call is the guest's, so the
 * guest's layout is the right one there too.
 */
#ifndef COEXIST_H
#define COEXIST_H

#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct coexist_ksigaction {
	void *handler;
	unsigned long flags;
#if defined(__x86_64__) || defined(__aarch64__)
	void *restorer;
#endif
	uint64_t mask; /* signal n is bit n - 1: the kernel's 64-signal sigset */
};

/*
 * Room for the old action that rt_sigaction writes: the kernel's struct and
 * slack after it.  qemu-user 7.2 for riscv64 writes more than the kernel's 24
 * bytes (as if riscv64 had sa_restorer): without the slack, it overwrote a
 * saved return address on the stack.
 */
union coexist_kold {
	struct coexist_ksigaction k;
	unsigned char slack[64];
};

/* The handler the kernel has for sig (NULL: SIG_DFL), or (void *)-1 on error. */
static inline void *coexist_kernel_handler(int sig)
{
	union coexist_kold old;

	memset(&old, 0, sizeof(old));
	if (syscall(SYS_rt_sigaction, sig, NULL, &old, sizeof(old.k.mask)) != 0)
		return (void *)-1;
	return old.k.handler;
}

#endif
