/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD=libcrash.so: install with the environment's options at load time. */
#include <stdlib.h>
#include <string.h>

#include "crash.h"

__attribute__((constructor)) static void crash_preload(void)
{
	const char *v = getenv("CRASH_DISABLE");

	if (v && strcmp(v, "1") == 0)
		return;
	crash_install(NULL);
}
