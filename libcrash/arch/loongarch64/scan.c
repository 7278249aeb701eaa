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
 * jirl $ra (calls); jirl $zero (ret, tail call) and b (an epilogue ends).
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

struct la {
	struct cr_scanner c;
	int64_t k[32];		/* constants held in registers, for large frames */
	uint32_t known;		/* bit n: k[n] is known; r0 always */
};

/* psABI "Register Convention": $s0-$s8 (r23-r31), $fp (r22) and $ra are saved. */
static int callee(unsigned r)
{
	return r == RA || r >= FP;
}

static int wr(struct la *v, unsigned rd)
{
	v->known &= ~(1u << rd) | 1u;
	return rd ? cr_scan_write(&v->c, rd) : 0;
}

static int setk(struct la *v, unsigned rd, int64_t val)
{
	int ret = wr(v, rd);

	if (rd) {
		v->k[rd] = val;
		v->known |= 1u << rd;
	}
	return ret;
}

static int isk(const struct la *v, unsigned r)
{
	return (v->known >> r) & 1;
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

/* addi.d/addi.w rd, rj, si12: the $sp/$fp forms and constant arithmetic. */
static int addi(struct la *v, unsigned rd, unsigned rj, int64_t imm, int w)
{
	if (rd == SP && rj == SP && !w)
		return cr_scan_sp_add(&v->c, imm);
	if (rd == FP && rj == SP && !w)
		return cr_scan_fp_from_sp(&v->c, imm);
	if (rd == SP && rj == FP && !w)
		return cr_scan_sp_from_fp(&v->c, imm);
	if (isk(v, rj))
		return setk(v, rd, w ? (int64_t)(int32_t)(v->k[rj] + imm) : v->k[rj] + imm);
	return wr(v, rd);
}

/* add.d/sub.d/or rd, rj, rk. */
static int alu3(struct la *v, uint32_t op, unsigned rd, unsigned rj, unsigned rk)
{
	if (op == 0x00150000 && rk == 0)	/* move rd, rj */
		return addi(v, rd, rj, 0, 0);
	if (op == 0x00108000 && rd == SP && rk == SP) {	/* add.d $sp, rk, $sp */
		rk = rj;
		rj = SP;
	}
	if (rd == SP && rj == SP && isk(v, rk))
		return cr_scan_sp_add(&v->c, op == 0x00118000 ? -v->k[rk] : v->k[rk]);
	if (op != 0x00150000 && isk(v, rj) && isk(v, rk))
		return setk(v, rd, op == 0x00118000 ? v->k[rj] - v->k[rk] : v->k[rj] + v->k[rk]);
	return wr(v, rd);
}

static int load(struct la *v, unsigned rd, unsigned base, int64_t off)
{
	int ret;

	if (!rd)
		return 0;
	ret = cr_scan_load(&v->c, rd, base, off);
	v->known &= ~(1u << rd);
	return ret;
}

/* jirl/b/bl: link register ra is a call; r0 is a jump (ret, a tail call, a branch). */
static int jump(struct la *v, unsigned rd)
{
	if (rd == 0) {
		cr_scan_ret(&v->c);
		return 0;
	}
	v->c.s.epi = 0;
	return wr(v, rd);
}

static int insn(struct la *v, uint32_t i)
{
	unsigned rd = i & 31, rj = (i >> 5) & 31, rk = (i >> 10) & 31;
	int64_t si12 = cr_scan_sext(i >> 10, 12), si14 = cr_scan_sext(i >> 10, 14) * 4;
	int64_t si20 = cr_scan_sext(i >> 5, 20);

	switch (i & 0xffc00000) {
	case 0x02c00000: return addi(v, rd, rj, si12, 0);	/* addi.d */
	case 0x02800000: return addi(v, rd, rj, si12, 1);	/* addi.w */
	case 0x03800000:	/* ori: zero-extended ui12 */
		return isk(v, rj) ? setk(v, rd, v->k[rj] | ((i >> 10) & 0xfff)) : wr(v, rd);
	case 0x29c00000:	/* st.d */
		cr_scan_store(&v->c, rd, rj, si12, callee(rd));
		return 0;
	case 0x28c00000: return load(v, rd, rj, si12);	/* ld.d */
	}
	switch (i & 0xff000000) {
	case 0x27000000:	/* stptr.d */
		cr_scan_store(&v->c, rd, rj, si14, callee(rd));
		return 0;
	case 0x26000000: return load(v, rd, rj, si14);	/* ldptr.d */
	}
	switch (i & 0xfe000000) {
	case 0x14000000:	/* lu12i.w */
		return setk(v, rd, cr_scan_sext((uint64_t)si20 << 12, 32));
	case 0x16000000:	/* lu32i.d: bits 51:32, sign-extended */
		if (!isk(v, rd))
			return wr(v, rd);
		return setk(v, rd, (int64_t)((uint64_t)si20 << 32 | (uint32_t)v->k[rd]));
	}
	switch (i & 0xfc000000) {
	case 0x4c000000: return jump(v, rd);	/* jirl */
	case 0x50000000: return jump(v, 0);	/* b */
	case 0x54000000: return jump(v, RA);	/* bl */
	}
	if ((i & 0xffff8000) == 0x00108000 || (i & 0xffff8000) == 0x00118000 ||
	    (i & 0xffff8000) == 0x00150000)
		return alu3(v, i & 0xffff8000, rd, rj, rk);
	return writes_rd(i) ? wr(v, rd) : 0;
}

int cr_loongarch64_scan(const uint8_t *code, size_t len, size_t pc_off, int frame0,
			struct cr_row *row)
{
	struct la v;
	size_t off;
	uint32_t i;
	int ret;

	(void)frame0;	/* the walk reaches pc, so prologue, body and epilogue are alike */
	if (pc_off > len || pc_off % 4 || pc_off / 4 > CR_SCAN_MAX_INSNS)
		return -CR_EINVAL;
	/* psABI: bl leaves the return address in $ra and $sp unchanged: CFA = $sp. */
	cr_scanner_start(&v.c, SP, FP, RA);
	v.known = 1;
	v.k[0] = 0;
	for (off = 0; off < pc_off; off += 4) {
		i = (uint32_t)code[off] | (uint32_t)code[off + 1] << 8 |
		    (uint32_t)code[off + 2] << 16 | (uint32_t)code[off + 3] << 24;
		if ((ret = insn(&v, i)) < 0)
			return ret;
	}
	return cr_scan_emit(&v.c.s, SP, FP, RA, row);
}
