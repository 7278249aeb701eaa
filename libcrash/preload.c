/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD=libcrash.so: install with the environment's options at load time. */
#include <stdlib.h>

#include "crash.h"
#include "str.h"

__attribute__((constructor)) static void crash_preload(void)
{
	const char *v = getenv("CRASH_DISABLE");

	if (v && cr_strcmp(v, "1") == 0)
		return;
	crash_install(NULL);
}
