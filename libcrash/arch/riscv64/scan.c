/* SPDX-License-Identifier: MIT */
/*
 * riscv64 (RV64GC) prologue decoder.  RISC-V unprivileged ISA: chapter 2/4
 * (RV32I/RV64I base formats), "C" extension chapter (compressed formats,
 * quadrants 0-2), and 1.5 "Base Instruction-Length Encoding": low bits 11 mean
 * 32 bits (bits 4:2 = 111 would mean longer, which RV64GC does not use),
 * anything else 16 bits.
 *
 * The walk is sequential from the function start, so every instruction is
 * decoded at its own boundary: the upper half of a 32-bit instruction is never
 * read as a compressed one (which a scanner looking for c.addi16sp at every
 * 2-byte offset would do).
 *
 * Recognised: addi/c.addi/c.addi16sp on sp; sd/c.sdsp/c.sd saves and
 * ld/c.ldsp/c.ld restores relative to sp or s0; addi s0,sp,N, c.addi4spn s0,
 * c.mv s0,sp (frame pointer); addi sp,s0,N, c.mv sp,s0 (epilogue); large frames
 * via lui/c.lui/addi(w)/c.li constants and add/sub/c.add sp,sp,reg; jal/jalr/
 * c.jalr ra (calls), ret/jr/j/c.j (an epilogue ends); forward targets of
 * branches, j and c.j/c.beqz/c.bnez (their state, cr_scan_branch).
 *
 * Policy for everything else: the destination register of every RV64GCV
 * instruction is known from its major opcode, so an instruction we do not
 * follow that writes sp makes sp unknown (an error unless the CFA is s0-based);
 * one that writes s0 drops the frame pointer; one that writes ra before ra was
 * saved loses the return address.  Reserved/longer encodings fail.
 *
 * DWARF numbers (RISC-V ELF psABI, "DWARF Register Numbers"): x0-x31 0-31.
 */
#include "arch/scan.h"

enum { RA = 1, SP = 2, FP = 8 };

/* What a call changes: ra, a0/a1 (return values), t1-t3 (psABI: PLT entries may use them).
   t0 is the alternate link register of millicode calls, written only by those (jal t0). */
#define CLOBBER (1u << RA | 1u << 10 | 1u << 11 | 1u << 6 | 1u << 7 | 1u << 28)

/* psABI "Integer Register Convention": s0-s11 (x8, x9, x18-x27) and ra are saved. */
static int callee(unsigned r)
{
	return r == RA || r == 8 || r == 9 || (r >= 18 && r <= 27);
}

