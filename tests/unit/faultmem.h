/* SPDX-License-Identifier: MIT */
/*
 * Fault injection for unit tests (libbacktrace's allocfail idea): a cr_mem
 * over another one whose Nth read fails.  It has no views, so every byte a
 * decoder takes goes through a read that can fail.
 */
#ifndef CR_TEST_FAULTMEM_H
#define CR_TEST_FAULTMEM_H

#include <string.h>

#include "mem.h"

struct faultmem {
	struct cr_mem m;		/* what the code under test reads */
	const struct cr_mem *under;	/* where the bytes are */
	unsigned long *fail_at;		/* the read that fails, counted down: 1 the
					   next, 0 never (then it is left at 0) */
};

static int faultmem_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	struct faultmem *f = m->priv;

	if (f->fail_at && *f->fail_at && --*f->fail_at == 0)
		return -CR_EFAULT;
	return cr_read(f->under, addr, dst, len);
}

/* f over under, failing the *fail_at-th read.  Returns &f->m (a copy of it reads through f). */
static inline const struct cr_mem *faultmem_init(struct faultmem *f, const struct cr_mem *under,
						 unsigned long *fail_at)
{
	memset(f, 0, sizeof(*f));
	f->m.read = faultmem_read;
	f->m.priv = f;
	f->under = under;
	f->fail_at = fail_at;
	return &f->m;
}

#endif
