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
	/*
	 * [addr, addr + len) readable in place (len > 0, no wrap: cr_mem_view
	 * checks): a pointer to it, or NULL (the caller copies with read).
	 * NULL: this memory has no views (every byte goes through read: the
	 * live process's kernel-checked reader, a test's fault injection).
	 */
	const void *(*view)(const struct cr_mem *m, uint64_t addr, size_t len);
	const uint8_t *buf;	/* buffer-backed memory (tests, snapshots): [lo, hi) */
	uint64_t lo, hi;
	void *priv;		/* state of the reader (cr_mem_fast; a test's wrapper) */
	uint8_t free_views;	/* every view costs nothing (buffers): cr_mem_view_free */
	/*
	 * The longest view worth asking for (a reader's window: cursor.c), or
	 * 0: as long as the reader likes.  Set where every byte of a view
	 * costs work: a compressed section is inflated up to the end of each
	 * view asked of it (debuginfo.c).
	 */
	uint32_t view_max;
	/*
	 * Views are of a file's mapping: a long read of them is worth asking
	 * the kernel to map ahead (cr_mem_populate), one call instead of a
	 * page fault every 16 pages, each of which costs a hypervisor's trap
	 * on some hosts (docs/performance.md, stop 41).
	 */
	uint8_t populate;
};

/*
 * The live process.  AS-safe (the first read runs cr_mem_init()): process_vm_readv() on
 * ourselves, or, where that is not available (qemu-user, seccomp), a write(2)
 * into a pipe that the kernel validates, read back into dst.
 */
extern const struct cr_mem cr_mem_self;

/*
 * Probe which method works, create the shared pipe of the fallback; done at
 * the first read of the live process (not at install).  0 or -errno (no pipe:
 * each read makes its own).  AS-safe, lock-free; concurrent calls are safe.
 */
int cr_mem_init(void);

/*
 * How a cr_mem_fast proves a page (mem.c, "Proofs by the signal mask"):
 * 1 rt_sigprocmask with an invalid `how`, a call a page; 2 cr_mem_self's
 * method, process_vm_readv (many pages to a call) or the pipe.  Decided at
 * the first proof; force (1 or 2; 0: ask) sets it (tests).  AS-safe.
 */
int cr_mem_proof_method(int force);

/*
 * The decision's part that any seccomp filter lets through (two
 * rt_sigprocmask calls), for libcrash.so's constructor; the first proof
 * makes the rest (one process_vm_readv).  AS-safe.
 */
void cr_mem_proof_at_load(void);

/*
 * LD_PRELOAD as the environment has it (NULL: unset), seen by the
 * constructor: valgrind's preload there means no proofs by the signal mask.
 */
void cr_mem_env(const char *ld_preload);

/*
 * The live process, reading pages proven readable directly.  The first read of
 * a 4 KiB chunk goes through the kernel, which also tries the next chunks
 * above it in the same system call (one byte each: stacks are read upwards);
 * reads inside a proven run of chunks are plain loads.  Page protections have
 * at least 4 KiB granularity, so one readable byte proves its chunk.  Before
 * the kernel is asked, a loaded module's readable segments are looked up
 * (modmem.h: no system call once the module's headers are read).
 * What it does not guard against: another thread unmapping a proven chunk
 * meanwhile.  crash_backtrace uses it; so does the crash handler, whose own
 * fault handling turns such a fault into the original signal's default action.
 * Run 0 is the most recent, checked inline.
 */
#define CR_FAST_RUNS 8
struct cr_mem_fast {
	struct cr_mem m;
	/* Run k: [lo[k], lo[k] + span[k] + 7) is proven; an 8-byte read at a
	   is inside it if a - lo[k] < span[k] (span 0: an empty run). */
	uint64_t lo[CR_FAST_RUNS], span[CR_FAST_RUNS];
	/* Run 0 seen from a frame: [cfa - CR_FAST_WINDOW, cfa + 7) is inside it
	   if cfa - wlo < wspan (wspan 0: never), so an 8-byte read at any of the
	   CR_FAST_WINDOW bytes below the CFA. */
	uint64_t wlo, wspan;
	long pid;			/* 0: not yet taken */
	/* The stack above the capture's sp, in pages (cr_mem_fast_sp): from
	   stk_lo, sp's page, up to stk_next, the next page above those proven
	   so far.  A proof by the signal mask (mem.c) is taken for a page in
	   [stk_lo, stk_next] or of a loaded module; any other page (a wild
	   pointer's) is proven by process_vm_readv or the pipe, which refuse
	   device memory.  0: no stack known. */
	uint64_t stk_lo, stk_next;
	/* A process's first capture (cfi/trace.c's cold loop): no module is
	   learned (cr_modmem_find with no reader), only marked, and a proof
	   covers what the read needs, no pages ahead (mem.c). */
	uint8_t cold;
};
#define CR_FAST_WINDOW 256
void cr_mem_fast_init(struct cr_mem_fast *f);

