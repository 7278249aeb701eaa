/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>

#include "config.h"
#include "elfmem.h"
#include "module.h"
#include "seqlock.h"
#include "str.h"
#include "sys.h"

/* Widen [*lo, *hi) to a PT_LOAD's memory image. */
static void load_span(const Elf64_Phdr *ph, uint64_t bias, uint64_t *lo, uint64_t *hi)
{
	if (bias + ph->p_vaddr < *lo)
		*lo = bias + ph->p_vaddr;
	if (bias + ph->p_vaddr + ph->p_memsz > *hi)
		*hi = bias + ph->p_vaddr + ph->p_memsz;
}

int cr_module_from_phdrs(const struct cr_mem *m, uint64_t bias, uint64_t phdr, unsigned phnum,
			 struct cr_module *mod)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	const Elf64_Phdr *all;

	memset(mod, 0, sizeof(*mod));
	mod->bias = bias;
	mod->phdr = phdr;
	mod->phnum = (uint16_t)phnum;
	if (phnum > 256)
		phnum = 256;
	/* In place where the memory lets us (one view: cr_mem_view), else one read each. */
	all = cr_mem_view(m, phdr, phnum * sizeof(Elf64_Phdr));
	for (unsigned i = 0; i < phnum; i++) {
		Elf64_Phdr ph;

		if (all)
			memcpy(&ph, &all[i], sizeof(ph));
		else if (cr_read(m, phdr + i * sizeof(ph), &ph, sizeof(ph)) < 0)
			return -CR_EFAULT;
		switch (ph.p_type) {
		case PT_LOAD:
			load_span(&ph, bias, &lo, &hi);
			break;
		case PT_GNU_EH_FRAME:
			mod->eh_hdr = bias + ph.p_vaddr;
			mod->eh_hdr_len = ph.p_memsz;
			break;
		case PT_DYNAMIC:
			mod->dynamic = bias + ph.p_vaddr;
			break;
		case PT_NOTE:
			if (!mod->build_id_len)
				mod->build_id_len = (uint8_t)cr_elf_note_build_id_at(
					m, bias + ph.p_vaddr, ph.p_memsz, mod->build_id,
					sizeof(mod->build_id), &mod->build_id_at);
			break;
		}
	}
	if (hi <= lo)
		return -CR_EINVAL;
	mod->lo = lo;
	mod->hi = hi;
	return 0;
}

