/* SPDX-License-Identifier: MIT */
/* CRASH_* environment parsing (install time only; pure parsers, unit-tested). */
#ifndef CR_OPTIONS_H
#define CR_OPTIONS_H

#include "crash.h"

#define CR_DEFAULT_SIGNALS                                                                    \
	(CRASH_SIGMASK(11) | CRASH_SIGMASK(6) | CRASH_SIGMASK(7) | CRASH_SIGMASK(8) |          \
	 CRASH_SIGMASK(4) | CRASH_SIGMASK(5) | CRASH_SIGMASK(31))
#define CR_DEFAULT_FRAMES 256
#define CR_MAX_FRAMES 1024

/* "stderr" -> *fd = 2; "fd:N" -> *fd = N; anything else non-empty: *path = s.  0 or -1. */
int cr_opt_output(const char *s, int *fd, const char **path);
/*
 * "SEGV,ABRT" (with or without SIG, any case) or numbers -> mask.  0 or -1;
 * -1 also for a signal whose default action does not end the process
 * (CHLD, CONT, STOP, TSTP, TTIN, TTOU, URG, WINCH) or cannot be caught
 * (KILL): a report for it would be followed by the process going on.
 */
int cr_opt_signals(const char *s, unsigned long long *mask);
/* "auto" "fp" "cfi" "scan" "all" -> enum crash_engine.  0 or -1. */
int cr_opt_engine(const char *s, int *engine);
/* decimal 1..CR_MAX_FRAMES.  0 or -1. */
int cr_opt_frames(const char *s, int *n);
/* "text" "json" "both" -> enum crash_format.  0 or -1. */
int cr_opt_format(const char *s, int *format);
/* decimal seconds 1..3600.  0 or -1. */
int cr_opt_timeout(const char *s, int *secs);
/* What the frame lines carry (CRASH_SYMBOLS). */
enum cr_symbols {
	CR_SYMBOLS_FULL,	/* demangled names, file:line, inlined frames (the default) */
	CR_SYMBOLS_NAMES,	/* demangled names only: no debug file is opened */
	CR_SYMBOLS_MANGLED,	/* names as the symbol tables have them */
};
/* "full" "names" "mangled" -> enum cr_symbols.  0 or -1. */
int cr_opt_symbols(const char *s, int *mode);
/* "all" "crashing" -> enum crash_threads.  0 or -1. */
int cr_opt_threads(const char *s, int *threads);
/* "1": 1, "0": 0, anything else -1 (CRASH_DISABLE). */
int cr_opt_bool(const char *s);

/*
 * The CRASH_* variables of an environment, and the three of the debuginfod
 * client's cache (DEBUGINFOD_CACHE_PATH, XDG_CACHE_HOME, HOME), NULL where unset.  Found in one
 * pass (cr_env_read) instead of a getenv() per name: getenv scans the whole
 * environment each time, and its code is a page of libc's text that a
 * process which never calls it would not fault in (docs/performance.md).
 */
enum {
	CR_ENV_OUTPUT, CR_ENV_SIGNALS, CR_ENV_ENGINE, CR_ENV_MAX_FRAMES,	/* crash_options */
	CR_ENV_DISABLE,		/* CRASH_DISABLE=1: the constructor installs nothing */
	CR_ENV_SELFTEST_FAULT,	/* CRASH_SELFTEST_FAULT=1 (tests) */
	CR_ENV_CACHE,		/* CRASH_CACHE=0: no CFI row cache (benchmarks) */
	CR_ENV_TIMEOUT,		/* seconds a report may take (crash_options.timeout) */
	CR_ENV_JOURNAL_SOCKET,	/* journald's socket, for CRASH_OUTPUT=journal */
	CR_ENV_SYMBOLS,		/* full, names, mangled (enum cr_symbols) */
	CR_ENV_DEBUG_PATH,	/* roots of separate debug files (debuginfo.h) */
	CR_ENV_THREADS,		/* all, crashing (crash_options.threads) */
	CR_ENV_FORMAT,		/* text, json, both (crash_options.format) */
	CR_ENV_CRASH_N,		/* the names above are CRASH_<name>; these are not: */
	CR_ENV_DEBUGINFOD_CACHE = CR_ENV_CRASH_N,	/* DEBUGINFOD_CACHE_PATH */
	CR_ENV_XDG_CACHE,	/* XDG_CACHE_HOME */
	CR_ENV_HOME,		/* HOME */
	CR_ENV_LD_PRELOAD,	/* LD_PRELOAD: valgrind's preload (mem.h, cr_mem_env) */
	CR_ENV_N
};
struct cr_env {
	const char *v[CR_ENV_N];	/* the value of CRASH_<name>, NULL if unset */
};

/*
 * Fill e from envp ("NAME=value" strings, NULL-terminated; NULL: none).  The
 * first of duplicate names wins, as with getenv.  Bounded by the environment.
 */
void cr_env_read(struct cr_env *e, char *const *envp);

/* One line on stderr: "libcrash: VAR=VAL: WHY" (install time). */
void cr_opt_warn(const char *var, const char *val, const char *why);

/*
 * Fill opts from e (install time only).  Each bad value gets one warning line
 * on fd 2 and the default.  *path_buf receives a copy of CRASH_OUTPUT when it
 * is a path.
 */
void cr_opt_from_env(struct crash_options *opts, const struct cr_env *e, char *path_buf,
		     unsigned cap);

#endif
