/* SPDX-License-Identifier: MIT */
/*
 * x86_64 prologue decoder.  Knows the lengths of the instructions that GCC and
 * clang put in prologues and epilogues (Intel SDM vol. 2, chapter 2 for the
 * REX/ModRM/SIB layout) and of the register moves they interleave with them.
 *
 * Policy.  Instructions are decoded from the function start up to pc_off.  The
 * first instruction outside the subset ends decoding: its length is unknown,
 * so nothing after it can be followed, and it is taken to start the body (a
 * compiled body leaves sp where the prologue put it).  An instruction in the
 * subset that writes rsp in a way we cannot follow (sub %reg,%rsp, and $-16,
 * %rsp) is accepted only while the CFA is rbp-based, and fails otherwise.
 * For frame 0, when decoding stopped before pc, the bytes at pc are tried as an
 * epilogue (pop/leave/add/lea ... ret), whose state is exact wherever the body
 * was.
 *
 * DWARF numbers (SysV x86_64 psABI 3.6.2, figure 3.36): rax 0, rdx 1, rcx 2,
 * rbx 3, rsi 4, rdi 5, rbp 6, rsp 7, r8-r15 8-15, return address 16.
 */
#include "arch/scan.h"

enum { RBX = 3, RBP = 6, RSP = 7, RIP = 16 };

/* Hardware (ModRM/REX) register number -> DWARF number. */
static const uint8_t dwarf_of[16] = { 0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15 };

enum kind {
	I_OTHER,	/* no effect on the frame */
	I_PUSH,		/* push reg */
	I_POP,		/* pop reg */
	I_SPADD,	/* rsp += imm */
	I_SP_FP,	/* rsp = rbp + imm */
	I_FP_SP,	/* rbp = rsp */
	I_LEAVE,
	I_RET,
	I_CALL,
	I_JMP,
	I_SP_UNK,	/* rsp changes by an unknown amount */
	I_FP_UNK,	/* rbp is overwritten */
};

struct insn {
	enum kind kind;
	unsigned reg;	/* I_PUSH/I_POP: DWARF number */
	int64_t imm;
};

/* Bytes taken by ModRM (at p[0]), SIB and displacement; 0 if truncated. */
static size_t modrm_len(const uint8_t *p, size_t avail)
{
	unsigned mod = p[0] >> 6, rm = p[0] & 7;
	size_t n = 1;

	if (mod != 3 && rm == 4) {
		if (avail < 2)
			return 0;
		n = 2;
		if (mod == 0 && (p[1] & 7) == 5)
			n += 4;
	} else if (mod == 0 && rm == 5) {
		n += 4;	/* rip-relative disp32 */
	}
	if (mod == 1)
		n += 1;
	else if (mod == 2)
		n += 4;
	return n <= avail ? n : 0;
}

static int64_t disp(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return cr_scan_sext(v, 8 * bytes);
}

/* What an instruction writing register hw (REX-extended) does to the frame. */
static enum kind dest(unsigned hw)
{
	if (hw == 4)
		return I_SP_UNK;
	if (hw == 5)
		return I_FP_UNK;
	return I_OTHER;
}

/*
 * lea disp(%rsp),%rsp and lea disp(%rbp),%rsp (m: the ModRM byte, b: REX.B);
 * anything else loaded into rsp moves it by an unknown amount.
 */
static enum kind lea_sp(const uint8_t *m, unsigned b, struct insn *in)
{
	unsigned mod = m[0] >> 6, rm = (m[0] & 7) | b << 3;

	if (mod == 1 || mod == 2) {
		unsigned dbytes = mod == 1 ? 1 : 4;

		if (rm == 4 && m[1] == 0x24) {	/* SIB: base rsp, no index */
			in->imm = disp(m + 2, dbytes);
			return I_SPADD;
		}
		if (rm == 5) {
			in->imm = disp(m + 1, dbytes);
			return I_SP_FP;
		}
	}
	return I_SP_UNK;
}

/* Opcodes with a ModRM operand and no immediate: "op r/m, reg" (rm_dst) or "op reg, r/m". */
static int modrm_op(uint8_t op, int *rm_dst)
{
	switch (op) {
	case 0x01: case 0x09: case 0x21: case 0x29: case 0x31: case 0x89:
		*rm_dst = 1;	/* add, or, and, sub, xor, mov to r/m */
		return 1;
	case 0x03: case 0x0b: case 0x23: case 0x2b: case 0x33: case 0x8b: case 0x8d:
		*rm_dst = 0;	/* the same to reg, and lea */
		return 1;
	case 0x39: case 0x3b: case 0x85:
		*rm_dst = -1;	/* cmp, test: no destination */
		return 1;
	}
	return 0;
}

