/* SPDX-License-Identifier: MIT */
/*
 * x86_64 prologue decoder: an instruction-length decoder for user-mode code
 * (Intel SDM vol. 2, chapter 2 and appendix A "Opcode Map"; AMD APM vol. 3,
 * appendix A) and a frame tracker that walks the function from its start to
 * the pc, like the fixed-length arches do.
 *
 * Lengths.  Legacy prefixes (66 67 f2 f3 f0 and the segment overrides), REX,
 * VEX (c4/c5), EVEX (62: always EVEX in 64-bit mode, where BOUND is invalid),
 * the one-byte, 0f, 0f38 and 0f3a maps (VEX maps 1-3, EVEX maps 1-3, 5, 6),
 * ModRM + SIB + displacement, and the immediate sizes (66 shrinks iz to 16
 * bits unless REX.W; B8+r with REX.W takes imm64; A0-A3 take a 64-bit moffs,
 * 32 with 67; f6/f7 /0,/1 take ib/iz; c8 enter takes iw + ib).  Anything else
 * (3DNow!, XOP, AMX-less reserved slots, far transfers, APX map 4, privileged
 * moves to control registers) has no size here: decoding fails on it.
 *
 * Frame.  Every instruction that can write rsp or rbp is identified: push/pop
 * (and of immediates, memory, flags, fs/gs), add/sub $imm,%rsp, lea to rsp/rbp,
 * mov between rsp and rbp, leave, enter $N,$0, call/ret/jmp; and, through the
 * opcode tables, every other instruction whose destination is a general
 * register (ALU ops, mov, xchg, cmov, setcc, shifts, bswap, BMI, vector
 * extracts to a GPR, ...).  A write we cannot follow makes rsp unknown (an
 * error unless the CFA is rbp-based) or drops the frame pointer (an error
 * unless rsp is known).
 *
 * Unknown instruction policy.  An instruction that cannot be sized fails the
 * scan (-CR_EINVAL) while the CFA is rsp-based: nothing after it could be
 * followed, and a wrong CFA is worse than none.  Once the CFA is rbp-based it
 * ends the walk instead: compiled code does not touch rbp between its
 * prologue and its epilogue, so the rbp row holds for the body; for frame 0
 * the bytes at pc are then tried as an epilogue (pop/leave/add/lea ... ret),
 * whose state is exact wherever the body was.
 *
 * Branches.  The state at a forward branch target is remembered (a small
 * table): code after a ret or jmp is reached only by a branch, so it takes
 * the state of the branch that targets it (a shrink-wrapped early exit before
 * the prologue), or else the state of the body before the last epilogue.  A
 * conditional backward branch whose target had another rsp (a stack-probe
 * loop) makes rsp unknown.
 *
 * DWARF numbers (SysV x86_64 psABI 3.6.2, figure 3.36): rax 0, rdx 1, rcx 2,
 * rbx 3, rsi 4, rdi 5, rbp 6, rsp 7, r8-r15 8-15, return address 16.
 */
#include "arch/scan.h"
#include "arch/x86_64/insn.h"
#include "str.h"


enum { RBX = 3, RBP = 6, RSP = 7, RIP = 16 };
enum { HW_RSP = 4, HW_RBP = 5 };

/* Hardware (ModRM/REX) register number -> DWARF number. */
static const uint8_t dwarf_of[16] = { 0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15 };

enum kind {
	K_NONE,		/* only the registers in wmask, if any, are written */
	K_PUSH,		/* rsp -= 8; reg (DWARF, 0xff: not a register) stored at the new rsp */
	K_POP,		/* rsp += 8; reg loaded (0xff: memory, flags, segment) */
	K_SPADD,	/* rsp += imm */
	K_SP_FP,	/* rsp = rbp + imm */
	K_FP_SP,	/* rbp = rsp + imm */
	K_LEAVE,
	K_ENTER,	/* enter $imm, $0 */
	K_RET,
	K_CALL,
	K_JMP,		/* unconditional; target if has_target */
	K_JCC,		/* conditional; target */
	K_STORE,	/* mov %reg,imm(%base) */
	K_LOAD,		/* mov imm(%base),%reg (the write of reg is also in wmask) */
};

