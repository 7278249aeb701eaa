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

#endif
