/* SPDX-License-Identifier: MIT */
/*
 * Prologue decoders (arch/<arch>/scan.c) and the state they share.  Pure: no
 * ucontext, no asm; every decoder builds and is unit-tested on every host.
 *
 * Each decoder walks the instructions from the function start forward, never
 * applying one that starts at or after pc_off, and keeps the frame state in a
 * struct cr_scan.  It turns the state into a row with cr_scan_emit().
 */
#ifndef CR_ARCH_SCAN_H
#define CR_ARCH_SCAN_H

#include <string.h>

#include "regs.h"
#include "row.h"

cr_scan_fn cr_x86_64_scan, cr_aarch64_scan, cr_riscv64_scan, cr_loongarch64_scan;
cr_call_fn cr_x86_64_call_before, cr_aarch64_call_before, cr_riscv64_call_before,
	cr_loongarch64_call_before;
cr_call_target_fn cr_x86_64_call_target, cr_aarch64_call_target, cr_riscv64_call_target,
	cr_loongarch64_call_target;

/* aarch64: the frame record's prologue, backward from a pc (cr_record_fn). */
cr_record_fn cr_aarch64_record_start;

/* aarch64: the return address without its pointer-authentication code (desc.c). */
uint64_t cr_aarch64_strip_ra(uint64_t ra);

/* Bound on decoded instructions: a prologue is short; a body is not decoded forever. */
#define CR_SCAN_MAX_INSNS 4096

/*
 * Frame state at one instruction boundary.  Offsets are relative to the CFA
 * (the caller's sp at the call, before a pushed return address is popped).
 */
struct cr_scan {
	int64_t sp_cfa;		/* CFA - sp, valid if sp_ok */
	int64_t fp_cfa;		/* CFA - fp, valid if fp_ok (the frame pointer is set up) */
	uint8_t sp_ok;		/* 0: sp moved by an unknown amount (alloca, realignment) */
	uint8_t fp_ok;
	uint8_t epi;		/* inside an epilogue; the state before it is kept apart */
	uint8_t ra_lost;	/* ra_in_reg arches: the link register was overwritten unsaved */
	int64_t save[CR_NREGS];	/* register n saved at CFA + save[n]; 0: not saved */
};

static inline void cr_scan_start(struct cr_scan *s, int64_t sp_cfa)
{
	memset(s, 0, sizeof(*s));
	s->sp_cfa = sp_cfa;
	s->sp_ok = 1;
}

/* Record a save of register n at sp + off (sp as it is now). */
static inline void cr_scan_save(struct cr_scan *s, unsigned n, int64_t off)
{
	if (n < CR_NREGS)
		s->save[n] = off - s->sp_cfa;
}

/*
 * The last instruction word of code[0..len) on a fixed 4-byte ISA (aarch64,
 * loongarch64: little-endian), for call_before.  0 if len is not a whole
 * number of words.
 */
static inline int cr_scan_last_word(const uint8_t *code, size_t len, uint32_t *w)
{
	if (len < 4 || len % 4)
		return 0;
	code += len - 4;
	*w = (uint32_t)code[0] | (uint32_t)code[1] << 8 | (uint32_t)code[2] << 16 |
	     (uint32_t)code[3] << 24;
	return 1;
}

static inline int64_t cr_scan_sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);

	v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

/*
 * The row for state s.  The CFA is fp-based once the frame pointer is set up
 * (the body may move sp by an unknown amount, fp stays), sp-based before.
 * Registers with a save slot get CR_OFFSET, all others CR_SAME: for ra_in_reg
 * arches an unsaved return address is still in the link register.
 * Returns 0, or -CR_EINVAL if neither sp nor fp locates the CFA.
 */
static inline int cr_scan_emit(const struct cr_scan *s, unsigned sp, unsigned fp, unsigned ra,
			       struct cr_row *row)
{
	unsigned n;

	if ((!s->fp_ok && !s->sp_ok) || (s->ra_lost && !s->save[ra]))
		return -CR_EINVAL;
	memset(row, 0, sizeof(*row));
	row->ra = (uint16_t)ra;
	row->cfa.kind = CR_REG;
	row->cfa.reg = (uint16_t)(s->fp_ok ? fp : sp);
	row->cfa.off = s->fp_ok ? s->fp_cfa : s->sp_cfa;
	for (n = 0; n < CR_NREGS; n++) {
		if (s->save[n]) {
			row->reg[n].kind = CR_OFFSET;
			row->reg[n].off = s->save[n];
		}
	}
	return 0;
}