struct insn {
	enum kind kind;
	uint8_t reg;
	uint8_t has_target;
	uint8_t base;		/* K_STORE/K_LOAD: RSP or RBP (DWARF) */
	uint16_t wmask;		/* hardware GPRs written in a way we do not follow */
	int64_t imm;
	int64_t target;		/* branch target, relative to this instruction's end */
};

static int64_t imm_at(const struct x86_insn *d)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < d->imm_len && i < 8; i++)
		v |= (uint64_t)d->p[d->imm_at + i] << (8 * i);
	return d->imm_len >= 8 ? (int64_t)v : cr_scan_sext(v, 8 * d->imm_len);
}

/*
 * lea to rsp or rbp: disp(%rsp) or disp(%rbp) without index (SDM 2.1.5); anything
 * else is a write we do not follow.
 */
static void lea(const struct x86_insn *d, unsigned dst, struct insn *in)
{
	unsigned mod = d->modrm >> 6, rm = (d->modrm & 7) | (d->rex & 1) << 3;
	int64_t disp = d->disp;

	if (d->pfx & (X86_P66 | X86_P67) || !(d->rex & 8))
		goto unk;
	if (rm == HW_RSP && d->has_sib && d->sib == 0x24 && mod != 0) {
		in->kind = dst == HW_RSP ? K_SPADD : K_FP_SP;	/* lea d(%rsp),%rsp/%rbp */
		in->imm = disp;
		in->wmask = 0;
		return;
	}
	if (rm == HW_RBP && !d->has_sib && mod != 0 && dst == HW_RSP) {
		in->kind = K_SP_FP;	/* lea d(%rbp),%rsp */
		in->imm = disp;
		in->wmask = 0;
		return;
	}
	if (rm == HW_RSP && d->has_sib && d->sib == 0x24 && mod == 0) {
		in->kind = dst == HW_RSP ? K_SPADD : K_FP_SP;	/* lea (%rsp),%reg */
		in->imm = 0;
		in->wmask = 0;
		return;
	}
unk:
	in->wmask |= 1u << dst;
}

/*
 * mov %reg,disp(%rsp|%rbp) is a save (the first store of a callee-saved
 * register), mov disp(%rsp|%rbp),%reg a restore if that is its slot.
 */
static int mov_mem(const struct x86_insn *d, int store, unsigned reg, struct insn *in)
{
	unsigned rm = (d->modrm & 7) | (d->rex & 1) << 3, mod = d->modrm >> 6;

	if (d->pfx & X86_P67)
		return 0;
	if (rm == HW_RSP && d->sib == 0x24)
		in->base = RSP;
	else if (rm == HW_RBP && mod != 0)
		in->base = RBP;
	else
		return 0;
	in->kind = store ? K_STORE : K_LOAD;
	in->reg = dwarf_of[reg];
	in->imm = d->disp;
	return 0;
}

