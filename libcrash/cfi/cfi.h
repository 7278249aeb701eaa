/* SPDX-License-Identifier: MIT */
/*
 * DWARF call frame information from .eh_frame_hdr / .eh_frame (DWARF 5 section
 * 6.4, LSB 5.0 "Exception Frames").  Everything reads through cr_mem, is
 * bounded and AS-safe, and writes its output only on success.
 */
#ifndef CR_CFI_H
#define CR_CFI_H

#include "../cursor.h"
#include "../module.h"
#include "../row.h"
#include "cache.h"

/* Where one module's unwind tables are (all addresses in the unwound process). */
struct cr_ehsrc {
	uint64_t eh_hdr;	/* .eh_frame_hdr (PT_GNU_EH_FRAME), 0 if none */
	uint64_t eh_hdr_len;	/* its size (p_memsz) */
	uint64_t eh_frame;	/* .eh_frame start, 0: take it from eh_hdr's eh_frame_ptr */
	uint64_t eh_frame_end;	/* bound for the linear scan (module end if unknown) */
	struct cr_bases bases;	/* text/data bases for textrel/datarel (0: unknown) */
	uint64_t modkey;	/* the module's key (cr_module_key) for the CIE memo
				   (cache.h); 0: no memo (memory other than the live
				   process's) */
};

struct cr_cie {
	uint64_t addr;		/* where the CIE starts */
	uint64_t modkey;	/* cr_ehsrc.modkey of its source */
	uint64_t code_align;
	int64_t data_align;
	uint16_t ra;		/* return-address column */
	uint8_t version;	/* 1, 3 or 4 */
	uint8_t fde_enc;	/* 'R' (default absptr) */
	uint8_t lsda_enc;	/* 'L' (default omit) */
	uint8_t signal;		/* 'S': frames of this CIE were interrupted by a signal */
	uint8_t aug_z;		/* 'z': FDEs carry an augmentation data length */
	uint64_t personality;	/* 'P', 0 if none */
	uint64_t insns, insns_end;	/* initial instructions [insns, insns_end) */
	struct cr_bases bases;	/* for DW_CFA_set_loc: the source's text/data, func = pc_lo */
};

struct cr_fde {
	uint64_t addr;		/* where the FDE starts (its length field) */
	uint64_t pc_lo, pc_hi;	/* [pc_lo, pc_hi) */
	uint64_t lsda;		/* 0 if none */
	uint64_t insns, insns_end;
	struct cr_cie cie;
	struct cr_view view;	/* where the parser read the FDE in place, for
				   cr_cfa_run (a cr_fde is never kept across walks) */
	/* init_ok: the CIE came from the CIE memo (cache.h) with init, the
	   rules of its initial instructions, read with it: cr_cfa_run need
	   not read the memo again.  0: it reads it or runs the CIE. */
	uint8_t init_ok;
	struct cr_cie_init init;
};

/*
 * The FDE that covers pc: binary search of .eh_frame_hdr's table; a linear scan
 * of .eh_frame when the table is missing, not sorted or not in a searchable
 * encoding (see ehframe.c for what "not sorted" detects).  0, -CR_ENOINFO (none
 * covers pc), -CR_EINVAL, -CR_EFAULT, -CR_ERANGE (linear scan: more than
 * CR_EH_SCAN_MAX entries).
 */
#define CR_EH_SCAN_MAX (1u << 20)
int cr_eh_find(const struct cr_mem *m, const struct cr_ehsrc *src, uint64_t pc,
	       struct cr_fde *fde);

/*
 * cr_eh_find in two halves, for a walk that looks up several pcs of one
 * module (the trace loop's first capture, cfi/trace.c): what .eh_frame_hdr
 * says, parsed once (LSB 5.0 ".eh_frame_hdr"), then each lookup in it.
 * at points into a view of m (cursor.h): valid for the walk that parsed
 * it, never kept beyond it.  cr_eh_hdr: 0, or parse_hdr's error, kept in
 * ret (cr_eh_find_in then answers as cr_eh_find would).  cr_eh_find_in:
 * cr_eh_find's answer for pc, h from cr_eh_hdr on the same m and src.
 */
struct cr_ehhdr {
	uint64_t eh_frame;	/* 0: omitted */
	uint64_t table, count;	/* count 0: no usable table */
	const uint8_t *at;	/* the table in place, NULL: not (yet) */
	int ret;		/* the parse's result */
};
int cr_eh_hdr(const struct cr_mem *m, const struct cr_ehsrc *src, struct cr_ehhdr *h);
int cr_eh_find_in(const struct cr_mem *m, const struct cr_ehsrc *src, const struct cr_ehhdr *h,
		  uint64_t pc, struct cr_fde *fde);

