/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer targets for every parser and decoder that reads untrusted bytes.
 * Built by tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined,
 * one binary per FUZZ_* target.  A target passes if no input crashes it, reads
 * out of bounds or trips UBSan; results are not checked here (the unit tests
 * check exact results), but for two (FUZZ_EH): the trace loop's short way to
 * a row's shape must agree with the full decoding wherever it answers, and
 * a lookup must answer the same with the table whole in place as a page at
 * a time.
 */
#include <stdint.h>
#include <string.h>

#include "arch/scan.h"
#include "cfi/cfi.h"
#include "demangle.h"
#include "maps.h"

#define BASE 0x10000ull

#if defined(FUZZ_EH) || defined(FUZZ_EHSMALL)
/* An .eh_frame_hdr + .eh_frame image behind 8 control bytes: look up pcs (and
   the stretches around them no FDE covers), run the CFA program, apply the
   row.  d[0] bit 0: with a header (its length d[1], 0: unknown) or a bare
   .eh_frame; d[2..5]: the pcs.  EHSMALL: ehframe.c built with CR_EH_SMALL
   (a long table's page views and guessed search from 256 bytes and 16
   entries on), the image 0xc00 into its page, so that the table crosses a
   page (an entry across the two: 4 mod 8). */
#define EH_CTL 8
#if defined(FUZZ_EHSMALL)
#define EH_BASE (BASE + 0xc00)
#else
#define EH_BASE BASE
#endif

/* Views that are no buffer's (free_views 0): a long table is viewed a
   page at a time, as in a first capture, not whole. */
static int costly_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	return cr_read(m->priv, addr, dst, len);
}