/* The one-byte-map instructions that move rsp or branch (SDM vol. 2, table A-2). */
static int one_byte(const struct x86_insn *d, struct insn *in)
{
	unsigned op = d->op, b = d->rex & 1, ext = (d->modrm >> 3) & 7, mod = d->modrm >> 6;
	unsigned rm = (d->modrm & 7) | b << 3, reg = ((d->modrm >> 3) & 7) | (d->rex & 4) << 1;
	int o16 = (d->pfx & X86_P66) != 0;

	if (op >= 0x50 && op <= 0x5f) {
		if (o16)
			return -1;	/* a 2-byte push/pop */
		in->kind = op < 0x58 ? K_PUSH : K_POP;
		in->reg = dwarf_of[(op & 7) | b << 3];
		return 0;
	}
	switch (op) {
	case 0x68: case 0x6a: case 0x9c:	/* push imm, pushf */
		in->kind = K_SPADD;
		in->imm = -8;
		return o16 ? -1 : 0;
	case 0x9d:	/* popf */
		in->kind = K_POP;
		in->reg = 0xff;
		return o16 ? -1 : 0;
	case 0x8f:	/* pop r/m */
		in->kind = K_POP;
		in->reg = mod == 3 ? dwarf_of[rm] : 0xff;
		return o16 ? -1 : 0;
	case 0x8d:
		if (reg == HW_RSP || reg == HW_RBP)
			lea(d, reg, in);
		return 0;
	case 0x89: case 0x8b:
		if (mod != 3 && (d->rex & 8) && !o16)
			return mov_mem(d, op == 0x89, reg, in);
		if (mod == 3 && (d->rex & 8) && !o16) {
			unsigned to = op == 0x89 ? rm : reg, from = op == 0x89 ? reg : rm;

			if (to == HW_RBP && from == HW_RSP) {
				in->kind = K_FP_SP;
				in->wmask = 0;
				return 0;
			}
			if (to == HW_RSP && from == HW_RBP) {
				in->kind = K_SP_FP;
				in->wmask = 0;
				return 0;
			}
		}
		return 0;
	case 0x81: case 0x83:	/* add/sub $imm,%rsp (REX.W) */
		if (mod == 3 && rm == HW_RSP && (d->rex & 8) && (ext == 0 || ext == 5)) {
			in->kind = K_SPADD;
			in->imm = ext == 5 ? -imm_at(d) : imm_at(d);
			in->wmask = 0;
		}
		return 0;
	case 0xc2: case 0xc3:
		in->kind = K_RET;
		return 0;
	case 0xc8:	/* enter $size, $level: level 0 is push rbp; mov rsp,rbp; sub $size */
		in->kind = K_ENTER;
		in->imm = (int64_t)(d->p[d->imm_at] | d->p[d->imm_at + 1] << 8);
		return d->p[d->imm_at + 2] || o16 ? -1 : 0;
	case 0xc9:
		in->kind = K_LEAVE;
		return o16 ? -1 : 0;
	case 0xe8:
		in->kind = K_CALL;
		return 0;
	case 0xe9: case 0xeb:
		in->kind = K_JMP;
		in->has_target = 1;
		in->target = imm_at(d);
		return 0;
	case 0xff:
		if (ext == 2) {
			in->kind = K_CALL;
		} else if (ext == 4) {
			in->kind = K_JMP;
		} else if (ext == 6) {
			in->kind = K_PUSH;
			in->reg = 0xff;
			return o16 ? -1 : 0;
		} else if (ext == 3 || ext == 5 || ext == 7) {
			return -1;	/* far call/jmp, invalid */
		}
		return 0;
	}
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3)) {
		in->kind = K_JCC;	/* jcc, loop, jrcxz rel8 */
		in->has_target = 1;
		in->target = imm_at(d);
	}
	return 0;
}

/* The 0f-map instructions that move rsp or branch: push/pop fs/gs, jcc rel32. */
static int two_byte(const struct x86_insn *d, struct insn *in)
{
	unsigned op = d->op;

	if (op == 0xa0 || op == 0xa8) {
		in->kind = K_SPADD;
		in->imm = -8;
	} else if (op == 0xa1 || op == 0xa9) {
		in->kind = K_POP;
		in->reg = 0xff;
	} else if (op >= 0x80 && op <= 0x8f) {
		in->kind = K_JCC;
		in->has_target = 1;
		in->target = imm_at(d);
	}
	return (d->pfx & X86_P66) && (op & 0xf6) == 0xa0 ? -1 : 0;
}

/* What the decoded instruction does to the frame.  -1: an effect we cannot model. */
static int classify(const struct x86_insn *d, struct insn *in)
{
	memset(in, 0, sizeof(*in));
	in->reg = 0xff;
	in->wmask = d->wmask;
	if (d->vex)
		return 0;	/* VEX/EVEX: no stack or branch effect; GPR writes are in wmask */
	if (d->map == 0)
		return one_byte(d, in);
	if (d->map == 1)
		return two_byte(d, in);
	return 0;
}

/* psABI 3.2.1: rbx, rbp, r12-r15 belong to the caller; their pushes are saves. */
static int callee_saved(unsigned dw)
{
	return dw == RBX || dw == RBP || (dw >= 12 && dw <= 15);
}

/*
 * The walk: the shared scanner (arch/scan.h: the current state, the body's
 * state before the last epilogue, the states at pending forward branch
 * targets) and the history of rsp for checking backward branches.  About
 * 3.8 KiB of stack.
 */
#define LABELS 16
#define SPHIST 64

