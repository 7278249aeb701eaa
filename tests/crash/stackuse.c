/* SPDX-License-Identifier: MIT */
/*
 * How much stack does the crash handler use, on the stack the signal arrived
 * on and on libcrash's own report stack (handler.c)?  Both are shared
 * mappings, poisoned before a child crashes with libcrash installed; after
 * the child died the parent finds the lowest byte that changed in each.
 *
 * - The arrival stack (an alternate stack, as a stack overflow has it)
 *   holds the kernel's signal frame, whose size depends on the CPU's
 *   register state (x86_64 XSAVE), and then libcrash's code up to the
 *   switch.  A child whose own handler notes its frame address measures
 *   the kernel's part on this machine (not by the poison: its _exit may
 *   go through the loader's lazy binding, which saves every register on
 *   the stack); libcrash's part is the rest.  Budget 1 KiB: the
 *   application's 8 KiB alternate stack must do.
 * - The report stack holds the whole report: budget 16 KiB (STYLE).
 * One child per engine, one with CRASH_FORMAT=both, and one whose assert() fails (the
 * report reads glibc's abort message, abortmsg.c).
 */
#include <assert.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../tap.h"
#include "crash-int.h"
#include "crash.h"

#define ALT (64 * 1024)
#define REP (256 * 1024)	/* >= the report stack and its guard (handler.c) */
#define POISON 0xa5
#define ARRIVAL_BUDGET 1024
#define REPORT_BUDGET (16 * 1024)

static unsigned char *alt, *rep;
static volatile int zero;

__attribute__((noinline)) static void crash(int depth)
{
	if (depth)
		crash(depth - 1);
	*(volatile int *)(uintptr_t)zero = 1;
	__asm__ volatile("" ::: "memory");
}

/* Where the kernel's frame ends: this handler's frame, noted in the shared page. */
static void nothing(int sig)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);

	(void)sig;
	memcpy(rep, &here, sizeof(here));
	_exit(0);
}

static size_t used(const unsigned char *p, size_t size)
{
	size_t i = 0;

	while (i < size && p[i] == POISON)
		i++;
	return size - i;
}

/* engine < 0: no libcrash, an empty handler of the child's own; abrt: an assert() fails. */
static void run(int engine, int format, int abrt)
{
	pid_t pid;

	memset(alt, POISON, ALT);
	memset(rep, POISON, REP);
	pid = fork();
	if (pid == 0) {
		stack_t ss = { .ss_sp = alt, .ss_size = ALT, .ss_flags = 0 };

		sigaltstack(&ss, NULL);
		if (engine < 0) {
			struct sigaction sa;

			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = nothing;
			sa.sa_flags = SA_ONSTACK;
			sigaction(SIGSEGV, &sa, NULL);
		} else {
			crash_install(&(struct crash_options){ .fd = -1, .path = "/dev/null",
							       .engine = engine,
							       .no_altstack = 1,
							       .format = format });
			cr_report_stack_set(rep, REP);
		}
		if (abrt) {
			close(2);	/* glibc's own message: not on the test's output */
			assert(zero == 1);
		}
		crash(20);
		_exit(1);
	}
	waitpid(pid, NULL, 0);
}

int main(void)
{
	static const char *const names[] = { "auto", "fp", "cfi", "scan", "all",
					     "all, format both" };
	char name[160];
	size_t kernel;

	alt = mmap(NULL, ALT, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	rep = mmap(NULL, REP, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (alt == MAP_FAILED || rep == MAP_FAILED)
		return 1;
	run(-1, 0, 0);
	{
		uintptr_t frame;

		memcpy(&frame, rep, sizeof(frame));
		kernel = (uintptr_t)alt + ALT - frame;
	}
	printf("# the kernel's signal frame and a handler's frame record: %zu bytes\n", kernel);
	tap_ok(kernel > 0 && kernel < ALT / 2, "the kernel's frame measured");
	/* Each engine with the text report, then all of them with the text and
	   the JSON report (CRASH_FORMAT=both). */
	for (int e = CRASH_ENGINE_AUTO; e <= CRASH_ENGINE_ALL + 1; e++) {
		int both = e > CRASH_ENGINE_ALL;
		size_t a, r;

		run(both ? CRASH_ENGINE_ALL : e, both ? CRASH_FORMAT_BOTH : CRASH_FORMAT_TEXT, 0);
		a = used(alt, ALT);
		r = used(rep, REP);
		snprintf(name, sizeof(name),
			 "engine %s: %zu bytes of the arrival stack beyond the kernel's frame (< %d)",
			 names[e], a > kernel ? a - kernel : 0, ARRIVAL_BUDGET);
		tap_ok(a > kernel && a - kernel < ARRIVAL_BUDGET, name);
		snprintf(name, sizeof(name), "engine %s: %zu bytes of libcrash's report stack (< %d)",
			 names[e], r, REPORT_BUDGET);
		tap_ok(r > 0 && r < REPORT_BUDGET, name);
	}
	{
		size_t r;

		run(CRASH_ENGINE_AUTO, CRASH_FORMAT_TEXT, 1);
		r = used(rep, REP);
		snprintf(name, sizeof(name),
			 "an assert() failure (abort message): %zu bytes of libcrash's report stack (< %d)",
			 r, REPORT_BUDGET);
		tap_ok(r > 0 && r < REPORT_BUDGET, name);
	}
	return tap_done();
}
