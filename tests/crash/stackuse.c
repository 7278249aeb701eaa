/* SPDX-License-Identifier: MIT */
/*
 * How much stack does the crash handler use?  The alternate signal stack is
 * poisoned; the application's own SIGSEGV handler, which libcrash chains to
 * after its report and which runs on the same alternate stack, finds the
 * lowest byte that changed.  One child per engine; budget 16 KiB (STYLE).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../tap.h"
#include "crash.h"

#define ALT (256 * 1024)
#define POISON 0xa5
#define BUDGET (16 * 1024)

static unsigned char *alt;
static int result_fd;
static volatile int zero;

static void app_handler(int sig)
{
	size_t i = 0;

	(void)sig;
	while (i < ALT && alt[i] == POISON)
		i++;
	size_t used = ALT - i;
	write(result_fd, &used, sizeof(used));
	_exit(0);
}

__attribute__((noinline)) static void crash(int depth)
{
	if (depth)
		crash(depth - 1);
	*(volatile int *)(uintptr_t)zero = 1;
	__asm__ volatile("" ::: "memory");
}

static long measure(int engine)
{
	int p[2];
	size_t used = 0;
	pid_t pid;

	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		stack_t ss = { .ss_sp = alt, .ss_size = ALT, .ss_flags = 0 };
		struct sigaction sa;

		close(p[0]);
		result_fd = p[1];
		memset(alt, POISON, ALT);
		sigaltstack(&ss, NULL);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = app_handler;
		sa.sa_flags = SA_ONSTACK;
		sigaction(SIGSEGV, &sa, NULL);	/* libcrash's previous handler */
		crash_install(&(struct crash_options){ .fd = -1, .path = "/dev/null",
						       .engine = engine, .no_altstack = 1 });
		crash(20);
		_exit(1);
	}
	close(p[1]);
	if (read(p[0], &used, sizeof(used)) != sizeof(used))
		used = 0;
	close(p[0]);
	waitpid(pid, NULL, 0);
	return (long)used;
}

int main(void)
{
	static const char *const names[] = { "auto", "fp", "cfi", "scan", "all" };
	char name[128];

	alt = aligned_alloc(4096, ALT);
	for (int e = CRASH_ENGINE_AUTO; e <= CRASH_ENGINE_ALL; e++) {
		long used = measure(e);

		snprintf(name, sizeof(name), "engine %s: handler used %ld bytes of stack (< %d)",
			 names[e], used, BUDGET);
		tap_ok(used > 0 && used < BUDGET, name);
	}
	return tap_done();
}