/*
 * cr_eh_find, and where it answers -CR_ENOINFO from .eh_frame_hdr's table,
 * the stretch [gap[0], gap[1]) around pc of the pcs it answers so for (the
 * gap memo's, cache.h); gap[0] = gap[1] = 0 where it does not know one (a
 * linear scan, an unsorted table, an error, an FDE found).
 */
int cr_eh_find_gap(const struct cr_mem *m, const struct cr_ehsrc *src, uint64_t pc,
		   struct cr_fde *fde, uint64_t gap[2]);

/*
 * Decode the FDE at addr (and its CIE).  The entries must lie inside
 * [src->eh_frame, src->eh_frame_end) (either bound 0: unknown).  0, -CR_EINVAL
 * if addr holds a CIE, a terminator or junk, -CR_EFAULT.
 */
int cr_eh_parse_fde(const struct cr_mem *m, const struct cr_ehsrc *src, uint64_t addr,
		    struct cr_fde *fde);

/*
 * Run the CIE's initial instructions, then the FDE's up to and including the
 * location pc (the lookup pc: the exact pc for frame #00 and signal frames,
 * else return address - 1).  *row gets the rule set in force at pc, with
 * row->ra = cie.ra and row->signal = cie.signal.  Bounded remember stack
 * (CR_CFA_STACK rows) and instruction count (CR_CFA_MAX_INSNS, CIE and FDE
 * together).  Reads only the instruction bytes.  0; -CR_ENOINFO (pc outside
 * [pc_lo, pc_hi)); -CR_EINVAL (bad or truncated instruction, restore_state
 * on an empty stack, def_cfa_register/offset on an expression CFA); -CR_ERANGE
 * (remember stack or instruction bound); -CR_EFAULT.  *row only on success.
 * aarch64: RA_SIGN_STATE is row->reg[34], CR_VAL_OFFSET with off 1 while the
 * return address is signed (see cfa.c).  AS-safe; about 6 KiB of stack.
 */
#define CR_CFA_STACK 4	/* GCC and clang nest remember_state one level deep */
#define CR_CFA_MAX_INSNS (1u << 18)
int cr_cfa_run(const struct cr_mem *m, const struct cr_arch *a, const struct cr_fde *fde,
	       uint64_t pc, struct cr_row *row);

/*
 * cr_cfa_run, then cr_row_compact of its row into *c: the same result (or
 * either's error), without resetting and copying a full row (the trace
 * loop's decode, which keeps only the compact row).  *c is partly written on
 * failure.  AS-safe; about 6 KiB of stack.
 */
int cr_cfa_run_compact(const struct cr_mem *m, const struct cr_arch *a, const struct cr_fde *fde,
		       uint64_t pc, struct cr_crow *c);

/*
 * cr_cfa_shape's state of a row (cfa.c): the CFA (a register and an
 * offset), the columns below CR_NREGS with a rule other than CR_SAME (live;
 * of those, undef: CR_UNDEF, the others CR_OFFSET), and the return
 * address's and fp's offsets.
 */
struct cr_lite {
	int64_t cfa_off, ra_off, fp_off;
	uint64_t live, undef;
	uint16_t cfa_reg;
};

/*
 * An FDE in the form nearly every one is (pcrel|sdata4 pointers, 'z', a
 * one-byte augmentation length, no LSDA or one of a fixed size: a C++
 * function's), read in place, with what its CIE gives a row
 * from the CIE memo (cache.h): what the trace loop's decode needs to build a
 * shape without a full cr_fde or a full row (issue 20: a first capture's
 * decodes).  insns: the instruction bytes, in place (a view).
 */
struct cr_fde_lite {
	uint64_t pc_lo, pc_hi;
	const uint8_t *insns;
	size_t len;
	/* The CIE's, from the memo or its own parse: */
	uint64_t code_align;
	int64_t data_align;
	uint16_t ra;
	uint8_t signal;
	uint8_t enc[3];			/* its FDE and LSDA pointer encodings, 'z' */
	struct cr_cie_init init;	/* its initial rules */
	/* Which CIE that is (cr_eh_find_lite_carry): its address and module
	   key, cie_at 0 if none. */
	uint64_t cie_at, cie_mod;
	/* cr_cfa_shape's state after the CIE's initial rules for base_arch
	   (NULL: not known), which it keeps for the next FDE of the CIE. */
	const struct cr_arch *base_arch;
	struct cr_lite base;
};

/*
 * The FDE that covers pc, as cr_eh_find_in finds it (h parsed), into *fl if
 * it has that form, its whole entry can be viewed in place and its CIE is in
 * the memo (src->modkey).  0: *fl written; 1: not so (or no FDE, or any
 * error): cr_eh_find_in decides.  fl need not be initialised.  AS-safe.
 */
int cr_eh_find_lite(const struct cr_mem *m, const struct cr_ehsrc *src, const struct cr_ehhdr *h,
		    uint64_t pc, struct cr_fde_lite *fl);

