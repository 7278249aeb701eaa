/* SPDX-License-Identifier: MIT */
/* Alternate signal stacks for the threads (altstack.c). */
#ifndef CR_ALTSTACK_H
#define CR_ALTSTACK_H

#include <stddef.h>

/*
 * An alternate stack: CR_ALT_SIZE bytes above a CR_ALT_GUARD-byte guard, so
 * that an overflow of it faults cleanly.  The guard is 64 KiB, the largest
 * page size of the supported ABIs (aarch64 with 64 KiB pages), so it is at
 * least a page whatever the page size, with no sysconf() call; it reserves
 * address space, not memory.
 */
#define CR_ALT_SIZE (64 * 1024)
#define CR_ALT_GUARD (64 * 1024)

/* Map one (guard and stack).  The mapping's start, or NULL.  AS-safe. */
void *cr_altstack_map(void);

/*
 * Make [map + CR_ALT_GUARD, + size) the calling thread's alternate stack,
 * unless it has one (the application's, which is kept).  1: set, 0: the
 * thread had one, < 0: -errno.  AS-safe.
 */
int cr_altstack_use(void *map, size_t size);

/*
 * The thread is ending: stop using map and unmap it, unless this code runs
 * on it (a handler on the alternate stack that ends its thread), which then
 * keeps it.  AS-safe.
 */
void cr_altstack_release(void *map);

#endif