struct sphist {
	uint32_t at;		/* from this offset on */
	int32_t sp_cfa;		/* INT32_MIN: unknown */
};

struct walk {
	struct cr_scanner c;
	struct cr_scan_label lab[LABELS];
	struct sphist h[SPHIST];
	unsigned nh;
	uint8_t h_lost;		/* the history overflowed: older offsets unknown */
};

static int fits(int64_t v)
{
	return v > INT32_MIN && v <= INT32_MAX;
}

static int32_t sp_now(const struct cr_scan *s)
{
	return s->sp_ok && fits(s->sp_cfa) ? (int32_t)s->sp_cfa : INT32_MIN;
}

/* Note rsp as it is from offset at on. */
static void hist_note(struct walk *w, size_t at)
{
	int32_t v = sp_now(&w->c.s);

	if (w->nh ? w->h[w->nh - 1].sp_cfa == v : v == 8)
		return;
	if (w->nh == SPHIST) {
		memmove(w->h, w->h + 1, sizeof(w->h[0]) * (SPHIST - 1));
		w->nh--;
		w->h_lost = 1;
	}
	w->h[w->nh].at = (uint32_t)at;
	w->h[w->nh++].sp_cfa = v;
}

/* CFA - rsp at code offset at (INT32_MIN: unknown); 0 if the history lost it. */
static int hist_at(const struct walk *w, size_t at, int32_t *v)
{
	unsigned i;

	for (i = w->nh; i-- > 0;) {
		if (w->h[i].at <= at) {
			*v = w->h[i].sp_cfa;
			return 1;
		}
	}
	if (w->h_lost)
		return 0;
	*v = 8;	/* before the first change: the entry state */
	return 1;
}

/* Writes we do not follow: rsp becomes unknown, the frame pointer is dropped. */
static int lost(struct cr_scan *s, uint16_t wmask)
{
	if (wmask & (1u << HW_RSP))
		s->sp_ok = 0;
	if (wmask & (1u << HW_RBP))
		s->fp_ok = 0;
	return s->sp_ok || s->fp_ok ? 0 : -CR_EINVAL;
}

/* push: rsp -= 8, then a save of a callee-saved register at the new rsp. */
static int push(struct cr_scanner *c, unsigned reg)
{
	if (!c->s.sp_ok)
		return reg == 0xff ? 0 : -CR_EINVAL;	/* the slot of a save is unknown */
	cr_scan_sp_add(c, -8);
	if (reg != 0xff)
		cr_scan_store(c, reg, RSP, 0, callee_saved(reg));
	return 0;
}

/* pop: a restore of whatever reg was (part of an epilogue), then rsp += 8. */
static int pop(struct cr_scanner *c, unsigned reg)
{
	struct cr_scan *s = &c->s;

	if (!s->sp_ok)
		return reg == RBP || reg == RSP ? -CR_EINVAL : 0;
	if (s->sp_cfa < 16 || reg == RSP)
		return -CR_EINVAL;	/* would pop the return address, or set rsp */
	cr_scan_epi(c);
	s->sp_cfa -= 8;
	if (reg < RIP)
		s->save[reg] = 0;
	if (reg == RBP)
		s->fp_ok = 0;
	return 0;
}

/* mov %reg,imm(%rsp|%rbp): the first store of a callee-saved register below the CFA saves it. */
static void store(struct cr_scanner *c, const struct insn *in)
{
	if (cr_scan_slot(c, in->base, in->imm) < 0)
		cr_scan_store(c, in->reg, in->base, in->imm, callee_saved(in->reg));
}

/*
 * Apply the instruction of length len that ends at off to the state.  0 or
 * -CR_EINVAL (the frame is lost).
 */
