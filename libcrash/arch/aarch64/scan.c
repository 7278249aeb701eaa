/* SPDX-License-Identifier: MIT */
/*
 * aarch64 prologue decoder (Arm ARM A64, "A64 Instruction Set Encoding", C4.1).
 * Every instruction is 4 bytes, so the whole function up to pc is walked.
 *
 * Recognised: hints (nop, paciasp/pacibsp, autiasp/autibsp, bti: no effect on
 * the frame; after paciasp the saved x30 is signed, which strip_ra undoes);
 * stp/ldp of any size with pre/post-index writeback or an offset; str/ldr
 * (imm9 pre/post-index, unscaled, unsigned offset); add/sub sp,sp,#imm{,lsl 12};
 * mov x29,sp / add x29,sp,#N; mov sp,x29 / add|sub sp,x29,#N; constants by
 * movz/movn/movk and mov xd,xm, and add|sub sp,sp,xN on them (GCC's frames
 * above 4 KiB); bl/blr (x30 and the result registers overwritten),
 * ret/retaa/retab and b/br (an epilogue ends); forward targets of b, b.cond,
 * cbz/cbnz, tbz/tbnz (their state, cr_scan_branch).
 *
 * Policy for everything else.  Writes of sp are exhaustively listed by the ISA:
 * add/sub (immediate, extended register) and logical (immediate) with Rd = 31,
 * SVE addvl/addpl, and base-register writeback of a load/store whose Rn is 31.
 * Those we cannot follow make sp unknown, which fails unless the CFA is
 * x29-based.  Writes of x29 and x30 are seen in mov (orr), add/sub, movz/movk
 * and the loads above; any other instruction is assumed to leave sp, x29 and
 * x30 alone, which compiled code does (x29 is the frame pointer, x30 is
 * used as a scratch only after it was saved).
 *
 * DWARF numbers (AAPCS64 DWARF supplement): x0-x30 0-30, sp 31.
 */
#include "arch/scan.h"

enum { FP = 29, LR = 30, SP = 31 };

/* What a call changes: x30, x0-x8 (results, indirect result), x16/x17 (AAPCS64 6.1.1:
   IP0/IP1, used by veneers and PLT entries). */
#define CLOBBER (0x1ffu | 1u << 16 | 1u << 17 | 1u << LR)

/* AAPCS64 6.1.1: x19-x28 are callee-saved; x29/x30 form the frame record. */
static int callee(unsigned r)
{
	return r >= 19 && r <= 30;
}

/* A load into Rt, where 31 names xzr. */
static int xload(struct cr_scanner *c, unsigned rt, unsigned rn, int64_t at)
{
	return rt == 31 ? 0 : cr_scan_load(c, rt, rn, at);
}

static int xwrite(struct cr_scanner *c, unsigned rd)
{
	return rd == 31 ? 0 : cr_scan_write(c, rd);
}

/* Load/store pair (C4.1.94): any size; Rt/Rt2 at [Rn + imm7 * scale], with writeback. */
static int ldst_pair(struct cr_scanner *c, uint32_t i)
{
	unsigned opc = i >> 30, v = (i >> 26) & 1, mode = (i >> 23) & 3, load = (i >> 22) & 1;
	unsigned rt = i & 31, rn = (i >> 5) & 31, rt2 = (i >> 10) & 31;
	unsigned scale = v ? 4u << opc : opc == 2 ? 8 : (opc == 1 && !load) ? 16 : 4;
	int64_t imm = cr_scan_sext(i >> 15, 7) * scale, at = mode == 1 ? 0 : imm;
	int gpr64 = !v && opc == 2, ret = 0;

	if (mode == 1 || mode == 3) {	/* post- or pre-index: Rn is written back */
		if (rn != SP && (ret = cr_scan_write(c, rn)) < 0)
			return ret;
		if (rn == SP && mode == 3 && (ret = cr_scan_sp_add(c, imm)) < 0)
			return ret;
		at -= mode == 3 ? imm : 0;	/* addresses relative to the new base */
	}
	if (load && gpr64) {
		if ((ret = xload(c, rt, rn, at)) < 0 || (ret = xload(c, rt2, rn, at + 8)) < 0)
			return ret;
	} else if (load && !v) {
		if ((ret = xwrite(c, rt)) < 0 || (ret = xwrite(c, rt2)) < 0)
			return ret;
	} else if (gpr64) {
		cr_scan_store(c, rt, rn, at, callee(rt));
		cr_scan_store(c, rt2, rn, at + 8, callee(rt2));
	}
	if (mode == 1 && rn == SP)
		ret = cr_scan_sp_add(c, imm);
	return ret;
}

