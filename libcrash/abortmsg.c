/* SPDX-License-Identifier: MIT */
/*
 * The abort message: glibc's __abort_msg and libstdc++'s current exception
 * (abortmsg.h; docs/design.md, "The abort message").
 */
#include <elf.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <string.h>

#include "config.h"
#include "abortmsg.h"
#include "scratch.h"
#include "str.h"

struct cr_abortsyms cr_abortsyms;

/* ---------------------------------------------------------------- .dynsym by name */

#define MAX_CHAIN 65536		/* symbols looked at in one hash chain, at most */

/* Symbol i: its address if it is name and takes part in lookups, else 0. */
static uint64_t match(const struct cr_mem *m, const struct cr_dyntab *d, uint32_t i,
		      const char *name, size_t len, int canon)
{
	char buf[64];
	Elf64_Sym s;
	unsigned type;

	if (len + 1 > sizeof(buf) ||
	    cr_read(m, d->symtab + (uint64_t)i * sizeof(s), &s, sizeof(s)) < 0)
		return 0;
	type = ELF64_ST_TYPE(s.st_info);
	if (!s.st_value || (type != STT_OBJECT && type != STT_FUNC && type != STT_NOTYPE))
		return 0;
	/* An undefined function with a value: the canonical PLT entry of a
	   non-PIE executable that takes the function's address (gABI "Symbol
	   Values"); every reference in the process is bound to it. */
	if (s.st_shndx == SHN_UNDEF && !(canon && type == STT_FUNC))
		return 0;
	if ((d->strsz && (s.st_name >= d->strsz || d->strsz - s.st_name < len + 1)) ||
	    cr_read(m, d->strtab + s.st_name, buf, len + 1) < 0 || buf[len] ||
	    !cr_memeq(buf, name, len))
		return 0;
	return s.st_shndx == SHN_UNDEF ? s.st_value : d->bias + s.st_value;
}

/* GNU hash (the format binutils and glibc define: DJB hash, a Bloom filter, buckets, chains). */
static uint32_t gnu_hash(const char *name, size_t *len)
{
	uint32_t h = 5381;
	size_t n = 0;

	for (; name[n]; n++)
		h = h * 33 + (unsigned char)name[n];
	*len = n;
	return h;
}

/* h, len: name's gnu_hash and length. */
static int gnu_lookup(const struct cr_mem *m, const struct cr_dyntab *d, const char *name,
		      uint32_t h, size_t len, int canon, uint64_t *addr)
{
	const uint32_t *hdr = d->ghdr;
	uint32_t bucket, ch;
	uint64_t word, mask, at;
	at = d->gnuhash + 16 + (uint64_t)(h / 64 % hdr[2]) * 8;
	mask = (1ull << (h % 64)) | (1ull << ((h >> hdr[3]) % 64));
	if (cr_read64(m, at, &word) < 0 || (word & mask) != mask)
		return -CR_ENOINFO;
	at = d->gnuhash + 16 + (uint64_t)hdr[2] * 8;
	if (cr_read(m, at + (uint64_t)(h % hdr[0]) * 4, &bucket, 4) < 0 || bucket < hdr[1])
		return -CR_ENOINFO;
	at += (uint64_t)hdr[0] * 4;	/* the chains, from symbol symoffset on */
	for (uint32_t i = bucket; i - bucket < MAX_CHAIN; i++) {
		if (cr_read(m, at + (uint64_t)(i - hdr[1]) * 4, &ch, 4) < 0)
			return -CR_EFAULT;
		if ((ch | 1) == (h | 1) && (*addr = match(m, d, i, name, len, canon)))
			return 0;
		if (ch & 1)	/* the chain's last */
			break;
	}
	return -CR_ENOINFO;
}

