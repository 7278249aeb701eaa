/* SPDX-License-Identifier: MIT */
/* Minimal ELF64 reading through cr_mem (memory) or pread (files). AS-safe. */
#ifndef CR_ELFMEM_H
#define CR_ELFMEM_H

#include <elf.h>

#include "mem.h"

/* Program headers of the ELF image whose header is at base in memory. 0 or -CR_E*. */
int cr_elf_mem_phdrs(const struct cr_mem *m, uint64_t base, uint64_t *phdr, unsigned *phnum);

/* The GNU build-id in the PT_NOTE segment [addr, addr+len).  Its length, or 0. */
unsigned cr_elf_note_build_id(const struct cr_mem *m, uint64_t addr, uint64_t len, uint8_t *id,
			      unsigned cap);
/* The same, and *at: where the build-id's bytes are (set only if found). */
unsigned cr_elf_note_build_id_at(const struct cr_mem *m, uint64_t addr, uint64_t len, uint8_t *id,
				 unsigned cap, uint64_t *at);

/*
 * A module's dynamic symbol table, from its .dynamic at dyn (load bias bias,
 * span [lo, hi): a pointer in it is taken as relocated): 0, or -CR_EFAULT,
 * -CR_ENOINFO (no .dynsym or no hash table).  Bounded; reads through m.
 */
struct cr_dyntab {
	uint64_t bias, symtab, strtab, strsz, hash, gnuhash;
	uint32_t ghdr[4];	/* DT_GNU_HASH's header */
};
int cr_dynsym_open(const struct cr_mem *m, uint64_t bias, uint64_t lo, uint64_t hi, uint64_t dyn,
		   struct cr_dyntab *d);

#endif