/*
 * Load/store register (C4.1.94): imm9 unscaled/pre/post (bit 24 = 0, bit 21 = 0)
 * and unsigned imm12 (bit 24 = 1).  Atomics, register offset and ldraa/ldrab
 * (bit 21 = 1) write no base register except ldraa/ldrab with W.
 */
static int ldst_reg(struct cr_scanner *c, uint32_t i)
{
	unsigned size = i >> 30, v = (i >> 26) & 1, opc = (i >> 22) & 3, mode = (i >> 10) & 3;
	unsigned rt = i & 31, rn = (i >> 5) & 31;
	int64_t imm = 0, at = 0;
	int ret = 0;

	if (i & (1u << 24)) {
		at = (int64_t)((i >> 10) & 0xfff) << (v && (opc & 2) ? 4 : size);
	} else if (i & (1u << 21)) {
		if ((mode & 1) && size == 3 && !v && (i & (1u << 11)) && rn == SP)
			return cr_scan_write(c, SP);	/* ldraa/ldrab pre-index on sp */
		return !v && opc ? xwrite(c, rt) : 0;
	} else {
		imm = cr_scan_sext(i >> 12, 9);
		at = mode == 1 ? 0 : imm;
		if (mode == 1 || mode == 3) {
			if (rn != SP && (ret = cr_scan_write(c, rn)) < 0)
				return ret;
			if (rn == SP && mode == 3 && (ret = cr_scan_sp_add(c, imm)) < 0)
				return ret;
			at -= mode == 3 ? imm : 0;
		}
	}
	if (!v && size == 3 && opc == 0)
		cr_scan_store(c, rt, rn, at, callee(rt));
	else if (!v && size == 3 && opc == 1)
		ret = xload(c, rt, rn, at);
	else if (!v && opc && !(size == 3 && opc == 2))
		ret = xwrite(c, rt);	/* narrower and sign-extending loads; not prfm */
	if (ret == 0 && mode == 1 && rn == SP && !(i & (1u << 24)))
		ret = cr_scan_sp_add(c, imm);
	return ret;
}

/* Add/subtract (immediate), 64-bit, flags not set (C4.1.86): Rd and Rn 31 are sp. */
static int addsub_imm(struct cr_scanner *c, uint32_t i)
{
	int64_t imm = (int64_t)((i >> 10) & 0xfff) << ((i & (1u << 22)) ? 12 : 0);

	/* mov x29,sp; add x29,sp,#N; mov sp,x29; sub sp,x29,#N; constants */
	return cr_scan_addi(c, i & 31, (i >> 5) & 31, (i & (1u << 30)) ? -imm : imm, 0);
}

/*
 * Add/subtract (extended register), 64-bit, flags not set (C4.1.87): Rd and Rn
 * 31 are sp, Rm 31 is xzr.  sp -= xN (uxtx/sxtx, shift 0-4) follows the
 * constant in xN: GCC allocates frames above 4 KiB with mov x12, #N.
 */
static int addsub_ext(struct cr_scanner *c, uint32_t i)
{
	unsigned rd = i & 31, rn = (i >> 5) & 31, rm = (i >> 16) & 31;
	unsigned option = (i >> 13) & 7, sh = (i >> 10) & 7;
	int64_t v;

	if (rd != SP || rn != SP || (option & 3) != 3 || sh > 4 ||
	    (rm != 31 && !cr_scan_isk(c, rm)))
		return cr_scan_write(c, rd);
	v = (int64_t)((uint64_t)(rm == 31 ? 0 : c->k[rm]) << sh);
	return cr_scan_sp_add(c, (i & (1u << 30)) ? -v : v);
}

