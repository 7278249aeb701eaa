/* SPDX-License-Identifier: MIT */
/*
 * The abort message (issue 18): what glibc recorded for abort() (an assert()
 * failure, malloc's corruption checks, fortify, the stack protector), and the
 * C++ exception libstdc++ was handling when the thread aborted (std::terminate
 * after an uncaught exception, or abort() in a catch block).  Addresses are
 * resolved once at install (cr_abort_resolve); at the crash every byte is
 * read through struct cr_mem, every field bounded, nothing called.
 * docs/design.md, "The abort message", says why each read is safe.
 */
#ifndef CR_ABORTMSG_H
#define CR_ABORTMSG_H

#include "demangle.h"
#include "elfmem.h"
#include "mem.h"

#define CR_ABORT_TEXT 1024	/* bytes of a message or what() text read, at most */
#define CR_ABORT_TYPE 512	/* bytes of a demangled exception type, at most */

/* What install found; all 0: nothing to read at the crash. */
struct cr_abortsyms {
	uint64_t abort_msg;	/* &__abort_msg (glibc's struct abort_msg_s *), 0: none,
				   or a glibc whose layout was not verified */
	int have_eh;		/* libstdc++'s eh_globals lies at thread pointer + eh_off */
	int64_t eh_off;
	uint64_t vt_class, vt_si, vt_vmi;	/* the type_info classes' vtables, address points */
	uint64_t what_runtime, what_logic;	/* std::runtime_error::what, std::logic_error::what */
};
extern struct cr_abortsyms cr_abortsyms;

/*
 * Install time (not AS-safe: calls libstdc++'s __cxa_get_globals once, if
 * it is loaded): fills cr_abortsyms from the loaded modules' .dynsym (GNU or
 * SysV hash) and the running glibc's version.
 */
void cr_abort_resolve(void);

/* Is glibc version string v one whose struct abort_msg_s layout was verified? */
int cr_abort_glibc_verified(const char *v);

/*
 * The symbol name in d by its hash table (DT_GNU_HASH, else DT_HASH): its
 * address into *addr.  canon: also take an undefined function with a value
 * (a non-PIE executable's canonical PLT entry, which every reference then
 * uses).  0 or -CR_ENOINFO / -CR_EFAULT.  Bounded; reads through m.
 */
int cr_dynsym_find(const struct cr_mem *m, const struct cr_dyntab *d, const char *name, int canon,
		   uint64_t *addr);

/* cr_dynsym_open + cr_dynsym_find. */
int cr_dynsym_lookup(const struct cr_mem *m, uint64_t bias, uint64_t lo, uint64_t hi,
		     uint64_t dyn, const char *name, int canon, uint64_t *addr);

/* What the crashing thread's abort left; text fields NUL-terminated, raw bytes. */
enum { CR_ABORT_NONE, CR_ABORT_GLIBC, CR_ABORT_CXX };
struct cr_abortinfo {
	int kind;			/* CR_ABORT_* */
	int cut;			/* text or what was longer than CR_ABORT_TEXT bytes */
	char text[CR_ABORT_TEXT + 1];	/* GLIBC: the message, its final newlines removed */
	char type[CR_ABORT_TYPE];	/* CXX: the exception's type, demangled */
	char what[CR_ABORT_TEXT + 1];	/* CXX: its what() text, "" when not known */
	int have_what;
};

/*
 * glibc's message: *msgvar is __abort_msg's value (the struct's address, read
 * by the caller or by cr_abort_read).  Into info (kind CR_ABORT_GLIBC).  0, or
 * -CR_ENOINFO (none, or a layout that does not hold: size, alignment,
 * unreadable text).  AS-safe.
 */
int cr_abort_glibc(const struct cr_mem *m, uint64_t msg, struct cr_abortinfo *info);

/*
 * libstdc++'s current exception from the thread's __cxa_eh_globals at
 * globals: type (demangled with ws) and, when it derives publicly and
 * without a virtual base from std::runtime_error or std::logic_error and its
 * what() is theirs, the message.  0 or -CR_ENOINFO.  AS-safe.
 */
int cr_abort_cxx(const struct cr_mem *m, const struct cr_abortsyms *s, uint64_t globals,
		 struct cr_demangle_ws *ws, struct cr_abortinfo *info);

/*
 * Both, for the calling thread (the crashed one): glibc's message first,
 * else the exception.  0 or -CR_ENOINFO.  AS-safe; uses a static workspace
 * (one caller at a time: -CR_ENOINFO for a second).
 */
int cr_abort_read(const struct cr_mem *m, struct cr_abortinfo *info);

/*
 * The report line's text for info (docs/report-format.md, "abort message"),
 * escaped: printable ASCII as is but '\\', \n \t \r as such, other bytes \xHH.
 * Into buf (NUL-terminated, cut to cap - 1 at an escape's boundary).  Its
 * length.  AS-safe.
 */
size_t cr_abort_format(const struct cr_abortinfo *info, char *buf, size_t cap);

/*
 * cr_abort_read + cr_abort_format: the line's text into buf, its length, 0:
 * no abort message.  AS-safe (a static cr_abortinfo: one caller at a time).
 */
size_t cr_abort_message(const struct cr_mem *m, char *buf, size_t cap);

#endif
