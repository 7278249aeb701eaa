/* SPDX-License-Identifier: MIT */
/* Register state of one frame and the description of an architecture. */
#ifndef CR_REGS_H
#define CR_REGS_H

#include "common.h"

/*
 * Highest tracked DWARF column + 1.  aarch64 RA_SIGN_STATE is 34.  CFI rules
 * for columns >= CR_NREGS (vector/float registers) are parsed and ignored:
 * no supported arch needs them to find the caller.
 */
#define CR_NREGS 35

struct cr_regs {
	uint64_t r[CR_NREGS];	/* r[n]: DWARF register n */
	uint64_t valid;		/* bit n set: r[n] is known in this frame */
	uint64_t pc;		/* kept apart: not a DWARF column on every arch */
};

#define CR_BIT(n) (1ull << (n))

static inline int cr_reg_valid(const struct cr_regs *r, unsigned n)
{
	return n < CR_NREGS && (r->valid & CR_BIT(n));
}

static inline void cr_reg_set(struct cr_regs *r, unsigned n, uint64_t v)
{
	if (n < CR_NREGS) {
		r->r[n] = v;
		r->valid |= CR_BIT(n);
	}
}

struct cr_row;

/*
 * Prologue decoder (arch/<arch>/scan.c, pure).  code[0..len) are the bytes from
 * the function start; pc_off is the offset of the pc inside them (pc_off <= len).
 * frame0 is nonzero for the interrupted frame (the pc may be in a prologue or
 * epilogue); for callers the pc is a return address inside the body.
 * Fills *row like CFI would: CFA = sp + N or fp + M, where ra/fp were saved.
 * It never applies an instruction at or after pc_off, but may read code[pc_off..len)
 * to recognise an epilogue at the pc of frame0.
 * Returns 0, or -CR_EINVAL for code it cannot follow.  Reads only code[].
 */
typedef int cr_scan_fn(const uint8_t *code, size_t len, size_t pc_off, int frame0,
		       struct cr_row *row);

/*
 * Does code[0..len) end with a call instruction?  code[0] is the start of
 * the function, len the offset of a return address in it.  1 or 0.  Reads
 * only code[] (arch/<arch>/scan.c, pure).
 */
typedef int cr_call_fn(const uint8_t *code, size_t len);
/*
 * A direct call that ends code[0..len) (its return address ret): 1 and its
 * target in *target; 0 for anything else (an indirect call, no call).
 */
typedef int cr_call_target_fn(const uint8_t *code, size_t len, uint64_t ret, uint64_t *target);

/*
 * Where, in code[0..len) (len: the offset of a pc, code[0] up to 4 KiB before
 * it), the nearest instruction before len that builds a frame record and
 * moves sp with it (aarch64: stp x29, x30, [sp, #-N]!) starts, found
 * backward without crossing a return; -1 if none.  For a function with no
 * unwind table and no symbol: the decoder (cr_scan_fn) then runs from there.
 * Pure (arch/<arch>/scan.c).
 */
typedef long cr_record_fn(const uint8_t *code, size_t len);

/* One const instance per arch, in arch/<arch>/desc.c.  Pure data: built on every host. */
struct cr_arch {
	const char *name;		/* "x86_64" */
	uint8_t nregs;			/* DWARF columns we track, <= CR_NREGS */
	uint8_t sp, fp, ra;		/* DWARF numbers; ra = default return-address column */
	uint8_t ra_in_reg;		/* 1: the call leaves the return address in a register
					   (aarch64 x30, riscv64/loongarch64 ra); 0: on the stack */
	uint8_t ra_sign_state;		/* the column of the return address's signing state,
					   which DW_CFA_AARCH64_negate_ra_state toggles
					   (aarch64: RA_SIGN_STATE, 34); 0: none (there the
					   opcode is SPARC's GNU_window_save: malformed) */
	const char *const *regname;	/* report names by DWARF number (NULL: not dumped) */
	const uint8_t *dump_order;	/* report order, 0xff-terminated */
	const struct cr_row *fp_row;	/* frame-record layout for the fp engine */
	cr_scan_fn *scan;		/* prologue decoder, NULL if none */
	cr_call_fn *call_before;	/* confirms a scanned caller, NULL if none */
	cr_call_target_fn *call_target;	/* a direct call's target, NULL if none */
	uint64_t (*strip_ra)(uint64_t ra);	/* aarch64: drop PAC bits; others: NULL */
	cr_record_fn *record_start;	/* aarch64 (where the frame record does not locate
					   the CFA); NULL: the record alone gives the CFA */
};

extern const struct cr_arch cr_arch_x86_64, cr_arch_aarch64, cr_arch_riscv64,
	cr_arch_loongarch64;

/* The arch this library was built for (arch/<host>/context.c). */
extern const struct cr_arch *const cr_host;

#endif