/* Move wide (C4.1.92): movn, movz, movk on w or x registers; Rd 31 is xzr. */
static int movewide(struct cr_scanner *c, uint32_t i)
{
	unsigned rd = i & 31, opc = (i >> 29) & 3, sf = i >> 31, sh = ((i >> 21) & 3) * 16;
	uint64_t imm = (uint64_t)((i >> 5) & 0xffff) << sh, v;

	if (rd == 31)
		return 0;
	if (opc == 1 || (!sf && sh >= 32) || (opc == 3 && !cr_scan_isk(c, rd)))
		return cr_scan_write(c, rd);	/* unallocated, or movk on an unknown value */
	if (opc == 0)
		v = ~imm;
	else if (opc == 2)
		v = imm;
	else
		v = ((uint64_t)c->k[rd] & ~(0xffffull << sh)) | imm;
	return cr_scan_setk(c, rd, (int64_t)(sf ? v : (uint32_t)v));
}

/* orr xd, xzr, xm (mov xd, xm): a constant copied; Rd 31 is xzr. */
static int mov_reg(struct cr_scanner *c, uint32_t i)
{
	unsigned rd = i & 31, rm = (i >> 16) & 31;

	if (rd == 31)
		return 0;
	if (rm == 31)
		return cr_scan_setk(c, rd, 0);
	return cr_scan_isk(c, rm) ? cr_scan_setk(c, rd, c->k[rm]) : cr_scan_write(c, rd);
}

/*
 * Everything that is not a load/store, by the A64 encoding groups.  Returns
 * 0 (followed or no effect on the frame) or -CR_EINVAL.
 */
static int other(struct cr_scanner *c, uint32_t i)
{
	unsigned rd = i & 31;

	if ((i & 0xfffff01f) == 0xd503201f)
		return 0;	/* hint space: nop, paciasp, pacibsp, autiasp, autibsp, bti */
	if ((i & 0xfc000000) == 0x14000000)
		cr_scan_branch(c, cr_scan_sext(i, 26) * 4);	/* b */
	else if ((i & 0xff000010) == 0x54000000 || (i & 0x7e000000) == 0x34000000)
		cr_scan_branch(c, cr_scan_sext(i >> 5, 19) * 4);	/* b.cond, cbz, cbnz */
	else if ((i & 0x7e000000) == 0x36000000)
		cr_scan_branch(c, cr_scan_sext(i >> 5, 14) * 4);	/* tbz, tbnz */
	if ((i & 0xfffffc1f) == 0xd65f0000 || (i & 0xfffffbff) == 0xd65f0bff ||
	    (i & 0xfc000000) == 0x14000000 || (i & 0xfffffc1f) == 0xd61f0000) {
		/* ret, retaa/retab, b, br: the code after is reached by a branch */
		cr_scan_ret(c);
		return 0;
	}
	if ((i & 0xfc000000) == 0x94000000 || (i & 0xfffffc1f) == 0xd63f0000 ||
	    (i & 0xfffff800) == 0xd63f0800)
		return cr_scan_call(c, LR, CLOBBER);	/* bl, blr, blraa/blrab */
	if ((i & 0xff800000) == 0x91000000 || (i & 0xff800000) == 0xd1000000)
		return addsub_imm(c, i);
	if ((i & 0xbfe00000) == 0x8b200000)
		return addsub_ext(c, i);
	if ((i & 0x1f800000) == 0x12800000)
		return movewide(c, i);
	if ((i & 0xffe0ffe0) == 0xaa0003e0)
		return mov_reg(c, i);
	if ((i & 0x7f800000) == 0x11000000 || (i & 0x7f800000) == 0x51000000 ||
	    (i & 0x7fe00000) == 0x0b200000 || (i & 0x7fe00000) == 0x4b200000 ||
	    ((i & 0x1f800000) == 0x12000000 && (i & 0x60000000) != 0x60000000) ||
	    (i & 0xffa0f800) == 0x04205000)
		return cr_scan_write(c, rd);	/* the other forms whose Rd 31 is sp */
	if ((i & 0x1f000000) == 0x0a000000 || (i & 0x1f800000) == 0x12800000 ||
	    (i & 0x1f000000) == 0x0b000000 || (i & 0x1f000000) == 0x10000000 ||
	    (i & 0x1f000000) == 0x11000000 || (i & 0x1f000000) == 0x1a000000 ||
	    (i & 0x1f000000) == 0x1b000000 || (i & 0x1f800000) == 0x13000000)
		return xwrite(c, rd);	/* logical/add/sub (register), movz/movn/movk,
					   adr/adrp, adds/subs (imm), adc/csel/div, madd,
					   bitfield: their Rd 31 is xzr */
	return 0;
}

