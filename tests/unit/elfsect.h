/* SPDX-License-Identifier: MIT */
/*
 * For the test drivers only (stdio and malloc are fine here): an ELF64 file
 * read whole, and its sections by name.
 */
#ifndef CR_TEST_ELFSECT_H
#define CR_TEST_ELFSECT_H

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct elf_file {
	uint8_t *data;
	size_t size;
	Elf64_Shdr *sh;		/* a copy of the section headers, aligned */
	unsigned shnum;
	const char *shstr;	/* section names */
	size_t shstr_size;
};

/* Read path; 0, or -1 with a message on stderr. */
static int elf_load(struct elf_file *f, const char *path)
{
	FILE *fp = fopen(path, "rb");
	Elf64_Ehdr eh;
	long len;

	memset(f, 0, sizeof(*f));
	if (!fp || fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0 ||
	    fseek(fp, 0, SEEK_SET) != 0) {
		fprintf(stderr, "%s: cannot read\n", path);
		if (fp)
			fclose(fp);
		return -1;
	}
	f->size = (size_t)len;
	f->data = malloc(f->size + 1);
	if (!f->data || fread(f->data, 1, f->size, fp) != f->size) {
		fprintf(stderr, "%s: cannot read\n", path);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	if (f->size < sizeof(eh) || memcmp(f->data, ELFMAG, SELFMAG) != 0 ||
	    f->data[EI_CLASS] != ELFCLASS64) {
		fprintf(stderr, "%s: not an ELF64 file\n", path);
		return -1;
	}
	memcpy(&eh, f->data, sizeof(eh));
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > f->size ||
	    (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > f->size - eh.e_shoff ||
	    eh.e_shstrndx >= eh.e_shnum) {
		fprintf(stderr, "%s: bad section headers\n", path);
		return -1;
	}
	f->shnum = eh.e_shnum;
	f->sh = malloc(f->shnum * sizeof(Elf64_Shdr) + 1);
	memcpy(f->sh, f->data + eh.e_shoff, f->shnum * sizeof(Elf64_Shdr));
	for (unsigned i = 0; i < f->shnum; i++) {
		const Elf64_Shdr *s = &f->sh[i];

		if (s->sh_type != SHT_NOBITS &&
		    (s->sh_offset > f->size || s->sh_size > f->size - s->sh_offset)) {
			fprintf(stderr, "%s: section %u outside the file\n", path, i);
			return -1;
		}
	}
	f->shstr = (const char *)f->data + f->sh[eh.e_shstrndx].sh_offset;
	f->shstr_size = f->sh[eh.e_shstrndx].sh_size;
	return 0;
}

static const char *elf_name(const struct elf_file *f, const Elf64_Shdr *s)
{
	if (s->sh_name >= f->shstr_size || !memchr(f->shstr + s->sh_name, 0,
						     f->shstr_size - s->sh_name))
		return "";
	return f->shstr + s->sh_name;
}

/* The section called name, or NULL. */
static const Elf64_Shdr *elf_section(const struct elf_file *f, const char *name)
{
	for (unsigned i = 0; i < f->shnum; i++)
		if (strcmp(elf_name(f, &f->sh[i]), name) == 0)
			return &f->sh[i];
	return NULL;
}

#endif
