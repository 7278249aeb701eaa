/* SPDX-License-Identifier: MIT */
/*
 * x86-64 instruction lengths for the prologue decoder (scan.c): legacy
 * prefixes, REX, VEX, EVEX, the one-byte/0f/0f38/0f3a maps, ModRM/SIB/disp
 * and immediates (Intel SDM vol. 2, appendix A; AMD APM vol. 3), and the
 * general registers each instruction writes.  Pure: built on every host.
 */
#include <string.h>

#include "arch/scan.h"	/* cr_scan_sext */
#include "arch/x86_64/insn.h"

/*
 * Instruction lengths.  Each opcode of the one-byte and 0f maps (SDM vol. 2,
 * tables) has: its immediate (T_*), whether a ModRM byte follows
 * (M), and which general register it writes: the ModRM reg field (R), the r/m
 * field in register form (W); B: a byte operation (without REX, registers 4-7
 * are ah..bh, not spl..dil).  X: no size here (invalid in 64-bit mode, a
 * prefix or escape handled before the table, or not modelled).  S: the
 * registers it writes have a case of their own (x86_writes_special).
 */
enum {
	T_IB = 1, T_IW, T_IZ, T_IV, T_MOFFS, T_ENTER, T_GRP3, T_JZ,	/* bits 0-3 */
	M = 0x10, R = 0x20, W = 0x40, B = 0x80, X = 0x100, S = 0x200,
	N0 = 0, IB = T_IB, IZ = T_IZ,
};

static const uint16_t map0[256] = {
/* 00 */ M|W|B, M|W, M|R|B, M|R, IB, IZ, X, X, M|W|B, M|W, M|R|B, M|R, IB, IZ, X, X,
/* 10 */ M|W|B, M|W, M|R|B, M|R, IB, IZ, X, X, M|W|B, M|W, M|R|B, M|R, IB, IZ, X, X,
/* 20 */ M|W|B, M|W, M|R|B, M|R, IB, IZ, X, X, M|W|B, M|W, M|R|B, M|R, IB, IZ, X, X,
/* 30 */ M|W|B, M|W, M|R|B, M|R, IB, IZ, X, X, M|B, M, M|B, M, IB, IZ, X, X,
/* 40 */ X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
/* 50 */ N0, N0, N0, N0, N0, N0, N0, N0, N0, N0, N0, N0, N0, N0, N0, N0,
/* 60 */ X, X, X, M|R, X, X, X, X, IZ, M|R|IZ, IB, M|R|IB, N0, N0, N0, N0,
/* 70 */ IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB,
/* 80 */ M|W|B|IB|S, M|W|IZ|S, X, M|W|IB|S, M|B, M, M|R|W|B, M|R|W, M|W|B, M|W, M|R|B, M|R,
	 M|W, M|R, M, M|W,
/* 90 */ S, S, S, S, S, S, S, S, N0, N0, X, N0, N0, N0, N0, N0,
/* a0 */ T_MOFFS, T_MOFFS, T_MOFFS, T_MOFFS, N0, N0, N0, N0, IB, IZ, N0, N0, N0, N0, N0, N0,
/* b0 */ IB|S, IB|S, IB|S, IB|S, IB|S, IB|S, IB|S, IB|S, T_IV|S, T_IV|S, T_IV|S, T_IV|S,
	 T_IV|S, T_IV|S, T_IV|S, T_IV|S,
/* c0 */ M|W|B|IB, M|W|IB, T_IW, N0, X, X, M|W|B|IB, M|W|IZ, T_ENTER, N0, X, X, N0, IB, X, X,
/* d0 */ M|W|B, M|W, M|W|B, M|W, X, X, X, N0, M, M, M, M, M, M, M, M,
/* e0 */ IB, IB, IB, IB, IB, IB, IB, IB, T_JZ, T_JZ, X, IB, N0, N0, N0, N0,
/* f0 */ X, N0, X, X, N0, N0, M|B|T_GRP3|S, M|T_GRP3|S, N0, N0, N0, N0, N0, N0, M|W|B, M|S,
};

