/* SPDX-License-Identifier: MIT */
/* libcrashinit.so: its constructor crashes, i.e. inside dlopen with the loader's lock held. */
static volatile int zero;

__attribute__((noinline)) static void init_crash(void)
{
	*(volatile int *)(unsigned long)zero = 1;
	__asm__ volatile("" ::: "memory");
}

__attribute__((constructor)) static void crashinit(void)
{
	init_crash();
	__asm__ volatile("" ::: "memory");
}
