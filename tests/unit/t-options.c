/* SPDX-License-Identifier: MIT */
/* CRASH_* parsing: every form, every error. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

	/* The environment, read in one pass: exact names, first of duplicates. */
	struct cr_env env;
	char *const envp[] = {
		"PATH=/bin",
		"CRASH_",			/* no name */
		"CRASH_O",			/* a prefix of a name */
		"CRASH_OUTPUT",			/* no '=' */
		"CRASH_OUTPUTS=x",		/* a longer name */
		"crash_engine=cfi",		/* names are upper case */
		"XCRASH_ENGINE=cfi",
		"CRASH_ENGINE=scan",
		"CRASH_ENGINE=fp",		/* a duplicate: getenv gives the first */
		"CRASH_SIGNALS=SEGV,BUS",
		"CRASH_SELFTEST_FAULT=1",
		"CRASH_SELFTEST=1",
		"CRASH_MAX_FRAMES=",		/* set, empty */
		"CRASH_DISABLE=1",
		"CRASH_CACHE=0",
		"CRASH_OUTPUT=fd:5",
		"CRASH_X=1",
		NULL,
	};
	cr_env_read(&env, envp);
	tap_ok(env.v[CR_ENV_OUTPUT] && strcmp(env.v[CR_ENV_OUTPUT], "fd:5") == 0, "env: CRASH_OUTPUT after look-alikes");
	tap_ok(env.v[CR_ENV_ENGINE] && strcmp(env.v[CR_ENV_ENGINE], "scan") == 0, "env: first CRASH_ENGINE wins");
	tap_ok(env.v[CR_ENV_SIGNALS] && strcmp(env.v[CR_ENV_SIGNALS], "SEGV,BUS") == 0, "env: CRASH_SIGNALS");
	tap_ok(env.v[CR_ENV_SELFTEST_FAULT] && strcmp(env.v[CR_ENV_SELFTEST_FAULT], "1") == 0,
	       "env: CRASH_SELFTEST_FAULT beside CRASH_SIGNALS");
	tap_ok(env.v[CR_ENV_MAX_FRAMES] && env.v[CR_ENV_MAX_FRAMES][0] == 0, "env: set but empty");
	tap_ok(env.v[CR_ENV_DISABLE] && strcmp(env.v[CR_ENV_DISABLE], "1") == 0, "env: CRASH_DISABLE");
	tap_ok(env.v[CR_ENV_CACHE] && strcmp(env.v[CR_ENV_CACHE], "0") == 0, "env: CRASH_CACHE");
	/* CRASH_SYMBOLS, CRASH_DEBUG_PATH and the debuginfod client's three. */
	char *const dbg[] = { "HOMEX=/no", "HOME=/home/u", "XDG_CACHE_HOME=/x",
			      "DEBUGINFOD_CACHE_PATH=/dc", "DEBUGINFOD_URLS=http://no",
			      "CRASH_DEBUG_PATH=/a:/b", "CRASH_SYMBOLS=names", "HOME=/second", NULL };
	cr_env_read(&env, dbg);
	tap_ok(env.v[CR_ENV_HOME] && strcmp(env.v[CR_ENV_HOME], "/home/u") == 0 &&
		       env.v[CR_ENV_XDG_CACHE] && strcmp(env.v[CR_ENV_XDG_CACHE], "/x") == 0 &&
		       env.v[CR_ENV_DEBUGINFOD_CACHE] &&
		       strcmp(env.v[CR_ENV_DEBUGINFOD_CACHE], "/dc") == 0,
	       "env: HOME (the first, not HOMEX), XDG_CACHE_HOME, DEBUGINFOD_CACHE_PATH");
	tap_ok(env.v[CR_ENV_DEBUG_PATH] && strcmp(env.v[CR_ENV_DEBUG_PATH], "/a:/b") == 0 &&
		       env.v[CR_ENV_SYMBOLS] && strcmp(env.v[CR_ENV_SYMBOLS], "names") == 0,
	       "env: CRASH_DEBUG_PATH, CRASH_SYMBOLS");
	tap_ok(cr_opt_symbols("full", &e) == 0 && e == CR_SYMBOLS_FULL &&
		       cr_opt_symbols("names", &e) == 0 && e == CR_SYMBOLS_NAMES &&
		       cr_opt_symbols("mangled", &e) == 0 && e == CR_SYMBOLS_MANGLED,
	       "symbols: full, names, mangled");
	tap_ok(cr_opt_symbols("Full", &e) < 0 && cr_opt_symbols("", &e) < 0 &&
		       cr_opt_symbols("namesx", &e) < 0 && cr_opt_symbols(NULL, &e) < 0,
	       "symbols: anything else refused");
	tap_ok(cr_opt_format("text", &e) == 0 && e == CRASH_FORMAT_TEXT &&
		       cr_opt_format("json", &e) == 0 && e == CRASH_FORMAT_JSON &&
		       cr_opt_format("both", &e) == 0 && e == CRASH_FORMAT_BOTH,
	       "format: text, json, both");
	tap_ok(cr_opt_format("JSON", &e) < 0 && cr_opt_format("", &e) < 0 &&
		       cr_opt_format("jsonx", &e) < 0 && cr_opt_format(NULL, &e) < 0,
	       "format: anything else refused");
	{
		char *const fmt[] = { "CRASH_FORMAT=both", "CRASH_FORMAT=json", NULL };
		char *const badfmt[] = { "CRASH_FORMAT=yaml", NULL };
		struct crash_options fo;
		char pb[64];

		cr_env_read(&env, fmt);
		cr_opt_from_env(&fo, &env, pb, sizeof(pb));
		tap_ok(fo.format == CRASH_FORMAT_BOTH, "env: CRASH_FORMAT=both (the first of two)");
		cr_env_read(&env, badfmt);
		cr_opt_from_env(&fo, &env, pb, sizeof(pb));	/* one warning on stderr */
		tap_ok(fo.format == CRASH_FORMAT_TEXT, "env: CRASH_FORMAT=yaml: text");
	}
	char *const none[] = { "CRASH_OUTPUT", "CRASH_OUTPU=1", "HOME=/", NULL };
	cr_env_read(&env, none);
	tap_ok(!env.v[CR_ENV_OUTPUT] && !env.v[CR_ENV_SIGNALS] && !env.v[CR_ENV_ENGINE] && !env.v[CR_ENV_MAX_FRAMES] && !env.v[CR_ENV_DISABLE] &&
		       !env.v[CR_ENV_SELFTEST_FAULT] && !env.v[CR_ENV_CACHE],
	       "env: nothing set");
	cr_env_read(&env, NULL);
	tap_ok(!env.v[CR_ENV_OUTPUT] && !env.v[CR_ENV_DISABLE], "env: no environment");
	/* The process's own, as crash_install(NULL) reads it. */
	setenv("CRASH_ENGINE", "all", 1);
	cr_env_read(&env, environ);
	tap_ok(env.v[CR_ENV_ENGINE] && strcmp(env.v[CR_ENV_ENGINE], "all") == 0, "env: environ");
	unsetenv("CRASH_ENGINE");

	/* Options from it: good values taken, bad ones defaulted. */
	struct crash_options o;
	char buf[256];

	env = (struct cr_env){ .v = { [CR_ENV_OUTPUT] = "fd:9", [CR_ENV_SIGNALS] = "SEGV",
				      [CR_ENV_ENGINE] = "fp", [CR_ENV_MAX_FRAMES] = "12" } };
	cr_opt_from_env(&o, &env, buf, sizeof(buf));
	tap_ok(o.fd == 9 && o.signals == CRASH_SIGMASK(SIGSEGV) && o.engine == CRASH_ENGINE_FP &&
		       o.max_frames == 12 && !o.path,
	       "environment read");
	env = (struct cr_env){ .v = { [CR_ENV_OUTPUT] = "/tmp/x.report", [CR_ENV_SIGNALS] = "BOGUS",
				      [CR_ENV_ENGINE] = "bogus", [CR_ENV_MAX_FRAMES] = "0" } };
	cr_opt_from_env(&o, &env, buf, sizeof(buf));
	tap_ok(o.fd == 0 && o.path && strcmp(o.path, "/tmp/x.report") == 0, "path from env");
	tap_ok(o.signals == 0 && o.engine == CRASH_ENGINE_AUTO && o.max_frames == 0,
	       "bad values give defaults");
	env = (struct cr_env){ .v = { [CR_ENV_OUTPUT] = "", [CR_ENV_MAX_FRAMES] = "" } };
	cr_opt_from_env(&o, &env, buf, sizeof(buf));
	/* Zero means the default in every field (crash.h): fd 0, no path: stderr. */
	tap_ok(o.fd == 0 && !o.path && o.signals == 0 && o.max_frames == 0, "empty values: defaults");
	char longp[300];
	memset(longp, 'a', sizeof(longp) - 1);
	longp[0] = '/';
	longp[sizeof(longp) - 1] = 0;
	env = (struct cr_env){ .v = { [CR_ENV_OUTPUT] = longp } };
	cr_opt_from_env(&o, &env, buf, sizeof(buf));
	tap_ok(o.fd == 0 && !o.path, "path too long for the buffer: stderr (the default)");

	/* CRASH_THREADS. */
	tap_ok(cr_opt_threads("all", &e) == 0 && e == CRASH_THREADS_ALL &&
		       cr_opt_threads("crashing", &e) == 0 && e == CRASH_THREADS_CRASHING,
	       "threads: all, crashing");
	tap_ok(cr_opt_threads("All", &e) < 0 && cr_opt_threads("", &e) < 0 &&
		       cr_opt_threads("crashing ", &e) < 0 && cr_opt_threads(NULL, &e) < 0,
	       "threads: anything else refused");
	char *const thr[] = { "CRASH_THREADSX=all", "CRASH_THREADS=crashing", NULL };
	cr_env_read(&env, thr);
	tap_ok(env.v[CR_ENV_THREADS] && strcmp(env.v[CR_ENV_THREADS], "crashing") == 0,
	       "env: CRASH_THREADS (not CRASH_THREADSX)");
	cr_opt_from_env(&o, &env, buf, sizeof(buf));
	tap_ok(o.threads == CRASH_THREADS_CRASHING, "threads from env");
	env = (struct cr_env){ .v = { [CR_ENV_THREADS] = "some" } };
	cr_opt_from_env(&o, &env, buf, sizeof(buf));
	tap_ok(o.threads == CRASH_THREADS_ALL, "threads: a bad value gives all");
	return tap_done();
}
