/* SPDX-License-Identifier: MIT */
/*
 * Memory of the process being unwound.  Every read may fail; none may fault.
 * Only mem.c dereferences pointers of the crashed process.
 */
#ifndef CR_MEM_H
#define CR_MEM_H

#include "common.h"

struct cr_mem {
	/* Copy len bytes at addr to dst.  0, or -CR_EFAULT (dst unspecified). */
	int (*read)(const struct cr_mem *m, uint64_t addr, void *dst, size_t len);
	const uint8_t *buf;	/* buffer-backed memory (tests, snapshots): [lo, hi) */
	uint64_t lo, hi;
	/* test hook: fail the Nth read from now (1 = the next); 0: never. */
	unsigned long *fail_at;
	void *priv;		/* state of the reader (cr_mem_fast) */
};

/*
 * The live process.  AS-safe after cr_mem_init(): process_vm_readv() on
 * ourselves, or, where that is not available (qemu-user, seccomp), a write(2)
 * into a pipe that the kernel validates, read back into dst.
 */
extern const struct cr_mem cr_mem_self;

/*
 * The live process, kernel-checked like cr_mem_self, with the pid taken once
 * (cr_mem_self asks for it at every read, which is always right, even in a
 * child after fork, but costs a system call).  For one report or walk.
 */
struct cr_mem_safe {
	struct cr_mem m;
	long pid;
};
void cr_mem_safe_init(struct cr_mem_safe *s);

/* Install time: probe which method works, create the probe pipe.  0 or -errno. */
int cr_mem_init(void);

/*
 * The live process for one walk outside the crash handler (crash_backtrace):
 * the first read of each 4 KiB chunk goes through the kernel (cr_mem_self);
 * later reads of a chunk proven readable are plain loads.  Page protections
 * have at least 4 KiB granularity, so one readable byte proves its chunk.
 * What it does not guard against: another thread unmapping a proven chunk
 * during the walk (the crash handler therefore uses cr_mem_self only).
 */
#define CR_FAST_PAGES 16
struct cr_mem_fast {
	struct cr_mem m;
	uint64_t last;			/* the chunk of the last read, 0: none */
	uint64_t page[CR_FAST_PAGES];	/* proven chunks (address >> 12), 0: none */
	unsigned next;
};
void cr_mem_fast_init(struct cr_mem_fast *f);

/* Buffer-backed memory for tests: bytes appear at [addr, addr + len). */
void cr_mem_buffer(struct cr_mem *m, uint64_t addr, const void *bytes, size_t len);

static inline int cr_read(const struct cr_mem *m, uint64_t a, void *dst, size_t len)
{
	return m->read(m, a, dst, len);
}

static inline int cr_read64(const struct cr_mem *m, uint64_t a, uint64_t *v)
{
	return m->read(m, a, v, sizeof(*v));
}

#endif
