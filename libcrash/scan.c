/* SPDX-License-Identifier: MIT */
/* Engine scan: decode the prologue from the function start to pc. */
#include <elf.h>
#include <string.h>

#include "cfi/cfi.h"
#include "module.h"
#include "sym.h"
#include "unwind.h"
#include "str.h"

#define SCAN_MAX 4096	/* bytes of a function we read; longer distances are not scanned */

/*
 * Where the function around pc starts: the range of the FDE that covers pc,
 * where there is one (the function as its compiler described it; stripped
 * libraries keep .eh_frame for their static functions: the scan uses its
 * range, not its rows); else a sized symbol that contains pc; else the
 * nearest unsized symbol (hand-written assembly).  No FDE and no symbol, or
 * a pc past its sized symbol's end (a PLT stub after _init): -CR_ENOSTART.
 * *frag: the symbol is a fragment (cr_sym_fragment: NAME.cold), or the FDE
 * starts inside a frame already built (cr_cfa_entry_row: GCC's FDE of
 * NAME.cold), whose start is no entry: its range serves to find
 * instruction boundaries, not a frame.
 * The FDE first: its search is a binary search of .eh_frame_hdr in memory,
 * where a static function's symbol is in the .symtab of a file (libc's is
 * 240 KiB, in its debug file), read and indexed at the first lookup of a walk
 * (docs/scan.md, "Cost").  Apart from the decoding so that the symbolizer's
 * buffers and a code buffer are never on the stack at once (noinline).
 */
static __attribute__((noinline)) int find_function(struct cr_walk *w, uint64_t pc, uint64_t *start,
						    uint64_t *size, uint8_t *frag)
{
	const struct cr_module *mod;
	struct cr_symfiles *syms = NULL;
	struct cr_sym sym;
	uint64_t lo, hi;

	*frag = 0;
	if (cr_walk_module(w, pc, &mod) < 0)
		return -CR_ENOSTART;
	if (cr_cfi_function(w, pc, &lo, &hi, frag) == 0 && lo <= pc && pc < hi) {
		*start = lo;
		*size = hi - lo;
		return 0;
	}
	/* The walk's symbol files (cr_unwind), opened at the first lookup. */
	if (w->syms) {
		if (!w->syms_open) {
			cr_symfiles_init(w->syms);
			w->syms_open = 1;
		}
		syms = w->syms;
	}
	if (cr_sym_find_in(w->mem, mod, pc, syms, &sym) < 0)
		return -CR_ENOSTART;
	if (sym.size && pc - sym.start >= sym.size)
		return -CR_ENOSTART;
	*start = sym.start;
	*size = sym.size;
	*frag = (uint8_t)cr_sym_fragment(w->mem, &sym);
	return 0;
}

/*
 * The row cache (cfi/cache.h) keeps scan's answers too, for live walks
 * (crash_backtrace*: a profiler's repeated captures), under keys of their own:
 * a row decoded for a pc (a caller's, or an exact pc's), and whether a
 * return address follows a call (cr_scan_confirm).  Both are functions of
 * the module's code alone (and of its symbols and FDE ranges, which give the
 * function's start), and code does not change while a module is loaded.  A
 * module is known by its start, its .eh_frame_hdr and a hash of its build-id:
 * scan's modules mostly have no .eh_frame_hdr, so the build-id is what tells
 * one library from the next loaded at the same address (tests/unit/t-recall);
 * a module without one is decoded every time.  Bit 63 set: never a CFI row's
 * key (cr_module_key: a user address, and .eh_frame_hdr's shifted by one,
 * are below 2^62 on every arch here); bits 61-62: which answer.
 */
enum { SCAN_CALLER, SCAN_EXACT, SCAN_CONFIRM };

static uint64_t build_id_hash(const struct cr_module *mod)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a, 64-bit */

	for (unsigned i = 0; i < mod->build_id_len && i < sizeof(mod->build_id); i++)
		h = (h ^ mod->build_id[i]) * 0x100000001b3ull;
	return h;
}

/* The key of pc's module for what, when the walk caches (live walks); 0: none. */
static uint64_t key_at(struct cr_walk *w, uint64_t pc, unsigned what)
{
	const struct cr_module *mod;

	if (!w->cache || cr_walk_module(w, pc, &mod) < 0 || !mod->build_id_len)
		return 0;
	if (!w->scan_h_ok) {	/* once per module the walk enters */
		w->scan_h = build_id_hash(mod);
		w->scan_h_ok = 1;
	}
	return 1ull << 63 | (uint64_t)what << 61 |
	       ((cr_module_key(mod) ^ w->scan_h) & ((1ull << 61) - 1));
}

/*
 * find_function, once per pc in a walk of cr_unwind (w->syms set): a scanned
 * caller's confirmation and its own step ask the same.
 */
static int function_at(struct cr_walk *w, uint64_t pc, uint64_t *start, uint64_t *size,
		       uint8_t *frag)
{
	if (!w->syms)
		return find_function(w, pc, start, size, frag);
	if (w->fn_key != pc + 1 || pc + 1 == 0) {
		w->fn_ret = find_function(w, pc, &w->fn_start, &w->fn_size, &w->fn_frag);
		w->fn_key = pc + 1;
	}
	if (w->fn_ret < 0)
		return w->fn_ret;
	*start = w->fn_start;
	*size = w->fn_size;
	*frag = w->fn_frag;
	return 0;
}

int cr_scan_function(struct cr_walk *w, uint64_t pc, uint64_t *start, uint64_t *size)
{
	uint8_t frag;

	return function_at(w, pc, start, size, &frag);
}