static int apply(struct walk *w, const struct insn *in, size_t off, size_t len)
{
	struct cr_scanner *c = &w->c;
	struct cr_scan *s = &c->s;
	int32_t then;

	switch (in->kind) {
	case K_NONE:
		break;
	case K_PUSH:
		if (push(c, in->reg) < 0)
			return -CR_EINVAL;
		break;
	case K_POP:
		if (pop(c, in->reg) < 0)
			return -CR_EINVAL;
		break;
	case K_SPADD:
		/* push $imm while rsp is unknown: nothing to follow; never above the
		   return address */
		if (s->sp_ok && cr_scan_sp_add(c, in->imm) < 0)
			return -CR_EINVAL;
		break;
	case K_SP_FP:
		if (cr_scan_sp_from_fp(c, in->imm) < 0)
			return -CR_EINVAL;
		break;
	case K_FP_SP:
		if (cr_scan_fp_from_sp(c, in->imm) < 0)
			return -CR_EINVAL;
		break;
	case K_ENTER:	/* push %rbp; mov %rsp,%rbp; sub $imm,%rsp (SDM "ENTER", level 0) */
		if (push(c, RBP) < 0)
			return -CR_EINVAL;
		s->fp_cfa = s->sp_cfa;
		s->fp_ok = 1;
		s->sp_cfa += in->imm;
		break;
	case K_LEAVE:	/* mov %rbp,%rsp; pop %rbp */
		if (!s->fp_ok)
			return -CR_EINVAL;
		cr_scan_epi(c);
		s->sp_cfa = s->fp_cfa - 8;
		s->sp_ok = 1;
		s->fp_ok = 0;
		s->save[RBP] = 0;
		break;
	case K_STORE:
		store(c, in);
		break;
	case K_LOAD:
		/* A load from its register's save slot is a restore. */
		return cr_scan_load(c, in->reg, in->base, in->imm);
	case K_CALL:
		s->epi = 0;
		break;
	case K_RET:
	case K_JMP:
		if (in->has_target && in->target > 0)
			cr_scan_branch(c, in->target + (int64_t)len);
		cr_scan_ret(c);
		break;
	case K_JCC:
		if (in->target > 0) {
			cr_scan_branch(c, in->target + (int64_t)len);
		} else if (s->sp_ok && (int64_t)off + in->target >= 0 &&
			   hist_at(w, (size_t)((int64_t)off + in->target), &then) &&
			   then != sp_now(s)) {
			s->sp_ok = 0;	/* a loop that moves rsp (stack probing) */
		}
		break;
	}
	return lost(s, in->wmask);
}

#define EPI_MAX 16

/*
 * Frame 0 after a walk that ended early (rbp-based CFA, then an instruction
 * without a size): if the instructions at pc are an epilogue (pops, leave, add
 * or lea to rsp, then ret), the state at pc follows from the state at the ret
 * (CFA = rsp + 8, every register restored) by undoing them backwards.
 * Returns 0 with *s set, or -CR_EINVAL if pc is not in such an epilogue.
 */
static int scan_epilogue(const uint8_t *code, size_t len, struct cr_scan *s)
{
	struct insn in[EPI_MAX];
	struct x86_insn d;
	size_t off = 0, n;
	int i, k;

	for (k = 0; k < EPI_MAX; k++) {
		if (!(n = cr_x86_64_insn_len(code + off, len - off, &d)) || classify(&d, &in[k]) < 0)
			return -CR_EINVAL;
		off += n;
		if (in[k].kind == K_RET && !in[k].has_target)
			break;
		if ((in[k].kind != K_POP && in[k].kind != K_LEAVE && in[k].kind != K_SP_FP &&
		     !(in[k].kind == K_SPADD && in[k].imm > 0)) || in[k].wmask)
			return -CR_EINVAL;
	}
	if (k == EPI_MAX)
		return -CR_EINVAL;
	cr_scan_start(s, 8);
	s->save[RIP] = -8;
	for (i = k - 1; i >= 0; i--) {
		if (!s->sp_ok || (in[i].kind == K_POP && in[i].reg == RSP))
			return -CR_EINVAL;
		if (in[i].kind == K_POP) {
			s->sp_cfa += 8;
			if (in[i].reg < RIP)
				s->save[in[i].reg] = -s->sp_cfa;
		} else if (in[i].kind == K_SPADD) {
			s->sp_cfa += in[i].imm;
		} else {	/* leave, or lea/mov from rbp: rsp after = rbp + imm */
			int64_t imm = in[i].kind == K_LEAVE ? 8 : in[i].imm;

			s->fp_cfa = s->sp_cfa + imm;
			if (in[i].kind == K_LEAVE)
				s->save[RBP] = -s->fp_cfa;
			s->fp_ok = 1;
			s->sp_ok = 0;
		}
	}
	return 0;
}

