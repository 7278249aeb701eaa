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
/* "SEGV,ABRT" (with or without SIG, any case) or numbers -> mask.  0 or -1. */
int cr_opt_signals(const char *s, unsigned long long *mask);
/* "auto" "fp" "cfi" "scan" "all" -> enum crash_engine.  0 or -1. */
int cr_opt_engine(const char *s, int *engine);
/* decimal 1..CR_MAX_FRAMES.  0 or -1. */
int cr_opt_frames(const char *s, int *n);

/*
 * Fill opts from the environment (getenv: install time only).  Each bad value
 * gets one warning line on fd 2 and the default.  *path_buf receives a copy of
 * CRASH_OUTPUT when it is a path.
 */
void cr_opt_from_env(struct crash_options *opts, char *path_buf, unsigned cap);

#endif