/*
 * The shared bookkeeping of every decoder: each knows its instructions'
 * lengths and so walks the whole body from the function start, keeping the
 * state at pending forward branch targets and the body's state across an
 * epilogue.  The load/store ISAs (aarch64, riscv64, loongarch64) describe
 * their instructions with the operations below; x86_64 has its own for push,
 * pop, leave and enter and uses the rest.  Registers 0-31 may hold constants
 * the walk follows (li, lui/ori, movz/movk): large frames are allocated by
 * sp -= register.
 */
#define CR_SCAN_LABELS 8	/* pending forward branch targets: the usual number */

/* The state at a forward branch target, compact: saves of registers 0-31 only. */
struct cr_scan_label {
	uint32_t at;		/* code offset + 1; 0: a free slot */
	uint8_t sp_ok, fp_ok, epi, ra_lost;
	int64_t sp_cfa, fp_cfa;
	int32_t save[32];
};

struct cr_scanner {
	struct cr_scan s;	/* the state at the current instruction */
	struct cr_scan body;	/* while s.epi: the state before the epilogue began */
	uint8_t sp, fp, ra;	/* DWARF numbers */
	uint8_t zero;		/* 1: register 0 is hardwired zero (riscv64 x0, loongarch64 r0) */
	uint8_t jumped;		/* the previous instruction does not fall through */
	uint32_t off;		/* offset of the current instruction */
	uint32_t known;		/* bit n: k[n] is the value of register n */
	int64_t entry;		/* CFA - sp at the function's entry (0 or 8) */
	int64_t k[32];
	struct cr_scan_label *lab;	/* the decoder's table of branch targets */
	unsigned nlab;
	unsigned live;		/* its slots in use (at != 0): none, no search per instruction */
};

/*
 * zero: register 0 reads as 0 and ignores writes (zero-register ISAs).  entry:
 * CFA - sp at the entry, 0 where the call leaves the return address in ra (CFA
 * = sp), else the return address's size, the return address at CFA - entry
 * (x86_64: 8).  lab[0..nlab): the table for pending branch targets.
 */
static inline void cr_scanner_start(struct cr_scanner *c, unsigned sp, unsigned fp, unsigned ra,
				    int zero, int64_t entry, struct cr_scan_label *lab,
				    unsigned nlab)
{
	cr_scan_start(&c->s, entry);
	if (entry)
		c->s.save[ra] = -entry;
	c->body = c->s;
	c->sp = (uint8_t)sp;
	c->fp = (uint8_t)fp;
	c->ra = (uint8_t)ra;
	c->zero = zero != 0;
	c->jumped = 0;
	c->off = 0;
	c->known = c->zero;
	c->entry = entry;
	c->k[0] = 0;
	c->lab = lab;
	c->nlab = nlab;
	c->live = 0;
	/* A slot is free by its at alone (cr_scan_branch fills the rest when it
	   takes one): not the whole table, which costs more than a short
	   function's decoding. */
	for (unsigned n = 0; n < nlab; n++)
		lab[n].at = 0;
}

static inline int cr_scan_isk(const struct cr_scanner *c, unsigned r)
{
	return r < 32 && ((c->known >> r) & 1);
}

/* An instruction that undoes the frame: keep the state of the body the first time. */
static inline void cr_scan_epi(struct cr_scanner *c)
{
	if (!c->s.epi) {
		c->body = c->s;
		c->s.epi = 1;
	}
}

/*
 * After a return or a tail call that ends an epilogue: the next instruction is
 * reached by a branch from the body (compilers lay out early returns this way,
 * cf. DW_CFA_remember_state/restore_state around them), so its state again.
 */
static inline void cr_scan_ret(struct cr_scanner *c)
{
	c->jumped = 1;
	if (c->s.epi)
		c->s = c->body;
}

/*
 * A direct branch (conditional or not) from the current instruction to
 * off + rel.  A forward target remembers the state here: when the walk reaches
 * it after an instruction that does not fall through, that state is the one
 * there (a shrink-wrapped early exit placed after the epilogue:
 * `cbz x0, 1f; stp x29, x30, [sp, #-64]!; ... ret; 1: ret`).  The first
 * branch to a target wins; with no free slot the body fallback stays.
 */
