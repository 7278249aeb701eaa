/* SPDX-License-Identifier: MIT */
/*
 * loongarch64 prologue decoder (LoongArch Reference Manual vol. 1, chapter 2
 * "Basic Integer Instructions" and appendix B, the encoding table).  Every
 * instruction is 4 bytes; rd is bits 4:0, rj 9:5, rk 14:10.
 *
 * Recognised: addi.d on $sp; st.d/stptr.d saves and ld.d/ldptr.d restores
 * relative to $sp or $fp; addi.d $fp,$sp,N and move $fp,$sp (frame pointer);
 * addi.d $sp,$fp,N and move $sp,$fp (epilogue); large frames via
 * lu12i.w/ori/addi.w/lu32i.d constants and add.d/sub.d $sp,$sp,reg; bl and
 * jirl $ra (calls); jirl $zero (ret, tail call) and b (an epilogue ends);
 * forward targets of b and the conditional branches (cr_scan_branch).
 *
 * Policy for everything else: the encoding groups say which instructions
 * write the integer register rd (FP/LSX/LASX operations, stores and branches do
 * not).  One we do not follow that writes $sp makes sp unknown (an error unless
 * the CFA is $fp-based); one that writes $fp drops the frame pointer; one that
 * writes $ra before it was saved loses the return address.
 *
 * DWARF numbers (LoongArch ELF psABI, "DWARF Register Numbers"): r0-r31 0-31.
 */
#include "arch/scan.h"

enum { RA = 1, SP = 3, FP = 22 };

/* What a call changes: $ra, $a0/$a1 (return values), $t0-$t3 (r12-r15, used by PLT entries). */
#define CLOBBER (1u << RA | 1u << 4 | 1u << 5 | 0xfu << 12)

/* psABI "Register Convention": $s0-$s8 (r23-r31), $fp (r22) and $ra are saved. */
static int callee(unsigned r)
{
	return r == RA || r >= FP;
}

/* Does i write the integer register rd?  By the encoding groups of appendix B. */
static int writes_rd(uint32_t i)
{
	uint32_t m = i & 0xfffffc00;

	switch (i >> 24) {
	case 0x01:	/* FP: only movfr2gr.s/.d, movfrh2gr.s, movfcsr2gr, movcf2gr */
		return m == 0x0114b400 || m == 0x0114b800 || m == 0x0114bc00 ||
		       m == 0x0114c800 || m == 0x0114dc00;
	case 0x08: case 0x09: case 0x0a: case 0x0b:	/* fmadd and friends */
	case 0x0c: case 0x0d:	/* fcmp, fsel, vbitsel, vshuf */
	case 0x25: case 0x27: case 0x29:	/* stptr.w, stptr.d, st.b/h/w/d */
	case 0x2b:	/* fld/fst */
	case 0x2c: case 0x2d: case 0x2e: case 0x2f: case 0x30: case 0x31:	/* vld/vst */
	case 0x40: case 0x41: case 0x42: case 0x43: case 0x44: case 0x45: case 0x46: case 0x47:
	case 0x48: case 0x49: case 0x4a: case 0x4b:	/* beqz, bnez, bceqz/bcnez */
	case 0x50: case 0x51: case 0x52: case 0x53:	/* b */
		return 0;
	case 0x2a:
		return (i >> 22) != 0xab;	/* ld.bu/hu/wu; not preld */
	case 0x38:	/* ldx, amo write; stx, fldx/fstx, dbar/ibar do not */
		return !((i >> 20) == 0x381 || (i >> 20) == 0x383 || (i >> 15) == 0x70e4 ||
			 (i >> 15) == 0x70e5);
	}
	if ((i >> 26) >= 0x16 && (i >> 26) <= 0x1b)
		return 0;	/* beq, bne, blt, bge, bltu, bgeu */
	if ((i >> 28) == 0x7)
		return 0;	/* LSX/LASX */
	return 1;	/* integer ALU, immediates, lu12i/pcaddu12i, loads, ll/sc, csr, unknown */
}

/* add.d/sub.d/or rd, rj, rk; move rd, rj is or rd, rj, $zero. */
static int alu3(struct cr_scanner *v, uint32_t op, unsigned rd, unsigned rj, unsigned rk)
{
	if (op == 0x00150000)
		return rk == 0 ? cr_scan_addi(v, rd, rj, 0, 0) : cr_scan_write(v, rd);
	return cr_scan_addreg(v, rd, rj, rk, op == 0x00118000);
}