static const uint16_t map1[256] = {
/* 00 */ M|W, M, M|R, M|R, X, N0, N0, N0, N0, N0, X, N0, X, M, N0, X,
/* 10 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
/* 20 */ X, X, X, X, X, X, X, X, M, M, M, M, M|R, M|R, M, M,
/* 30 */ N0, N0, N0, N0, N0, N0, X, N0, X, X, X, X, X, X, X, X,
/* 40 */ M|R, M|R, M|R, M|R, M|R, M|R, M|R, M|R, M|R, M|R, M|R, M|R, M|R, M|R, M|R, M|R,
/* 50 */ M|R, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
/* 60 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
/* 70 */ M|IB, M|IB, M|IB, M|IB, M, M, M, N0, X, X, X, X, M, M, M|W|S, M,
/* 80 */ T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ,
	 T_JZ, T_JZ,
/* 90 */ M|W|B, M|W|B, M|W|B, M|W|B, M|W|B, M|W|B, M|W|B, M|W|B, M|W|B, M|W|B, M|W|B, M|W|B,
	 M|W|B, M|W|B, M|W|B, M|W|B,
/* a0 */ N0, N0, N0, M, M|W|IB, M|W, X, X, N0, N0, X, M|W, M|W|IB, M|W, M|S, M|R,
/* b0 */ M|W|B, M|W, M|R, M|W, M|R, M|R, M|R, M|R, M|R, M, M|W|IB, M|W, M|R, M|R, M|R, M|R,
/* c0 */ M|R|W|B, M|R|W, M|IB, M, M|IB, M|R|IB, M|IB, M|W, S, S, S, S, S, S, S, S,
/* d0 */ M, M, M, M, M, M, M, M|R, M, M, M, M, M, M, M, M,
/* e0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
/* f0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
};



/*
 * The legacy prefixes (SDM 2.1.1): their X86_P* bit, P_SEG for the segment
 * overrides and branch hints (no bit), 0 for any other byte.
 */
enum { P_SEG = 0x80 };
static const uint8_t prefix[256] = {
	[0x66] = X86_P66, [0x67] = X86_P67, [0xf2] = X86_PF2, [0xf3] = X86_PF3,
	[0xf0] = X86_PLOCK, [0x2e] = P_SEG, [0x36] = P_SEG, [0x3e] = P_SEG, [0x26] = P_SEG,
	[0x64] = P_SEG, [0x65] = P_SEG,
};

/* ModRM, SIB and displacement at p[0] (SDM 2.1.5, tables 2-2 and 2-3; the
   32-bit forms under 67 have the same sizes).  Bytes taken, 0 if truncated. */
static size_t modrm(const uint8_t *p, size_t avail, struct x86_insn *d)
{
	unsigned mod = p[0] >> 6, rm = p[0] & 7;
	size_t n = 1, dl = 0;
	uint32_t v = 0;

	d->has_modrm = 1;
	d->modrm = p[0];
	if (mod != 3 && rm == 4) {
		if (avail < 2)
			return 0;
		d->has_sib = 1;
		d->sib = p[1];
		n = 2;
		if (mod == 0 && (p[1] & 7) == 5)
			dl = 4;	/* no base: disp32 */
	} else if (mod == 0 && rm == 5) {
		dl = 4;	/* rip-relative */
	}
	if (mod == 1)
		dl = 1;
	else if (mod == 2)
		dl = 4;
	if (n + dl > avail)
		return 0;
	for (size_t i = 0; i < dl; i++)
		v |= (uint32_t)p[n + i] << (8 * i);
	d->disp = (int32_t)cr_scan_sext(v, dl ? 8 * (unsigned)dl : 8);
	return n + dl;
}

/* Immediate bytes for table class t. */
static unsigned imm_len(unsigned t, const struct x86_insn *d, int *bad)
{
	int w = d->rex & 8, o16 = (d->pfx & X86_P66) != 0;

	switch (t) {
	case T_IB: return 1;
	case T_IW: return 2;
	case T_IZ: return !w && o16 ? 2 : 4;
	case T_IV: return w ? 8 : o16 ? 2 : 4;
	case T_MOFFS: return d->pfx & X86_P67 ? 4 : 8;
	case T_ENTER: return 3;
	case T_GRP3:	/* test /0 /1 only */
		if (((d->modrm >> 3) & 7) > 1)
			return 0;
		return d->op == 0xf6 ? 1 : !w && o16 ? 2 : 4;
	case T_JZ:	/* 66 gives rel16 on AMD only: vendor-dependent, refused */
		*bad = o16;
		return 4;
	}
	return 0;
}

/* The general registers a VEX/EVEX instruction writes (BMI, extracts, kmov, conversions). */
static unsigned vex_flags(const struct x86_insn *d)
{
	unsigned op = d->op, f3 = d->pfx & X86_PF3, f2 = d->pfx & X86_PF2, evex = d->vex == 4;

	switch (d->map) {
	case 1:
		if (op == 0x77)
			return evex ? X : N0;	/* vzeroupper/vzeroall: no ModRM */
		if ((op >= 0x70 && op <= 0x73) || op == 0xc2 || op == 0xc4 || op == 0xc6)
			return M | IB;
		if (op == 0xc5)
			return M | IB | R;	/* vpextrw */
		if (op == 0x50 || op == 0xd7 || op == 0x2c || op == 0x2d || (!evex && op == 0x93))
			return M | R;	/* vmovmskp, vpmovmskb, vcvt*2si, kmov r32,k */
		if (evex && (op == 0x78 || op == 0x79) && (f2 || f3))
			return M | R;	/* vcvt*2usi */
		return op == 0x7e && !f3 ? M | W : M;	/* vmovd/q to r/m */
	case 2:
		if (evex)
			return M;
		if (op == 0xf2 || op == 0xf5 || op == 0xf6 || op == 0xf7)
			return M | R;	/* andn, bzhi/pdep/pext, mulx, bextr/shlx/sarx/shrx */
		return M;
	case 3:
		if (op >= 0x14 && op <= 0x17)
			return M | IB | W;	/* vpextrb/w/d/q, vextractps */
		return !evex && op == 0xf0 ? M | IB | R : M | IB;	/* rorx */
	case 5:
		if (!evex)
			return X;
		if ((op == 0x2c || op == 0x2d || op == 0x78 || op == 0x79) && f3)
			return M | R;	/* vcvt*sh2si/usi */
		return op == 0x7e ? M | W : M;	/* vmovw to r/m */
	case 6:
		return evex ? M : X;
	}
	return X;
}

/* VEX (c4/c5, SDM 2.3.5) or EVEX (62, SDM 2.7.1) at p[0].  Bytes up to the opcode, or 0. */
static size_t vex_prefix(const uint8_t *p, size_t avail, struct x86_insn *d)
{
	static const uint8_t pp[4] = { 0, X86_P66, X86_PF3, X86_PF2 };
	size_t n = p[0] == 0xc5 ? 2 : p[0] == 0xc4 ? 3 : 4;
	uint8_t b1, wv;

	if (avail < n + 1)
		return 0;
	b1 = p[1];
	d->vex = (uint8_t)(p[0] == 0x62 ? 4 : n);
	if (p[0] == 0xc5) {
		d->map = 1;
		d->rex = (uint8_t)((~b1 >> 5) & 4);
		wv = b1 & 0x7f;
	} else {
		d->map = b1 & (p[0] == 0x62 ? 0x0f : 0x1f);
		d->rex = (uint8_t)((~b1 >> 5) & 7) | (p[2] >> 4 & 8);
		wv = p[2];
		/* EVEX: P0 bit 3 is 0 and P1 bit 2 is 1 (else APX or invalid). */
		if (p[0] == 0x62 && (d->map & 8 || !(p[2] & 4)))
			return 0;
	}
	d->vvvv = (uint8_t)((~wv >> 3) & 15);
	d->pfx |= pp[wv & 3];
	return n;
}

/* Writes the tables cannot express: registers in the opcode, /digit groups, prefixes. */
static void x86_writes_special(struct x86_insn *d)
{
	unsigned op = d->op, b = d->rex & 1, ext = (d->modrm >> 3) & 7, mod3 = d->modrm >> 6 == 3;
	unsigned rm = (d->modrm & 7) | b << 3, r = (op & 7) | b << 3;

	if (d->vex) {
		if (d->vex != 4 && d->map == 2 && (op == 0xf3 || op == 0xf6))
			d->wmask |= (uint16_t)(1u << d->vvvv);	/* blsr/blsmsk/blsi, mulx */
		return;
	}
	switch (d->map) {
	case 0:
		if ((op >= 0x91 && op <= 0x97) || (op == 0x90 && b))
			d->wmask |= (uint16_t)(1u << r | 1u);	/* xchg r, rax */
		else if (op >= 0xb0 && op <= 0xb7 && (d->rex || (op & 7) < 4))
			d->wmask |= (uint16_t)(1u << r);	/* mov $ib, r8 */
		else if (op >= 0xb8 && op <= 0xbf)
			d->wmask |= (uint16_t)(1u << r);	/* mov $imm, r */
		else if ((op == 0x80 || op == 0x81 || op == 0x83) && ext == 7)
			d->wmask = 0;	/* cmp */
		else if ((op == 0xf6 || op == 0xf7) && mod3 && (ext == 2 || ext == 3) &&
			 (op == 0xf7 || d->rex || rm < 4))
			d->wmask |= (uint16_t)(1u << rm);	/* not, neg */
		else if (op == 0xff && mod3 && ext <= 1)
			d->wmask |= (uint16_t)(1u << rm);	/* inc, dec */
		break;
	case 1:
		if (op >= 0xc8 && op <= 0xcf)
			d->wmask |= (uint16_t)(1u << r);	/* bswap */
		else if (op == 0x7e && (d->pfx & X86_PF3))
			d->wmask = 0;	/* movq xmm, xmm/m64 */
		else if (op == 0xae && (d->pfx & X86_PF3) && mod3 && ext <= 1)
			d->wmask |= (uint16_t)(1u << rm);	/* rdfsbase, rdgsbase */
		break;
	case 2:
		if (op == 0xf0 || (op == 0xf1 && (d->pfx & X86_PF2)) ||
		    (op == 0xf6 && (d->pfx & (X86_P66 | X86_PF3))))
			d->wmask |= (uint16_t)(1u << (((d->modrm >> 3) & 7) | (d->rex & 4) << 1));
		break;	/* movbe load, crc32, adcx, adox */
	case 3:
		if (op >= 0x14 && op <= 0x17 && mod3)
			d->wmask |= (uint16_t)(1u << rm);	/* pextrb/w/d/q, extractps */
		break;
	}
}

/*
 * Length of the instruction at p (at most avail bytes are read); 0 if it
 * cannot be sized (unknown, or truncated).  Fills *d.
 */
size_t cr_x86_64_insn_len(const uint8_t *p, size_t avail, struct x86_insn *d)
{
	size_t i = 0, n;
	unsigned f, t, reg, rm;
	int bad = 0;

	memset(d, 0, sizeof(*d));
	d->p = p;
	if (avail > 15)
		avail = 15;	/* SDM 2.3.11: longer is #GP */
	for (; i < avail && prefix[p[i]]; i++)
		d->pfx |= prefix[p[i]] & (uint8_t)~P_SEG;
	if (i < avail && (p[i] & 0xf0) == 0x40)
		d->rex = p[i++];	/* 0x40 kept: a REX without bits still selects spl..dil */
	if (i >= avail)
		return 0;
	if (p[i] == 0xc4 || p[i] == 0xc5 || p[i] == 0x62) {
		/* 66/f2/f3/lock or REX before VEX/EVEX: #UD (SDM 2.3.2) */
		if (d->rex || (d->pfx & (X86_P66 | X86_PF2 | X86_PF3 | X86_PLOCK)) ||
		    !(n = vex_prefix(p + i, avail - i, d)))
			return 0;
		i += n;
		d->op = p[i++];
		f = vex_flags(d);
	} else if (p[i] == 0x0f) {
		if (++i >= avail)
			return 0;
		d->map = 1;
		if (p[i] == 0x38 || p[i] == 0x3a) {
			d->map = p[i] == 0x38 ? 2 : 3;
			if (++i >= avail)
				return 0;
		}
		d->op = p[i++];
		f = d->map == 1 ? map1[d->op] : d->map == 2 ? M : M | IB;
	} else {
		d->op = p[i++];
		f = map0[d->op];
		/* 8f with ModRM.reg != 0 is XOP (AMD), not pop */
		if (d->op == 0x8f && i < avail && (p[i] & 0x38))
			return 0;
	}
	if (f & X)
		return 0;
	if (f & M) {
		if (i >= avail || !(n = modrm(p + i, avail - i, d)))
			return 0;
		i += n;
	}
	t = f & 15;
	d->imm_at = (uint8_t)i;
	d->imm_len = (uint8_t)(t ? imm_len(t, d, &bad) : 0);
	if (bad || i + d->imm_len > avail)
		return 0;
	d->len = (uint8_t)(i + d->imm_len);
	/* Registers written: reg field, or r/m in register form. */
	reg = ((d->modrm >> 3) & 7) | (d->rex & 4) << 1;
	rm = (d->modrm & 7) | (d->rex & 1) << 3;
	if ((f & B) && !d->rex) {	/* ah..bh, not spl..dil */
		reg = reg >= 4 ? 16 : reg;
		rm = rm >= 4 ? 16 : rm;
	}
	if ((f & R) && reg < 16)
		d->wmask |= (uint16_t)(1u << reg);
	if ((f & W) && (d->modrm >> 6) == 3 && rm < 16)
		d->wmask |= (uint16_t)(1u << rm);
	/* The cases of their own: the tables' S, and every VEX/EVEX, 0f38
	   and 0f3a instruction (vex_flags and the constant flags above do not
	   carry S). */
	if ((f & S) || d->vex || d->map >= 2)
		x86_writes_special(d);
	return d->len;
}
