/* SPDX-License-Identifier: MIT */
/* Return codes shared by every internal module. */
#ifndef CR_COMMON_H
#define CR_COMMON_H

#include <stddef.h>
#include <stdint.h>

/*
 * 0: success.  CR_END (positive): a clean end (outermost frame, end of table).
 * Negative: -CR_E*, a failure that says why.
 */
#define CR_END 1

enum {
	CR_EFAULT = 1,	/* memory unreadable */
	CR_ENOINFO,	/* no unwind information for this pc */
	CR_EINVAL,	/* malformed data (bad length, unknown opcode, bad encoding) */
	CR_ERANGE,	/* a bound was hit: stack depth, step count, table size */
	CR_ENOSYS,	/* not supported on this arch/build */
	CR_ENOSTART,	/* no function start known for pc (scan) */
};

#define CR_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Small state that crash_install() writes, zero or not: in .data, not .bss.
 * .data is small and shares its last page with the start of .bss, which the
 * loader clears when it maps the library, so that page is written (private)
 * before any constructor runs; a fresh .bss page would cost a page fault
 * (~2 us on a virtual machine) the first time install writes it.
 */
#define CR_INSTALL_DATA __attribute__((section(".data")))

/*
 * The code of a capture (crash_backtrace()'s stubs, the trace loop, the FDE
 * lookup and decoding, the CFA interpreter, the row cache), together in
 * .text.hot: GNU ld's default scripts put .text.hot.* ahead of the rest of
 * .text, right after the start-up code that the library's constructor runs,
 * so a process's first capture finds its code in pages the kernel has
 * already mapped around that (fault-around maps 64 KiB a file fault), not
 * in two or three more windows spread over the library (~3-5 us each on the
 * test machine: docs/performance.md, issue 20).  Other linkers keep the
 * input order: no harm.  A plain section name, the same for gcc and clang.
 */
#define CR_HOT __attribute__((section(".text.hot.libcrash")))

#endif