/* The stack pointer the reads through f start from (stk_lo, above). */
void cr_mem_fast_sp(struct cr_mem_fast *f, uint64_t sp);

/*
 * Proofs that outlive a capture (docs/design.md, "Remembered proofs"): f
 * (just initialised) starts with the stacks known to stay readable for as
 * long as anyone can ask: the main thread's [stack] (the kernel's mapping,
 * which only grows; asked of PROCMAP_QUERY once per process, with a name
 * check), as run 0; or, when sp is on it, the calling thread's own stack
 * (cr_mem_own_mark) from sp's page to its top, as run 0 and the main
 * stack as run 1.  A capture on them then makes no system call.  AS-safe.
 */
void cr_mem_fast_stacks(struct cr_mem_fast *f, uint64_t sp);

/*
 * The calling thread runs on a stack block glibc made with a guard page
 * (libcrash.so's pthread_create wrapper says so, at the thread's start):
 * from its second capture on, cr_mem_fast_stacks may remember it, in the
 * thread's own storage (docs/design.md, "Remembered proofs").  A thread
 * never marked (the main one, a user stack, no guard, made without the
 * wrapper) proves its pages per capture.  AS-safe, no allocation.
 */
void cr_mem_own_mark(void);

/* Forget the main thread's stack, and the calling thread's (tests). */
void cr_mem_stacks_reset(void);

/* An 8-byte read through f outside run 0 (cr_mem_fast_read64 inlines the rest). */
int cr_mem_fast_slow64(struct cr_mem_fast *f, uint64_t addr, uint64_t *v);

/* cr_read64(&f->m, addr, v), with the proven-run check inline. */
static inline int cr_mem_fast_read64(struct cr_mem_fast *f, uint64_t addr, uint64_t *v)
{
	if (addr - f->lo[0] < f->span[0]) {
		__builtin_memcpy(v, (const void *)(uintptr_t)addr, 8);
		return 0;
	}
	return cr_mem_fast_slow64(f, addr, v);
}

/* Buffer-backed memory for tests: bytes appear at [addr, addr + len). */
void cr_mem_buffer(struct cr_mem *m, uint64_t addr, const void *bytes, size_t len);

/*
 * About to read [p, p + len) of a view of m from start to end (a DWARF
 * unit's DIEs, a line program): if m's views are of a file's mapping, its
 * pages (at most CR_POPULATE_MAX bytes from p) are mapped now by
 * madvise(MADV_POPULATE_READ), which fails without a signal where the file
 * has no page (truncated) and is refused by kernels before 5.14: either
 * way the read goes on as before, by page faults.  AS-safe.
 */
#define CR_POPULATE_MIN (64u << 10)	/* shorter: the faults cost as much */
#define CR_POPULATE_MAX (4u << 20)
void cr_mem_populate(const struct cr_mem *m, const void *p, uint64_t len);

/*
 * Fresh anonymous memory [p, p + len) (p page-aligned: a mapping's start,
 * or 64 KiB into it) about to be written whole by a read (pread's copy into
 * a window): its pages mapped now by one madvise(MADV_POPULATE_WRITE),
 * not by a page fault each in the copy.  On a host whose page faults are
 * dear that is a quarter of their cost (a scratch program: 16 fresh pages
 * 190 us by the copy's faults, 100 us populated first: docs/performance.md,
 * stop 43).  Refused before Linux 5.14 and ignored by qemu-user: the read's
 * faults then map them, as before.  AS-safe.
 */
void cr_mem_populate_write(void *p, size_t len);

/*
 * [addr, addr + len) readable in place: a pointer to it (m->view: buffer-backed
 * memory, or pages a cr_mem_fast has proven: at most CR_VIEW_PAGES pages, the
 * missing ones proven 32 to a system call), else NULL and the caller copies
 * with cr_read.  For decoders that would otherwise copy kilobytes of code
 * onto the signal stack.  AS-safe.
 */
#define CR_VIEW_PAGES 64
static inline const void *cr_mem_view(const struct cr_mem *m, uint64_t addr, size_t len)
{
	if (!m->view || len == 0 || addr + len < addr)
		return NULL;
	return m->view(m, addr, len);
}

/*
 * cr_mem_view, but only where it costs no system call: pages a cr_mem_fast
 * has proven or a loaded module's readable segments (modmem.h), or memory
 * whose views are all free (free_views: buffers); else NULL (any other
 * memory, or pages not proven).  For a view of a whole segment that would
 * otherwise be proven a page at a time as it is reached.  AS-safe.
 */
const void *cr_mem_view_free(const struct cr_mem *m, uint64_t addr, size_t len);

static inline int cr_read(const struct cr_mem *m, uint64_t a, void *dst, size_t len)
{
	return m->read(m, a, dst, len);
}

static inline int cr_read64(const struct cr_mem *m, uint64_t a, uint64_t *v)
{
	return m->read(m, a, v, sizeof(*v));
}

#endif