static const void *costly_view(const struct cr_mem *m, uint64_t addr, size_t len)
{
	return cr_mem_view(m->priv, addr, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static uint64_t stack[64];
	struct cr_mem m, sm, cm;
	struct cr_ehsrc src;
	struct cr_fde fde, fde2;
	struct cr_row row;
	struct cr_regs in, out;

	if (n < EH_CTL + 16)
		return 0;
	cr_mem_buffer(&m, EH_BASE, d + EH_CTL, n - EH_CTL);
	memset(&cm, 0, sizeof(cm));
	cm.read = costly_read;
	cm.view = costly_view;
	cm.priv = &m;
	memset(&src, 0, sizeof(src));
	if (d[0] & 1) {
		src.eh_hdr = EH_BASE;
		src.eh_hdr_len = d[1];
	} else {
		src.eh_frame = EH_BASE;
	}
	src.eh_frame_end = EH_BASE + n - EH_CTL;
	src.bases.data = EH_BASE;
	memcpy(stack, d, n < sizeof(stack) ? n : sizeof(stack));
	cr_mem_buffer(&sm, 0x7fff0000, stack, sizeof(stack));
	for (unsigned k = 0; k < 4; k++) {
		uint64_t pc = EH_BASE + (k * 0x9e37u + d[2 + k]) % (n + 64), gap[2];
		int r;

		/* The gap memo's lookup (cfi/step.c), and the scan engine's test of
		   an FDE's first location (cr_cfa_entry_row). */
		if (cr_eh_find_gap(&m, &src, pc, &fde, gap) == 0)
			cr_cfa_entry_row(&m, &fde);
		/* The table whole in place and a page at a time: the same entries,
		   the same search, the same answer (a trap if not). */
		r = cr_eh_find(&m, &src, pc, &fde);
		if (r != cr_eh_find(&cm, &src, pc, &fde2) ||
		    (r == 0 && (fde.addr != fde2.addr || fde.pc_lo != fde2.pc_lo ||
				fde.pc_hi != fde2.pc_hi)))
			__builtin_trap();
		if (r < 0)
			continue;
		if (cr_cfa_run(&m, &cr_arch_x86_64, &fde, pc, &row) < 0)
			continue;
		memset(&in, 0, sizeof(in));
		for (unsigned r = 0; r < 17; r++)
			cr_reg_set(&in, r, 0x7fff0000 + 8 * r);
		cr_row_apply(&row, &m, &cr_arch_x86_64, &in, &out);
		cr_row_apply(&row, &sm, &cr_arch_x86_64, &in, &out);
	}
	/*
	 * The trace loop's short way (cr_eh_find_lite with its own CIE parse
	 * and cr_cfa_cie_rules into the memo, then cr_cfa_shape), a key of this
	 * input's own for the memo, against the full way without the memo:
	 * where the short way answers, the shape must be the same (a trap if
	 * not: the one result this file checks).
	 */
	{
		static uint64_t key;
		struct cr_ehsrc live = src;
		struct cr_ehhdr h;
		struct cr_fde_lite fl;
		struct cr_crow c, full;

		live.modkey = ++key << 4 | 1;
		cr_eh_hdr(&m, &live, &h);
		for (unsigned k = 0; k < 4; k++) {
			uint64_t pc = EH_BASE + (k * 0x9e37u + d[2 + k]) % (n + 64);

			if (cr_eh_find_lite(&m, &live, &h, pc, &fl) != 0 ||
			    cr_cfa_shape(&fl, pc, &cr_arch_x86_64, &c) != 0)
				continue;
			if (cr_eh_find(&m, &src, pc, &fde) != 0 ||
			    cr_cfa_run_compact(&m, &cr_arch_x86_64, &fde, pc, &full) != 0 ||
			    full.shape != c.shape || full.cfa_reg != c.cfa_reg ||
			    full.cfa_off != c.cfa_off || full.cfa_fp != c.cfa_fp ||
			    full.fp_saved != c.fp_saved || full.ra_off != c.ra_off ||
			    full.fp_off != c.fp_off || full.ra_w != c.ra_w || full.fp_w != c.fp_w ||
			    full.ra != c.ra || full.signal != c.signal)
				__builtin_trap();
		}
	}
	return 0;
}
#elif defined(FUZZ_EXPR)
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct cr_mem m;
	struct cr_regs regs;
	uint64_t init = BASE, v;

	cr_mem_buffer(&m, BASE, d, n);
	memset(&regs, 0, sizeof(regs));
	for (unsigned r = 0; r < 17; r++)
		cr_reg_set(&regs, r, BASE + r);
	cr_expr_eval(&m, &cr_arch_x86_64, &regs, BASE, n, NULL, &v);
	cr_expr_eval(&m, &cr_arch_x86_64, &regs, BASE, n, &init, &v);
	return 0;
}
#elif defined(FUZZ_SCAN)
/* Every arch's prologue decoder on the same bytes, at every pc the first byte allows. */
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const struct cr_arch *const arch[] = { &cr_arch_x86_64, &cr_arch_aarch64,
						      &cr_arch_riscv64, &cr_arch_loongarch64 };
	struct cr_row row;

	if (n < 2)
		return 0;
	for (unsigned a = 0; a < 4; a++)
		for (size_t off = 0; off <= n - 1; off += 1 + d[0] % 7)
			arch[a]->scan(d + 1, n - 1, off, (int)(off & 1), &row);
	return 0;
}
#elif defined(FUZZ_MAPS)
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static struct cr_maps t;
	uint64_t lo, hi;

	cr_maps_parse(&t, (const char *)d, n);
	for (unsigned i = 0; i < 4 && n > i; i++) {
		cr_maps_find(&t, (uint64_t)d[i] << 36);
		cr_maps_stack(&t, (uint64_t)d[i] << 36, &lo, &hi);
	}
	return 0;
}
#elif defined(FUZZ_DEMANGLE)
/*
 * Any bytes as a symbol name (the first byte may put _Z, _ZN or _R before
 * them), into buffers of several sizes: the result is NUL-terminated
 * within cap, and a failure writes nothing.
 */
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const char *const prefix[] = { "", "_Z", "_ZN", "_R" };
	static const size_t caps[] = { CR_DEMANGLE_MINCAP, 100, 1024 };
	static char name[CR_DEMANGLE_MAXLEN + 8], out[1024 + 1];
	static struct cr_demangle_ws ws;
	size_t len;

	if (n < 1)
		return 0;
	len = strlen(prefix[d[0] & 3]);
	memcpy(name, prefix[d[0] & 3], len);
	n = n - 1 < CR_DEMANGLE_MAXLEN ? n - 1 : CR_DEMANGLE_MAXLEN;
	memcpy(name + len, d + 1, n);
	name[len + n] = 0;
	for (unsigned i = 0; i < 3; i++) {
		int r;

		memset(out, 0x5a, sizeof(out));
		r = cr_demangle_ws(&ws, name, out, caps[i]);
		if (out[caps[i]] != 0x5a)
			__builtin_trap();
		if (r < 0 ? (unsigned char)out[0] != 0x5a
			  : (size_t)r >= caps[i] || out[r] || strlen(out) != (size_t)r)
			__builtin_trap();
	}
	return 0;
}
#else
#error "define one FUZZ_* target"
#endif
