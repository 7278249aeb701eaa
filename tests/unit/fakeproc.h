/* SPDX-License-Identifier: MIT */
/*
 * A made-up process for the unit tests of the steps and the report writer:
 * one module (ELF header, .dynamic with .dynsym, .dynstr and DT_HASH,
 * .eh_frame_hdr and .eh_frame, code) and a stack, in buffers read through a
 * cr_mem with views, and a walk whose callbacks find that module.  Any arch:
 * the bytes are what the test puts there.
 */
#ifndef CR_TEST_FAKEPROC_H
#define CR_TEST_FAKEPROC_H

#include <elf.h>
#include <string.h>

#include "cfi/cfi.h"
#include "unwind.h"

#define FP_BASE 0x400000ull	/* the module: [FP_BASE, FP_BASE + FP_MODLEN) */
#define FP_MODLEN 0x8000ull
#define FP_CODE (FP_BASE + 0x1000)	/* code goes here */
#define FP_STACK 0x7ff00000ull	/* the stack: [FP_STACK, FP_STACK + 8 * FP_NSTACK) */
#define FP_NSTACK 512
#define FP_JIT 0x900000ull	/* generated code: readable, in no module */

/* Where the module's parts are, from FP_BASE. */
enum { FP_DYN = 0x100, FP_HASH = 0x200, FP_SYMTAB = 0x300, FP_STRTAB = 0x600,
       FP_EHHDR = 0x800, FP_EHFRAME = 0x900, FP_NSYM = 16 };

static uint8_t fp_img[FP_MODLEN];
static uint64_t fp_stack[FP_NSTACK];
static uint8_t fp_jit[256];
static unsigned fp_nsym = 1, fp_str = 1, fp_nfde;
static size_t fp_eh;	/* bytes of .eh_frame so far */
static struct cr_module fp_mod;
static struct cr_mem fp_mem;
static int fp_have_mod = 1;	/* 0: find_module finds nothing */

/* The three regions, for read and view: [addr, addr + len) in one of them, or NULL. */
static inline uint8_t *fp_region(uint64_t addr, size_t len)
{
	static const struct {
		uint64_t lo;
		uint8_t *p;
		size_t size;
	} r[] = { { FP_BASE, fp_img, sizeof(fp_img) },
		  { FP_STACK, (uint8_t *)fp_stack, sizeof(fp_stack) },
		  { FP_JIT, fp_jit, sizeof(fp_jit) } };

	for (unsigned i = 0; i < 3; i++)
		if (addr >= r[i].lo && addr - r[i].lo <= r[i].size &&
		    len <= r[i].size - (addr - r[i].lo))
			return r[i].p + (addr - r[i].lo);
	return NULL;
}

static inline int fp_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	const uint8_t *p = fp_region(addr, len);

	(void)m;
	if (!p)
		return -CR_EFAULT;
	memcpy(dst, p, len);
	return 0;
}

static inline const void *fp_view(const struct cr_mem *m, uint64_t addr, size_t len)
{
	(void)m;
	return fp_region(addr, len);
}

static inline void fp_put(uint64_t addr, const void *bytes, size_t len)
{
	memcpy(fp_region(addr, len), bytes, len);
}

static inline void fp_put64(uint64_t addr, uint64_t v)
{
	fp_put(addr, &v, 8);
}

/* A function symbol [addr, addr + size) named name in .dynsym. */
static inline void fp_sym(const char *name, uint64_t addr, uint64_t size)
{
	Elf64_Sym s = { .st_name = fp_str,
			.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
			.st_shndx = 1,
			.st_value = addr - FP_BASE,
			.st_size = size };

	memcpy(fp_img + FP_SYMTAB + fp_nsym++ * sizeof(s), &s, sizeof(s));
	memcpy(fp_img + FP_STRTAB + fp_str, name, strlen(name) + 1);
	fp_str += (unsigned)strlen(name) + 1;
	memcpy(fp_img + FP_HASH + 4, &(uint32_t){ fp_nsym }, 4);	/* nchain */
}