/* An instruction with a ModRM byte at p[0]; op is the opcode.  Returns the length after op. */
static size_t decode_modrm(uint8_t op, unsigned rex, const uint8_t *p, size_t avail,
			   int rm_dst, struct insn *in)
{
	unsigned mod = p[0] >> 6;
	unsigned reg = ((p[0] >> 3) & 7) | (rex & 4) << 1, rm = (p[0] & 7) | (rex & 1) << 3;
	size_t n = modrm_len(p, avail);

	if (!n)
		return 0;
	in->kind = I_OTHER;
	if (op == 0x8d) {
		in->kind = reg == 4 ? lea_sp(p, rex & 1, in) : dest(reg);
	} else if (mod == 3 && (op == 0x89 || op == 0x8b)) {
		unsigned to = op == 0x89 ? rm : reg, from = op == 0x89 ? reg : rm;

		if (to == 5 && from == 4 && (rex & 8))
			in->kind = I_FP_SP;	/* mov %rsp,%rbp: 48 89 e5 or 48 8b ec */
		else if (to == 4 && from == 5 && (rex & 8))
			in->kind = I_SP_FP;	/* mov %rbp,%rsp */
		else
			in->kind = dest(to);
		in->imm = 0;
	} else if (rm_dst == 0) {
		in->kind = dest(reg);
	} else if (rm_dst == 1 && mod == 3) {
		in->kind = dest(rm);
	}
	return n;
}

/* Group 1 (0x81 imm32/imm16, 0x83 imm8): add/or/adc/sbb/and/sub/xor/cmp r/m, imm. */
static size_t decode_grp1(uint8_t op, unsigned rex, int opsz, const uint8_t *p, size_t avail,
			  struct insn *in)
{
	unsigned mod = p[0] >> 6, ext = (p[0] >> 3) & 7, rm = (p[0] & 7) | (rex & 1) << 3;
	size_t n = modrm_len(p, avail), ib = op == 0x83 ? 1 : opsz && !(rex & 8) ? 2 : 4;

	if (!n || n + ib > avail)
		return 0;
	in->kind = I_OTHER;
	if (mod != 3 || ext == 7)
		return n + ib;	/* memory operand, or cmp */
	if (rm == 4 && (rex & 8) && (ext == 0 || ext == 5)) {
		in->imm = disp(p + n, (unsigned)ib);
		if (ext == 5)
			in->imm = -in->imm;
		in->kind = I_SPADD;	/* add/sub $imm,%rsp */
	} else {
		in->kind = dest(rm);
	}
	return n + ib;
}

/* Two-byte opcodes 0f xx: jcc rel32, the multi-byte nop, endbr64 (after f3). */
static size_t decode_0f(const uint8_t *p, size_t avail, int rep, struct insn *in)
{
	size_t n;

	if (avail < 1)
		return 0;
	in->kind = I_OTHER;
	if (p[0] >= 0x80 && p[0] <= 0x8f)
		return avail >= 5 ? 5 : 0;
	if (p[0] == 0x1f && avail >= 2 && ((p[1] >> 3) & 7) == 0)
		return (n = modrm_len(p + 1, avail - 1)) ? n + 1 : 0;
	if (rep && p[0] == 0x1e && avail >= 2 && p[1] == 0xfa)
		return 2;	/* endbr64 (CET): a nop for the frame */
	return 0;
}

/* Opcodes that stand alone or take only an immediate. */
static size_t decode_short(uint8_t op, unsigned rex, int opsz, size_t avail, struct insn *in)
{
	size_t need = 0;

	in->kind = I_OTHER;
	if ((op & 0xf0) == 0x50) {
		if (opsz)
			return 0;	/* a 2-byte push/pop: not a compiler prologue */
		in->kind = op < 0x58 ? I_PUSH : I_POP;
		in->reg = dwarf_of[(op & 7) | (rex & 1) << 3];
	} else if (op >= 0x70 && op <= 0x7f) {
		need = 1;	/* jcc rel8 */
	} else if (op >= 0xb8 && op <= 0xbf) {
		need = (rex & 8) ? 8 : opsz ? 2 : 4;
		in->kind = dest((op & 7) | (rex & 1) << 3);
	} else {
		switch (op) {
		case 0x6a: need = 1; in->kind = I_SPADD; in->imm = -8; break;
		case 0x68: need = 4; in->kind = I_SPADD; in->imm = -8; break;
		case 0x90: case 0xcc: break;
		case 0xc3: in->kind = I_RET; break;
		case 0xc2: need = 2; in->kind = I_RET; break;
		case 0xc9: in->kind = I_LEAVE; break;
		case 0xe8: need = 4; in->kind = I_CALL; break;
		case 0xe9: need = 4; in->kind = I_JMP; break;
		case 0xeb: need = 1; in->kind = I_JMP; break;
		default: return 0;
		}
	}
	return need <= avail ? need + 1 : 0;
}

