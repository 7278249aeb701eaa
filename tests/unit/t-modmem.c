/* SPDX-License-Identifier: MIT */
/*
 * Module memory proven once (libcrash/modmem.c; docs/design.md, "Remembered
 * proofs"): the readable pages computed from program headers (holes,
 * execute-only segments, the span, the cap), then live: modules with holes
 * and without, loaded and unloaded in turn at (mostly) the same address;
 * every page a record claims must be readable by /proc/self/maps, and a read
 * through cr_mem_fast of every page of the span succeeds exactly where the
 * maps say it is readable (never a fault).
 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "mem.h"
#include "modmem.h"
#include "module.h"
#include "../tap.h"

#define K 4096ull

static Elf64_Phdr load(uint64_t vaddr, uint64_t memsz, uint32_t flags)
{
	Elf64_Phdr p;

	memset(&p, 0, sizeof(p));
	p.p_type = PT_LOAD;
	p.p_vaddr = vaddr;
	p.p_memsz = memsz;
	p.p_filesz = memsz;
	p.p_flags = flags;
	return p;
}

static void pure(void)
{
	struct cr_modmem_range r[CR_MODMEM_RANGES];
	Elf64_Phdr ph[8];
	unsigned n;

	/* R, RX, R, RW next to each other (a 4 KiB layout): one range, rounded out. */
	ph[0] = load(0, 0x5e8, PF_R);
	ph[1] = load(0x1000, 0x1234, PF_R | PF_X);
	ph[2] = load(0x3000, 0x800, PF_R);
	ph[3] = load(0x4df0, 0x300, PF_R | PF_W);
	memset(&ph[4], 0, sizeof(ph[4]));
	ph[4].p_type = PT_DYNAMIC;
	ph[4].p_vaddr = 0x4e00;
	ph[4].p_memsz = 0x1000000;	/* not a PT_LOAD: ignored */
	n = cr_modmem_ranges(ph, 5, 0x7f0000000000, 0x7f0000000000, 0x7f0000006000, r, 4);
	tap_ok(n == 1 && r[0].lo == 0x7f0000000000 && r[0].hi == 0x7f0000006000,
	       "contiguous segments: one range of whole pages");

	/* A 64 KiB layout: holes between the segments are not claimed. */
	ph[0] = load(0, 0x5e8, PF_R);
	ph[1] = load(0x10000, 0x1234, PF_R | PF_X);
	ph[2] = load(0x20000, 0x800, PF_R);
	ph[3] = load(0x3fdf0, 0x300, PF_R | PF_W);
	n = cr_modmem_ranges(ph, 4, 0x10000000, 0x10000000, 0x10040000, r, 4);
	tap_ok(n == 4 && r[0].lo == 0x10000000 && r[0].hi == 0x10001000 &&
	       r[1].lo == 0x10010000 && r[1].hi == 0x10012000 && r[2].lo == 0x10020000 &&
	       r[2].hi == 0x10021000 && r[3].lo == 0x1003f000 && r[3].hi == 0x10040000,
	       "holes between segments: four ranges, no hole page");
	n = cr_modmem_ranges(ph, 4, 0x10000000, 0x10000000, 0x10040000, r, 2);
	tap_ok(n == 2 && r[1].hi == 0x10012000, "more ranges than the cap: the first ones kept");

	/* Execute-only: not claimed, nor a readable segment's page it shares. */
	ph[0] = load(0, 0x1800, PF_R);
	ph[1] = load(0x1800, 0x2000, PF_X);
	ph[2] = load(0x3800, 0x1000, PF_R | PF_W);
	n = cr_modmem_ranges(ph, 3, 0, 0, 0x5000, r, 4);
	tap_ok(n == 2 && r[0].lo == 0 && r[0].hi == 0x1000 && r[1].lo == 0x4000 &&
	       r[1].hi == 0x5000, "an execute-only segment and the pages it touches: not claimed");
	/* One in the middle of a readable one: it splits it. */
	ph[0] = load(0, 0x8000, PF_R);
	ph[1] = load(0x3000, 0x1000, PF_X);
	n = cr_modmem_ranges(ph, 2, 0, 0, 0x8000, r, 4);
	tap_ok(n == 2 && r[0].lo == 0 && r[0].hi == 0x3000 && r[1].lo == 0x4000 &&
	       r[1].hi == 0x8000, "an execute-only segment inside a readable one splits it");
	/* No PF_R at all, and empty segments. */
	ph[0] = load(0, 0x1000, PF_X);
	ph[1] = load(0x2000, 0, PF_R);
	n = cr_modmem_ranges(ph, 2, 0, 0, 0x3000, r, 4);
	tap_is_u64(n, 0, "no readable segment with a size: nothing");

	/* The span bounds the claim (a span shorter than the headers say). */
	ph[0] = load(0, 0x3000, PF_R | PF_X);
	n = cr_modmem_ranges(ph, 1, 0x400000, 0x401000, 0x402000, r, 4);
	tap_ok(n == 1 && r[0].lo == 0x401000 && r[0].hi == 0x402000,
	       "inside the loader's span only");
	/* Addresses that wrap: nothing is claimed for the module. */
	ph[0] = load(0x1000, 0x1000, PF_R);
	ph[1] = load(0xfffffffffffff000ull, 0x2000, PF_R);
	n = cr_modmem_ranges(ph, 2, 0, 0, UINT64_MAX, r, 4);
	tap_is_u64(n, 0, "a segment that wraps: nothing");
}

