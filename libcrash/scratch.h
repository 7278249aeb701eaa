/* SPDX-License-Identifier: MIT */
/*
 * Static scratch that one user at a time holds: a buffer too big for the
 * handler's stack (the symbol scan's, the maps reader's page, the report's
 * frames, the symbol arena) or a shared resource (the safe reader's pipe).
 * Whoever finds it held takes its own fallback, a smaller buffer on its stack
 * or a slower way, and never waits: the holder may be the code that a signal
 * handler interrupted, on the same thread.  AS-safe, lock-free.
 */
#ifndef CR_SCRATCH_H
#define CR_SCRATCH_H

#include "common.h"

struct cr_scratch {
	void *p;		/* the static storage */
	size_t size;
	int busy;		/* 1 while held (or before it is ready: then it starts 1) */
};

/* A free cr_scratch over a static object. */
#define CR_SCRATCH(store) { (store), sizeof(store), 0 }

/*
 * s's storage if it was free (held until cr_scratch_put), else mine, the
 * caller's fallback (NULL: none).  *size: the size of what it returns.
 */
static inline void *cr_scratch_get(struct cr_scratch *s, void *mine, size_t mine_size,
				   size_t *size)
{
	if (__atomic_exchange_n(&s->busy, 1, __ATOMIC_ACQUIRE) == 0) {
		*size = s->size;
		return s->p;
	}
	*size = mine_size;
	return mine;
}

/* Done with p, what cr_scratch_get returned: s is free again if p was its storage. */
static inline void cr_scratch_put(struct cr_scratch *s, const void *p)
{
	if (p && p == s->p)
		__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
}

#endif