/*
 * psABI 3.4.1: the deepest frame is marked by clearing rbp; glibc's and musl's
 * _start begin with [endbr64;] xor %ebp,%ebp.  Past it, the frame is the
 * outermost one: the row leaves the return address undefined (CR_END).
 */
static int outermost(const uint8_t *code, size_t pc_off)
{
	size_t o = pc_off >= 4 && cr_memeq(code, "\xf3\x0f\x1e\xfa", 4) ? 4 : 0;

	if (o + 2 <= pc_off && (code[o] == 0x31 || code[o] == 0x33) && code[o + 1] == 0xed)
		return 1;
	return o + 3 <= pc_off && code[o] == 0x48 && (code[o + 1] == 0x31 || code[o + 1] == 0x33) &&
	       code[o + 2] == 0xed;
}

int cr_x86_64_scan(const uint8_t *code, size_t len, size_t pc_off, int frame0, struct cr_row *row)
{
	struct walk w;
	struct cr_scan epi;
	struct x86_insn d;
	struct insn in;
	size_t off = 0, n;
	unsigned i;

	if (pc_off > len)
		return -CR_EINVAL;
	if (outermost(code, pc_off)) {
		cr_scan_start(&w.c.s, 8);
		if (cr_scan_emit(&w.c.s, RSP, RBP, RIP, row) < 0)
			return -CR_EINVAL;
		row->reg[RIP].kind = CR_UNDEF;
		return 0;
	}
	/* At the call: CFA = rsp + 8, the return address at CFA - 8 (psABI 3.2.2). */
	cr_scanner_start(&w.c, RSP, RBP, RIP, 0, 8, w.lab, LABELS);
	w.nh = 0;
	w.h_lost = 0;
	for (i = 0; off < pc_off && i < CR_SCAN_MAX_INSNS; i++) {
		n = cr_x86_64_insn_len(code + off, len - off, &d);
		if (n && off + n > pc_off)
			return -CR_EINVAL;	/* pc inside an instruction: not a pc of this function */
		if (!n || classify(&d, &in) < 0) {
			/* No size, or an effect we cannot model: only an rbp-based CFA survives. */
			if (!w.c.s.fp_ok)
				return -CR_EINVAL;
			if (frame0 && scan_epilogue(code + pc_off, len - pc_off, &epi) == 0)
				w.c.s = epi;
			break;
		}
		off += n;
		if (apply(&w, &in, off, n) < 0)
			return -CR_EINVAL;
		/* The next instruction: after a ret or jmp, the state of a branch to it. */
		cr_scan_at(&w.c, off);
		hist_note(&w, off);
	}
	if (off < pc_off && i == CR_SCAN_MAX_INSNS)
		return -CR_EINVAL;
	return cr_scan_emit(&w.c.s, RSP, RBP, RIP, row);
}

/*
 * call rel32 (e8) or call r/m64 (ff /2) ending exactly at len: each possible
 * start from 2 to 15 bytes back is decoded with the length decoder (prefixes
 * such as notrack 3e or a REX byte included).
 */
int cr_x86_64_call_before(const uint8_t *code, size_t len)
{
	struct x86_insn d;
	size_t k;

	/* Only the tail: a sequential walk could stop at an instruction it cannot size. */
	for (k = 2; k <= 15 && k <= len; k++) {
		if (cr_x86_64_insn_len(code + len - k, k, &d) != k || d.vex || d.map)
			continue;
		if (d.op == 0xe8 || (d.op == 0xff && d.has_modrm && ((d.modrm >> 3) & 7) == 2))
			return 1;
	}
	return 0;
}

/* call rel32 (e8, 5 bytes) ending at ret (cr_call_target_fn). */
int cr_x86_64_call_target(const uint8_t *code, size_t len, uint64_t ret, uint64_t *target)
{
	int32_t rel;

	if (len < 5 || code[len - 5] != 0xe8)
		return 0;
	memcpy(&rel, code + len - 4, 4);	/* little-endian */
	*target = ret + (uint64_t)(int64_t)rel;
	return 1;
}
