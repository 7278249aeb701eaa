/* SPDX-License-Identifier: MIT */
/* Alternate signal stacks for the threads (altstack.h).  System calls only. */
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>

#include "altstack.h"
#include "sys.h"

void *cr_altstack_map(void)
{
	long r = cr_sys_mmap(NULL, CR_ALT_GUARD + CR_ALT_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (cr_sys_failed(r))
		return NULL;
	if (cr_sys_mprotect((void *)r, CR_ALT_GUARD, PROT_NONE) < 0) {
		cr_sys_munmap((void *)r, CR_ALT_GUARD + CR_ALT_SIZE);
		return NULL;
	}
	return (void *)r;
}

int cr_altstack_use(void *map, size_t size)
{
	stack_t cur, ss;
	int ret;

	if (cr_sys_sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE))
		return 0;	/* the thread has one (the application's or ours) */
	ss.ss_sp = (char *)map + CR_ALT_GUARD;
	ss.ss_size = size;
	ss.ss_flags = 0;
	if ((ret = cr_sys_sigaltstack(&ss, NULL)) < 0)
		return ret;
	return 1;
}

void cr_altstack_release(void *map)
{
	uintptr_t lo = (uintptr_t)map, hi = lo + CR_ALT_GUARD + CR_ALT_SIZE;
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	stack_t cur, off = { .ss_flags = SS_DISABLE };

	/* Running on it (a handler that ends its thread): it stays mapped. */
	if (here >= lo && here < hi)
		return;
	if (cr_sys_sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE) &&
	    (uintptr_t)cur.ss_sp >= lo && (uintptr_t)cur.ss_sp < hi)
		cr_sys_sigaltstack(&off, NULL);
	cr_sys_munmap(map, CR_ALT_GUARD + CR_ALT_SIZE);
}