static inline void cr_scan_branch(struct cr_scanner *c, int64_t rel)
{
	struct cr_scan_label *l = NULL;
	unsigned n;

	if (rel <= 0 || rel >= (int64_t)(UINT32_MAX - c->off))
		return;	/* backward: the walk has seen the target */
	for (n = 0; n < c->nlab; n++) {
		if (c->lab[n].at == c->off + (uint64_t)rel + 1)
			return;
		if (!c->lab[n].at && !l)
			l = &c->lab[n];
	}
	for (n = 32; n < CR_NREGS; n++)
		if (c->s.save[n])
			return;
	for (n = 0; n < 32; n++)
		if (c->s.save[n] != (int32_t)c->s.save[n])
			return;
	if (!l)
		return;
	c->live++;
	l->at = (uint32_t)(c->off + (uint64_t)rel + 1);
	l->sp_ok = c->s.sp_ok;
	l->fp_ok = c->s.fp_ok;
	l->epi = c->s.epi;
	l->ra_lost = c->s.ra_lost;
	l->sp_cfa = c->s.sp_cfa;
	l->fp_cfa = c->s.fp_cfa;
	for (n = 0; n < 32; n++)
		l->save[n] = (int32_t)c->s.save[n];
}

/*
 * The walk reaches the instruction at off: labels at or before it are
 * passed (freed); after a jump, the state of a branch to here applies.
 */
static inline void cr_scan_at(struct cr_scanner *c, size_t off)
{
	struct cr_scan_label *l;
	unsigned n;

	c->off = (uint32_t)off;
	for (n = 0; c->live && n < c->nlab; n++) {
		l = &c->lab[n];
		if (!l->at || l->at > off + 1)
			continue;
		if (l->at == off + 1 && c->jumped) {
			memset(c->s.save, 0, sizeof(c->s.save));
			c->s.sp_ok = l->sp_ok;
			c->s.fp_ok = l->fp_ok;
			c->s.epi = l->epi;
			c->s.ra_lost = l->ra_lost;
			c->s.sp_cfa = l->sp_cfa;
			c->s.fp_cfa = l->fp_cfa;
			for (unsigned r = 0; r < 32; r++)
				c->s.save[r] = l->save[r];
		}
		l->at = 0;
		c->live--;
	}
	c->jumped = 0;
}

/* sp += delta.  A release (delta > 0) is part of an epilogue; an allocation ends one. */
static inline int cr_scan_sp_add(struct cr_scanner *c, int64_t delta)
{
	if (delta > 0)
		cr_scan_epi(c);
	else if (delta < 0)
		c->s.epi = 0;
	c->s.sp_cfa -= delta;
	/* Releasing more than was allocated would move sp above the CFA (or
	   above a return address the call pushed). */
	return c->s.sp_ok && c->s.sp_cfa < c->entry ? -CR_EINVAL : 0;
}

/* fp = sp + imm: the frame pointer is set up. */
static inline int cr_scan_fp_from_sp(struct cr_scanner *c, int64_t imm)
{
	if (!c->s.sp_ok)
		return -CR_EINVAL;
	c->s.epi = 0;
	c->s.fp_cfa = c->s.sp_cfa - imm;
	c->s.fp_ok = 1;
	return 0;
}

/* sp = fp + imm: an epilogue restoring sp from the frame pointer. */
static inline int cr_scan_sp_from_fp(struct cr_scanner *c, int64_t imm)
{
	if (!c->s.fp_ok)
		return -CR_EINVAL;
	cr_scan_epi(c);
	c->s.sp_cfa = c->s.fp_cfa - imm;
	c->s.sp_ok = 1;
	return 0;
}

/* CFA-relative offset of base + off, base being sp or fp; 0 if base does not locate the CFA. */
static inline int64_t cr_scan_slot(const struct cr_scanner *c, unsigned base, int64_t off)
{
	if (base == c->sp && c->s.sp_ok)
		return off - c->s.sp_cfa;
	if (base == c->fp && c->s.fp_ok)
		return off - c->s.fp_cfa;
	return 0;
}

/*
 * Store of register rt at base + off.  The first store of a callee-saved
 * register (callee nonzero) is its save: later ones hold the callee's values.
 */
static inline void cr_scan_store(struct cr_scanner *c, unsigned rt, unsigned base, int64_t off,
				 int callee)
{
	if (callee && rt < CR_NREGS && !c->s.save[rt])
		c->s.save[rt] = cr_scan_slot(c, base, off);
}

/*
 * Register rd is written by something we do not follow (not a restore).
 * sp unknown: an error unless the CFA is fp-based; fp dropped: an error
 * unless sp locates the CFA; ra overwritten before it was saved: lost.
 */