/* One instruction at p; its length, or 0 if it is outside the subset or truncated. */
static size_t decode(const uint8_t *p, size_t avail, struct insn *in)
{
	size_t pos = 0, n;
	unsigned rex = 0;
	int opsz = 0, rep = 0, rm_dst;
	uint8_t op;

	memset(in, 0, sizeof(*in));
	/* Legacy prefixes before REX (SDM 2.1.1): 66 (nop padding), 2e/3e hints, f3 (endbr64). */
	for (; pos < 4 && pos < avail; pos++) {
		if (p[pos] == 0x66)
			opsz = 1;
		else if (p[pos] == 0xf3)
			rep = 1;
		else if (p[pos] != 0x2e && p[pos] != 0x3e)
			break;
	}
	if (pos < avail && (p[pos] & 0xf0) == 0x40)
		rex = p[pos++];
	if (pos >= avail)
		return 0;
	op = p[pos++];
	if (op == 0x0f)
		n = decode_0f(p + pos, avail - pos, rep, in);
	else if (op == 0x81 || op == 0x83)
		n = pos < avail ? decode_grp1(op, rex, opsz, p + pos, avail - pos, in) : 0;
	else if (op == 0xc7 && pos < avail && ((p[pos] >> 3) & 7) == 0) {
		size_t ib = opsz && !(rex & 8) ? 2 : 4;

		n = modrm_len(p + pos, avail - pos);
		in->kind = (p[pos] >> 6) == 3 ? dest((p[pos] & 7) | (rex & 1) << 3) : I_OTHER;
		n = n && n + ib <= avail - pos ? n + ib : 0;
	} else if (modrm_op(op, &rm_dst))
		n = pos < avail ? decode_modrm(op, rex, p + pos, avail - pos, rm_dst, in) : 0;
	else	/* counts the opcode byte itself */
		return (n = decode_short(op, rex, opsz, avail - pos, in)) ? pos - 1 + n : 0;
	return n ? pos + n : 0;
}

/* psABI 3.2.1: rbx, rbp, r12-r15 belong to the caller; their pushes are saves. */
static int callee_saved(unsigned dw)
{
	return dw == RBX || dw == RBP || (dw >= 12 && dw <= 15);
}

/* Instructions that undo the frame: the first one keeps the body's state in *body. */
static void epilogue(struct cr_scan *s, struct cr_scan *body)
{
	if (!s->epi) {
		*body = *s;
		s->epi = 1;
	}
}

