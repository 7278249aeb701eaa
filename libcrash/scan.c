/* SPDX-License-Identifier: MIT */
/* Engine scan: decode the prologue from the function start to pc. */
#include "module.h"
#include "sym.h"
#include "unwind.h"

#define SCAN_MAX 4096	/* bytes of a function we read; longer distances are not scanned */

int cr_scan_step(struct cr_walk *w, const struct cr_regs *in, struct cr_regs *out)
{
	const struct cr_arch *a = w->arch;
	uint64_t pc = w->exact ? in->pc : in->pc - 1;
	uint8_t code[SCAN_MAX];
	const struct cr_module *mod;
	struct cr_sym sym;
	struct cr_row row;
	size_t off, len;
	int ret;

	w->si.err_addr = pc;
	if (!a->scan)
		return -CR_ENOSYS;
	if (cr_walk_module(w, pc, &mod) < 0 || cr_sym_find(w->mem, mod, pc, &sym) < 0)
		return -CR_ENOSTART;
	off = (size_t)(in->pc - sym.start);	/* the real pc: decoding stops there */
	if (in->pc < sym.start || off >= SCAN_MAX)
		return -CR_ENOINFO;
	len = off + 16 <= SCAN_MAX ? off + 16 : SCAN_MAX;
	if (sym.size && len > sym.size)
		len = sym.size > off ? (size_t)sym.size : off;
	if (cr_read(w->mem, sym.start, code, len) < 0) {
		len = off;	/* the function may end at a page boundary */
		if (cr_read(w->mem, sym.start, code, len) < 0)
			return -CR_EFAULT;
	}
	if ((ret = a->scan(code, len, off, w->exact, &row)) < 0)
		return ret;
	/* Only the innermost frame can still have its return address in a register. */
	if (!w->exact && a->ra_in_reg && row.reg[row.ra].kind == CR_SAME)
		return -CR_EINVAL;
	w->si.err_addr = 0;
	return cr_row_apply(&row, w->mem, a, in, out);
}
