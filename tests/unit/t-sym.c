/* SPDX-License-Identifier: MIT */
/*
 * Modules and symbols of this very process, checked against the loader's own
 * answers (dl_iterate_phdr, dladdr: fine here, outside any signal handler).
 */
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "../tap.h"
#include "module.h"
#include "str.h"
#include "sym.h"

__attribute__((noinline)) static int static_fn(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3;
}

__attribute__((noinline)) int t_sym_global(int x);
__attribute__((noinline)) int t_sym_global(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static void check_module(const char *what, uint64_t pc)
{
	struct cr_module mod, mod2;
	Dl_info info;
	char name[128];

	snprintf(name, sizeof(name), "%s: module found", what);
	if (!tap_ok(cr_module_find(&cr_mem_self, pc, &mod) == 0, name))
		return;
	dladdr((void *)(uintptr_t)pc, &info);
	snprintf(name, sizeof(name), "%s: bias == dladdr's base (first PT_LOAD at 0)", what);
	tap_ok(mod.lo <= pc && pc < mod.hi, "pc inside the module span");
	snprintf(name, sizeof(name), "%s: module start is dladdr's dli_fbase", what);
	tap_is_u64(mod.lo & ~0xfffull, (uintptr_t)info.dli_fbase, name);
	snprintf(name, sizeof(name), "%s: has .eh_frame_hdr", what);
	tap_ok(mod.eh_hdr != 0, name);
	/* A non-PIE executable too (bias 0: its headers from the auxv). */
	snprintf(name, sizeof(name), "%s: _r_debug walk agrees (bias %s)", what,
		 mod.bias ? "> 0" : "0");
	tap_ok(cr_module_find_rdebug(&cr_mem_self, pc, &mod2) == 0 && mod2.bias == mod.bias &&
		       mod2.lo == mod.lo && mod2.hi == mod.hi && mod2.eh_hdr == mod.eh_hdr &&
		       mod2.eh_hdr_len == mod.eh_hdr_len && mod2.phdr == mod.phdr &&
		       mod2.build_id_len == mod.build_id_len &&
		       cr_memeq(mod2.build_id, mod.build_id, mod.build_id_len) &&
		       cr_strcmp(mod2.path, mod.path) == 0,
	       name);
}

/*
 * libc's own entry of a function: `&abort` in the executable can be a PLT
 * address (clang on loongarch64 takes noreturn functions' addresses through
 * the PLT), which is not libc's code.
 */
static uintptr_t libc_fn(const char *name)
{
	void *h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	void *f = h ? dlsym(h, name) : NULL;

	if (h)
		dlclose(h);
	return (uintptr_t)f;
}

/*
 * cr_module_quick: what _dl_find_object alone gives of a module, checked
 * field by field against cr_module_find (program headers read), for modules
 * loaded at start and one dlopen'ed later; nothing outside modules.
 */
static void check_quick(void)
{
	uintptr_t pcs[] = { (uintptr_t)&static_fn, libc_fn("strlen"), (uintptr_t)&cr_module_find };
	const char *what[] = { "executable", "libc", "this test's own code" };
	struct cr_module q, mod;
	int have = 0;

#ifdef HAVE__DL_FIND_OBJECT
	have = 1;
#endif
	for (unsigned i = 0; i < sizeof(pcs) / sizeof(pcs[0]); i++) {
		char name[128];
		int r, lib = i == 1;

		memset(&q, 0xa5, sizeof(q));
		r = cr_module_quick(pcs[i], &q);
		snprintf(name, sizeof(name), "quick: %s: %s", what[i],
			 !have ? "-CR_ENOSYS without _dl_find_object"
			 : lib ? "the span, bias and tables cr_module_find gives"
			       : "those of cr_module_find, the span's end at most its, or no answer");
		if (!have) {
			tap_ok(r == -CR_ENOSYS, name);
			continue;
		}
		if (cr_module_find(&cr_mem_self, pcs[i], &mod) != 0 || (r != 0 && r != -CR_ENOINFO) ||
		    (r != 0 && lib)) {
			tap_ok(0, name);
			continue;
		}
		if (r != 0) {	/* the main program's span as qemu-user leaves it */
			tap_ok((unsigned char)q.path[0] == 0xa5 && q.lo == 0xa5a5a5a5a5a5a5a5ull, name);
			continue;
		}
		if (!tap_ok(q.eh_hdr == mod.eh_hdr && mod.eh_hdr && q.bias == mod.bias &&
				    q.lo == mod.lo && (lib ? q.hi == mod.hi : q.hi <= mod.hi) &&
				    pcs[i] >= q.lo && pcs[i] < q.hi && q.eh_hdr_len >= mod.eh_hdr_len &&
				    q.eh_hdr + q.eh_hdr_len == q.hi &&
				    cr_module_key(&q) == cr_module_key(&mod),
			    name))
			printf("# quick lo %llx hi %llx bias %llx eh %llx+%llx; find lo %llx hi %llx "
			       "bias %llx eh %llx+%llx; pc %llx\n",
			       (unsigned long long)q.lo, (unsigned long long)q.hi,
			       (unsigned long long)q.bias, (unsigned long long)q.eh_hdr,
			       (unsigned long long)q.eh_hdr_len, (unsigned long long)mod.lo,
			       (unsigned long long)mod.hi, (unsigned long long)mod.bias,
			       (unsigned long long)mod.eh_hdr, (unsigned long long)mod.eh_hdr_len,
			       (unsigned long long)pcs[i]);
		/* The fields it does not fill are left as they were. */
		tap_ok(q.dynamic == 0xa5a5a5a5a5a5a5a5ull && q.build_id_len == 0xa5 &&
			       (unsigned char)q.path[0] == 0xa5,
		       "quick: the other fields untouched");
	}
	tap_ok(cr_module_quick(0x1000, &q) < 0, "quick: no module at 0x1000");

	/* Loaded now: found, by both.  libresolv: neither this test nor a
	   sanitizer's runtime loads it. */
	void *h = dlopen("libresolv.so.2", RTLD_NOW | RTLD_NOLOAD);
	struct link_map *lm = NULL;

	if (!tap_ok(h == NULL, "quick: libresolv not loaded yet")) {
		dlclose(h);
		return;
	}
	h = dlopen("libresolv.so.2", RTLD_NOW);
	if (h && dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0)
		lm = NULL;
	uintptr_t pc = lm ? (uintptr_t)lm->l_ld : 0;	/* its dynamic section: inside it */

	tap_ok(pc && cr_module_find(&cr_mem_self, pc, &mod) == 0 && pc >= mod.lo && pc < mod.hi &&
		       (!have || (cr_module_quick(pc, &q) == 0 && q.lo == mod.lo &&
				  q.eh_hdr == mod.eh_hdr)),
	       "quick: a library dlopen'ed now is found");
	if (h)
		dlclose(h);
	tap_ok(!pc || !have || cr_module_quick(pc, &q) < 0, "quick: not after its dlclose");
}

/* s named name: whole in s->name when it fits, else truncated there and read from src. */
static void frag_sym(struct cr_sym *s, const char *name, int src, struct cr_mem *m)
{
	size_t n = strlen(name);

	memset(s, 0, sizeof(*s));
	memcpy(s->name, name, n < sizeof(s->name) ? n + 1 : sizeof(s->name) - 1);
	if (n + 1 < sizeof(s->name))
		return;
	s->name_src = (uint8_t)src;
	s->name_max = n + 1;
	if (src == CR_SYMNAME_ARENA) {
		s->name_ptr = name;
	} else {
		cr_mem_buffer(m, 0x10000, name, n + 1);
		s->name_at = 0x10000;
	}
}

/* cr_sym_fragment: the name's end decides, however long the name. */
static void t_fragment(void)
{
	static const struct {
		const char *name;
		int frag;
	} t[] = {
		{ "work.cold", 1 },	{ "work.cold.3", 1 },	 { "_Z4workv.cold.17", 1 },
		{ "work.cold.", 0 },	{ "work.colder", 0 },	 { "work.part.0", 0 },
		{ "cold", 0 },		{ ".cold", 0 },		 { "x.cold.1a", 0 },
		{ "work.cold.a1", 0 },	{ "w.cold", 1 },	 { "work", 0 },
	};
	static char lng[3][700];
	struct cr_mem m;
	struct cr_sym sym;
	int bad = 0;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		frag_sym(&sym, t[i].name, CR_SYMNAME_NONE, &m);
		if (cr_sym_fragment(&cr_mem_self, &sym) != t[i].frag) {
			printf("# %s: %d\n", t[i].name, !t[i].frag);
			bad++;
		}
	}
	tap_ok(bad == 0, "fragment: NAME.cold and NAME.cold.N, nothing else");
	/* 600-byte names, cut at 127 in the symbol: the end is read. */
	memset(lng, 'a', sizeof(lng));
	memcpy(lng[0] + 600, ".cold.42", 9);
	memcpy(lng[1] + 600, ".part.1", 8);
	memcpy(lng[2] + 120, ".cold", 5);	/* in the first 127 bytes only */
	lng[2][600] = 0;
	for (int src = CR_SYMNAME_MEM; src <= CR_SYMNAME_ARENA; src += CR_SYMNAME_ARENA - CR_SYMNAME_MEM) {
		int got[3];

		for (int i = 0; i < 3; i++) {
			frag_sym(&sym, lng[i], src, &m);
			got[i] = cr_sym_fragment(&m, &sym);
		}
		tap_ok(got[0] == 1 && got[1] == 0 && got[2] == 0,
		       src == CR_SYMNAME_MEM ? "fragment: a long name's end, read from memory"
					     : "fragment: a long name's end, from an arena");
		/* cr_sym_name reads the same places: the whole name. */
		{
			static char whole[1024];

			frag_sym(&sym, lng[0], src, &m);
			tap_ok(cr_sym_name(&m, &sym, whole, sizeof(whole)) == 0 &&
				       strcmp(whole, lng[0]) == 0,
			       src == CR_SYMNAME_MEM ? "name: a 608-byte name whole, from memory"
						     : "name: a 608-byte name whole, from an arena");
		}
	}
	/* Longer than CR_SYM_TAIL_MAX: not read to its end, not taken for one. */
	{
		static char huge[CR_SYM_TAIL_MAX + 64];

		memset(huge, 'b', sizeof(huge));
		memcpy(huge + sizeof(huge) - 6, ".cold", 6);
		frag_sym(&sym, huge, CR_SYMNAME_ARENA, &m);
		tap_ok(cr_sym_fragment(&m, &sym) == 0, "fragment: a name past the bound is not one");
	}
}