/* SysV hash (gABI "Hash Table"). */
static int sysv_lookup(const struct cr_mem *m, const struct cr_dyntab *d, const char *name,
		       int canon, uint64_t *addr)
{
	uint32_t h = 0, g, hdr[2], i;
	size_t len = 0;

	for (; name[len]; len++) {
		h = (h << 4) + (unsigned char)name[len];
		if ((g = h & 0xf0000000u))
			h ^= g >> 24;
		h &= ~g;
	}
	if (cr_read(m, d->hash, hdr, sizeof(hdr)) < 0 || !hdr[0])
		return -CR_ENOINFO;
	if (cr_read(m, d->hash + 8 + (uint64_t)(h % hdr[0]) * 4, &i, 4) < 0)
		return -CR_EFAULT;
	for (uint32_t k = 0; i != STN_UNDEF && k < hdr[1] && k < MAX_CHAIN; k++) {
		if (i >= hdr[1])
			return -CR_ENOINFO;
		if ((*addr = match(m, d, i, name, len, canon)))
			return 0;
		if (cr_read(m, d->hash + 8 + ((uint64_t)hdr[0] + i) * 4, &i, 4) < 0)
			return -CR_EFAULT;
	}
	return -CR_ENOINFO;
}

int cr_dynsym_find(const struct cr_mem *m, const struct cr_dyntab *d, const char *name, int canon,
		   uint64_t *addr)
{
	size_t len;
	uint32_t h = gnu_hash(name, &len);

	if (d->gnuhash)
		return gnu_lookup(m, d, name, h, len, canon, addr);
	return sysv_lookup(m, d, name, canon, addr);
}

int cr_dynsym_lookup(const struct cr_mem *m, uint64_t bias, uint64_t lo, uint64_t hi,
		     uint64_t dyn, const char *name, int canon, uint64_t *addr)
{
	struct cr_dyntab d;
	int ret;

	if ((ret = cr_dynsym_open(m, bias, lo, hi, dyn, &d)) < 0)
		return ret;
	return cr_dynsym_find(m, &d, name, canon, addr);
}

/* ---------------------------------------------------------------- install */

/*
 * The glibc releases whose struct abort_msg_s was read in their source:
 * { unsigned int size; char msg[]; }, size the page-rounded size of the
 * mmap that holds it, msg NUL-terminated (include/stdlib.h, written by
 * assert/assert.c and sysdeps/posix/libc_fatal.c since 2.15, when the
 * buffer moved to mmap, to 2.41, which rounds size + the header).  Tested:
 * 2.36 (x86_64, aarch64), 2.41 (riscv64, loongarch64 sysroots).  Any other
 * release prints no glibc message.
 */
#define GLIBC_FIRST 15
#define GLIBC_LAST 41

int cr_abort_glibc_verified(const char *v)
{
	unsigned major = 0, minor = 0;
	int digits = 0;

	for (; *v >= '0' && *v <= '9' && major < 100; v++, digits++)
		major = major * 10 + (unsigned)(*v - '0');
	if (!digits || *v++ != '.')
		return 0;
	for (digits = 0; *v >= '0' && *v <= '9' && minor < 1000; v++, digits++)
		minor = minor * 10 + (unsigned)(*v - '0');
	if (!digits || (*v && *v != '.'))
		return 0;
	return major == 2 && minor >= GLIBC_FIRST && minor <= GLIBC_LAST;
}

enum {
	N_ABORT_MSG, N_GET_GLOBALS,	/* looked for in every process */
	N_VT_CLASS, N_VT_SI, N_VT_VMI, N_WHAT_RT, N_WHAT_LOGIC,	/* where libstdc++ is */
	N_NAMES
};
/* Characters, not pointers: no relocation for the loader at start-up. */
static const char names[N_NAMES][48] = {
	[N_ABORT_MSG] = "__abort_msg",
	[N_GET_GLOBALS] = "__cxa_get_globals",
	[N_VT_CLASS] = "_ZTVN10__cxxabiv117__class_type_infoE",
	[N_VT_SI] = "_ZTVN10__cxxabiv120__si_class_type_infoE",
	[N_VT_VMI] = "_ZTVN10__cxxabiv121__vmi_class_type_infoE",
	[N_WHAT_RT] = "_ZNKSt13runtime_error4whatEv",
	[N_WHAT_LOGIC] = "_ZNKSt11logic_error4whatEv",
};

#if defined(__has_builtin)
#if __has_builtin(__builtin_thread_pointer)
#define HAVE_TP 1
#endif
#endif

#if HAVE_TP
static uint64_t thread_pointer(void)
{
	return (uintptr_t)__builtin_thread_pointer();
}
#endif