static void copy_path(char *dst, size_t cap, const char *src)
{
	size_t n = cr_strlen(src);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

/*
 * The executable's path: the loader gives it no name.  Resolved at first use
 * (a report, a walk), not at install: readlink of /proc/self/exe is the
 * dearest step of a start-up.  Published once; readers that find it unset
 * ask the kernel themselves.  AS-safe, lock-free.
 */
static char exe_path[256];
static volatile int exe_state;		/* 0: unknown, 1: being written, 2: set */

void cr_exe_path(char *dst, size_t cap, int fresh)
{
	long k;
	int unset = 0;

	if (!fresh && __atomic_load_n(&exe_state, __ATOMIC_ACQUIRE) == 2) {
		copy_path(dst, cap, exe_path);
		return;
	}
	k = cr_sys_readlink("/proc/self/exe", dst, cap - 1);
	dst[k > 0 ? k : 0] = 0;
	if (k > 0 && (size_t)k < sizeof(exe_path) &&
	    __atomic_compare_exchange_n(&exe_state, &unset, 1, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED)) {
		memcpy(exe_path, dst, (size_t)k + 1);
		__atomic_store_n(&exe_state, 2, __ATOMIC_RELEASE);
	}
}

/*
 * A NUL-terminated string of the unwound process, truncated to cap: in place
 * a page at a time where the memory lets us (cr_mem_view), else byte by byte.
 */
static void read_str(const struct cr_mem *m, uint64_t addr, char *dst, size_t cap)
{
	size_t i = 0, n, k;
	const char *p;

	while (addr && i + 1 < cap) {
		n = 4096 - ((addr + i) & 4095);
		if (n > cap - 1 - i)
			n = cap - 1 - i;
		if ((p = cr_mem_view(m, addr + i, n)) == NULL)
			break;
		for (k = 0; k < n && p[k]; k++)
			dst[i + k] = p[k];
		i += k;
		if (k < n) {
			dst[i] = 0;
			return;
		}
	}
	for (; addr && i + 1 < cap; i++)
		if (cr_read(m, addr + i, &dst[i], 1) < 0 || dst[i] == 0)
			break;
	dst[i] = 0;
}

/*
 * Modules found at crash time (loaded after install, or before any install):
 * a few slots, each with a sequence lock (seqlock.h, as the CIE memo's), so
 * that the next walk does not parse the same program headers again.
 * Lock-free, AS-safe.
 */
#define RT_SLOTS 16
static struct rt_slot {
	uint64_t seq;	/* odd while written */
	uint64_t key;	/* module start ^ link map */
	struct cr_module mod;
} rt[RT_SLOTS];

_Static_assert(sizeof(struct cr_module) % 8 == 0, "copied as 64-bit words");

/* Four consecutive slots from a hash of the key: two modules rarely evict each other. */
#define RT_WAYS 4
static unsigned rt_home(uint64_t key)
{
	return (unsigned)((key * 0x9e3779b97f4a7c15ull) >> 60) % RT_SLOTS;
}

static int rt_get_slot(struct rt_slot *s, uint64_t key, struct cr_module *out)
{
	uint64_t seq = cr_seq_begin(&s->seq);

	if ((seq & 1) || seq == 0 || __atomic_load_n(&s->key, __ATOMIC_RELAXED) != key)
		return -CR_ENOINFO;
	cr_seq_load(out, &s->mod, sizeof(*out));
	return cr_seq_still(&s->seq, seq) ? 0 : -CR_ENOINFO;
}

static int rt_get(uint64_t key, struct cr_module *out)
{
	for (unsigned i = 0, h = rt_home(key); i < RT_WAYS; i++)
		if (rt_get_slot(&rt[(h + i) % RT_SLOTS], key, out) == 0)
			return 0;
	return -CR_ENOINFO;
}

static void rt_put(uint64_t key, const struct cr_module *mod)
{
	unsigned h = rt_home(key), i;

	/* The first empty slot of the four, else the home slot. */
	for (i = 0; i < RT_WAYS; i++)
		if (__atomic_load_n(&rt[(h + i) % RT_SLOTS].seq, __ATOMIC_RELAXED) == 0)
			break;
	struct rt_slot *s = &rt[(h + (i < RT_WAYS ? i : 0)) % RT_SLOTS];
	uint64_t seq;

	if (!cr_seq_claim(&s->seq, &seq))
		return;
	__atomic_store_n(&s->key, key, __ATOMIC_RELAXED);
	cr_seq_store(&s->mod, mod, sizeof(*mod));
	cr_seq_release(&s->seq, seq);
}

/*
 * The executable's program headers from the kernel's auxiliary vector
 * (AT_PHDR, AT_PHNUM of /proc/self/auxv), for the link map walk: a non-PIE
 * executable's entry has l_addr 0 and no other way to its headers.  Only
 * without _dl_find_object (glibc < 2.35), which knows it.  AS-safe.
 */
static int exe_phdrs(uint64_t *phdr, unsigned *phnum)
{
	uint64_t av[64];
	long n;
	int fd;

	*phdr = 0;
	*phnum = 0;
	if ((fd = cr_sys_open("/proc/self/auxv", O_RDONLY | O_CLOEXEC, 0)) < 0)
		return -CR_ENOINFO;
	/* A few dozen entries: AT_PHDR and AT_PHNUM come early (the kernel's order). */
	n = cr_sys_read(fd, av, sizeof(av));
	cr_sys_close(fd);
	for (long i = 0; i + 1 < (n > 0 ? n / 8 : 0) && av[i] != AT_NULL; i += 2) {
		if (av[i] == AT_PHDR)
			*phdr = av[i + 1];
		else if (av[i] == AT_PHNUM)
			*phnum = (unsigned)av[i + 1];
	}
	return *phdr && *phnum ? 0 : -CR_ENOINFO;
}

/*
 * Is the module in memory still the one mod describes?  Its build-id's bytes,
 * where mod found them, are the same.  A library unloaded and another loaded
 * at the same base often gets the same link_map entry too (the loader's
 * allocator hands the freed one out again): the slots' key cannot tell them
 * apart, the build-id can (tests/unit/t-modmem: twins of the same layout, the
 * second with the first one's entry and base).  A module without a build-id
 * is not served from the slots.
 */
static int still_same(const struct cr_mem *m, const struct cr_module *mod)
{
	uint8_t id[sizeof(mod->build_id)];

	return mod->build_id_len && mod->build_id_len <= sizeof(id) &&
	       cr_read(m, mod->build_id_at, id, mod->build_id_len) == 0 &&
	       cr_memeq(id, mod->build_id, mod->build_id_len);
}

/*
 * A module from its link_map entry: the ELF header sits at the lowest PT_LOAD.
 * Parsed once, then served from the slots above (keyed by entry and base,
 * and checked by build-id: still_same).  walk: the link map walk's question
 * of each entry in turn, "is pc in yours?": a slot whose module does not
 * hold pc answers no without the check (a read a module, for every address
 * a report's maps dump looks up), where a replaced module bigger than the
 * slot's would be missed (_dl_find_object, asked first, knows it anyway).
 */
static int from_link_map(const struct cr_mem *m, uint64_t lm, uint64_t base, uint64_t pc,
			 struct cr_module *out, int walk)
{
	uint64_t key = lm ^ (base << 1) ^ 0x6c63;
	struct link_map l;
	uint64_t phdr;
	unsigned phnum;
	int ret;

	if (rt_get(key, out) == 0) {
		int in = pc >= out->lo && pc < out->hi;

		if (walk && !in)
			return -CR_ENOINFO;
		if (still_same(m, out))
			return in ? 0 : -CR_ENOINFO;
	}
	if (cr_read(m, lm, &l, sizeof(l)) < 0)
		return -CR_EFAULT;
	if (!base)
		base = l.l_addr;	/* DSOs and PIEs link their first PT_LOAD at 0 */
	if (base)
		ret = cr_elf_mem_phdrs(m, base, &phdr, &phnum);
	else if (lm == (uintptr_t)_r_debug.r_map)
		ret = exe_phdrs(&phdr, &phnum);	/* a non-PIE executable */
	else
		ret = -CR_ENOINFO;
	if (ret < 0)
		return ret;
	if ((ret = cr_module_from_phdrs(m, l.l_addr, phdr, phnum, out)) < 0)
		return ret;
	read_str(m, (uintptr_t)l.l_name, out->path, sizeof(out->path));
	if (!out->path[0] && lm == (uintptr_t)_r_debug.r_map)
		cr_exe_path(out->path, sizeof(out->path), 0);	/* the executable */
	if (out->build_id_len)
		rt_put(key, out);
	return pc >= out->lo && pc < out->hi ? 0 : -CR_ENOINFO;
}

int cr_module_find_rdebug(const struct cr_mem *m, uint64_t pc, struct cr_module *out)
{
	uint64_t lm = (uintptr_t)_r_debug.r_map;

	/* Bounded walk; every read through m, so a list torn by a crash inside
	   the loader ends the walk instead of faulting. */
	for (int i = 0; lm && i < 4096; i++) {
		struct link_map l;

		if (cr_read(m, lm, &l, sizeof(l)) < 0)
			return -CR_EFAULT;
		/* l_addr 0: a non-PIE executable (the first entry), else nothing
		   mapped (the loader's placeholders). */
		if ((l.l_addr || i == 0) && from_link_map(m, lm, 0, pc, out, 1) == 0)
			return 0;
		lm = (uintptr_t)l.l_next;
	}
	return -CR_ENOINFO;
}

#ifdef HAVE__DL_FIND_OBJECT
/*
 * glibc documents _dl_find_object as async-signal-safe: readers use a
 * versioned double buffer and never wait for a writer, so a crash inside
 * dlopen/dlclose (with the loader's locks held) cannot deadlock it.
 */
CR_HOT int cr_module_quick(uint64_t pc, struct cr_module *out)
{
	struct dl_find_object fo;

	uint64_t lo, hi, eh;

	if (_dl_find_object((void *)(uintptr_t)pc, &fo) != 0 || !fo.dlfo_link_map)
		return -CR_ENOINFO;
	lo = (uintptr_t)fo.dlfo_map_start;
	hi = (uintptr_t)fo.dlfo_map_end;
	eh = (uintptr_t)fo.dlfo_eh_frame;
	/*
	 * Libraries are mapped by the loader, whose span this is.  The main
	 * program is mapped by the kernel (or qemu-user), and there the span
	 * can be short or odd: under qemu-user aarch64 it ends with the first
	 * segment, under loongarch64 it starts at no page.  Where it does not
	 * hold pc and the tables, the caller reads the headers instead.
	 */
	if (!eh || (lo & 4095) || pc < lo || pc >= hi || eh < lo || eh >= hi)
		return -CR_ENOINFO;
	out->lo = lo;
	out->hi = hi;
	out->bias = fo.dlfo_link_map->l_addr;
	out->eh_hdr = eh;
	/* Its size is in the program header, not read here: the span's end
	   bounds it (the search checks the table against it and reads the hdr
	   through views, cfi/ehframe.c). */
	out->eh_hdr_len = hi - eh;
	return 0;
}

static int find_dlfo(const struct cr_mem *m, uint64_t pc, struct cr_module *out)
{
	struct dl_find_object fo;

	if (_dl_find_object((void *)(uintptr_t)pc, &fo) != 0 || !fo.dlfo_link_map)
		return -CR_ENOINFO;
	return from_link_map(m, (uintptr_t)fo.dlfo_link_map, (uintptr_t)fo.dlfo_map_start, pc,
			     out, 0) < 0 ? -CR_ENOINFO : 0;
}
#else
int cr_module_quick(uint64_t pc, struct cr_module *out)
{
	(void)pc;
	(void)out;
	return -CR_ENOSYS;
}
#endif

int cr_module_find(const struct cr_mem *m, uint64_t pc, struct cr_module *out)
{
#ifdef HAVE__DL_FIND_OBJECT
	if (find_dlfo(m, pc, out) == 0)
		return 0;
#endif
	/* No _dl_find_object, or it does not know pc (the vDSO, qemu's pages). */
	return cr_module_find_rdebug(m, pc, out);
}