/*
 * cr_eh_find_lite for a trace's FDEs one after the other: where fl holds the
 * CIE of the FDE found (cie_at and cie_mod: a previous call's, in the same
 * module), its fields (and cr_cfa_shape's base) are kept instead of read
 * from the memo again; a trace's FDEs share a few CIEs (one, in most
 * modules).  fl->cie_at must be 0 before the first call, and fl used for
 * nothing else between calls.  The same answer as cr_eh_find_lite.
 */
int cr_eh_find_lite_carry(const struct cr_mem *m, const struct cr_ehsrc *src,
			  const struct cr_ehhdr *h, uint64_t pc, struct cr_fde_lite *fl);

/*
 * The shape (row.h: shape, cfa_reg, cfa_off, cfa_fp, ra, signal, ra_off,
 * fp_off, fp_saved, ra_w, fp_w; n 0, no rules) of the row at pc of fl's FDE
 * for the trace loop, from the CIE's initial rules and the instructions
 * compilers emit in nearly every FDE (advance_loc, advance_loc1/2, offset,
 * restore, undefined, def_cfa, def_cfa_register, def_cfa_offset,
 * remember_state, restore_state, nop; ULEB128 operands of one or two bytes),
 * tracking only the CFA, the columns that have a rule, and the return
 * address's and fp's rules.  0: the row is one cr_cfa_run_compact would
 * compact to shape STEP, STEP_FAR or END, with these same fields; 1: anything
 * else (another instruction or operand, a signal frame, a row of another
 * shape or that would not compact): cr_cfa_run_compact decides.  Never
 * reads memory but fl->insns.  Keeps the state after the CIE's rules in
 * fl->base (fl->base_arch a), and starts from it where fl->base_arch is a:
 * whoever writes fl's CIE fields sets base_arch NULL (cr_eh_find_lite
 * does).  AS-safe; tests/unit/t-shape checks it against
 * cr_cfa_run_compact at every pc of the loaded libraries.
 */
int cr_cfa_shape(struct cr_fde_lite *fl, uint64_t pc, const struct cr_arch *a,
		 struct cr_crow *c);

/*
 * The rules of a CIE's initial instructions [p, p + len) as cr_cfa_run keeps
 * them in the CIE memo (cache.h; cfa.c's cie_init), for instructions CIEs are
 * made of (def_cfa, def_cfa_register, def_cfa_offset, offset, undefined,
 * nop; ULEB128 operands of one or two bytes) and at most CR_CIE_INIT_MAX
 * columns: 0, *ci written.  1: anything else (cr_cfa_run decides).  A
 * first capture's first FDE of each CIE, without the full interpreter's
 * 3 KiB of stack (a page fault when it reaches a page of the stack not yet
 * touched: issue 20).  AS-safe.
 */
int cr_cfa_cie_rules(const uint8_t *p, size_t len, const struct cr_cie *cie,
		     struct cr_cie_init *ci);

/*
 * [*lo, *hi): the range of the FDE that covers pc in the module of pc (the scan
 * engine's function start where no symbol gives one).  0, -CR_ENOINFO (no
 * module, no tables, no FDE), -CR_EINVAL, -CR_EFAULT.  AS-safe.
 */
struct cr_walk;
int cr_cfi_range(struct cr_walk *w, uint64_t pc, uint64_t *lo, uint64_t *hi);

/*
 * cr_cfi_range's, and *frag: 1 if the FDE's first location is no function
 * entry (cr_cfa_entry_row says 0): the scan engine's start, which a fragment
 * is not (scan.c).
 */
int cr_cfi_function(struct cr_walk *w, uint64_t pc, uint64_t *lo, uint64_t *hi, uint8_t *frag);

/*
 * 1 if the FDE's instructions give no rule at its first location, before
 * their first advance (nops and DW_CFA_undefined, the outermost frame's
 * mark, aside): the row there is the CIE's, a function's entry.  0 for an
 * FDE that starts inside a frame already built: GCC and clang describe a
 * fragment moved out of its function (NAME.cold) so (def_cfa_offset 48,
 * offset rbx, ... at its first byte), and linkers the PLT.  0 too for
 * unreadable or truncated instructions.
 */
int cr_cfa_entry_row(const struct cr_mem *m, const struct cr_fde *fde);

/*
 * *src: the tables of mod as the loader maps them.  memo: the walk may use
 * the CIE memo (cache.h; live walks only).
 */
static inline void cr_cfi_src(const struct cr_module *mod, int memo, struct cr_ehsrc *src)
{
	src->modkey = memo && cr_cache_enabled ? cr_module_key(mod) : 0;
	src->eh_hdr = mod->eh_hdr;
	src->eh_hdr_len = mod->eh_hdr_len;
	src->eh_frame = 0;
	src->eh_frame_end = mod->hi;
	src->bases.text = 0;
	src->bases.data = mod->eh_hdr;
	src->bases.func = 0;
}

#endif