/*
 * Each name of [from, to) at its first definition in the loader's search
 * order (the link map's: the executable, the preloaded libraries, then the
 * others in load order), as the loader binds a reference to it.  The link map and the modules'
 * dynamic sections are the loader's, read at install in the process's
 * ordinary course (as the loader itself reads them at each binding), each
 * module's bytes through a buffer-backed cr_mem over its span.
 */
static void resolve(uint64_t *addr, unsigned from, unsigned to)
{
#ifdef HAVE__DL_FIND_OBJECT
	const struct link_map *l = _r_debug.r_map;
	unsigned left = to - from;
	uint32_t h[N_NAMES];
	size_t len[N_NAMES];

	for (unsigned k = from; k < to; k++)	/* once, not once a module */
		h[k] = gnu_hash(names[k], &len[k]);

	for (int i = 0; l && left && i < 1024; i++, l = l->l_next) {
		struct dl_find_object fo;
		struct cr_dyntab d;
		struct cr_mem m;
		uint64_t lo, hi;

		if (!l->l_ld || _dl_find_object(l->l_ld, &fo) != 0)
			continue;
		lo = (uintptr_t)fo.dlfo_map_start;
		hi = (uintptr_t)fo.dlfo_map_end;
		if (hi <= lo || (uintptr_t)l->l_ld < lo || (uintptr_t)l->l_ld >= hi)
			continue;
		cr_mem_buffer(&m, lo, fo.dlfo_map_start, hi - lo);
		if (cr_dynsym_open(&m, l->l_addr, lo, hi, (uintptr_t)l->l_ld, &d) < 0)
			continue;
		for (unsigned k = from; k < to; k++)
			if (!addr[k] && (d.gnuhash ? gnu_lookup(&m, &d, names[k], h[k], len[k], i == 0,
								&addr[k])
						   : sysv_lookup(&m, &d, names[k], i == 0, &addr[k])) == 0)
				left--;
	}
#else
	(void)addr;	/* glibc < 2.35: no lock-free way to a module's span; nothing */
	(void)from;
	(void)to;
#endif
}

void cr_abort_resolve(void)
{
	struct cr_abortsyms s = { 0 };
	uint64_t a[N_NAMES] = { 0 };

	resolve(a, N_ABORT_MSG, N_VT_CLASS);
	if (a[N_GET_GLOBALS])	/* libstdc++ is there: its names too */
		resolve(a, N_VT_CLASS, N_NAMES);
	if (a[N_ABORT_MSG] && cr_abort_glibc_verified(gnu_get_libc_version()))
		s.abort_msg = a[N_ABORT_MSG];
#if HAVE_TP
	/*
	 * libstdc++'s eh_globals is a __thread variable (global-dynamic TLS).
	 * In a module loaded with the program it lies in the static TLS block,
	 * at the same offset from the thread pointer in every thread (the TLS
	 * ABI's variants I and II): learnt here once from the installing
	 * thread, applied at the crash without a call.  A library loaded later
	 * by dlopen has per-thread blocks elsewhere: then the offset is far
	 * off (bounded here) or wrong for another thread, and the exception
	 * header's class check at the crash refuses what it finds.
	 */
	if (a[N_GET_GLOBALS]) {
		void *(*get)(void) = (void *(*)(void))(uintptr_t)a[N_GET_GLOBALS];
		int64_t off = (int64_t)((uintptr_t)get() - thread_pointer());

		if (off > -(1 << 20) && off < (1 << 20)) {
			s.have_eh = 1;
			s.eh_off = off;
		}
	}
#endif
	/* The address point of a vtable is its third word (Itanium C++ ABI
	   2.5.2: offset-to-top and RTTI pointer come first). */
	s.vt_class = a[N_VT_CLASS] ? a[N_VT_CLASS] + 16 : 0;
	s.vt_si = a[N_VT_SI] ? a[N_VT_SI] + 16 : 0;
	s.vt_vmi = a[N_VT_VMI] ? a[N_VT_VMI] + 16 : 0;
	s.what_runtime = a[N_WHAT_RT];
	s.what_logic = a[N_WHAT_LOGIC];
	cr_abortsyms = s;
}

/* ---------------------------------------------------------------- crash time */