int cr_scan_frame_start(struct cr_walk *w, uint64_t pc, uint64_t *start, uint64_t *size)
{
	uint8_t frag;
	int ret = function_at(w, pc, start, size, &frag);

	return ret == 0 && frag ? -CR_ENOSTART : ret;
}

/*
 * Is start the entry point (e_entry) of its module?  The kernel (or the
 * dynamic loader) jumps there with no return address: the outermost frame on
 * every arch (psABIs, "Process Initialization").  Shared libraries have
 * e_entry 0.  The ELF header must be the one whose program headers the module
 * table holds.
 */
__attribute__((noinline)) static int is_entry(struct cr_walk *w, uint64_t start)
{
	const struct cr_module *mod;
	Elf64_Ehdr eh;

	if (cr_walk_module(w, start, &mod) < 0 || cr_read(w->mem, mod->lo, &eh, sizeof(eh)) < 0)
		return 0;
	return cr_memeq(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	       mod->lo + eh.e_phoff == mod->phdr && eh.e_entry &&
	       eh.e_entry + mod->bias == start;
}

/* decode, where the code cannot be read in place: a copy (4 KiB of stack). */
__attribute__((noinline)) static int decode_copy(struct cr_walk *w, uint64_t start, size_t len,
						 size_t off, struct cr_row *row)
{
	uint8_t code[SCAN_MAX];

	if (cr_read(w->mem, start, code, len) < 0) {
		len = off;	/* the function may end at a page boundary */
		if (cr_read(w->mem, start, code, len) < 0)
			return -CR_EFAULT;
	}
	return w->arch->scan(code, len, off, w->exact, row);
}

__attribute__((noinline)) static int decode(struct cr_walk *w, uint64_t start, uint64_t size,
					    const struct cr_regs *in, struct cr_row *row)
{
	const uint8_t *code;
	size_t off = (size_t)(in->pc - start), len;	/* the real pc: decoding stops there */

	if (in->pc < start || off >= SCAN_MAX)
		return -CR_ENOINFO;
	len = off + 16 <= SCAN_MAX ? off + 16 : SCAN_MAX;
	if (size && len > size)
		len = size > off ? (size_t)size : off;
	/* In place where the memory allows (the crash report, crash_backtrace). */
	code = cr_mem_view(w->mem, start, len);
	if (!code && (code = cr_mem_view(w->mem, start, off)) != NULL)
		len = off;	/* the function may end at a page boundary */
	if (code)
		return w->arch->scan(code, len, off, w->exact, row);
	return decode_copy(w, start, len, off, row);
}

__attribute__((noinline)) static int call_before_copy(struct cr_walk *w, uint64_t start,
						      size_t len)
{
	uint8_t code[SCAN_MAX];

	if (cr_read(w->mem, start, code, len) < 0)
		return 0;
	return w->arch->call_before(code, len);
}

/* The function from start to the return address pc, for arch->call_before. */
static int call_before(struct cr_walk *w, uint64_t start, uint64_t pc)
{
	size_t len = (size_t)(pc - start);
	const uint8_t *code;

	if (len > SCAN_MAX)
		return 0;
	if ((code = cr_mem_view(w->mem, start, len)) != NULL)
		return w->arch->call_before(code, len);
	return call_before_copy(w, start, len);
}

int cr_scan_confirm(struct cr_walk *w, const struct cr_regs *out)
{
	uint64_t pc = out->pc, start, size, key;
	struct cr_crow c;
	int ok;

	/* pc - 1: the call may be its function's last instruction (DWARF5 6.4.4). */
	if (!w->arch->call_before || pc == 0)
		return 0;
	/* Cached as a row that holds the answer in cfa_off (its key says so). */
	key = key_at(w, pc - 1, SCAN_CONFIRM);
	if (key && cr_cache_get(pc, key, &c) == 0)
		return c.cfa_off == 1;
	ok = cr_scan_function(w, pc - 1, &start, &size) == 0 && size && pc - start <= size &&
	     call_before(w, start, pc);
	if (key) {
		memset(&c, 0, sizeof(c));
		c.cfa_off = ok;
		cr_cache_put(pc, key, &c);
	}
	return ok;
}

int cr_scan_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	uint64_t pc = w->exact ? in->pc : in->pc - 1, start, size, key;
	struct cr_crow crow;
	struct cr_row row;
	int ret;

	w->step.err_addr = pc;
	if (!a->scan)
		return -CR_ENOSYS;
	/* A row decoded before for this pc (the real one: decoding stops
	   there) and exactness; only rows that compacted, of functions that
	   are not the entry point, are kept. */
	key = key_at(w, pc, w->exact ? SCAN_EXACT : SCAN_CALLER);
	if (key && cr_cache_get(in->pc, key, &crow) == 0) {
		w->step.err_addr = 0;
		return cr_crow_apply(&crow, w->mem, a, in, out);
	}
	if ((ret = cr_scan_frame_start(w, pc, &start, &size)) < 0)
		return ret;
	if (is_entry(w, start)) {
		w->step.err_addr = 0;
		return CR_END;
	}
	if ((ret = decode(w, start, size, in, &row)) < 0)
		return ret;
	/* Only the innermost frame can still have its return address in a register. */
	if (!w->exact && a->ra_in_reg && row.reg[row.ra].kind == CR_SAME)
		return -CR_EINVAL;
	w->step.err_addr = 0;
	/* The compact row's executor visits only the saved registers (a row
	   decoded from a prologue has no expression): cr_row_apply's result
	   (t-crow), without its pass over every column. */
	if (cr_row_compact(&row, a, &crow) == 0) {
		if (key)
			cr_cache_put(in->pc, key, &crow);
		return cr_crow_apply(&crow, w->mem, a, in, out);
	}
	return cr_row_apply(&row, w->mem, a, in, out);
}
