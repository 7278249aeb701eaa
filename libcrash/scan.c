/* SPDX-License-Identifier: MIT */
/* Engine scan: decode the prologue from the function start to pc. */
#include <elf.h>

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
 * The FDE first: its search is a binary search of .eh_frame_hdr in memory,
 * where a static function's symbol is in the .symtab of a file (libc's is
 * 240 KiB, in its debug file), read and indexed at the first lookup of a walk
 * (docs/scan.md, "Cost").  Apart from the decoding so that the symbolizer's
 * buffers and a code buffer are never on the stack at once (noinline).
 */
static __attribute__((noinline)) int find_function(struct cr_walk *w, uint64_t pc, uint64_t *start,
						    uint64_t *size)
{
	const struct cr_module *mod;
	struct cr_symfiles *syms = NULL;
	struct cr_sym sym;
	uint64_t lo, hi;

	if (cr_walk_module(w, pc, &mod) < 0)
		return -CR_ENOSTART;
	if (cr_cfi_range(w, pc, &lo, &hi) == 0 && lo <= pc && pc < hi) {
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
	return 0;
}

/*
 * find_function, once per pc in a walk of cr_unwind (w->syms set): a scanned
 * caller's confirmation and its own step ask the same.
 */
int cr_scan_function(struct cr_walk *w, uint64_t pc, uint64_t *start, uint64_t *size)
{
	if (!w->syms)
		return find_function(w, pc, start, size);
	if (w->fn_key != pc + 1 || pc + 1 == 0) {
		w->fn_ret = find_function(w, pc, &w->fn_start, &w->fn_size);
		w->fn_key = pc + 1;
	}
	if (w->fn_ret < 0)
		return w->fn_ret;
	*start = w->fn_start;
	*size = w->fn_size;
	return 0;
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
	uint64_t pc = out->pc, start, size;

	/* pc - 1: the call may be its function's last instruction (DWARF5 6.4.4). */
	if (!w->arch->call_before || pc == 0 ||
	    cr_scan_function(w, pc - 1, &start, &size) < 0 || !size || pc - start > size)
		return 0;
	return call_before(w, start, pc);
}

int cr_scan_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	uint64_t pc = w->exact ? in->pc : in->pc - 1, start, size;
	struct cr_crow crow;
	struct cr_row row;
	int ret;

	w->step.err_addr = pc;
	if (!a->scan)
		return -CR_ENOSYS;
	if ((ret = cr_scan_function(w, pc, &start, &size)) < 0)
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
	if (cr_row_compact(&row, a, &crow) == 0)
		return cr_crow_apply(&crow, w->mem, a, in, out);
	return cr_row_apply(&row, w->mem, a, in, out);
}
