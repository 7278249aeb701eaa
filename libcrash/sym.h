/* SPDX-License-Identifier: MIT */
/*
 * Our own symbolizer: .dynsym read from memory through PT_DYNAMIC (in place
 * where the reader proves its pages), then .symtab from the module's file
 * (static functions) with pread.
 * AS-safe (open, pread, close only), bounded, no loader lock.  dladdr is not
 * used in the signal path: it takes the loader's lock and sees only .dynsym,
 * which this reader covers.
 */
#ifndef CR_SYM_H
#define CR_SYM_H

#include "module.h"
#include "symidx.h"

struct cr_sym {
	uint64_t start, size;	/* absolute address of the symbol */
	char name[128];		/* truncated if longer: cr_sym_name() reads it whole */
	/* Where the whole name lies, for cr_sym_name(): */
	uint8_t name_src;	/* CR_SYMNAME_* */
	int name_fd;		/* FILE: the open symbol file (valid while it is open) */
	uint64_t name_at;	/* MEM: its address; FILE: its offset in name_fd */
	uint64_t name_max;	/* bytes from name_at to the end of its string table */
	const char *name_ptr;	/* ARENA: the name in the symbol file's arena copy */
};
enum { CR_SYMNAME_NONE, CR_SYMNAME_MEM, CR_SYMNAME_FILE, CR_SYMNAME_ARENA };

/*
 * The whole name of s (found by a lookup whose symbol file is still open)
 * into buf: 0, or -CR_ERANGE (longer than cap - 1: buf holds its first
 * cap - 1 bytes), -CR_EFAULT (unreadable: buf holds s->name).  AS-safe.
 */
int cr_sym_name(const struct cr_mem *m, const struct cr_sym *s, char *buf, size_t cap);

/*
 * Is s a fragment of a function, not a function: a part the compiler moved
 * out of its body (GCC's and clang's hot/cold splitting: NAME.cold,
 * NAME.cold.N), entered by a jump with the body's frame, so its first byte
 * is no entry and its code no prologue.  Read from the end of the whole
 * name (s's lookup's symbol file still open); a name longer than
 * CR_SYM_TAIL_MAX bytes, or unreadable, is not taken for one.  AS-safe.
 */
#define CR_SYM_TAIL_MAX 4096
int cr_sym_fragment(const struct cr_mem *m, const struct cr_sym *s);

/*
 * The function symbol that contains pc (a sized symbol with start <= pc < end,
 * or the nearest unsized one with no sized symbol nearer).  0 or -CR_ENOINFO.
 */
int cr_sym_find(const struct cr_mem *m, const struct cr_module *mod, uint64_t pc,
		struct cr_sym *out);

/*
 * The symbol file of one module kept open across lookups (one report): its
 * .symtab is found once, and a module without one is not searched again;
 * its .dynsym's place and size are read once too.  From the second lookup in
 * a table on, the table's address-sorted index answers (symidx.h: built in
 * the pass of that lookup, kept in an anonymous mapping that
 * cr_symfile_close unmaps; a module looked up once is scanned once).
 * The .symtab and its strings are read once into the owner's arena where
 * they fit (else read with pread at each lookup).
 * cr_symfile_init before use, cr_symfile_close after (AS-safe: close).
 */
struct cr_symfile {
	uint64_t mod_lo, mod_bias;	/* the module (mod_lo 0: none yet) */
	int fd;				/* -1: no file with a .symtab */
	uint8_t tried;			/* the .symtab was looked for (fd says what was found) */
	uint8_t dyn_known;		/* 1: dyn_* below are the module's; 2: it has no .dynsym */
	/* Lookups so far in .dynsym and .symtab: the second one indexes its table
	   (cr_symidx: a module looked up once costs one scan, as before). */
	uint16_t dyn_lookups, tab_lookups;
	uint64_t dyn_symtab, dyn_strtab, dyn_count;
	struct cr_symidx dynix, tabix;
	uint64_t sym_off, sym_size, str_off, str_size;
	const uint8_t *tab;		/* NULL, or the file's bytes from tab_off on, in the arena */
	uint64_t tab_off;
	struct cr_symfiles *owner;	/* NULL, or the set whose arena small tables go to */
};
void cr_symfile_init(struct cr_symfile *sf);
void cr_symfile_close(struct cr_symfile *sf);

/*
 * The symbol files of the last few modules of one report (a trace goes
 * executable -> libc -> executable): the oldest is closed for a new one.
 * Their small tables are read once into a static arena (64 KiB, one set at
 * a time).
 */
#define CR_SYMFILES 4
struct cr_symfiles {
	struct cr_symfile f[CR_SYMFILES];
	unsigned next;			/* the slot taken next */
	unsigned held;			/* slots cr_sym_find_many's answers name: not
					   taken for another module until released */
	uint8_t *arena;			/* the shared arena for small tables, NULL: none */
	uint64_t used;			/* bytes of it used */
	/* The separate debug file of a module into path (0), or -1: where the
	   .symtab is looked for first (NULL: the build-id tree of /usr/lib/debug). */
	int (*debug_file)(void *arg, const struct cr_module *mod, char *path, size_t cap);
	void *debug_arg;
};
void cr_symfiles_init(struct cr_symfiles *s);
void cr_symfiles_close(struct cr_symfiles *s);
/*
 * *dst = *src, and dst's files made dst's: a file loads its table into its
 * owner's arena and counts it in the owner's used bytes, so a plain struct
 * copy would count in src, and the copy's next table would overwrite the
 * first (a report's backtraces borrow the report's set this way).
 */
void cr_symfiles_move(struct cr_symfiles *dst, const struct cr_symfiles *src);

/* cr_sym_find with the .symtab files kept in s (NULL: opened for this lookup). */
int cr_sym_find_in(const struct cr_mem *m, const struct cr_module *mod, uint64_t pc,
		     struct cr_symfiles *s, struct cr_sym *out);

/*
 * cr_sym_find_in for n pcs of one module at once, sorted ascending: out[i]
 * and ok[i] = 1 where it finds pcs[i]'s symbol, the same symbol and name.
 * One pass over .dynsym and, for the pcs it has no sized symbol for, one
 * over .symtab: a backtrace's frames in a module cost one scan of each
 * table, without an index or memory to fault in.  work: room for 3 * n.
 * A name may be read from the module's symbol file when it is printed
 * (cr_sym_name): its slot in s is held, not taken for another module
 * (unless all are held), until cr_symfiles_release.  0.  AS-safe.
 */
int cr_sym_find_many(const struct cr_mem *m, const struct cr_module *mod, const uint64_t *pcs,
		     unsigned n, struct cr_symfiles *s, struct cr_symbest *work,
		     struct cr_sym *out, uint8_t *ok);

void cr_symfiles_release(struct cr_symfiles *s);

/* The parts, for tests. */
int cr_sym_dynsym(const struct cr_mem *m, const struct cr_module *mod, uint64_t pc,
		  struct cr_sym *out);
int cr_sym_symtab(const struct cr_module *mod, uint64_t pc, struct cr_sym *out);
int cr_sym_symtab_in(const struct cr_module *mod, uint64_t pc, struct cr_symfile *sf,
		       struct cr_sym *out);

#endif