/* A 32-bit instruction, by major opcode (unprivileged ISA, "RV32/64G Instruction Set Listings"). */
static int insn32(struct cr_scanner *v, uint32_t i)
{
	unsigned rd = (i >> 7) & 31, f3 = (i >> 12) & 7, rs1 = (i >> 15) & 31, rs2 = (i >> 20) & 31;
	int64_t immi = cr_scan_sext(i >> 20, 12);
	int64_t imms = cr_scan_sext(((i >> 25) << 5) | ((i >> 7) & 31), 12);

	switch (i & 0x7f) {
	case 0x13:	/* OP-IMM */
	case 0x1b:	/* OP-IMM-32 */
		if (f3 == 0)
			return cr_scan_addi(v, rd, rs1, immi, (i & 0x7f) == 0x1b);
		return cr_scan_write(v, rd);
	case 0x37:	/* LUI */
		return cr_scan_setk(v, rd, cr_scan_sext(i & 0xfffff000, 32));
	case 0x33:	/* OP: add, sub */
		if (f3 == 0 && ((i >> 25) == 0 || (i >> 25) == 0x20))
			return cr_scan_addreg(v, rd, rs1, rs2, (i >> 25) == 0x20);
		return cr_scan_write(v, rd);
	case 0x03:	/* LOAD */
		return f3 == 3 ? cr_scan_load(v, rd, rs1, immi) : cr_scan_write(v, rd);
	case 0x23:	/* STORE */
		if (f3 == 3)
			cr_scan_store(v, rs2, rs1, imms, callee(rs2));
		return 0;
	case 0x6f:	/* JAL */
		if (rd == 0)
			cr_scan_branch(v, cr_scan_sext((i >> 31) << 20 | ((i >> 12) & 0xff) << 12 |
							   ((i >> 20) & 1) << 11 | ((i >> 21) & 0x3ff) << 1,
						       21));
		return cr_scan_jump(v, rd, CLOBBER);
	case 0x67:	/* JALR */
		return cr_scan_jump(v, rd, CLOBBER);
	case 0x53:	/* OP-FP: compare, fcvt to integer, fmv.x/fclass write x[rd] */
		if ((i >> 27) == 0x14 || (i >> 27) == 0x18 || (i >> 27) == 0x1c)
			return cr_scan_write(v, rd);
		return 0;
	case 0x57:	/* OP-V: vsetvl{i}, vmv.x.s/vcpop/vfirst write x[rd] */
		return f3 == 7 || (f3 == 2 && (i >> 26) == 0x10) ? cr_scan_write(v, rd) : 0;
	case 0x63:	/* BRANCH */
		cr_scan_branch(v, cr_scan_sext((i >> 31) << 12 | ((i >> 7) & 1) << 11 |
						   ((i >> 25) & 0x3f) << 5 | ((i >> 8) & 15) << 1,
					       13));
		return 0;
	case 0x0f: case 0x07: case 0x27:	/* MISC-MEM, LOAD-FP, STORE-FP */
	case 0x43: case 0x47: case 0x4b: case 0x4f:	/* fused multiply-add */
		return 0;
	default:	/* AUIPC, OP-32, AMO, SYSTEM and unknown ones: rd written */
		return cr_scan_write(v, rd);
	}
}

/* Compressed quadrant 0: rd'/rs2' at bits 4:2, rs1' at 9:7, registers x8-x15. */
static int c_q0(struct cr_scanner *v, unsigned i)
{
	unsigned rdp = 8 + ((i >> 2) & 7), rs1p = 8 + ((i >> 7) & 7);
	int64_t dimm = (int64_t)(((i >> 10) & 7) << 3 | ((i >> 5) & 3) << 6);	/* c.ld/c.sd */
	int64_t nz = (int64_t)(((i >> 11) & 3) << 4 | ((i >> 7) & 15) << 6 | ((i >> 6) & 1) << 2 |
			       ((i >> 5) & 1) << 3);

	switch (i >> 13) {
	case 0:	/* c.addi4spn rd', sp, nzuimm; all zero is the defined illegal instruction */
		return i == 0 ? -CR_EINVAL : cr_scan_addi(v, rdp, SP, nz, 0);
	case 3:	/* c.ld */
		return cr_scan_load(v, rdp, rs1p, dimm);
	case 7:	/* c.sd */
		cr_scan_store(v, rdp, rs1p, dimm, callee(rdp));
		return 0;
	case 1: case 5: case 6:	/* c.fld, c.fsd, c.sw */
		return 0;
	default:	/* c.lw, reserved (Zcb loads): rd' written */
		return cr_scan_write(v, rdp);
	}
}

