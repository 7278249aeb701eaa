/* SPDX-License-Identifier: MIT */
/* x86-64 instruction lengths (insn.c), for the prologue decoder (scan.c).  Pure. */
#ifndef CR_X86_64_INSN_H
#define CR_X86_64_INSN_H

#include <stddef.h>
#include <stdint.h>

enum { X86_P66 = 1, X86_P67 = 2, X86_PF2 = 4, X86_PF3 = 8, X86_PLOCK = 16 };

struct x86_insn {
	const uint8_t *p;	/* the first byte */
	uint8_t len;
	uint8_t map;		/* 0 one-byte, 1 0f, 2 0f38, 3 0f3a; VEX/EVEX: mmmmm */
	uint8_t vex;		/* 0 legacy, 2 or 3 VEX (c5/c4), 4 EVEX */
	uint8_t op;
	uint8_t pfx;		/* X86_P*; VEX pp folded in */
	uint8_t rex;		/* W R X B in bits 3-0, from REX (0x4X) or VEX/EVEX */
	uint8_t vvvv;		/* VEX/EVEX extra register */
	uint8_t has_modrm, modrm, has_sib, sib;
	uint8_t imm_at, imm_len;
	int32_t disp;
	uint16_t wmask;		/* general registers written (hardware numbers) */
};

/*
 * Decode the instruction at p[0..avail): its length (0: truncated, or not an
 * instruction this decoder can size), with *d describing it.  Reads only p.
 */
size_t cr_x86_64_insn_len(const uint8_t *p, size_t avail, struct x86_insn *d);

#endif