#ifdef HAVE__DL_FIND_OBJECT
/* 1 if /proc/self/maps says [a, a + 4096) is readable. */
static int maps_readable(uint64_t a)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512], perm[8];
	unsigned long lo, hi;
	int r = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) == 3 && a >= lo && a + K <= hi) {
			r = perm[0] == 'r';
			break;
		}
	fclose(f);
	return r;
}

static char dir[4096];
static uint64_t last_start;
static int same_addr;

/*
 * Load module `name`, check every page of its span twice (records learned,
 * then remembered): each claim readable by the maps, each read through a
 * cr_mem_fast succeeding exactly where the maps say so.  Unload it.
 */
static int one(const char *name, int *holes)
{
	char path[4200];
	struct dl_find_object fo;
	void *h, *sym;
	uint64_t lo, hi, a, start, end;
	int ok = 1;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		return fprintf(stderr, "# %s\n", dlerror()), 0;
	sym = dlsym(h, "recall_chain");
	if (!sym || _dl_find_object(sym, &fo) != 0)
		return dlclose(h), 0;
	start = (uintptr_t)fo.dlfo_map_start;
	end = (uintptr_t)fo.dlfo_map_end;
	same_addr += start == last_start;
	last_start = start;
	/* The first question marks the module, the second learns it. */
	cr_modmem_find((uintptr_t)sym, 1, &lo, &hi, &cr_mem_self);
	if (cr_modmem_find((uintptr_t)sym, 1, &lo, &hi, &cr_mem_self) != 1 || lo > (uintptr_t)sym ||
	    hi <= (uintptr_t)sym) {
		fprintf(stderr, "# %s: its code is not claimed\n", name);
		ok = 0;
	}
	for (int round = 0; round < 2; round++)
		for (a = start; a < end; a += K) {
			struct cr_mem_fast f;
			uint8_t b;
			int m = maps_readable(a), c = cr_modmem_find(a, 1, &lo, &hi, &cr_mem_self) == 1;

			*holes += m == 0;
			cr_mem_fast_init(&f);
			if ((c && m != 1) || (cr_read(&f.m, a, &b, 1) == 0) != (m == 1)) {
				fprintf(stderr, "# %s +%#lx: claimed %d, maps %d\n", name,
					(unsigned long)(a - start), c, m);
				ok = 0;
			}
		}
	dlclose(h);
	return ok;
}

/*
 * The module table's slots (module.c) after an unload: twins of the same
 * layout loaded in turn, where the loader mostly hands out the same base and
 * the same link_map entry again.  Each lookup must describe the module
 * loaded now: its path and its build-id, not the one before's.
 */
