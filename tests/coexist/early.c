/* SPDX-License-Identifier: MIT */
/*
 * libcoexist-early.so: a library of the program (DT_NEEDED) whose constructor
 * installs the application's SIGSEGV handler before libcrash's constructor
 * runs, as a runtime's library would.  ld.so initializes a preloaded library
 * after the libraries that were loaded after it and that it does not depend
 * on, so with LD_PRELOAD=libcrash.so this constructor runs first.  It records
 * what the kernel had at that moment, so that the test can see that the order
 * really was "application first" (coexist_early_state()).
 *
 * Only with COEXIST_EARLY=1 in the environment: every other mode of the
 * program links this library too and must not be disturbed by it.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "coexist.h"

/* In the program (tests/coexist/coexist.c), exported with --export-dynamic. */
void coexist_early_install(void);
int coexist_early_state(void);

/* 0: not asked; 1: the kernel had SIG_DFL (we are first); 2: it had a handler. */
static int state;

__attribute__((constructor)) static void early_ctor(void)
{
	const char *e = getenv("COEXIST_EARLY");

	if (!e || strcmp(e, "1") != 0)
		return;
	state = coexist_kernel_handler(SIGSEGV) == NULL ? 1 : 2;
	coexist_early_install();
}

__attribute__((visibility("default"))) int coexist_early_state(void)
{
	return state;
}