/* Compressed quadrant 1: c.addi, c.addiw, c.li, c.addi16sp/c.lui, arithmetic, c.j, branches. */
static int c_q1(struct cr_scanner *v, unsigned i)
{
	unsigned rd = (i >> 7) & 31, rdp = 8 + ((i >> 7) & 7);
	int64_t imm = cr_scan_sext(((i >> 12) & 1) << 5 | ((i >> 2) & 31), 6);
	int64_t imm16 = cr_scan_sext(((i >> 12) & 1) << 9 | ((i >> 6) & 1) << 4 |
				     ((i >> 5) & 1) << 6 | ((i >> 3) & 3) << 7 |
				     ((i >> 2) & 1) << 5, 10);

	switch (i >> 13) {
	case 0:	/* c.addi (c.nop for rd 0) */
		return rd ? cr_scan_addi(v, rd, rd, imm, 0) : 0;
	case 1:	/* c.addiw */
		return cr_scan_addi(v, rd, rd, imm, 1);
	case 2:	/* c.li */
		return cr_scan_setk(v, rd, imm);
	case 3:
		if (rd == SP)	/* c.addi16sp */
			return imm16 ? cr_scan_sp_add(v, imm16) : -CR_EINVAL;
		return cr_scan_setk(v, rd, imm * 4096);	/* c.lui */
	case 4:	/* c.srli ... c.addw: rd' written */
		return cr_scan_write(v, rdp);
	case 5:	/* c.j: offset[11|4|9:8|10|6|7|3:1|5] */
		cr_scan_branch(v, cr_scan_sext(((i >> 12) & 1) << 11 | ((i >> 11) & 1) << 4 |
						   ((i >> 9) & 3) << 8 | ((i >> 8) & 1) << 10 |
						   ((i >> 7) & 1) << 6 | ((i >> 6) & 1) << 7 |
						   ((i >> 3) & 7) << 1 | ((i >> 2) & 1) << 5,
					       12));
		return cr_scan_jump(v, 0, CLOBBER);
	default:	/* c.beqz, c.bnez: offset[8|4:3] at 12:10, [7:6|2:1|5] at 6:2 */
		cr_scan_branch(v, cr_scan_sext(((i >> 12) & 1) << 8 | ((i >> 10) & 3) << 3 |
						   ((i >> 5) & 3) << 6 | ((i >> 3) & 3) << 1 |
						   ((i >> 2) & 1) << 5,
					       9));
		return 0;
	}
}

/* Compressed quadrant 2: c.slli, c.ldsp, c.jr/c.mv/c.jalr/c.add, c.sdsp. */
static int c_q2(struct cr_scanner *v, unsigned i)
{
	unsigned rd = (i >> 7) & 31, rs2 = (i >> 2) & 31;
	int64_t ldsp = (int64_t)(((i >> 12) & 1) << 5 | ((i >> 5) & 3) << 3 | ((i >> 2) & 7) << 6);
	int64_t sdsp = (int64_t)(((i >> 10) & 7) << 3 | ((i >> 7) & 7) << 6);

	switch (i >> 13) {
	case 0:	/* c.slli */
	case 2:	/* c.lwsp */
		return cr_scan_write(v, rd);
	case 3:	/* c.ldsp */
		return cr_scan_load(v, rd, SP, ldsp);
	case 4:
		if (!((i >> 12) & 1)) {
			if (rs2 == 0)	/* c.jr: ret, or a tail call */
				return rd ? cr_scan_jump(v, 0, CLOBBER) : -CR_EINVAL;
			return cr_scan_addi(v, rd, rs2, 0, 0);	/* c.mv rd, rs2 */
		}
		if (rs2 == 0)	/* c.ebreak, c.jalr */
			return rd ? cr_scan_jump(v, RA, CLOBBER) : 0;
		return cr_scan_addreg(v, rd, rd, rs2, 0);	/* c.add */
	case 7:	/* c.sdsp */
		cr_scan_store(v, rs2, SP, sdsp, callee(rs2));
		return 0;
	default:	/* c.fldsp, c.fsdsp, c.swsp */
		return 0;
	}
}

int cr_riscv64_scan(const uint8_t *code, size_t len, size_t pc_off, int frame0,
		    struct cr_row *row)
{
	struct cr_scanner v;
	struct cr_scan_label lab[CR_SCAN_LABELS];
	size_t off, n;
	uint32_t i;
	int ret;

