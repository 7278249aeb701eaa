/* SPDX-License-Identifier: MIT */
/*
 * abortmsg.c on made-up memory: glibc's struct abort_msg_s and libstdc++'s
 * exception header, type_info bases and runtime_error message laid out as
 * the ABIs say (exact text out), then damaged (truncated, misaligned, cyclic,
 * hostile counts: no message, never a fault, also when any one read fails);
 * the escaping of the line; the version check; .dynsym lookups by GNU and
 * SysV hash on hand-made tables and, against dlsym, on the running libc.
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "../tap.h"
#include "abortmsg.h"
#include "faultmem.h"

#define BASE 0x100000ull
static uint8_t img[0x20000] __attribute__((aligned(16)));
static struct cr_mem mem;
static struct cr_demangle_ws ws;
static struct cr_abortinfo info;

static void put64(uint64_t a, uint64_t v)
{
	memcpy(img + (a - BASE), &v, 8);
}

static void put32(uint64_t a, uint32_t v)
{
	memcpy(img + (a - BASE), &v, 4);
}

static void putstr(uint64_t a, const char *s)
{
	memcpy(img + (a - BASE), s, strlen(s) + 1);
}

static void reset(void)
{
	memset(img, 0, sizeof(img));
	cr_mem_buffer(&mem, BASE, img, sizeof(img));
}

static const char *line(void)
{
	static char buf[4096];

	cr_abort_format(&info, buf, sizeof(buf));
	return buf;
}

/* ---------------------------------------------------------------- glibc */

#define MSG (BASE + 0x1000)

static int glibc(uint32_t size, const char *text)
{
	reset();
	put32(MSG, size);
	putstr(MSG + 4, text);
	return cr_abort_glibc(&mem, MSG, &info);
}