static int twins(void)
{
	uint8_t id[2][32];
	unsigned idlen[2] = { 0, 0 };
	int ok = 1, reused = 0;
	uintptr_t last_lm = 0, last_base = 0;

	for (int k = 0; k < 6; k++) {
		const char *name = k & 1 ? "librecall-scan-b.so" : "librecall-scan-a.so";
		char path[4200];
		struct dl_find_object fo;
		struct cr_module mod;
		void *h, *sym;
		size_t n = strlen(name), pn;

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
			return fprintf(stderr, "# %s\n", dlerror()), 0;
		sym = dlsym(h, "scan_chain");
		if (!sym || _dl_find_object(sym, &fo) != 0 ||
		    cr_module_find(&cr_mem_self, (uintptr_t)sym, &mod) < 0) {
			dlclose(h);
			return 0;
		}
		reused += (uintptr_t)fo.dlfo_link_map == last_lm &&
			  (uintptr_t)fo.dlfo_map_start == last_base;
		last_lm = (uintptr_t)fo.dlfo_link_map;
		last_base = (uintptr_t)fo.dlfo_map_start;
		pn = strlen(mod.path);
		if (pn < n || strcmp(mod.path + pn - n, name) != 0 || !mod.build_id_len) {
			fprintf(stderr, "# %s: the module table says %s\n", name, mod.path);
			ok = 0;
		} else if (k < 2) {
			idlen[k] = mod.build_id_len;
			memcpy(id[k], mod.build_id, mod.build_id_len);
		} else if (mod.build_id_len != idlen[k & 1] ||
			   memcmp(mod.build_id, id[k & 1], idlen[k & 1]) != 0) {
			fprintf(stderr, "# %s: another build-id\n", name);
			ok = 0;
		}
		dlclose(h);
	}
	fprintf(stderr, "# %d of 6 loads with the previous one's link_map entry and base\n", reused);
	return ok && (idlen[0] != idlen[1] || memcmp(id[0], id[1], idlen[0]) != 0);
}

static void live(const char *argv0)
{
	static const char *const libs[] = { "libmodmem-big.so", "libmodmem-holes.so",
					    "librecall-a.so", "libmodmem-big.so",
					    "libmodmem-holes.so", "librecall-b.so" };
	const char *slash = strrchr(argv0, '/');
	uint64_t lo, hi;
	int ok = 1, holes = 0;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - argv0) : 1, slash ? argv0 : ".");
	cr_modmem_reset(1);
	{
		/* A program whose span is not whole pages (loongarch64 under
		   qemu-user: the emulator maps it) is never claimed (modmem.c). */
		struct dl_find_object fo;
		int whole = _dl_find_object((void *)(uintptr_t)pure, &fo) == 0 &&
			    !((uintptr_t)fo.dlfo_map_start & 4095);
		/* The first question only marks the module: in one, not claimed
		   (-1: mem.c proves no more of it than a read needs). */
		int first = cr_modmem_find((uintptr_t)pure, 1, &lo, &hi, &cr_mem_self);
		int got;

		tap_ok(first == (whole ? -1 : 0),
		       "a module's first question: -1 (in a module, not claimed yet)");
		/* With -1, the pages of its .eh_frame_hdr's first 12 bytes,
		   which the question read in place (modmem.h). */
		tap_ok(!whole || (lo == ((uintptr_t)fo.dlfo_eh_frame & ~4095ull) &&
				  hi == (((uintptr_t)fo.dlfo_eh_frame + 12 + 4095) & ~4095ull) &&
				  hi > lo),
		       "... and the pages of its .eh_frame_hdr's head, read in place");
		tap_ok(cr_modmem_find((uintptr_t)&lo, 8, &lo, &hi, &cr_mem_self) == 0,
		       "the stack is in no module: 0");
		got = cr_modmem_find((uintptr_t)pure, 1, &lo, &hi, &cr_mem_self) == 1 &&
			  lo <= (uintptr_t)pure && (uintptr_t)pure < hi;

		if (!whole)
			fprintf(stderr, "# this program's span does not start on a page\n");
		tap_ok(got == whole, whole ? "this program's code is claimed"
					   : "this program's code is not claimed (span not whole pages)");
	}
	for (int k = 0; k < 12; k++)
		ok &= one(libs[k % 6], &holes);
	tap_ok(ok, "modules with and without holes loaded in turn: claims readable, reads never "
		   "fault");
	tap_ok(holes > 0, "the modules had pages that are not readable");
	fprintf(stderr, "# %d of 12 loads at the previous one's address\n", same_addr);
	tap_ok(twins(), "twins loaded in turn at the same base: each lookup gives the module "
			"loaded now (path, build-id)");
	cr_modmem_reset(0);
	tap_ok(cr_modmem_find((uintptr_t)pure, 1, &lo, &hi, &cr_mem_self) == 0, "nothing claimed when told not to");
	cr_modmem_reset(1);
}
#endif

int main(int argc, char **argv)
{
	(void)argc;
	pure();
#ifdef HAVE__DL_FIND_OBJECT
	live(argv[0]);
#endif
	return tap_done();
}