int main(void)
{
	struct cr_module mod;
	struct cr_sym sym;
	uint64_t pc;

	t_fragment();
	check_module("executable", (uintptr_t)&static_fn);
	check_module("libc", libc_fn("abort"));

	/* An exported function: .dynsym (the test links with -rdynamic? maybe not) or .symtab. */
	pc = (uintptr_t)&t_sym_global + 3;
	tap_ok(cr_module_find(&cr_mem_self, pc, &mod) == 0 && cr_sym_find(&cr_mem_self, &mod, pc, &sym) == 0,
	       "global function symbolized");
	tap_is_str(sym.name, "t_sym_global", "global name");
	tap_is_u64(sym.start, (uintptr_t)&t_sym_global, "global start");

	/* A static function: only .symtab (read from the file) has it. */
	pc = (uintptr_t)&static_fn + 2;
	tap_ok(cr_sym_find(&cr_mem_self, &mod, pc, &sym) == 0, "static function symbolized");
	tap_is_str(sym.name, "static_fn", "static name from .symtab");
	tap_ok(cr_sym_symtab(&mod, pc, &sym) == 0, ".symtab alone");

	/* libc's exported functions from .dynsym in memory, as dladdr sees them. */
	Dl_info info;
	pc = libc_fn("abort") + 4;
	dladdr((void *)(uintptr_t)pc, &info);
	tap_ok(cr_module_find(&cr_mem_self, pc, &mod) == 0 &&
		       cr_sym_dynsym(&cr_mem_self, &mod, pc, &sym) == 0,
	       "libc .dynsym");
	tap_is_str(sym.name, info.dli_sname, "same name as dladdr");
	tap_is_u64(sym.start, (uintptr_t)info.dli_saddr, "same start as dladdr");

	/* Many libc functions: our .dynsym reader agrees with dladdr on each. */
	uintptr_t fns[] = { libc_fn("malloc"), libc_fn("free"), libc_fn("printf"),
			    libc_fn("qsort"), libc_fn("strlen"), libc_fn("dlopen"),
			    libc_fn("exit") };
	int agree = 0, named = 0;
	for (unsigned i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		pc = fns[i] + 1;
		/* dladdr names nothing for an IFUNC's target (strlen -> __strlen_avx2). */
		if (!dladdr((void *)(uintptr_t)pc, &info) || !info.dli_sname)
			continue;
		named++;
		if (cr_module_find(&cr_mem_self, pc, &mod) == 0 &&
		    cr_sym_find(&cr_mem_self, &mod, pc, &sym) == 0 &&
		    sym.start == (uintptr_t)info.dli_saddr)
			agree++;
	}
	tap_ok(named >= 5, "dladdr names most of them");
	tap_is_u64((uint64_t)agree, (uint64_t)named, "start addresses agree with dladdr");

	/* Where libc's debug file is installed, we name what dladdr cannot. */
	pc = (uintptr_t)&strlen + 1;
	cr_module_find(&cr_mem_self, pc, &mod);
	char dbg[160];
	int len = snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%02x/", mod.build_id[0]);
	for (unsigned i = 1; i < mod.build_id_len && len < 150; i++)
		len += snprintf(dbg + len, sizeof(dbg) - (size_t)len, "%02x", mod.build_id[i]);
	snprintf(dbg + len, sizeof(dbg) - (size_t)len, ".debug");
	/* (Under ASan, strlen is the sanitizer's interceptor, not libc's.) */
	if (mod.build_id_len && access(dbg, R_OK) == 0 && strstr(mod.path, "/libc.so"))
		tap_ok(cr_sym_find(&cr_mem_self, &mod, pc, &sym) == 0 &&
			       strncmp(sym.name, "__strlen", 8) == 0,
		       "strlen's IFUNC target named from the build-id debug file");

	/* A report's symbol files: the first set of a report holds the arena,
	   and a table read into it once serves every lookup; a set without it
	   (a second report at the same time) reads with pread at each lookup.
	   Both name alike. */
	struct cr_symfiles held, other;
	struct cr_sym s1, s2;

	cr_symfiles_init(&held);
	cr_symfiles_init(&other);
	tap_ok(held.arena != NULL && other.arena == NULL, "one set at a time holds the arena");
	pc = (uintptr_t)&static_fn + 2;
	cr_module_find(&cr_mem_self, pc, &mod);
	tap_ok(cr_sym_find_in(&cr_mem_self, &mod, pc, &held, &s1) == 0 &&
		       cr_sym_find_in(&cr_mem_self, &mod, pc, &other, &s2) == 0,
	       "static function through both sets");
	tap_ok(strcmp(s1.name, "static_fn") == 0 && strcmp(s2.name, "static_fn") == 0 &&
		       s1.start == s2.start && s1.size == s2.size,
	       "arena and pread name it alike");
	int in_arena = 0, in_file = 0;

	for (unsigned i = 0; i < CR_SYMFILES; i++) {
		in_arena += held.f[i].fd >= 0 && held.f[i].tab != NULL;
		in_file += other.f[i].fd >= 0 && other.f[i].tab == NULL;
	}
	tap_ok(in_arena == 1 && in_file == 1, "the table is in the arena, or read from the file");
	pc = (uintptr_t)&strlen + 1;
	cr_module_find(&cr_mem_self, pc, &mod);
	if (mod.build_id_len && access(dbg, R_OK) == 0 && strstr(mod.path, "/libc.so"))
		tap_ok(cr_sym_find_in(&cr_mem_self, &mod, pc, &held, &s1) == 0 &&
			       cr_sym_find_in(&cr_mem_self, &mod, pc, &other, &s2) == 0 &&
			       strcmp(s1.name, s2.name) == 0 && s1.start == s2.start &&
			       strncmp(s1.name, "__strlen", 8) == 0,
		       "libc's debug file: arena and pread agree");
	cr_symfiles_close(&other);
	cr_symfiles_close(&held);
	cr_symfiles_init(&other);
	tap_ok(other.arena != NULL, "the arena is free again after close");
	cr_symfiles_close(&other);

	/* A report's backtrace borrows the report's set and gives it back
	   (report.c, cr_bt_prepare/cr_bt_done): a table the borrower loads is
	   counted in the set given back, so the next table goes after it, not
	   over it (a struct copy counted it in the lender: in the clang build
	   the other threads' sections lost the executable's names). */
	{
		struct cr_symfiles lender, borrower;
		int owned = 1;

		cr_symfiles_init(&lender);
		cr_symfiles_move(&borrower, &lender);
		for (unsigned i = 0; i < CR_SYMFILES; i++)
			owned &= borrower.f[i].owner == &borrower;
		tap_ok(owned, "move: the borrower's files are the borrower's");
		pc = (uintptr_t)&static_fn + 2;
		cr_module_find(&cr_mem_self, pc, &mod);
		tap_ok(cr_sym_find_in(&cr_mem_self, &mod, pc, &borrower, &s1) == 0 &&
			       strcmp(s1.name, "static_fn") == 0 && borrower.used > 0,
		       "move: a table loaded through the borrower is counted in it");
		cr_symfiles_move(&lender, &borrower);
		tap_is_u64(lender.used, borrower.used, "move back: the lender counts it");
		tap_ok(cr_sym_find_in(&cr_mem_self, &mod, pc, &lender, &s2) == 0 &&
			       strcmp(s2.name, "static_fn") == 0,
		       "move back: the table still names the function");
		cr_symfiles_close(&lender);
	}

	/* cr_sym_find_many: a module's sorted pcs in one pass, each answer the
	   one cr_sym_find_in gives, names included; the batch's slot is held
	   against other modules until released. */
	{
		struct cr_symfiles bs, one;
		struct cr_symbest work[3 * 8];
		struct cr_sym out[8], ref;
		uint64_t pcs[8], fpcs[] = { (uintptr_t)&static_fn, (uintptr_t)&static_fn + 2,
					    (uintptr_t)&t_sym_global + 3, (uintptr_t)&main + 1,
					    (uintptr_t)&check_module + 5 };
		uint8_t ok[8];
		unsigned n = 0, same = 0, found = 0, kept;
		struct cr_module exe, fake;

		cr_module_find(&cr_mem_self, (uintptr_t)&static_fn, &exe);
		for (unsigned i = 0; i < CR_ARRAY_SIZE(fpcs); i++) {
			unsigned j = n++;

			for (; j > 0 && pcs[j - 1] > fpcs[i]; j--)
				pcs[j] = pcs[j - 1];
			pcs[j] = fpcs[i];
		}
		cr_symfiles_init(&bs);
		cr_symfiles_init(&one);
		cr_sym_find_many(&cr_mem_self, &exe, pcs, n, &bs, work, out, ok);
		for (unsigned i = 0; i < n; i++) {
			int r = cr_sym_find_in(&cr_mem_self, &exe, pcs[i], &one, &ref);

			found += ok[i];
			same += (r == 0) == ok[i] &&
				(r < 0 || (ref.start == out[i].start && ref.size == out[i].size &&
					   strcmp(ref.name, out[i].name) == 0));
		}
		tap_ok(found == n && same == n, "find_many: 5 pcs of the executable, find_in's symbols");
		/* Four other modules (made up: their lookups fail, their slots are taken). */
		fake = exe;
		fake.dynamic = 0;
		fake.path[0] = 0;
		for (unsigned k = 1; k <= 4; k++) {
			fake.lo = k * 0x1000;
			cr_sym_find_in(&cr_mem_self, &fake, fake.lo + 1, &bs, &ref);
		}
		kept = 0;
		for (unsigned i = 0; i < CR_SYMFILES; i++)
			kept += bs.f[i].mod_lo == exe.lo && bs.f[i].fd >= 0;
		tap_ok(kept == 1, "find_many's file stays open past four other modules (held)");
		cr_symfiles_release(&bs);
		for (unsigned k = 5; k <= 8; k++) {
			fake.lo = k * 0x1000;
			cr_sym_find_in(&cr_mem_self, &fake, fake.lo + 1, &bs, &ref);
		}
		kept = 0;
		for (unsigned i = 0; i < CR_SYMFILES; i++)
			kept += bs.f[i].mod_lo == exe.lo;
		tap_ok(kept == 0, "released: taken by the next modules");
		cr_symfiles_close(&one);
		cr_symfiles_close(&bs);
	}

	/* Build-ids: present and as long as the linker made them (SHA1: 20). */
	cr_module_find(&cr_mem_self, (uintptr_t)&static_fn, &mod);
	tap_is_u64(mod.build_id_len, 20, "executable build-id length");
	tap_ok(mod.path[0] == '/', "executable path known");

	/* Not in any module. */
	tap_ok(cr_module_find(&cr_mem_self, 0x1000, &mod) < 0, "no module at 0x1000");
	check_quick();
	static_fn(1);
	t_sym_global(1);
	return tap_done();
}
