/* SPDX-License-Identifier: MIT */
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
		    cr_read(m, desc_at, id, nh[1]) == 0)
			return nh[1];
		addr = next;
	}
	return 0;
}
