/* SPDX-License-Identifier: MIT */
/* Shared checks of the t-scan-<arch> tests: exact rows, and rows applied to a buffer stack. */
#ifndef CR_SCAN_CHECK_H
#define CR_SCAN_CHECK_H

#include <stdarg.h>

#include "../tap.h"
#include "arch/scan.h"
#include "mem.h"
#include "regs.h"
#include "row.h"

/* The arch under test: set by each test's main(). */
static const struct cr_arch *sc_arch;

/* Expected saves: SAVES(reg, off, ...) -> CR_OFFSET rules; every other register CR_SAME. */
#define SAVES(...) ((const int64_t[CR_NREGS + 1]){ 0, __VA_ARGS__ })
#define NOSAVES SAVES(0)

static const char *sc_name(const char *fmt, ...)
{
	static char buf[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

/* Compare row against CFA = cfa_reg + cfa_off and the (reg, off) pairs in sv (after sv[0]). */
static int sc_row_diff(const struct cr_row *row, unsigned cfa_reg, int64_t cfa_off,
		       const int64_t *sv, char *why, size_t whylen)
{
	int64_t want[CR_NREGS] = { 0 };
	unsigned n, i;

	for (i = 1; i + 1 < CR_NREGS + 1 && sv[i + 1] != 0; i += 2)
		want[sv[i]] = sv[i + 1];
	if (row->cfa.kind != CR_REG || row->cfa.reg != cfa_reg || row->cfa.off != cfa_off) {
		snprintf(why, whylen, "cfa kind %u r%u%+lld, want r%u%+lld", row->cfa.kind,
			 row->cfa.reg, (long long)row->cfa.off, cfa_reg, (long long)cfa_off);
		return 1;
	}
	if (row->ra != sc_arch->ra) {
		snprintf(why, whylen, "ra column %u", row->ra);
		return 1;
	}
	for (n = 0; n < CR_NREGS; n++) {
		unsigned k = want[n] ? CR_OFFSET : CR_SAME;

		if (row->reg[n].kind != k || (k == CR_OFFSET && row->reg[n].off != want[n])) {
			snprintf(why, whylen, "reg %u: kind %u off %lld, want kind %u off %lld", n,
				 row->reg[n].kind, (long long)row->reg[n].off, k,
				 (long long)want[n]);
			return 1;
		}
	}
	return 0;
}

/* One TAP line: scanning code[0..len) for pc_off gives exactly this row. */
static void sc_row(const char *name, const uint8_t *code, size_t len, size_t pc_off, int frame0,
		   unsigned cfa_reg, int64_t cfa_off, const int64_t *sv)
{
	struct cr_row row;
	char why[160] = "";
	int ret = sc_arch->scan(code, len, pc_off, frame0, &row);

	if (ret)
		snprintf(why, sizeof(why), "scan returned %d", ret);
	else
		sc_row_diff(&row, cfa_reg, cfa_off, sv, why, sizeof(why));
	if (!tap_ok(!why[0], name))
		printf("#   %s\n", why);
}

/* One TAP line: scanning fails with -CR_EINVAL and leaves *row untouched. */
static void sc_fail(const char *name, const uint8_t *code, size_t len, size_t pc_off, int frame0)
{
	struct cr_row row;
	int ret;

	memset(&row, 0xa5, sizeof(row));
	ret = sc_arch->scan(code, len, pc_off, frame0, &row);
	if (!tap_ok(ret == -CR_EINVAL && ((uint8_t *)&row)[0] == 0xa5, name))
		printf("#   returned %d\n", ret);
}

/*
 * Scan, then apply the row to registers *in over a stack buffer at stack_addr;
 * three TAP lines: the step succeeds, the caller's pc, the caller's sp.  The
 * caller's registers are left in *out for further checks.
 */
static void sc_apply(const char *name, const uint8_t *code, size_t len, size_t pc_off,
		     int frame0, const uint64_t *stack, size_t stack_len, uint64_t stack_addr,
		     const struct cr_regs *in, uint64_t want_pc, uint64_t want_sp,
		     struct cr_regs *out)
{
	struct cr_mem m;
	struct cr_row row;
	int ret;

	memset(out, 0, sizeof(*out));
	cr_mem_buffer(&m, stack_addr, stack, stack_len);
	ret = sc_arch->scan(code, len, pc_off, frame0, &row);
	if (ret == 0)
		ret = cr_row_apply(&row, &m, sc_arch, in, out);
	if (!tap_ok(ret == 0, sc_name("%s: scan + cr_row_apply", name)))
		printf("#   returned %d\n", ret);
	tap_is_u64(out->pc, want_pc, sc_name("%s: caller pc", name));
	tap_is_u64(out->r[sc_arch->sp], want_sp, sc_name("%s: caller sp", name));
}

#endif