int cr_aarch64_scan(const uint8_t *code, size_t len, size_t pc_off, int frame0,
		    struct cr_row *row)
{
	struct cr_scanner c;
	struct cr_scan_label lab[CR_SCAN_LABELS];
	size_t off;
	uint32_t i;
	int ret;

	(void)frame0;	/* the walk reaches pc, so prologue, body and epilogue are alike */
	if (pc_off > len || pc_off % 4 || pc_off / 4 > CR_SCAN_MAX_INSNS)
		return -CR_EINVAL;
	/* AAPCS64 6.4: bl leaves the return address in x30; sp is unchanged: CFA = sp. */
	cr_scanner_start(&c, SP, FP, LR, 0, 0, lab, CR_SCAN_LABELS);
	for (off = 0; off < pc_off; off += 4) {
		cr_scan_at(&c, off);
		i = (uint32_t)code[off] | (uint32_t)code[off + 1] << 8 |
		    (uint32_t)code[off + 2] << 16 | (uint32_t)code[off + 3] << 24;
		if ((i & 0x3a000000) == 0x28000000)
			ret = ldst_pair(&c, i);
		else if ((i & 0x3b000000) == 0x38000000 || (i & 0x3b000000) == 0x39000000)
			ret = ldst_reg(&c, i);
		else if ((i & 0xbf000000) == 0x0c000000 || (i & 0xbf000000) == 0x0d000000)
			ret = (i & (1u << 23)) && ((i >> 5) & 31) == SP ? cr_scan_write(&c, SP) : 0;
		else
			ret = other(&c, i);
		if (ret < 0)
			return ret;
	}
	cr_scan_at(&c, pc_off);	/* the pc may be a branch target */
	return cr_scan_emit(&c.s, SP, FP, LR, row);
}

/* bl, blr, blraa/blrab, blraaz/blrabz (C6.2: BL, BLR, BLRAA...) at code[len - 4]. */
int cr_aarch64_call_before(const uint8_t *code, size_t len)
{
	uint32_t i;

	if (!cr_scan_last_word(code, len, &i))
		return 0;
	return (i & 0xfc000000) == 0x94000000 || (i & 0xfffffc1f) == 0xd63f0000 ||
	       (i & 0xfffff800) == 0xd63f0800 || (i & 0xfffff800) == 0xd73f0800;
}

/* C6.2 BL: imm26 words from the call (cr_call_target_fn). */
int cr_aarch64_call_target(const uint8_t *code, size_t len, uint64_t ret, uint64_t *target)
{
	uint32_t i;
	int64_t off;

	if (!cr_scan_last_word(code, len, &i) || (i & 0xfc000000) != 0x94000000)
		return 0;
	off = (int64_t)((i & 0x3ffffff) ^ 0x2000000) - 0x2000000;
	*target = ret - 4 + (uint64_t)(off * 4);
	return 1;
}

/*
 * The frame record's prologue, found backward from len (cr_record_fn): the
 * nearest stp x29, x30, [sp, #-N]! (C6.2 STP, pre-index, 64-bit) before len,
 * not past a ret/retaa/retab, which ends an earlier function.  OpenSSL's
 * perlasm and hand-written assembly open their frames so (AAPCS64 6.4.6:
 * the record at the bottom of the N bytes, x29 then set to it).
 */
long cr_aarch64_record_start(const uint8_t *code, size_t len)
{
	uint32_t i;

	if (len % 4 || len / 4 > CR_SCAN_MAX_INSNS)
		return -1;
	while (len >= 4) {
		len -= 4;
		i = (uint32_t)code[len] | (uint32_t)code[len + 1] << 8 |
		    (uint32_t)code[len + 2] << 16 | (uint32_t)code[len + 3] << 24;
		if ((i & 0xfffffc1f) == 0xd65f0000 || (i & 0xfffffbff) == 0xd65f0bff)
			return -1;
		if ((i & 0xffc07fff) == 0xa9807bfd && cr_scan_sext(i >> 15, 7) < 0)
			return (long)len;
	}
	return -1;
}
