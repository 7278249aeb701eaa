/* SPDX-License-Identifier: MIT */
/* libcrashme.so: a crash inside a shared library, two frames deep. */
#define NOINLINE __attribute__((noinline))
#define KEEP() __asm__ volatile("" ::: "memory")

void crashme_lib_crash(int how);

static volatile int zero;

NOINLINE static void lib_inner(int how)
{
	*(volatile int *)(unsigned long)zero = how;
	KEEP();
}

NOINLINE void crashme_lib_crash(int how)
{
	lib_inner(how);
	KEEP();
}