/* glibc: the buffer is the start of an mmap; size its page-rounded length. */
#define MSG_MAX_SIZE (16u << 20)

int cr_abort_glibc(const struct cr_mem *m, uint64_t msg, struct cr_abortinfo *info)
{
	uint32_t size;
	size_t n;

	memset(info, 0, sizeof(*info));
	if (!msg || (msg & 4095) || cr_read(m, msg, &size, 4) < 0 || size < 8 || (size & 4095) ||
	    size > MSG_MAX_SIZE)
		return -CR_ENOINFO;
	n = size - 4 < CR_ABORT_TEXT ? size - 4 : CR_ABORT_TEXT;
	if (cr_read(m, msg + 4, info->text, n) < 0)
		return -CR_ENOINFO;
	info->text[n] = 0;
	info->cut = cr_strlen(info->text) == n && size - 4 > n;
	n = cr_strlen(info->text);
	if (n == CR_ABORT_TEXT && size - 4 == n)	/* no NUL in the buffer: not glibc's */
		return -CR_ENOINFO;
	while (n && info->text[n - 1] == '\n')
		info->text[--n] = 0;
	if (!n)
		return -CR_ENOINFO;
	info->kind = CR_ABORT_GLIBC;
	return 0;
}

/*
 * libstdc++'s exception header (unwind-cxx.h; Itanium C++ ABI 2.2 for its
 * start), LP64 without the ARM EHABI: exceptionType at 0 (a dependent
 * exception's primaryException), the _Unwind_Exception at 80 (its
 * exception_class first), and the thrown object right after the header's
 * 112 bytes (_Unwind_Exception is 32 bytes, 16-aligned, on every arch of
 * ours).
 */
#define EH_CLASS_OFF 80
#define EH_HEADER_SIZE 112
#define GNU_CXX 0x474e5543432b2b00ull	/* "GNUCC++\0": a primary exception */
#define GNU_CXX_DEP 0x474e5543432b2b01ull	/* "GNUCC++\1": dependent (rethrow_exception) */

/* A NUL-terminated string at a into buf (cap >= 2), cut to cap - 1: its length, -1: unreadable. */
static long read_cstr(const struct cr_mem *m, uint64_t a, char *buf, size_t cap)
{
	size_t i = 0;

	/* One read where the whole span is readable, else a byte at a time. */
	if (cr_read(m, a, buf, cap - 1) == 0) {
		buf[cap - 1] = 0;
		return (long)cr_strlen(buf);
	}
	for (; i + 1 < cap; i++) {
		if (cr_read(m, a + i, &buf[i], 1) < 0) {
			if (i == 0)
				return -1;
			break;
		}
		if (buf[i] == 0)
			break;
	}
	buf[i] = 0;
	return (long)i;
}

/* The type_info's demangled name into info->type. */
static int type_name(const struct cr_mem *m, uint64_t tinfo, struct cr_demangle_ws *ws,
		     struct cr_abortinfo *info)
{
	static const char prefix[] = "typeinfo name for ";
	char mangled[4 + 256], *n;
	uint64_t name;
	long len;

	if (cr_read64(m, tinfo + 8, &name) < 0 || !name ||
	    (len = read_cstr(m, name, mangled + 4, sizeof(mangled) - 4)) <= 0)
		return -CR_ENOINFO;
	n = mangled + 4;
	if (*n == '*')	/* GCC: compare this type_info by address */
		n++;
	/* A type is no encoding: demangled as the name of its typeinfo name
	   (_ZTS<type>), whose prefix then goes. */
	memcpy(n - 4, "_ZTS", 4);
	if (ws && cr_demangle_ws(ws, n - 4, info->type, sizeof(info->type)) >= 0 &&
	    cr_strncmp(info->type, prefix, sizeof(prefix) - 1) == 0) {
		size_t k = cr_strlen(info->type) - (sizeof(prefix) - 1);

		memmove(info->type, info->type + sizeof(prefix) - 1, k + 1);
	} else {
		size_t k = cr_strlen(n);

		memcpy(info->type, n, k + 1);	/* k < 256 <= sizeof(info->type) */
	}
	return info->type[0] ? 0 : -CR_ENOINFO;
}