static void test_glibc(void)
{
	char big[3000];

	tap_is_i64(glibc(4096, "free(): double free detected in tcache 2\n"), 0, "glibc: malloc message");
	tap_is_str(line(), "free(): double free detected in tcache 2", "glibc: final newline gone");
	tap_is_i64(info.kind, CR_ABORT_GLIBC, "glibc: kind");
	glibc(8192, "prog: a.c:5: main: Assertion `x\\n' failed.\n\n");
	tap_is_str(line(), "prog: a.c:5: main: Assertion `x\\\\n' failed.", "glibc: backslash escaped");
	glibc(4096, "a\tb\nc\x01\xc3\xa9\x7f");
	tap_is_str(line(), "a\\tb\\nc\\x01\\xc3\\xa9\\x7f", "glibc: controls and non-ASCII escaped");
	memset(big, 'm', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	tap_is_i64(glibc(4096, big), 0, "glibc: a long message");
	tap_ok(info.cut && strlen(info.text) == CR_ABORT_TEXT, "glibc: cut at CR_ABORT_TEXT bytes");
	tap_ok(strlen(line()) == CR_ABORT_TEXT + 3 && !strcmp(line() + CR_ABORT_TEXT, "..."),
	       "glibc: a cut message ends with ...");
	tap_is_i64(glibc(4096, ""), -CR_ENOINFO, "glibc: empty message: none");
	tap_is_i64(glibc(4096, "\n"), -CR_ENOINFO, "glibc: only a newline: none");
	tap_is_i64(glibc(100, "x\n"), -CR_ENOINFO, "glibc: size not page-rounded: none");
	tap_is_i64(glibc(0, "x\n"), -CR_ENOINFO, "glibc: size 0: none");
	tap_is_i64(glibc(0xfffff000u, "x\n"), -CR_ENOINFO, "glibc: size absurd: none");
	glibc(4096, "x\n");
	tap_is_i64(cr_abort_glibc(&mem, MSG + 8, &info), -CR_ENOINFO, "glibc: not page-aligned: none");
	tap_is_i64(cr_abort_glibc(&mem, 0, &info), -CR_ENOINFO, "glibc: NULL: none");
	/* The buffer says 4 pages; the memory ends after 16 bytes of it. */
	reset();
	{
		struct cr_mem m;
		uint64_t at = BASE + sizeof(img) - 4096;

		put32(at, 16384);
		putstr(at + 4, "short\n");
		cr_mem_buffer(&m, BASE, img, sizeof(img) - 4096 + 16);
		tap_is_i64(cr_abort_glibc(&m, at, &info), -CR_ENOINFO,
			   "glibc: text unreadable past the memory's end: none");
	}
	/* No NUL in the whole (one-page) buffer: not glibc's. */
	reset();
	put32(MSG, 4096);
	memset(img + (MSG - BASE) + 4, 'z', 4092);
	tap_is_i64(cr_abort_glibc(&mem, MSG, &info), 0, "glibc: no NUL within the text bound: cut");
	tap_ok(info.cut, "glibc: ... marked cut");
}

/* ---------------------------------------------------------------- C++ */

#define GLOBALS (BASE + 0x100)
#define HDR (BASE + 0x2000)
#define OBJ (HDR + 112)
#define TI (BASE + 0x3000)	/* type_infos, 0x100 apart */
#define NAMES (BASE + 0x4000)	/* their names, 0x40 apart */
#define VTBL (BASE + 0x5000)	/* the object's vtables, 0x40 apart */
#define STR (BASE + 0x6000)	/* the COW string: length at -24 */
#define RTTI_VT (BASE + 0x7000)	/* the type_info classes' vtables */
#define WHAT_RT 0x5550001ull
#define WHAT_LOGIC 0x5550002ull

static struct cr_abortsyms syms = {
	.have_eh = 1, .vt_class = RTTI_VT + 16, .vt_si = RTTI_VT + 0x40 + 16,
	.vt_vmi = RTTI_VT + 0x80 + 16, .what_runtime = WHAT_RT, .what_logic = WHAT_LOGIC,
};

/* type_info k: of kind vt, named name. */
static uint64_t ti(unsigned k, uint64_t vt, const char *name)
{
	uint64_t t = TI + 0x100 * k;

	put64(t, vt);
	put64(t + 8, NAMES + 0x40 * k);
	putstr(NAMES + 0x40 * k, name);
	return t;
}

/* An exception of type_info t thrown: globals -> header -> t. */
static void thrown(uint64_t t, uint64_t cls)
{
	put64(GLOBALS, HDR);
	put64(HDR, t);
	put64(HDR + 80, cls);
}

/* A runtime_error-like subobject at sub: vtable k with what() at slot 2, message text. */
static void subobj(uint64_t sub, unsigned k, uint64_t what, const char *text)
{
	put64(sub, VTBL + 0x40 * k + 16);
	put64(VTBL + 0x40 * k + 16 + 16, what);
	put64(sub + 8, STR + 24);
	put64(STR, strlen(text));
	putstr(STR + 24, text);
}

#define PRIMARY 0x474e5543432b2b00ull

/* MyError : std::runtime_error : std::exception, thrown, its message "boom". */
static void my_error(void)
{
	uint64_t exc, rt, my;

	reset();
	exc = ti(0, syms.vt_class, "St9exception");
	rt = ti(1, syms.vt_si, "St13runtime_error");
	put64(rt + 16, exc);
	my = ti(2, syms.vt_si, "7MyError");
	put64(my + 16, rt);
	thrown(my, PRIMARY);
	subobj(OBJ, 0, WHAT_RT, "boom");
}

static int cxx(void)
{
	return cr_abort_cxx(&mem, &syms, GLOBALS, &ws, &info);
}

static void test_cxx(void)
{
	uint64_t t, l, vmi;

	my_error();
	tap_is_i64(cxx(), 0, "c++: runtime_error subclass");
	tap_is_str(line(), "C++ exception MyError: boom", "c++: type demangled, what() text");
	tap_ok(info.kind == CR_ABORT_CXX && info.have_what, "c++: kind and have_what");

	my_error();
	put64(VTBL + 16 + 16, 0x999);	/* what() overridden */
	cxx();
	tap_is_str(line(), "C++ exception MyError", "c++: what() overridden: type only");

	my_error();
	put64(STR, 5000);	/* length past the bound; the text itself is short */
	cxx();
	tap_is_str(line(), "C++ exception MyError: boom", "c++: text ends at its NUL");

	my_error();
	put64(GLOBALS, 0);
	tap_is_i64(cxx(), -CR_ENOINFO, "c++: no caught exception: none");

	my_error();
	put64(HDR + 80, 0x434c4e47432b2b00ull);	/* "CLNGC++\0": libc++abi's */
	tap_is_i64(cxx(), -CR_ENOINFO, "c++: a foreign exception class: none");

	my_error();
	put64(GLOBALS, HDR + 4);
	tap_is_i64(cxx(), -CR_ENOINFO, "c++: a misaligned header: none");

	my_error();
	put64(GLOBALS, BASE + sizeof(img) - 40);	/* the class word lies past the end */
	tap_is_i64(cxx(), -CR_ENOINFO, "c++: a header past the memory's end: none");

	/* Dependent (std::rethrow_exception): the header's first word is the object. */
	my_error();
	put64(BASE + 0x8000, OBJ);
	put64(BASE + 0x8000 + 80, PRIMARY | 1);
	put64(GLOBALS, BASE + 0x8000);
	cxx();
	tap_is_str(line(), "C++ exception MyError: boom", "c++: a dependent exception: its primary's");

	/* A type that derives from nothing: int. */
	reset();
	thrown(ti(0, RTTI_VT + 0x200, "i"), PRIMARY);
	cxx();
	tap_is_str(line(), "C++ exception int", "c++: int");

	/* Local-linkage name with GCC's '*'; a name that does not demangle is printed as it is. */
	reset();
	thrown(ti(0, syms.vt_class, "*N12_GLOBAL__N_13ErrE"), PRIMARY);
	cxx();
	tap_is_str(line(), "C++ exception (anonymous namespace)::Err", "c++: '*' name");
	reset();
	thrown(ti(0, syms.vt_class, "Q!x"), PRIMARY);
	cxx();
	tap_is_str(line(), "C++ exception Q!x", "c++: undemangleable name as it is");
	reset();
	thrown(ti(0, syms.vt_class, ""), PRIMARY);
	tap_is_i64(cxx(), -CR_ENOINFO, "c++: empty name: none");

	/* A logic_error at offset 16 of a vmi class (a first base of 16 bytes). */
	reset();
	l = ti(1, syms.vt_si, "St11logic_error");
	put64(l + 16, ti(0, syms.vt_class, "St9exception"));
	vmi = ti(2, syms.vt_vmi, "N2ns5MultiE");
	put32(vmi + 16, 0);
	put32(vmi + 20, 2);
	put64(vmi + 24, ti(3, syms.vt_class, "5Plain"));
	put64(vmi + 32, 0 << 8 | 2);
	put64(vmi + 40, l);
	put64(vmi + 48, 16 << 8 | 2);
	thrown(vmi, PRIMARY);
	subobj(OBJ + 16, 1, WHAT_LOGIC, "multi base");
	cxx();
	tap_is_str(line(), "C++ exception ns::Multi: multi base", "c++: vmi base at offset 16");
	put64(vmi + 48, 16 << 8 | 2 | 1);
	cxx();
	tap_is_str(line(), "C++ exception ns::Multi", "c++: virtual base: not followed");
	put64(vmi + 48, 16 << 8);
	cxx();
	tap_is_str(line(), "C++ exception ns::Multi", "c++: non-public base: not followed");
	put64(vmi + 48, 16 << 8 | 2);
	subobj(OBJ + 16, 1, WHAT_RT, "multi base");
	cxx();
	tap_is_str(line(), "C++ exception ns::Multi", "c++: logic_error with runtime_error's what: no");
	put32(vmi + 20, 0xffffffffu);	/* a hostile count: bounded */
	tap_is_i64(cxx(), 0, "c++: vmi count 2^32-1: bounded, type still");

	/* A cycle of si bases: the walk ends. */
	reset();
	t = ti(0, syms.vt_si, "1A");
	put64(t + 16, ti(1, syms.vt_si, "1B"));
	put64(TI + 0x100 + 16, t);
	thrown(t, PRIMARY);
	tap_is_i64(cxx(), 0, "c++: cyclic bases end");
	tap_is_str(line(), "C++ exception A", "c++: cyclic bases: type only");

	/* An exception that derives from std::exception only: its what() is unknown code. */
	reset();
	t = ti(1, syms.vt_si, "5MyExc");
	put64(t + 16, ti(0, syms.vt_class, "St9exception"));
	thrown(t, PRIMARY);
	cxx();
	tap_is_str(line(), "C++ exception MyExc", "c++: std::exception subclass: type only");

	/* No libstdc++ vtables resolved: the type, never a guess at what(). */
	my_error();
	{
		struct cr_abortsyms none = { .have_eh = 1 };

		cr_abort_cxx(&mem, &none, GLOBALS, &ws, &info);
		tap_is_str(line(), "C++ exception MyError", "c++: unresolved vtables: type only");
	}
	/* std::runtime_error itself, what() text with a newline and a cut. */
	{
		char big[2000];

		my_error();
		thrown(TI + 0x100, PRIMARY);
		memset(big, 'w', sizeof(big) - 1);
		big[sizeof(big) - 1] = 0;
		subobj(OBJ, 0, WHAT_RT, big);
		cxx();
		tap_ok(info.cut && strlen(info.what) == CR_ABORT_TEXT, "c++: what() cut at the bound");
		tap_ok(strstr(line(), "C++ exception std::runtime_error: www") == line() &&
			       !strcmp(line() + strlen(line()) - 4, "w..."),
		       "c++: cut what() ends with ...");
	}
}

/* Every single failing read, in turn: a message or none, never a fault, never garbage. */
static void test_faults(void)
{
	struct faultmem f;
	unsigned long n;
	int bad = 0, runs = 0;

	for (unsigned long k = 1; k < 200; k++, runs++) {
		const struct cr_mem *m;

		my_error();
		n = k;
		m = faultmem_init(&f, &mem, &n);
		if (cr_abort_cxx(m, &syms, GLOBALS, &ws, &info) == 0 &&
		    strcmp(line(), "C++ exception MyError: boom") && strcmp(line(), "C++ exception MyError"))
			bad++;
		if (n)
			break;	/* fewer reads than k: all were tried */
	}
	tap_ok(!bad && runs > 5, "c++: any one read failing: the full line, the type, or none");
	bad = runs = 0;
	for (unsigned long k = 1; k < 50; k++, runs++) {
		const struct cr_mem *m;

		glibc(4096, "assert\n");
		n = k;
		m = faultmem_init(&f, &mem, &n);
		if (cr_abort_glibc(m, MSG, &info) == 0 && strcmp(line(), "assert"))
			bad++;
		if (n)
			break;
	}
	tap_ok(!bad && runs >= 2, "glibc: any one read failing: the message or none");
}

/* ---------------------------------------------------------------- format, version */

static void test_format(void)
{
	struct cr_abortinfo i = { .kind = CR_ABORT_CXX, .have_what = 1 };
	char buf[32];

	strcpy(i.type, "std::runtime_error");
	strcpy(i.what, "a\\b");
	cr_abort_format(&i, buf, sizeof(buf));
	tap_is_str(buf, "C++ exception std::runtime_e...", "format: cut to the buffer (31) with ...");
	tap_is_i64((int64_t)cr_abort_format(&i, buf, 4), 0, "format: a buffer too small: empty");
	tap_is_str(buf, "", "format: empty string");
	i.kind = CR_ABORT_NONE;
	tap_is_i64((int64_t)cr_abort_format(&i, buf, sizeof(buf)), 0, "format: nothing: 0");
	i.kind = CR_ABORT_GLIBC;
	strcpy(i.text, "012345678901234567890123456\\x");
	cr_abort_format(&i, buf, sizeof(buf));
	tap_is_str(buf, "012345678901234567890123456...", "format: an escape is never split");
	strcpy(i.text, "0123456789012345678901234\\");
	cr_abort_format(&i, buf, sizeof(buf));
	tap_is_str(buf, "0123456789012345678901234\\\\", "format: an escape that fits exactly");
}

static void test_version(void)
{
	static const struct {
		const char *v;
		int ok;
	} c[] = { { "2.36", 1 }, { "2.41", 1 }, { "2.15", 1 }, { "2.36.9000", 1 }, { "2.14", 0 },
		  { "2.42", 0 },  { "3.0", 0 },  { "2", 0 },     { "2.", 0 },	     { "", 0 },
		  { "x", 0 },	  { "2.36x", 0 }, { "12.36", 0 } };

	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char name[64];

		snprintf(name, sizeof(name), "version \"%s\": %s", c[i].v, c[i].ok ? "verified" : "not");
		tap_is_i64(cr_abort_glibc_verified(c[i].v), c[i].ok, name);
	}
}

