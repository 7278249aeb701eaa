/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD=libcrash.so: install with the environment's options at load time. */
#include <unistd.h>

#include "crash-int.h"
#include "options.h"
#include "str.h"

__attribute__((constructor)) static void crash_preload(void)
{
	struct cr_env e;

	cr_env_read(&e, environ);
	if (e.v[CR_ENV_DISABLE] && cr_strcmp(e.v[CR_ENV_DISABLE], "1") == 0)
		return;
	cr_install_env(&e);
}
