/* SPDX-License-Identifier: MIT */
/*
 * Our own symbolizer: .dynsym read from memory through PT_DYNAMIC, then
 * .symtab read from the module's file with open/pread (static functions).
 * AS-safe (open, pread, close only), bounded, no loader lock.  dladdr is not
 * used in the signal path: it takes the loader's lock and sees only .dynsym,
 * which this reader covers.
 */
#ifndef CR_SYM_H
#define CR_SYM_H

#include "module.h"

struct cr_sym {
	uint64_t start, size;	/* absolute address of the symbol */
	char name[128];		/* truncated if longer (mangled C++ names are not demangled) */
};

/*
 * The function symbol that contains pc (a sized symbol with start <= pc < end,
 * or the nearest unsized one with no sized symbol nearer).  0 or -CR_ENOINFO.
 */
int cr_sym_find(const struct cr_mem *m, const struct cr_module *mod, uint64_t pc,
		struct cr_sym *out);

/* The parts, for tests. */
int cr_sym_dynsym(const struct cr_mem *m, const struct cr_module *mod, uint64_t pc,
		  struct cr_sym *out);
int cr_sym_symtab(const struct cr_module *mod, uint64_t pc, struct cr_sym *out);

#endif