/*
 * The offset in the object of its std::runtime_error (want 1) or
 * std::logic_error (want 2) base, public and not virtual, by the
 * type_info's base classes (Itanium C++ ABI 2.9.5: __si_class_type_info's
 * one base at 16, __vmi_class_type_info's flags and count at 16 and 20, its
 * bases at 24, 16 bytes each: the base's type_info, then offset << 8 |
 * flags, 2 public, 1 virtual).  Which base into *which.  0 or -CR_ENOINFO.
 */
#define WALK_NODES 64
#define WALK_STACK 16
static int find_base(const struct cr_mem *m, const struct cr_abortsyms *s, uint64_t tinfo,
		     int64_t *off, int *which)
{
	uint64_t st[WALK_STACK];
	int64_t so[WALK_STACK];
	unsigned sp = 0;

	st[sp] = tinfo;
	so[sp++] = 0;
	for (unsigned visits = 0; sp && visits < WALK_NODES; visits++) {
		uint64_t t = st[--sp], vp, name;
		int64_t o = so[sp];
		uint32_t cnt[2];
		char buf[20];

		if (cr_read64(m, t, &vp) < 0 || cr_read64(m, t + 8, &name) < 0 ||
		    read_cstr(m, name, buf, sizeof(buf)) < 0)
			continue;
		*which = cr_strcmp(buf, "St13runtime_error") == 0 ? 1
			 : cr_strcmp(buf, "St11logic_error") == 0  ? 2
								    : 0;
		if (*which) {
			*off = o;
			return 0;
		}
		if (s->vt_si && vp == s->vt_si) {
			if (cr_read64(m, t + 16, &st[sp]) == 0 && st[sp] && sp < WALK_STACK)
				so[sp++] = o;
		} else if (s->vt_vmi && vp == s->vt_vmi && cr_read(m, t + 16, cnt, 8) == 0) {
			for (uint32_t i = 0; i < cnt[1] && i < WALK_NODES && sp < WALK_STACK; i++) {
				uint64_t b[2];

				if (cr_read(m, t + 24 + 16ull * i, b, 16) < 0)
					break;
				if (!b[0] || !(b[1] & 2) || (b[1] & 1))
					continue;	/* not public, or virtual: not followed */
				st[sp] = b[0];
				so[sp++] = o + ((int64_t)b[1] >> 8);
			}
		}
		/* __class_type_info: no base; any other vtable: not a class */
	}
	return -CR_ENOINFO;
}

/*
 * what() of a runtime_error or logic_error subobject at sub, if its vtable's
 * what() slot (index 2, after the two destructors of std::exception: Itanium
 * C++ ABI 2.5.2) is theirs: the text of its __cow_string (one pointer, at 8,
 * to the characters of a COW string, whose length is 24 bytes before them).
 */
static int what_text(const struct cr_mem *m, uint64_t sub, uint64_t want_fn,
		     struct cr_abortinfo *info)
{
	uint64_t vp, fn, p, len;
	size_t n;

	if (!want_fn || cr_read64(m, sub, &vp) < 0 || cr_read64(m, vp + 16, &fn) < 0 ||
	    fn != want_fn || cr_read64(m, sub + 8, &p) < 0 || !p || cr_read64(m, p - 24, &len) < 0 ||
	    len > (1u << 30))
		return -CR_ENOINFO;
	n = len < CR_ABORT_TEXT ? len : CR_ABORT_TEXT;
	if (n && cr_read(m, p, info->what, n) < 0)
		return -CR_ENOINFO;
	info->what[n] = 0;
	/* what() is c_str(): the text ends at its first NUL. */
	info->cut = len > n && cr_strlen(info->what) == n;
	info->have_what = 1;
	return 0;
}

int cr_abort_cxx(const struct cr_mem *m, const struct cr_abortsyms *s, uint64_t globals,
		 struct cr_demangle_ws *ws, struct cr_abortinfo *info)
{
	uint64_t hdr, cls, obj, tinfo;
	int64_t off;
	int which;