/* Apply one instruction to the state.  0 or -CR_EINVAL (the frame is lost). */
static int apply(struct cr_scan *s, struct cr_scan *body, const struct insn *in)
{
	switch (in->kind) {
	case I_OTHER:
		return 0;
	case I_PUSH:
		if (!s->sp_ok)
			return -CR_EINVAL;
		s->epi = 0;
		s->sp_cfa += 8;
		if (callee_saved(in->reg) && !s->save[in->reg])
			cr_scan_save(s, in->reg, 0);
		return 0;
	case I_POP:
		if (!s->sp_ok || s->sp_cfa < 16 || in->reg == RSP)
			return -CR_EINVAL;	/* would pop the return address */
		epilogue(s, body);
		s->sp_cfa -= 8;
		if (in->reg < RIP)
			s->save[in->reg] = 0;
		if (in->reg == RBP)
			s->fp_ok = 0;
		return 0;
	case I_SPADD:
		if (in->imm > 0)
			epilogue(s, body);
		else
			s->epi = 0;
		s->sp_cfa -= in->imm;
		return s->sp_ok && s->sp_cfa < 8 ? -CR_EINVAL : 0;
	case I_SP_FP:
		if (!s->fp_ok)
			return -CR_EINVAL;
		epilogue(s, body);
		s->sp_cfa = s->fp_cfa - in->imm;
		s->sp_ok = 1;
		return 0;
	case I_FP_SP:
		if (!s->sp_ok)
			return -CR_EINVAL;
		s->epi = 0;
		s->fp_cfa = s->sp_cfa;
		s->fp_ok = 1;
		return 0;
	case I_LEAVE:	/* mov %rbp,%rsp; pop %rbp */
		if (!s->fp_ok)
			return -CR_EINVAL;
		epilogue(s, body);
		s->sp_cfa = s->fp_cfa - 8;
		s->sp_ok = 1;
		s->fp_ok = 0;
		s->save[RBP] = 0;
		return 0;
	case I_RET:
	case I_JMP:	/* after an epilogue: a tail call */
		/* Code after a return is reached by a branch from the body: its state again. */
		if (s->epi)
			*s = *body;
		return 0;
	case I_CALL:
		s->epi = 0;
		return 0;
	case I_SP_UNK:
		s->sp_ok = 0;
		return s->fp_ok ? 0 : -CR_EINVAL;
	case I_FP_UNK:
		s->fp_ok = 0;
		return s->sp_ok ? 0 : -CR_EINVAL;
	}
	return -CR_EINVAL;
}

#define EPI_MAX 16

/*
 * Frame 0 only: if the instructions at pc are an epilogue (pops, leave, add or
 * lea to rsp, then ret), the state at pc follows from the state at the ret
 * (CFA = rsp + 8, every register restored) by undoing them backwards.
 * Returns 0 with *s set, or -CR_EINVAL if pc is not in such an epilogue.
 */
static int scan_epilogue(const uint8_t *code, size_t len, struct cr_scan *s)
{
	struct insn in[EPI_MAX];
	size_t off = 0, n;
	int i, k;

	for (k = 0; k < EPI_MAX; k++) {
		if (!(n = decode(code + off, len - off, &in[k])))
			return -CR_EINVAL;
		off += n;
		if (in[k].kind == I_RET)
			break;
		if (in[k].kind != I_POP && in[k].kind != I_LEAVE && in[k].kind != I_SP_FP &&
		    !(in[k].kind == I_SPADD && in[k].imm > 0))
			return -CR_EINVAL;
	}
	if (k == EPI_MAX)
		return -CR_EINVAL;
	cr_scan_start(s, 8);
	s->save[RIP] = -8;
	for (i = k - 1; i >= 0; i--) {
		if (!s->sp_ok || (in[i].kind == I_POP && in[i].reg == RSP))
			return -CR_EINVAL;
		if (in[i].kind == I_POP) {
			s->sp_cfa += 8;
			s->save[in[i].reg] = -s->sp_cfa;
		} else if (in[i].kind == I_SPADD) {
			s->sp_cfa += in[i].imm;
		} else {	/* leave, or lea/mov from rbp: rsp after = rbp + imm */
			int64_t imm = in[i].kind == I_LEAVE ? 8 : in[i].imm;

			s->fp_cfa = s->sp_cfa + imm;
			if (in[i].kind == I_LEAVE)
				s->save[RBP] = -s->fp_cfa;
			s->fp_ok = 1;
			s->sp_ok = 0;
		}
	}
	return 0;
}

int cr_x86_64_scan(const uint8_t *code, size_t len, size_t pc_off, int frame0, struct cr_row *row)
{
	struct cr_scan s, body, epi;
	struct insn in;
	size_t off = 0, n = 0;
	unsigned i;
	int ret;

	if (pc_off > len)
		return -CR_EINVAL;
	/* At the call: CFA = rsp + 8, the return address at CFA - 8 (psABI 3.2.2). */
	cr_scan_start(&s, 8);
	s.save[RIP] = -8;
	for (i = 0; off < pc_off && i < CR_SCAN_MAX_INSNS; i++) {
		if (!(n = decode(code + off, pc_off - off, &in))) {
			/* pc inside an instruction: not a boundary, so not a pc of this function */
			if (decode(code + off, len - off, &in))
				return -CR_EINVAL;
			break;	/* outside the subset: the body starts here */
		}
		if ((ret = apply(&s, &body, &in)) < 0)
			return ret;
		off += n;
	}
	if (off < pc_off && frame0 && scan_epilogue(code + pc_off, len - pc_off, &epi) == 0)
		s = epi;
	return cr_scan_emit(&s, RSP, RBP, RIP, row);
}