/* ---------------------------------------------------------------- .dynsym lookups */

#define MOD BASE
enum { M_DYN = 0x100, M_HASH = 0x400, M_SYM = 0x1000, M_STR = 0x2000 };
static const char *const modsyms[] = { "", "alpha", "beta", "__abort_msg", "gamma", "delta" };
#define NSYM (sizeof(modsyms) / sizeof(modsyms[0]))

static uint32_t gnu_hash(const char *s)
{
	uint32_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static uint32_t sysv_hash(const char *s)
{
	uint32_t h = 0, g;

	while (*s) {
		h = (h << 4) + (unsigned char)*s++;
		g = h & 0xf0000000u;
		h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

/*
 * A module at MOD: symbols 1.. of modsyms at 0x100 * i (gamma undefined,
 * a function with a value: a canonical PLT entry), in .dynsym, with a GNU
 * hash table (2 buckets, symbols sorted by bucket as ld sorts them) or a SysV
 * one.  The sorting is the module's concern: here each bucket holds symbols
 * listed consecutively because the order in modsyms is rearranged for it.
 */
static void module(int gnu)
{
	uint32_t order[NSYM], n = 0;
	Elf64_Dyn dyn[] = { { gnu ? DT_GNU_HASH : DT_HASH, { MOD + M_HASH } },
			    { DT_SYMTAB, { MOD + M_SYM } },
			    { DT_STRTAB, { MOD + M_STR } },
			    { DT_STRSZ, { 0x200 } },
			    { DT_NULL, { 0 } } };
	uint32_t str = 1;

	reset();
	memcpy(img + M_DYN, dyn, sizeof(dyn));
	order[n++] = 0;
	if (gnu) {	/* bucket 0 first, then bucket 1 */
		for (unsigned b = 0; b < 2; b++)
			for (unsigned i = 1; i < NSYM; i++)
				if (gnu_hash(modsyms[i]) % 2 == b)
					order[n++] = i;
	} else {
		for (unsigned i = 1; i < NSYM; i++)
			order[n++] = i;
	}
	for (unsigned k = 1; k < NSYM; k++) {
		const char *name = modsyms[order[k]];
		int undef = !strcmp(name, "gamma");
		Elf64_Sym s = { .st_name = str,
				.st_info = ELF64_ST_INFO(STB_GLOBAL, k == 3 ? STT_OBJECT : STT_FUNC),
				.st_shndx = undef ? SHN_UNDEF : 1,
				.st_value = 0x100 * order[k] };

		memcpy(img + M_SYM + k * sizeof(s), &s, sizeof(s));
		strcpy((char *)img + M_STR + str, name);
		str += (uint32_t)strlen(name) + 1;
	}
	if (gnu) {
		uint32_t hdr[4] = { 2, 1, 1, 6 }, bucket[2] = { 0, 0 }, chain[NSYM];
		uint64_t bloom = 0;

		for (unsigned k = 1; k < NSYM; k++) {
			uint32_t h = gnu_hash(modsyms[order[k]]);

			bloom |= 1ull << (h % 64) | 1ull << ((h >> 6) % 64);
			if (!bucket[h % 2])
				bucket[h % 2] = k;
			chain[k - 1] = h & ~1u;
			if (k + 1 == NSYM || gnu_hash(modsyms[order[k + 1]]) % 2 != h % 2)
				chain[k - 1] |= 1;	/* the bucket's last */
		}
		memcpy(img + M_HASH, hdr, 16);
		memcpy(img + M_HASH + 16, &bloom, 8);
		memcpy(img + M_HASH + 24, bucket, 8);
		memcpy(img + M_HASH + 32, chain, (NSYM - 1) * 4);
	} else {
		uint32_t hdr[2] = { 3, NSYM }, bucket[3] = { 0 }, chain[NSYM] = { 0 };

		for (unsigned k = 1; k < NSYM; k++) {	/* pushed at the bucket's head */
			uint32_t b = sysv_hash(modsyms[k]) % 3;

			chain[k] = bucket[b];
			bucket[b] = k;
		}
		memcpy(img + M_HASH, hdr, 8);
		memcpy(img + M_HASH + 8, bucket, 12);
		memcpy(img + M_HASH + 20, chain, NSYM * 4);
	}
}

static int lookup(const char *name, int canon, uint64_t *a)
{
	*a = 0;
	return cr_dynsym_lookup(&mem, 0x10000, MOD, MOD + sizeof(img), MOD + M_DYN, name, canon, a);
}

static void test_lookup(void)
{
	for (int gnu = 0; gnu < 2; gnu++) {
		const char *kind = gnu ? "gnu" : "sysv";
		char name[96];
		uint64_t a;

		module(gnu);
		for (unsigned i = 1; i < NSYM; i++) {
			if (!strcmp(modsyms[i], "gamma"))
				continue;
			snprintf(name, sizeof(name), "%s: %s found, biased", kind, modsyms[i]);
			lookup(modsyms[i], 0, &a);
			tap_is_u64(a, 0x10000 + 0x100 * i, name);
		}
		snprintf(name, sizeof(name), "%s: an undefined function: not found", kind);
		tap_is_i64(lookup("gamma", 0, &a), -CR_ENOINFO, name);
		snprintf(name, sizeof(name), "%s: an undefined function with a value, canon: its PLT",
			 kind);
		lookup("gamma", 1, &a);
		tap_is_u64(a, 0x100 * 4, name);
		snprintf(name, sizeof(name), "%s: a missing name", kind);
		tap_is_i64(lookup("epsilon", 0, &a), -CR_ENOINFO, name);
		snprintf(name, sizeof(name), "%s: a prefix of a name", kind);
		tap_is_i64(lookup("alph", 0, &a), -CR_ENOINFO, name);
		/* Hostile: every single failing read, and a table cut short. */
		{
			struct faultmem f;
			const struct cr_mem *m;
			unsigned long n;
			int bad = 0;

			for (unsigned long k = 1; k < 100; k++) {
				n = k;
				m = faultmem_init(&f, &mem, &n);
				a = 0;
				if (cr_dynsym_lookup(m, 0x10000, MOD, MOD + sizeof(img), MOD + M_DYN,
						     "delta", 0, &a) == 0 &&
				    a != 0x10000 + 0x500)
					bad++;
				if (n)
					break;
			}
			snprintf(name, sizeof(name), "%s: any one read failing: right or not found", kind);
			tap_ok(!bad, name);
		}
		memset(img + M_HASH + 8, 0xff, 32);	/* buckets out of range */
		snprintf(name, sizeof(name), "%s: garbage buckets: not found, no fault", kind);
		tap_ok(lookup("delta", 0, &a) < 0 || a == 0x10000 + 0x500, name);
	}
}

/* The running libc, by its link map entry, against dlsym. */
static void test_live(void)
{
	static const char *const names[] = { "malloc", "free", "printf", "gnu_get_libc_version",
					     "__abort_msg", "qsort", "environ", "no_such_symbol_here" };
	const struct link_map *l;
	void *h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	int bad = 0;

	struct dl_find_object fo;

	if (!h || dlinfo(h, RTLD_DI_LINKMAP, &l) != 0 || _dl_find_object(l->l_ld, &fo) != 0) {
		tap_ok(0, "live: libc's link map and span");
		return;
	}
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		void *want = dlsym(h, names[i]);
		uint64_t got = 0;

		cr_dynsym_lookup(&cr_mem_self, l->l_addr, (uintptr_t)fo.dlfo_map_start,
				 (uintptr_t)fo.dlfo_map_end, (uintptr_t)l->l_ld, names[i], 0, &got);
		if (got != (uintptr_t)want) {
			printf("# %s: got 0x%llx, dlsym %p\n", names[i], (unsigned long long)got, want);
			bad++;
		}
	}
	tap_ok(!bad, "live: libc's .dynsym by its hash table equals dlsym");
	dlclose(h);
}

int main(void)
{
	test_glibc();
	test_cxx();
	test_faults();
	test_format();
	test_version();
	test_lookup();
	test_live();
	return tap_done();
}