	(void)frame0;	/* the walk reaches pc, so prologue, body and epilogue are alike */
	if (pc_off > len || pc_off % 2 || pc_off / 2 > CR_SCAN_MAX_INSNS)
		return -CR_EINVAL;
	/* psABI: the call leaves the return address in ra and sp unchanged: CFA = sp. */
	cr_scanner_start(&v, SP, FP, RA, 1, 0, lab, CR_SCAN_LABELS);
	for (off = 0; off < pc_off; off += n) {
		cr_scan_at(&v, off);
		i = (uint32_t)code[off] | (uint32_t)code[off + 1] << 8;
		n = (i & 3) == 3 ? 4 : 2;
		if (off + n > pc_off || ((i & 3) == 3 && (i & 0x1c) == 0x1c))
			return -CR_EINVAL;	/* pc inside an instruction, or a >32-bit one */
		if (n == 4)
			i |= (uint32_t)code[off + 2] << 16 | (uint32_t)code[off + 3] << 24;
		switch (i & 3) {
		case 0: ret = c_q0(&v, i); break;
		case 1: ret = c_q1(&v, i); break;
		case 2: ret = c_q2(&v, i); break;
		default: ret = insn32(&v, i); break;
		}
		if (ret < 0)
			return ret;
	}
	cr_scan_at(&v, pc_off);	/* the pc may be a branch target */
	return cr_scan_emit(&v.s, SP, FP, RA, row);
}

/*
 * jal ra, jalr ra or c.jalr ending at len.  Instruction boundaries come from a
 * sequential walk from the function start, so the upper half of a 32-bit
 * instruction that looks like c.jalr (lui a0, 0x97820) is never taken for one.
 */
int cr_riscv64_call_before(const uint8_t *code, size_t len)
{
	size_t off, n = 2;
	uint32_t i = 0;

	if (len < 2 || len % 2 || len / 2 > CR_SCAN_MAX_INSNS)
		return 0;
	for (off = 0; off < len; off += n) {
		i = (uint32_t)code[off] | (uint32_t)code[off + 1] << 8;
		n = (i & 3) == 3 ? 4 : 2;
		if (off + n > len)
			return 0;
	}
	off = len - n;
	if (n == 2)
		return (i & 0xf07f) == 0x9002 && ((i >> 7) & 31) != 0;	/* c.jalr rs1 */
	i |= (uint32_t)code[off + 2] << 16 | (uint32_t)code[off + 3] << 24;
	return ((i & 0x7f) == 0x6f || ((i & 0x7f) == 0x67 && ((i >> 12) & 7) == 0)) &&
	       ((i >> 7) & 31) == RA;
}

/*
 * jal ra (J-type: imm[20|10:1|11|19:12]), or auipc ra, hi20 then jalr ra,
 * lo12(ra), the call the assembler's `call` makes that the linker did not
 * relax (cr_call_target_fn).  The last 4 (or 8) bytes taken as whole
 * instructions.
 */
int cr_riscv64_call_target(const uint8_t *code, size_t len, uint64_t ret, uint64_t *target)
{
	uint32_t i, h, u;

	if (len < 8 || !cr_scan_last_word(code + len - 8, 4, &h) ||
	    !cr_scan_last_word(code + len - 4, 4, &i))
		return 0;
	if ((i & 0xfff) == (0x6f | RA << 7)) {	/* jal ra */
		u = (i >> 31) << 20 | ((i >> 12) & 0xff) << 12 | ((i >> 20) & 1) << 11 |
		    ((i >> 21) & 0x3ff) << 1;
		*target = ret - 4 + (uint64_t)((int64_t)(u ^ 0x100000) - 0x100000);
		return 1;
	}
	if ((i & 0xfffff) == (0x67 | RA << 7 | RA << 15) && (h & 0xfff) == (0x17 | RA << 7)) {
		*target = ret - 8 + (uint64_t)(int64_t)(int32_t)(h & 0xfffff000) +
			  (uint64_t)(int64_t)((int32_t)i >> 20);
		return 1;
	}
	return 0;
}
