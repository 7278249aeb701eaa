/* SPDX-License-Identifier: MIT */
/*
 * crash_install()/crash_uninstall(): the previous disposition (handler, flags,
 * mask) comes back exactly, from its compact copy; the alternate stack has
 * its guard below it.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

#include "../tap.h"
#include "crash.h"

static void app_action(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
}

static void app_handler(int sig)
{
	(void)sig;
}

/* One byte at addr readable: write(2) says so with EFAULT, without a fault (qemu-user too). */
static int readable(uintptr_t addr)
{
	static int p[2] = { -1, -1 };
	char c;

	if (p[0] < 0 && pipe(p) < 0)
		return -1;
	if (write(p[1], (const void *)addr, 1) != 1)
		return 0;
	return read(p[0], &c, 1) == 1;
}

static int same_mask(const sigset_t *a, const sigset_t *b)
{
	for (int s = 1; s < 65; s++)
		if (sigismember(a, s) != sigismember(b, s))
			return 0;
	return 1;
}

int main(void)
{
	struct sigaction a, b, now, fpe;
	struct crash_options o = { .fd = 2 };
	stack_t ss, off = { .ss_flags = SS_DISABLE };

	/* A sanitizer may have given this thread an alternate stack, and taken
	   SIGFPE: ours is the one under test, and SIGFPE comes back as it was. */
	sigaltstack(&off, NULL);
	sigaction(SIGFPE, NULL, &fpe);

	memset(&a, 0, sizeof(a));
	a.sa_sigaction = app_action;
	a.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&a.sa_mask);
	sigaddset(&a.sa_mask, SIGUSR1);
	sigaddset(&a.sa_mask, SIGTERM);
	sigaddset(&a.sa_mask, 64);
	sigaction(SIGSEGV, &a, NULL);
	memset(&b, 0, sizeof(b));
	b.sa_handler = app_handler;
	b.sa_flags = SA_NODEFER;
	sigemptyset(&b.sa_mask);
	sigaddset(&b.sa_mask, 1);
	sigaction(SIGBUS, &b, NULL);
	sigaction(SIGUSR2, &(struct sigaction){ .sa_handler = SIG_IGN }, NULL);

	o.signals = CRASH_SIGMASK(SIGSEGV) | CRASH_SIGMASK(SIGBUS) | CRASH_SIGMASK(SIGUSR2) |
		    CRASH_SIGMASK(SIGFPE);
	/* Each bad option: -EINVAL, and nothing changed (the application's handler stays). */
	{
		struct crash_options bad[] = {
			{ .fd = 2, .engine = -1 },
			{ .fd = 2, .engine = CRASH_ENGINE_ALL + 1 },
			{ .fd = 2, .max_frames = -1 },
			{ .fd = 2, .timeout = -1 },
			{ .fd = 2, .threads = 7 },
			{ .fd = 2, .format = CRASH_FORMAT_BOTH + 1 },
			{ .fd = 2, .signals = CRASH_SIGMASK(SIGKILL) },
			{ .fd = 2, .reserved[0] = 1 },
			{ .fd = 2, .reserved[7] = 1 },
		};
		int nbad = 0;

		for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			bad[i].signals = bad[i].signals ? bad[i].signals : CRASH_SIGMASK(SIGSEGV);
			if (crash_install(&bad[i]) == -EINVAL)
				nbad++;
			else
				printf("# bad options #%u accepted\n", i);
		}
		tap_is_i64(nbad, sizeof bad / sizeof bad[0], "every bad option (and a non-zero reserved slot): -EINVAL");
		sigaction(SIGSEGV, NULL, &now);
		tap_ok(now.sa_sigaction == app_action, "after them, SIGSEGV is still the application's");
	}
	tap_is_i64(crash_install(&o), 0, "crash_install");
	sigaction(SIGSEGV, NULL, &now);
	tap_ok(now.sa_sigaction != app_action, "our handler in place");

	tap_ok(sigaltstack(NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE) && ss.ss_size == 65536,
	       "an alternate stack of 64 KiB");
	tap_ok(readable((uintptr_t)ss.ss_sp) && readable((uintptr_t)ss.ss_sp + ss.ss_size - 1),
	       "its bytes are readable");
	tap_ok(!readable((uintptr_t)ss.ss_sp - 1) && !readable((uintptr_t)ss.ss_sp - 65536),
	       "the 64 KiB below it are not (the guard)");

	crash_uninstall();
	sigaction(SIGSEGV, NULL, &now);
	tap_ok(now.sa_sigaction == app_action, "SIGSEGV: the application's sa_sigaction back");
	tap_is_i64(now.sa_flags & (SA_SIGINFO | SA_RESTART | SA_ONSTACK | SA_NODEFER),
		   SA_SIGINFO | SA_RESTART | SA_ONSTACK, "SIGSEGV: its flags");
	tap_ok(same_mask(&now.sa_mask, &a.sa_mask), "SIGSEGV: its mask (USR1, TERM, 64)");
	sigaction(SIGBUS, NULL, &now);
	tap_ok(now.sa_handler == app_handler, "SIGBUS: the application's sa_handler back");
	tap_is_i64(now.sa_flags & (SA_SIGINFO | SA_RESTART | SA_ONSTACK | SA_NODEFER), SA_NODEFER,
		   "SIGBUS: its flags");
	tap_ok(same_mask(&now.sa_mask, &b.sa_mask), "SIGBUS: its mask (1)");
	sigaction(SIGUSR2, NULL, &now);
	tap_ok(now.sa_handler == SIG_IGN, "SIGUSR2: ignored again");
	sigaction(SIGFPE, NULL, &now);
	tap_ok(now.sa_handler == fpe.sa_handler &&
		       (now.sa_flags & SA_SIGINFO) == (fpe.sa_flags & SA_SIGINFO),
	       "SIGFPE: as it was before (the default, or a sanitizer's)");
	return tap_done();
}
