/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "elfmem.h"
#include "str.h"

int cr_elf_mem_phdrs(const struct cr_mem *m, uint64_t base, uint64_t *phdr, unsigned *phnum)
{
	Elf64_Ehdr eh;

	if (cr_read(m, base, &eh, sizeof(eh)) < 0)
		return -CR_EFAULT;
	if (!cr_memeq(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum == 0xffff)
		return -CR_EINVAL;
	*phdr = base + eh.e_phoff;
	*phnum = eh.e_phnum;
	return 0;
}

/* ELF gABI "Note Section": namesz, descsz, type, name and desc padded to 4 bytes. */
unsigned cr_elf_note_build_id(const struct cr_mem *m, uint64_t addr, uint64_t len, uint8_t *id,
			      unsigned cap)
{
	uint64_t at;

	return cr_elf_note_build_id_at(m, addr, len, id, cap, &at);
}

unsigned cr_elf_note_build_id_at(const struct cr_mem *m, uint64_t addr, uint64_t len, uint8_t *id,
				 unsigned cap, uint64_t *at)
{
	uint64_t end = addr + len;

	for (int i = 0; i < 64 && addr + 12 <= end; i++) {
		uint32_t nh[3];
		char name[4];

		if (cr_read(m, addr, nh, sizeof(nh)) < 0)
			return 0;
		uint64_t name_at = addr + 12;
		uint64_t desc_at = name_at + ((nh[0] + 3ull) & ~3ull);
		uint64_t next = desc_at + ((nh[1] + 3ull) & ~3ull);

		if (next > end || next <= addr)
			return 0;
		if (nh[2] == NT_GNU_BUILD_ID && nh[0] == 4 && nh[1] > 0 && nh[1] <= cap &&
		    cr_read(m, name_at, name, 4) == 0 && cr_memeq(name, "GNU", 4) &&
		    cr_read(m, desc_at, id, nh[1]) == 0) {
			*at = desc_at;
			return nh[1];
		}
		addr = next;
	}
	return 0;
}

/* A dynamic-section pointer: relocated by ld.so on most arches, not where .dynamic is read-only. */
static uint64_t dyn_ptr(uint64_t v, uint64_t bias, uint64_t lo, uint64_t hi)
{
	return v >= lo && v < hi ? v : v + bias;
}

int cr_dynsym_open(const struct cr_mem *m, uint64_t bias, uint64_t lo, uint64_t hi, uint64_t dyn,
		   struct cr_dyntab *d)
{
	const Elf64_Dyn *all;

	memset(d, 0, sizeof(*d));
	d->bias = bias;
	/* In place where the memory lets us (the install's buffer does), else one entry a read. */
	all = cr_mem_view(m, dyn, 64 * sizeof(Elf64_Dyn));
	for (int i = 0; i < 512; i++) {
		Elf64_Dyn e;

		if (all && i < 64)
			memcpy(&e, &all[i], sizeof(e));
		else if (cr_read(m, dyn + i * sizeof(e), &e, sizeof(e)) < 0)
			return -CR_EFAULT;
		if (e.d_tag == DT_NULL)
			break;
		switch (e.d_tag) {
		case DT_SYMTAB:
			d->symtab = dyn_ptr(e.d_un.d_ptr, bias, lo, hi);
			break;
		case DT_STRTAB:
			d->strtab = dyn_ptr(e.d_un.d_ptr, bias, lo, hi);
			break;
		case DT_STRSZ:
			d->strsz = e.d_un.d_val;
			break;
		case DT_HASH:
			d->hash = dyn_ptr(e.d_un.d_ptr, bias, lo, hi);
			break;
		case DT_GNU_HASH:
			d->gnuhash = dyn_ptr(e.d_un.d_ptr, bias, lo, hi);
			break;
		}
		if (d->symtab && d->strtab && d->strsz && d->gnuhash)
			break;	/* all it needs (ld puts them first) */
	}
	if (!d->symtab || !d->strtab || (!d->hash && !d->gnuhash))
		return -CR_ENOINFO;
	/* GNU hash's header: nbuckets, symoffset, Bloom words (64-bit for
	   ELFCLASS64), Bloom shift; a table it makes unusable: the SysV one. */
	if (d->gnuhash && (cr_read(m, d->gnuhash, d->ghdr, sizeof(d->ghdr)) < 0 || !d->ghdr[0] ||
			   !d->ghdr[2] || d->ghdr[3] >= 64))
		d->gnuhash = 0;
	return d->hash || d->gnuhash ? 0 : -CR_ENOINFO;
}
