/* SPDX-License-Identifier: MIT */
/*
 * Loaded modules (executable, shared libraries, vDSO), looked up at the time
 * of the walk, lock-free: glibc's _dl_find_object (2.35+), else a walk of
 * _r_debug's link map through cr_mem.  Never dl_iterate_phdr or dladdr: both
 * take the loader's lock, which the crashed thread may hold.  Nothing is
 * taken at install (docs/design.md, "Finding modules without the loader's
 * lock").
 */
#ifndef CR_MODULE_H
#define CR_MODULE_H

#include "mem.h"

struct cr_module {
	uint64_t bias, lo, hi;		/* load bias; [lo, hi): span of the PT_LOADs */
	uint64_t eh_hdr, eh_hdr_len;	/* PT_GNU_EH_FRAME, 0 if none */
	uint64_t dynamic;		/* PT_DYNAMIC address, 0 if none */
	uint64_t phdr;			/* program headers in memory */
	uint16_t phnum;
	uint8_t build_id_len;		/* 0: none */
	uint8_t build_id[32];
	uint64_t build_id_at;		/* where its bytes are in memory (build_id_len > 0) */
	char path[256];			/* "" if unknown */
};

/*
 * The executable's path (readlink of /proc/self/exe) into dst, "" if unknown.
 * fresh: ask the kernel even when a path is known.  The first path read is
 * kept for later calls.  AS-safe, lock-free.
 */
void cr_exe_path(char *dst, size_t cap, int fresh);

/* The module that contains pc.  0 or -CR_ENOINFO.  AS-safe, lock-free, bounded. */
int cr_module_find(const struct cr_mem *m, uint64_t pc, struct cr_module *out);

/*
 * What identifies a module to the CFI caches (cfi/cache.h): its start and its
 * .eh_frame_hdr.  Never 0 for a module with tables (.eh_frame_hdr lies
 * inside it, above its start).
 */
static inline uint64_t cr_module_key(const struct cr_module *mod)
{
	return mod->lo ^ (mod->eh_hdr << 1);
}

/*
 * The part of pc's module that the trace loop needs (cr_cfi_fast_trace), from
 * _dl_find_object alone: lo, hi, bias, eh_hdr, and for eh_hdr_len the bound
 * of the span's end (its program headers are not read).  The other fields
 * are left as they were.  For a library the span is the loader's, the same
 * as cr_module_find's; for the main program it may be shorter (qemu-user),
 * and where it does not hold pc and .eh_frame_hdr this gives -CR_ENOINFO.
 * 0, -CR_ENOINFO (also: no .eh_frame_hdr, or a module the loader does not
 * know: the vDSO under some loaders), -CR_ENOSYS (no _dl_find_object): then
 * cr_module_find.  AS-safe, lock-free.
 */
int cr_module_quick(uint64_t pc, struct cr_module *out);

/*
 * Fill mod from program headers in memory (phdr, phnum, bias): span,
 * PT_GNU_EH_FRAME, PT_DYNAMIC, build-id from PT_NOTE.  0 or -CR_E*.  AS-safe.
 */
int cr_module_from_phdrs(const struct cr_mem *m, uint64_t bias, uint64_t phdr, unsigned phnum,
			 struct cr_module *mod);

/* The walk of _r_debug's link map alone (the fallback; exposed for tests). */
int cr_module_find_rdebug(const struct cr_mem *m, uint64_t pc, struct cr_module *out);

#endif