/* .eh_frame bytes. */
static inline void fp_eb(const void *b, size_t len)
{
	if (len)	/* b may be NULL then (an FDE without instructions) */
		memcpy(fp_img + FP_EHFRAME + fp_eh, b, len);
	fp_eh += len;
}

static inline void fp_e8(unsigned v)
{
	fp_eb(&(uint8_t){ (uint8_t)v }, 1);
}

static inline void fp_e32(uint32_t v)
{
	fp_eb(&v, 4);
}

/*
 * A CIE: augmentation "zR" ("zRS" if signal), FDE pointers pcrel|sdata4, code
 * alignment 1, data alignment -8, return-address column ra, initial
 * instructions insns.  Returns its offset in .eh_frame, for fp_fde.
 */
static inline size_t fp_cie(unsigned ra, int signal, const uint8_t *insns, size_t len)
{
	size_t at = fp_eh, body;

	fp_e32(0);	/* length, patched below */
	body = fp_eh;
	fp_e32(0);	/* CIE id */
	fp_e8(1);	/* version */
	fp_eb(signal ? "zRS" : "zR", signal ? 4 : 3);
	fp_e8(1);	/* code alignment factor */
	fp_e8(0x78);	/* data alignment factor: SLEB128 -8 */
	fp_e8(ra);	/* return-address column (version 1: a byte) */
	fp_e8(1);	/* augmentation data length */
	fp_e8(DW_EH_PE_pcrel | DW_EH_PE_sdata4);
	fp_eb(insns, len);
	while ((fp_eh - at) % 4)
		fp_e8(0);	/* DW_CFA_nop */
	memcpy(fp_img + FP_EHFRAME + at, &(uint32_t){ (uint32_t)(fp_eh - body) }, 4);
	return at;
}

/* The table of .eh_frame_hdr: (initial location, FDE) pairs, sorted by the caller's order. */
static inline void fp_hdr_entry(uint64_t lo, size_t fde)
{
	int32_t e[2] = { (int32_t)(lo - (FP_BASE + FP_EHHDR)),
			 (int32_t)(FP_EHFRAME + fde - FP_EHHDR) };

	memcpy(fp_img + FP_EHHDR + 12 + 8 * fp_nfde++, e, 8);
	memcpy(fp_img + FP_EHHDR + 8, &(uint32_t){ fp_nfde }, 4);
}

/* An FDE for [lo, hi) under the CIE at cie, with instructions insns.  Add in address order. */
static inline void fp_fde(size_t cie, uint64_t lo, uint64_t hi, const uint8_t *insns, size_t len)
{
	size_t at = fp_eh, body;

	fp_e32(0);
	body = fp_eh;
	fp_e32((uint32_t)(fp_eh - cie));	/* CIE pointer: back to it */
	fp_e32((uint32_t)(lo - (FP_BASE + FP_EHFRAME + fp_eh)));	/* pcrel */
	fp_e32((uint32_t)(hi - lo));
	fp_e8(0);	/* augmentation data length */
	fp_eb(insns, len);
	while ((fp_eh - at) % 4)
		fp_e8(0);
	memcpy(fp_img + FP_EHFRAME + at, &(uint32_t){ (uint32_t)(fp_eh - body) }, 4);
	fp_hdr_entry(lo, at);
	fp_mod.eh_hdr = FP_BASE + FP_EHHDR;
	fp_mod.eh_hdr_len = 12 + 8 * fp_nfde;
}

static inline int fp_find_module(const struct cr_walk *w, uint64_t pc, struct cr_module *out)
{
	(void)w;
	if (!fp_have_mod || pc < fp_mod.lo || pc >= fp_mod.hi)
		return -CR_ENOINFO;
	*out = fp_mod;
	return 0;
}

