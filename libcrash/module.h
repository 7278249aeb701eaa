/* SPDX-License-Identifier: MIT */
/*
 * Loaded modules (executable, shared libraries, vDSO).  A table is taken at
 * install time; at crash time a pc outside it is looked up lock-free with
 * glibc's _dl_find_object (2.35+) or, without it, by walking _r_debug's link
 * map through cr_mem.  Never dl_iterate_phdr or dladdr after install: both
 * take the loader's lock, which the crashed thread may hold.
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
	char path[256];			/* "" if unknown */
};

/*
 * Install time (not AS-safe: dl_iterate_phdr): record every loaded module,
 * reading the loader's program headers in place.  The executable's path is
 * left to cr_exe_path() at first use.  Returns the count or -errno.
 */
int cr_modules_snapshot(void);

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
 * The module cr_module_find() gives for pc, in place: the install-time table's
 * entry, if _dl_find_object confirms that the loader still has that module
 * there.  NULL: not known this way (no table, another module, no
 * _dl_find_object): look it up.  For the trace loop, which crosses a few
 * modules each capture and needs only their keys.  AS-safe.
 */
const struct cr_module *cr_module_in_table(uint64_t pc);

/* The number of modules the install-time table holds (0: none taken). */
unsigned cr_modules_taken(void);

/*
 * Fill mod from program headers in memory (phdr, phnum, bias): span,
 * PT_GNU_EH_FRAME, PT_DYNAMIC, build-id from PT_NOTE.  0 or -CR_E*.  AS-safe.
 */
int cr_module_from_phdrs(const struct cr_mem *m, uint64_t bias, uint64_t phdr, unsigned phnum,
			 struct cr_module *mod);

/* The walk of _r_debug's link map alone (the fallback; exposed for tests). */
int cr_module_find_rdebug(const struct cr_mem *m, uint64_t pc, struct cr_module *out);

#endif
