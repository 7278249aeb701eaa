/* SPDX-License-Identifier: MIT */
/* CRASH_* parsing: every form, every error. */
#include <signal.h>
#include <stdlib.h>

#include "../tap.h"
#include "options.h"

int main(void)
{
	const char *path;
	unsigned long long m;
	int fd, e, n;

	tap_ok(cr_opt_output("stderr", &fd, &path) == 0 && fd == 2 && !path, "stderr");
	tap_ok(cr_opt_output("fd:7", &fd, &path) == 0 && fd == 7 && !path, "fd:7");
	tap_ok(cr_opt_output("/tmp/r.txt", &fd, &path) == 0 && fd == -1 &&
		       strcmp(path, "/tmp/r.txt") == 0,
	       "path");
	tap_ok(cr_opt_output("fd:", &fd, &path) < 0, "fd: without number");
	tap_ok(cr_opt_output("fd:x", &fd, &path) < 0, "fd:x");
	tap_ok(cr_opt_output("fd:99999999999", &fd, &path) < 0, "fd too large");
	tap_ok(cr_opt_output("", &fd, &path) < 0, "empty output");

	tap_ok(cr_opt_signals("SEGV,ABRT,BUS,FPE,ILL,TRAP,SYS", &m) == 0 &&
		       m == CR_DEFAULT_SIGNALS,
	       "default list");
	tap_ok(cr_opt_signals("segv", &m) == 0 && m == CRASH_SIGMASK(SIGSEGV), "lower case");
	tap_ok(cr_opt_signals("SIGSEGV,SIGUSR1", &m) == 0 &&
		       m == (CRASH_SIGMASK(SIGSEGV) | CRASH_SIGMASK(SIGUSR1)),
	       "SIG prefix");
	tap_ok(cr_opt_signals("11,6", &m) == 0 &&
		       m == (CRASH_SIGMASK(11) | CRASH_SIGMASK(6)),
	       "numbers");
	tap_ok(cr_opt_signals("SEGV,,ABRT", &m) < 0, "empty item");
	tap_ok(cr_opt_signals("SEGV,", &m) < 0, "trailing comma");
	tap_ok(cr_opt_signals("NOPE", &m) < 0, "unknown name");
	tap_ok(cr_opt_signals("KILL", &m) < 0, "KILL cannot be caught");
	tap_ok(cr_opt_signals("STOP", &m) < 0, "STOP cannot be caught");
	tap_ok(cr_opt_signals("64", &m) < 0, "64 out of range");
	tap_ok(cr_opt_signals("0", &m) < 0, "0 is no signal");
	tap_ok(cr_opt_signals("VERYLONGSIGNALNAMEXX", &m) < 0, "too long");

	static const char *const eng[] = { "auto", "fp", "cfi", "scan", "all" };
	for (int i = 0; i < 5; i++)
		tap_ok(cr_opt_engine(eng[i], &e) == 0 && e == i, eng[i]);
	tap_ok(cr_opt_engine("FP", &e) < 0, "engine names are lower case");
	tap_ok(cr_opt_engine("libunwind", &e) < 0, "unknown engine");

	tap_ok(cr_opt_frames("1", &n) == 0 && n == 1, "frames 1");
	tap_ok(cr_opt_frames("1024", &n) == 0 && n == 1024, "frames 1024");
	tap_ok(cr_opt_frames("0", &n) < 0, "frames 0");
	tap_ok(cr_opt_frames("1025", &n) < 0, "frames 1025");
	tap_ok(cr_opt_frames("-5", &n) < 0, "frames negative");
	tap_ok(cr_opt_frames("12a", &n) < 0, "frames junk");

	/* The environment: good values taken, bad ones defaulted. */
	struct crash_options o;
	char buf[256];

	setenv("CRASH_OUTPUT", "fd:9", 1);
	setenv("CRASH_SIGNALS", "SEGV", 1);
	setenv("CRASH_ENGINE", "fp", 1);
	setenv("CRASH_MAX_FRAMES", "12", 1);
	cr_opt_from_env(&o, buf, sizeof(buf));
	tap_ok(o.fd == 9 && o.signals == CRASH_SIGMASK(SIGSEGV) && o.engine == CRASH_ENGINE_FP &&
		       o.max_frames == 12,
	       "environment read");
	setenv("CRASH_OUTPUT", "/tmp/x.report", 1);
	setenv("CRASH_SIGNALS", "BOGUS", 1);
	setenv("CRASH_ENGINE", "bogus", 1);
	setenv("CRASH_MAX_FRAMES", "0", 1);
	cr_opt_from_env(&o, buf, sizeof(buf));
	tap_ok(o.fd == -1 && o.path && strcmp(o.path, "/tmp/x.report") == 0, "path from env");
	tap_ok(o.signals == 0 && o.engine == CRASH_ENGINE_AUTO && o.max_frames == 0,
	       "bad values give defaults");
	return tap_done();
}