	memset(info, 0, sizeof(*info));
	if (cr_read64(m, globals, &hdr) < 0 || !hdr || (hdr & 7) ||
	    cr_read64(m, hdr + EH_CLASS_OFF, &cls) < 0)
		return -CR_ENOINFO;
	if (cls == GNU_CXX) {
		obj = hdr + EH_HEADER_SIZE;
	} else if (cls == GNU_CXX_DEP) {
		if (cr_read64(m, hdr, &obj) < 0 || !obj || (obj & 7))
			return -CR_ENOINFO;
		hdr = obj - EH_HEADER_SIZE;
	} else {
		return -CR_ENOINFO;	/* a foreign exception, or not libstdc++'s */
	}
	if (cr_read64(m, hdr, &tinfo) < 0 || !tinfo || (tinfo & 7) ||
	    type_name(m, tinfo, ws, info) < 0)
		return -CR_ENOINFO;
	info->kind = CR_ABORT_CXX;
	if (find_base(m, s, tinfo, &off, &which) == 0)
		what_text(m, obj + (uint64_t)off, which == 1 ? s->what_runtime : s->what_logic, info);
	return 0;
}

/* The report's workspace: one report at a time holds it. */
static struct {
	struct cr_demangle_ws ws;
	struct cr_abortinfo info;
} store;
static struct cr_scratch scratch = { &store, sizeof(store), 0 };

static int read_with(const struct cr_mem *m, struct cr_demangle_ws *ws, struct cr_abortinfo *info)
{
	const struct cr_abortsyms *s = &cr_abortsyms;
	uint64_t msg;

	memset(info, 0, sizeof(*info));
	if (s->abort_msg && cr_read64(m, s->abort_msg, &msg) == 0 && msg &&
	    cr_abort_glibc(m, msg, info) == 0)
		return 0;
#if HAVE_TP
	if (s->have_eh)
		return cr_abort_cxx(m, s, thread_pointer() + (uint64_t)s->eh_off, ws, info);
#endif
	(void)ws;
	return -CR_ENOINFO;
}

int cr_abort_read(const struct cr_mem *m, struct cr_abortinfo *info)
{
	size_t size;
	void *p = cr_scratch_get(&scratch, NULL, 0, &size);
	int ret;

	if (!p)
		return -CR_ENOINFO;
	ret = read_with(m, &store.ws, info);
	cr_scratch_put(&scratch, p);
	return ret;
}

/* s, escaped, from buf[*n] on (room: cap - 1 - *n); 0 when it did not all fit. */
static int put_esc(char *buf, size_t cap, size_t *n, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char e[4];
		size_t k = 0;

		if (c == '\\' || c == '\n' || c == '\t' || c == '\r') {
			e[k++] = '\\';
			e[k++] = c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
		} else if (c < 0x20 || c >= 0x7f) {
			e[k++] = '\\';
			e[k++] = 'x';
			e[k++] = hex[c >> 4];
			e[k++] = hex[c & 15];
		} else {
			e[k++] = (char)c;
		}
		if (*n + k > cap - 1)
			return 0;
		memcpy(buf + *n, e, k);
		*n += k;
	}
	return 1;
}

size_t cr_abort_format(const struct cr_abortinfo *info, char *buf, size_t cap)
{
	size_t n = 0;
	int all = 1;

	if (!cap)
		return 0;
	/* "..." needs room: the escapes stop 3 bytes short when they are cut. */
	if (cap < 8 || info->kind == CR_ABORT_NONE) {
		buf[0] = 0;
		return 0;
	}
	if (info->kind == CR_ABORT_GLIBC) {
		all = put_esc(buf, cap - 3, &n, info->text) && !info->cut;
	} else {
		all = put_esc(buf, cap - 3, &n, "C++ exception ") &&
		      put_esc(buf, cap - 3, &n, info->type);
		if (all && info->have_what)
			all = put_esc(buf, cap - 3, &n, ": ") &&
			      put_esc(buf, cap - 3, &n, info->what) && !info->cut;
	}
	if (!all) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = 0;
	return n;
}

size_t cr_abort_message(const struct cr_mem *m, char *buf, size_t cap)
{
	size_t size, n = 0;
	void *p = cr_scratch_get(&scratch, NULL, 0, &size);

	if (!p)
		return 0;
	if (read_with(m, &store.ws, &store.info) == 0)
		n = cr_abort_format(&store.info, buf, cap);
	cr_scratch_put(&scratch, p);
	return n;
}
