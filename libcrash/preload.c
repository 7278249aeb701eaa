/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD=libcrash.so: install with the environment's options at load time. */
#include <unistd.h>

#include "crash-int.h"
#include "mem.h"
#include "options.h"
#include "str.h"

__attribute__((constructor)) static void crash_preload(void)
{
	struct cr_env e;

	cr_env_read(&e, environ);
	cr_mem_env(e.v[CR_ENV_LD_PRELOAD]);	/* valgrind's? (mem.h) */
	/* How memory is proven: two of the decision's three system calls made
	   here rather than in a process's first capture (mem.c, issue 20); the
	   third, process_vm_readv, is left to the first proof, since a seccomp
	   filter may kill on it. */
	cr_mem_proof_at_load();
	if (e.v[CR_ENV_DISABLE] && *e.v[CR_ENV_DISABLE]) {
		int off = cr_opt_bool(e.v[CR_ENV_DISABLE]);

		if (off == 1)
			return;
		/* Loud and safe: a typo must not silently turn the reports off, nor
		   leave the user thinking they are. */
		if (off < 0)
			cr_opt_warn("CRASH_DISABLE", e.v[CR_ENV_DISABLE],
				    "expected 1 (off) or 0 (on); libcrash stays on");
	}
	cr_install_env(&e);
}