static inline int cr_scan_write(struct cr_scanner *c, unsigned rd)
{
	if (rd == 0 && c->zero)
		return 0;
	if (rd < 32)
		c->known &= ~(1u << rd);
	if (rd == c->sp) {
		c->s.sp_ok = 0;
		return c->s.fp_ok ? 0 : -CR_EINVAL;
	}
	if (rd == c->fp && c->s.fp_ok) {
		c->s.fp_ok = 0;
		return c->s.sp_ok ? 0 : -CR_EINVAL;
	}
	if (rd == c->ra && !c->s.save[rd])
		c->s.ra_lost = 1;
	return 0;
}

/* rd = the constant val (li, lui, movz, arithmetic on constants). */
static inline int cr_scan_setk(struct cr_scanner *c, unsigned rd, int64_t val)
{
	int ret = cr_scan_write(c, rd);

	if (rd < 32 && rd != c->sp && !(rd == 0 && c->zero)) {
		c->k[rd] = val;
		c->known |= 1u << rd;
	}
	return ret;
}

/* Load of register rt from base + off: a restore if that is where rt was saved. */
static inline int cr_scan_load(struct cr_scanner *c, unsigned rt, unsigned base, int64_t off)
{
	int64_t slot = cr_scan_slot(c, base, off);

	if (rt == 0 && c->zero)
		return 0;
	if (rt < CR_NREGS && slot && c->s.save[rt] == slot) {
		cr_scan_epi(c);
		c->s.save[rt] = 0;
		if (rt < 32)
			c->known &= ~(1u << rt);
		if (rt == c->fp)
			c->s.fp_ok = 0;	/* the caller's fp again */
		if (rt == c->ra)
			c->s.ra_lost = 0;
		return 0;
	}
	return cr_scan_write(c, rt);
}

/*
 * rd = rs + imm (w: 32-bit, sign-extended): sp -= N, fp = sp + N, sp = fp + N,
 * and arithmetic on constants; anything else writes rd.
 */
static inline int cr_scan_addi(struct cr_scanner *c, unsigned rd, unsigned rs, int64_t imm, int w)
{
	if (rd == c->sp && rs == c->sp && !w)
		return cr_scan_sp_add(c, imm);
	if (rd == c->fp && rs == c->sp && !w)
		return cr_scan_fp_from_sp(c, imm);
	if (rd == c->sp && rs == c->fp && !w)
		return cr_scan_sp_from_fp(c, imm);
	if (cr_scan_isk(c, rs))
		return cr_scan_setk(c, rd, w ? (int64_t)(int32_t)(c->k[rs] + imm) : c->k[rs] + imm);
	return cr_scan_write(c, rd);
}

/*
 * rd = rs1 + rs2, or rs1 - rs2 (sub): sp moved by a register that holds a
 * constant, and arithmetic on constants; anything else writes rd.
 */
static inline int cr_scan_addreg(struct cr_scanner *c, unsigned rd, unsigned rs1, unsigned rs2,
				 int sub)
{
	if (rd == c->sp && rs2 == c->sp && !sub) {
		rs2 = rs1;
		rs1 = c->sp;
	}
	if (rd == c->sp && rs1 == c->sp && cr_scan_isk(c, rs2))
		return cr_scan_sp_add(c, sub ? -c->k[rs2] : c->k[rs2]);
	if (cr_scan_isk(c, rs1) && cr_scan_isk(c, rs2))
		return cr_scan_setk(c, rd, sub ? c->k[rs1] - c->k[rs2] : c->k[rs1] + c->k[rs2]);
	return cr_scan_write(c, rd);
}

/*
 * A call that links into rd.  It ends an epilogue, writes rd and changes the
 * registers in clobber (bit n: register n): those that return values and
 * those that linker stubs (PLT entries, veneers) may use.  Constants in the
 * other caller-saved registers are kept: compiled code reads one after a call
 * only if the call preserved it (the psABI's callee-saved set, or GCC's
 * -fipa-ra knowledge of the callee: aarch64 big frames do
 * `mov x12, #N; bl f; add sp, sp, x12`).
 */
static inline int cr_scan_call(struct cr_scanner *c, unsigned rd, uint32_t clobber)
{
	c->s.epi = 0;
	c->known &= ~clobber;
	return cr_scan_write(c, rd);
}

/*
 * A jump that links into rd (zero-register ISAs): rd 0 is a plain jump (ret,
 * a tail call, a branch in the body); any other rd is a call (see above).
 */
static inline int cr_scan_jump(struct cr_scanner *c, unsigned rd, uint32_t clobber)
{
	if (rd == 0) {
		cr_scan_ret(c);
		return 0;
	}
	return cr_scan_call(c, rd, clobber);
}

#endif
