/* SPDX-License-Identifier: MIT */
/*
 * The reference crash handler for the latency benchmark: what a typical
 * handler built on glibc does (backtrace + backtrace_symbols_fd, like
 * glibc's retired libSegFault), preloaded the same way as libcrash.
 */
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int out = 2;

static void handler(int sig)
{
	void *buf[256];
	int n = backtrace(buf, 256);

	write(out, "*** crash ***\n", 14);
	backtrace_symbols_fd(buf, n, out);
	signal(sig, SIG_DFL);
	raise(sig);
}

__attribute__((constructor)) static void install(void)
{
	const char *p = getenv("CRASH_OUTPUT");
	void *warm[4];

	if (p && *p == '/')
		out = open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	backtrace(warm, 4);	/* loads libgcc_s now, not in the handler */
	signal(SIGSEGV, handler);
}
