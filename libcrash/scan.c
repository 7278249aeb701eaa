/* SPDX-License-Identifier: MIT */
/* Engine scan: decode the prologue from the function start to pc. */
#include "module.h"
#include "sym.h"
#include "unwind.h"

#define SCAN_MAX 4096	/* bytes of a function we read; longer distances are not scanned */

/*
 * Apart from the decoding so that the symbolizer's buffers and a code buffer
 * are never on the stack at once (noinline).
 */
__attribute__((noinline)) int cr_scan_function(struct cr_walk *w, uint64_t pc, uint64_t *start,
					       uint64_t *size)
{
	const struct cr_module *mod;
	struct cr_sym sym;

	if (cr_walk_module(w, pc, &mod) < 0 || cr_sym_find(w->mem, mod, pc, &sym) < 0)
		return -CR_ENOSTART;
	/* A pc past its symbol's end (a PLT stub after _init) has no known start. */
	if (sym.size && pc - sym.start >= sym.size)
		return -CR_ENOSTART;
	*start = sym.start;
	*size = sym.size;
	return 0;
}

__attribute__((noinline)) static int decode(struct cr_walk *w, uint64_t start, uint64_t size,
					    const struct cr_regs *in, struct cr_row *row)
{
	const struct cr_arch *a = w->arch;
	uint8_t code[SCAN_MAX];
	size_t off = (size_t)(in->pc - start), len;	/* the real pc: decoding stops there */

	if (in->pc < start || off >= SCAN_MAX)
		return -CR_ENOINFO;
	len = off + 16 <= SCAN_MAX ? off + 16 : SCAN_MAX;
	if (size && len > size)
		len = size > off ? (size_t)size : off;
	if (cr_read(w->mem, start, code, len) < 0) {
		len = off;	/* the function may end at a page boundary */
		if (cr_read(w->mem, start, code, len) < 0)
			return -CR_EFAULT;
	}
	return a->scan(code, len, off, w->exact, row);
}

int cr_scan_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	uint64_t pc = w->exact ? in->pc : in->pc - 1, start, size;
	struct cr_row row;
	int ret;

	w->si.err_addr = pc;
	if (!a->scan)
		return -CR_ENOSYS;
	if ((ret = cr_scan_function(w, pc, &start, &size)) < 0 ||
	    (ret = decode(w, start, size, in, &row)) < 0)
		return ret;
	/* Only the innermost frame can still have its return address in a register. */
	if (!w->exact && a->ra_in_reg && row.reg[row.ra].kind == CR_SAME)
		return -CR_EINVAL;
	w->si.err_addr = 0;
	return cr_row_apply(&row, w->mem, a, in, out);
}
