/* SPDX-License-Identifier: MIT */
/*
 * A program of strict ISO C (built -std=c99 without _GNU_SOURCE): <signal.h>
 * makes its signal() glibc's __sysv_signal, which libcrash must take over too
 * (libcrash/interpose.c).  The handler runs once (System V resets it to
 * SIG_DFL on delivery) and returns into the same fault: the process dies by
 * SIGSEGV, as without libcrash, and libcrash reports then.
 */
#include <signal.h>
#include <stdio.h>

static void handler(int sig)
{
	(void)sig;
	fputs("strict handler ran\n", stderr);
}

int main(void)
{
	void (*old)(int) = signal(SIGSEGV, handler);
	void (*again)(int) = signal(SIGSEGV, handler);

	printf("first signal() returned %s, the second %s\n", old == SIG_DFL ? "SIG_DFL" : "other",
	       again == handler ? "the handler" : "other");
	fflush(stdout);
	*(volatile int *)0 = 1;
	return 0;
}