static int insn(struct cr_scanner *v, uint32_t i)
{
	unsigned rd = i & 31, rj = (i >> 5) & 31, rk = (i >> 10) & 31;
	int64_t si12 = cr_scan_sext(i >> 10, 12), si14 = cr_scan_sext(i >> 10, 14) * 4;
	int64_t si20 = cr_scan_sext(i >> 5, 20);

	switch (i & 0xffc00000) {
	case 0x02c00000: return cr_scan_addi(v, rd, rj, si12, 0);	/* addi.d */
	case 0x02800000: return cr_scan_addi(v, rd, rj, si12, 1);	/* addi.w */
	case 0x03800000:	/* ori: zero-extended ui12 */
		if (!cr_scan_isk(v, rj))
			return cr_scan_write(v, rd);
		return cr_scan_setk(v, rd, v->k[rj] | ((i >> 10) & 0xfff));
	case 0x29c00000:	/* st.d */
		cr_scan_store(v, rd, rj, si12, callee(rd));
		return 0;
	case 0x28c00000: return cr_scan_load(v, rd, rj, si12);	/* ld.d */
	}
	switch (i & 0xff000000) {
	case 0x27000000:	/* stptr.d */
		cr_scan_store(v, rd, rj, si14, callee(rd));
		return 0;
	case 0x26000000: return cr_scan_load(v, rd, rj, si14);	/* ldptr.d */
	}
	switch (i & 0xfe000000) {
	case 0x14000000:	/* lu12i.w */
		return cr_scan_setk(v, rd, cr_scan_sext((uint64_t)si20 << 12, 32));
	case 0x16000000:	/* lu32i.d: bits 51:32, sign-extended */
		if (!cr_scan_isk(v, rd))
			return cr_scan_write(v, rd);
		return cr_scan_setk(v, rd, (int64_t)((uint64_t)si20 << 32 | (uint32_t)v->k[rd]));
	}
	switch (i >> 26) {
	case 0x10: case 0x11: case 0x12:	/* beqz, bnez, bceqz/bcnez: offs21 */
		cr_scan_branch(v, cr_scan_sext(((i >> 10) & 0xffff) | (i & 31) << 16, 21) * 4);
		return 0;
	case 0x14:	/* b: offs26 */
		cr_scan_branch(v, cr_scan_sext(((i >> 10) & 0xffff) | (i & 0x3ff) << 16, 26) * 4);
		break;
	case 0x16: case 0x17: case 0x18: case 0x19: case 0x1a: case 0x1b:	/* beq..bgeu */
		cr_scan_branch(v, cr_scan_sext((i >> 10) & 0xffff, 16) * 4);
		return 0;
	}
	switch (i & 0xfc000000) {
	case 0x4c000000: return cr_scan_jump(v, rd, CLOBBER);	/* jirl */
	case 0x50000000: return cr_scan_jump(v, 0, CLOBBER);	/* b */
	case 0x54000000: return cr_scan_jump(v, RA, CLOBBER);	/* bl */
	}
	if ((i & 0xffff8000) == 0x00108000 || (i & 0xffff8000) == 0x00118000 ||
	    (i & 0xffff8000) == 0x00150000)
		return alu3(v, i & 0xffff8000, rd, rj, rk);
	return writes_rd(i) ? cr_scan_write(v, rd) : 0;
}

int cr_loongarch64_scan(const uint8_t *code, size_t len, size_t pc_off, int frame0,
			struct cr_row *row)
{
	struct cr_scanner v;
	struct cr_scan_label lab[CR_SCAN_LABELS];
	size_t off;
	uint32_t i;
	int ret;

	(void)frame0;	/* the walk reaches pc, so prologue, body and epilogue are alike */
	if (pc_off > len || pc_off % 4 || pc_off / 4 > CR_SCAN_MAX_INSNS)
		return -CR_EINVAL;
	/* psABI: bl leaves the return address in $ra and $sp unchanged: CFA = $sp. */
	cr_scanner_start(&v, SP, FP, RA, 1, 0, lab, CR_SCAN_LABELS);
	for (off = 0; off < pc_off; off += 4) {
		cr_scan_at(&v, off);
		i = (uint32_t)code[off] | (uint32_t)code[off + 1] << 8 |
		    (uint32_t)code[off + 2] << 16 | (uint32_t)code[off + 3] << 24;
		if ((ret = insn(&v, i)) < 0)
			return ret;
	}
	cr_scan_at(&v, pc_off);	/* the pc may be a branch target */
	return cr_scan_emit(&v.s, SP, FP, RA, row);
}

/* bl, or jirl $ra, rj, offs (a call through a register), at code[len - 4]. */
int cr_loongarch64_call_before(const uint8_t *code, size_t len)
{
	uint32_t i;

	if (!cr_scan_last_word(code, len, &i))
		return 0;
	return (i & 0xfc000000) == 0x54000000 || ((i & 0xfc000000) == 0x4c000000 && (i & 31) == RA);
}

/* BL: offs[25:0] (bits 9-0 its high part, 25-10 its low) words from the call
   (cr_call_target_fn). */
int cr_loongarch64_call_target(const uint8_t *code, size_t len, uint64_t ret, uint64_t *target)
{
	uint32_t i, offs;
	int64_t off;

	if (!cr_scan_last_word(code, len, &i) || (i & 0xfc000000) != 0x54000000)
		return 0;
	offs = (i & 0x3ff) << 16 | ((i >> 10) & 0xffff);
	off = (int64_t)(offs ^ 0x2000000) - 0x2000000;
	*target = ret - 4 + (uint64_t)(off * 4);
	return 1;
}