/* pc is code if it is in the module's code or the generated code. */
static inline int fp_is_exec(const struct cr_walk *w, uint64_t pc)
{
	(void)w;
	return (pc >= FP_CODE && pc < FP_BASE + FP_MODLEN) ||
	       (pc >= FP_JIT && pc < FP_JIT + sizeof(fp_jit));
}

/* A fresh process: the module with its headers and no symbols, FDEs or code. */
static inline void fp_reset(void)
{
	static const uint8_t eh_hdr[] = { 1, DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_udata4,
					  DW_EH_PE_datarel | DW_EH_PE_sdata4 };
	Elf64_Ehdr eh = { .e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64 },
			  .e_phoff = sizeof(Elf64_Ehdr) };
	Elf64_Dyn dyn[] = { { DT_HASH, { FP_BASE + FP_HASH } },
			    { DT_SYMTAB, { FP_BASE + FP_SYMTAB } },
			    { DT_STRTAB, { FP_BASE + FP_STRTAB } },
			    { DT_NULL, { 0 } } };

	memset(fp_img, 0, sizeof(fp_img));
	memset(fp_stack, 0, sizeof(fp_stack));
	memset(fp_jit, 0, sizeof(fp_jit));
	memcpy(fp_img, &eh, sizeof(eh));
	memcpy(fp_img + FP_DYN, dyn, sizeof(dyn));
	memcpy(fp_img + FP_HASH, &(uint32_t){ 1 }, 4);	/* nbucket */
	memcpy(fp_img + FP_HASH + 4, &(uint32_t){ 1 }, 4);	/* nchain: the null symbol */
	memcpy(fp_img + FP_EHHDR, eh_hdr, sizeof(eh_hdr));
	memcpy(fp_img + FP_EHHDR + 4,
	       &(int32_t){ (int32_t)(FP_EHFRAME - (FP_EHHDR + 4)) }, 4);	/* eh_frame_ptr */
	fp_nsym = 1;
	fp_str = 1;
	fp_nfde = 0;
	fp_eh = 0;
	memset(&fp_mod, 0, sizeof(fp_mod));
	fp_mod.bias = FP_BASE;
	fp_mod.lo = FP_BASE;
	fp_mod.hi = FP_BASE + FP_MODLEN;
	fp_mod.dynamic = FP_BASE + FP_DYN;
	fp_mod.phdr = FP_BASE + sizeof(Elf64_Ehdr);
	fp_have_mod = 1;
	memset(&fp_mem, 0, sizeof(fp_mem));
	fp_mem.read = fp_read;
	fp_mem.view = fp_view;
}

/* The module's entry point (e_entry): the outermost frame for the scan engine. */
static inline void fp_entry(uint64_t addr)
{
	uint64_t e = addr - FP_BASE;

	memcpy(fp_img + offsetof(Elf64_Ehdr, e_entry), &e, 8);
}

/* A walk of the fake process for arch a, from an exact frame or not. */
static inline void fp_walk(struct cr_walk *w, const struct cr_arch *a, int exact)
{
	memset(w, 0, sizeof(*w));
	w->arch = a;
	w->mem = &fp_mem;
	w->stack_lo = FP_STACK;
	w->stack_hi = FP_STACK + sizeof(fp_stack);
	w->exact = (uint8_t)exact;
	w->find_module = fp_find_module;
	w->is_exec = fp_is_exec;
}

/* Stack slot i's address. */
static inline uint64_t fp_at(unsigned i)
{
	return FP_STACK + 8ull * i;
}

/* Registers of a frame: pc and sp only (the test sets others with cr_reg_set). */
static inline void fp_regs(struct cr_regs *r, const struct cr_arch *a, uint64_t pc, uint64_t sp)
{
	memset(r, 0, sizeof(*r));
	r->pc = pc;
	cr_reg_set(r, a->sp, sp);
}

#endif
