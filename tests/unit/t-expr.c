/* SPDX-License-Identifier: MIT */
/* expr.c: every DW_OP the evaluator accepts, and a malformed twin for each. */
#include "../tap.h"
#include "faultmem.h"
#include "row.h"

#define IMG 0x1000ull		/* the expression bytes are placed here */
#define DATA (IMG + 0x200)	/* readable data for DW_OP_deref */
#define IMG_LEN 0x300

static const struct cr_arch test_arch = {
	.name = "x86_64", .nregs = 17, .sp = 7, .fp = 6, .ra = 16,
};

static uint8_t img[IMG_LEN];
static struct cr_mem mem;
static struct cr_regs regs;
static unsigned long *fail_ptr;

/* Evaluate bytes placed at IMG; *res is poisoned first to catch partial writes. */
static int eval(const uint8_t *b, size_t n, const uint64_t *initial, uint64_t *res)
{
	memcpy(img, b, n);
	cr_mem_buffer(&mem, IMG, img, sizeof(img));
	if (fail_ptr) {
		static struct faultmem fm;
		static struct cr_mem under;

		under = mem;
		mem = *faultmem_init(&fm, &under, fail_ptr);
	}
	*res = 0xdeadbeefdeadbeefull;
	return cr_expr_eval(&mem, &test_arch, &regs, IMG, n, initial, res);
}

#define B(...) ((const uint8_t[]){ __VA_ARGS__ }), sizeof((const uint8_t[]){ __VA_ARGS__ })

/* Expect success with value v. */
#define OK(v, name, ...)                                                                   \
	do {                                                                               \
		uint64_t r_;                                                               \
		int e_ = eval(B(__VA_ARGS__), NULL, &r_);                                  \
		if (!tap_ok(e_ == 0 && r_ == (uint64_t)(v), name))                         \
			printf("#   ret %d, got 0x%" PRIx64 "\n", e_, r_);                     \
	} while (0)

/* Expect error err and an untouched result. */
#define ERR(err, name, ...)                                                                \
	do {                                                                               \
		uint64_t r_;                                                               \
		int e_ = eval(B(__VA_ARGS__), NULL, &r_);                                  \
		if (!tap_ok(e_ == (err) && r_ == 0xdeadbeefdeadbeefull, name))             \
			printf("#   ret %d, got 0x%" PRIx64 "\n", e_, r_);                     \
	} while (0)

enum { EI = -CR_EINVAL, ER = -CR_ERANGE, EF = -CR_EFAULT };

static void t_consts(void)
{
	OK(0x1122334455667788ull, "addr", 0x03, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11);
	ERR(EI, "addr truncated", 0x03, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22);
	OK(0xff, "const1u", 0x08, 0xff);
	ERR(EI, "const1u truncated", 0x08);
	OK(-1, "const1s", 0x09, 0xff);
	ERR(EI, "const1s truncated", 0x09);
	OK(0xfffe, "const2u", 0x0a, 0xfe, 0xff);
	ERR(EI, "const2u truncated", 0x0a, 0xfe);
	OK(-2, "const2s", 0x0b, 0xfe, 0xff);
	ERR(EI, "const2s truncated", 0x0b, 0xfe);
	OK(0xfffffffc, "const4u", 0x0c, 0xfc, 0xff, 0xff, 0xff);
	ERR(EI, "const4u truncated", 0x0c, 0xfc, 0xff, 0xff);
	OK(-4, "const4s", 0x0d, 0xfc, 0xff, 0xff, 0xff);
	ERR(EI, "const4s truncated", 0x0d, 0xfc);
	OK(0x8000000000000001ull, "const8u", 0x0e, 1, 0, 0, 0, 0, 0, 0, 0x80);
	ERR(EI, "const8u truncated", 0x0e, 1, 0, 0, 0, 0, 0, 0);
	OK(-8, "const8s", 0x0f, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
	ERR(EI, "const8s truncated", 0x0f, 0xf8);
	OK(624485, "constu", 0x10, 0xe5, 0x8e, 0x26);
	ERR(EI, "constu truncated", 0x10, 0xe5, 0x8e);
	OK(-128, "consts", 0x11, 0x80, 0x7f);
	ERR(EI, "consts truncated", 0x11, 0x80);
	OK(0, "lit0", 0x30);
	OK(31, "lit31", 0x4f);
	OK(17, "lit17", 0x41);
}

static void t_stack_ops(void)
{
	OK(10, "dup", 0x35, 0x12, 0x22);
	ERR(EI, "dup on empty stack", 0x12);
	OK(1, "drop", 0x31, 0x32, 0x13);
	ERR(EI, "drop on empty stack", 0x13);
	OK(1, "over", 0x31, 0x32, 0x14);
	ERR(EI, "over with one entry", 0x31, 0x14);
	OK(1, "pick 2", 0x31, 0x32, 0x33, 0x15, 2);
	OK(3, "pick 0", 0x31, 0x32, 0x33, 0x15, 0);
	ERR(EI, "pick past the bottom", 0x31, 0x32, 0x15, 2);
	ERR(EI, "pick truncated", 0x31, 0x15);
	OK(1, "swap", 0x31, 0x32, 0x16);
	OK(2, "swap keeps the other", 0x31, 0x32, 0x16, 0x13);
	ERR(EI, "swap with one entry", 0x31, 0x16);
	/* rot: 1 2 3 -> 3 1 2 (top 2) */
	OK(2, "rot: old second is top", 0x31, 0x32, 0x33, 0x17);
	OK(1, "rot: old third is second", 0x31, 0x32, 0x33, 0x17, 0x13);
	OK(3, "rot: old top is third", 0x31, 0x32, 0x33, 0x17, 0x13, 0x13);
	ERR(EI, "rot with two entries", 0x31, 0x32, 0x17);
	OK(2, "result is the top of a deeper stack", 0x31, 0x32);
	OK(0, "nop", 0x30, 0x96);
	ERR(EI, "only nop: empty stack", 0x96);
	ERR(EI, "empty expression: no result", );

	/* 64 entries fit; the 65th overflows. */
	uint8_t b[66];

	memset(b, 0x31, sizeof(b));
	uint64_t r;

	tap_ok(eval(b, 64, NULL, &r) == 0 && r == 1, "64 entries fit");
	tap_is_i64(eval(b, 65, NULL, &r), ER, "65 entries: -CR_ERANGE");
	uint64_t init = 7;

	tap_is_i64(eval(b, 64, &init, &r), ER, "initial + 64 entries: -CR_ERANGE");
	tap_ok(eval(b, 0, &init, &r) == 0 && r == 7, "empty expression with initial: initial");
}

static void t_arith(void)
{
	OK(5, "abs -5", 0x11, 0x7b, 0x19);
	OK(5, "abs 5", 0x35, 0x19);
	OK(INT64_MIN, "abs INT64_MIN wraps", 0x0e, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x19);
	ERR(EI, "abs on empty stack", 0x19);
	OK(0x0c, "and", 0x3e, 0x3c, 0x1a);
	ERR(EI, "and with one entry", 0x31, 0x1a);
	OK(-3, "div -7/2 truncates", 0x11, 0x79, 0x32, 0x1b);
	OK(-3, "div 7/-2", 0x37, 0x11, 0x7e, 0x1b);
	OK(3, "div 7/2", 0x37, 0x32, 0x1b);
	ERR(EI, "div by zero", 0x37, 0x30, 0x1b);
	OK(INT64_MIN, "div INT64_MIN/-1 wraps", 0x0e, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x11, 0x7f, 0x1b);
	ERR(EI, "div with one entry", 0x31, 0x1b);
	OK(-2, "minus 3-5", 0x33, 0x35, 0x1c);
	ERR(EI, "minus with one entry", 0x31, 0x1c);
	OK(1, "mod 7%3", 0x37, 0x33, 0x1d);
	OK(1, "mod is unsigned", 0x11, 0x7f, 0x32, 0x1d);
	ERR(EI, "mod by zero", 0x37, 0x30, 0x1d);
	OK(42, "mul", 0x36, 0x37, 0x1e);
	OK(-6, "mul signed wrap", 0x11, 0x7e, 0x33, 0x1e);
	ERR(EI, "mul with one entry", 0x36, 0x1e);
	OK(-6, "neg", 0x36, 0x1f);
	ERR(EI, "neg on empty stack", 0x1f);
	OK(~6ull, "not", 0x36, 0x20);
	ERR(EI, "not on empty stack", 0x20);
	OK(7, "or", 0x33, 0x35, 0x21);
	ERR(EI, "or with one entry", 0x33, 0x21);
	OK(8, "plus", 0x33, 0x35, 0x22);
	ERR(EI, "plus with one entry", 0x33, 0x22);
	OK(3 + 300, "plus_uconst", 0x33, 0x23, 0xac, 0x02);
	ERR(EI, "plus_uconst truncated", 0x33, 0x23, 0xac);
	ERR(EI, "plus_uconst on empty stack", 0x23, 0x01);
	OK(0x30, "shl", 0x33, 0x34, 0x24);
	OK(0, "shl by 64", 0x31, 0x08, 64, 0x24);
	ERR(EI, "shl with one entry", 0x33, 0x24);
	OK(0x0f, "shr", 0x08, 0xf0, 0x34, 0x25);
	OK(0x0fffffffffffffffull, "shr is logical", 0x11, 0x7f, 0x34, 0x25);
	OK(0, "shr by 200", 0x11, 0x7f, 0x08, 200, 0x25);
	ERR(EI, "shr with one entry", 0x33, 0x25);
	OK(-1, "shra -16 >> 4", 0x11, 0x70, 0x34, 0x26);
	OK(-2, "shra -16 >> 3", 0x11, 0x70, 0x33, 0x26);
	OK(2, "shra 16 >> 3", 0x08, 16, 0x33, 0x26);
	OK(-16, "shra by 0", 0x11, 0x70, 0x30, 0x26);
	OK(-1, "shra by 64", 0x11, 0x70, 0x08, 64, 0x26);
	ERR(EI, "shra with one entry", 0x33, 0x26);
	OK(6, "xor", 0x33, 0x35, 0x27);
	ERR(EI, "xor with one entry", 0x33, 0x27);
}

static void t_compare(void)
{
	/* -1 vs 1: signed comparisons (DWARF 5 2.5.1.4). */
	OK(0, "eq -1 1", 0x11, 0x7f, 0x31, 0x29);
	OK(1, "eq 1 1", 0x31, 0x31, 0x29);
	ERR(EI, "eq with one entry", 0x31, 0x29);
	OK(0, "ge -1 1", 0x11, 0x7f, 0x31, 0x2a);
	OK(1, "ge 1 1", 0x31, 0x31, 0x2a);
	ERR(EI, "ge with one entry", 0x31, 0x2a);
	OK(0, "gt -1 1", 0x11, 0x7f, 0x31, 0x2b);
	OK(1, "gt 1 -1", 0x31, 0x11, 0x7f, 0x2b);
	ERR(EI, "gt with one entry", 0x31, 0x2b);
	OK(1, "le -1 1", 0x11, 0x7f, 0x31, 0x2c);
	OK(0, "le 2 1", 0x32, 0x31, 0x2c);
	ERR(EI, "le with one entry", 0x31, 0x2c);
	OK(1, "lt -1 1", 0x11, 0x7f, 0x31, 0x2d);
	OK(0, "lt 1 1", 0x31, 0x31, 0x2d);
	ERR(EI, "lt with one entry", 0x31, 0x2d);
	OK(1, "ne -1 1", 0x11, 0x7f, 0x31, 0x2e);
	OK(0, "ne 1 1", 0x31, 0x31, 0x2e);
	ERR(EI, "ne with one entry", 0x31, 0x2e);
}

static void t_branch(void)
{
	/* skip over a lit5 to lit7. */
	OK(7, "skip forward", 0x2f, 0x01, 0x00, 0x35, 0x37);
	OK(3, "skip to the end", 0x33, 0x2f, 0x01, 0x00, 0x35);
	ERR(EI, "skip past the end", 0x33, 0x2f, 0x02, 0x00, 0x35);
	ERR(EI, "skip before the start", 0x33, 0x2f, 0xf0, 0xff);
	ERR(EI, "skip truncated", 0x33, 0x2f, 0x01);
	ERR(ER, "skip -3 loops: step limit", 0x2f, 0xfd, 0xff);
	/* lit1; bra +1; lit5; lit7 -> 7 (lit5 skipped); with lit0: 5 then 7. */
	OK(7, "bra taken", 0x31, 0x28, 0x01, 0x00, 0x35, 0x37);
	OK(5, "bra not taken", 0x30, 0x28, 0x01, 0x00, 0x35, 0x37, 0x13);
	ERR(EI, "bra on empty stack", 0x28, 0x01, 0x00, 0x35);
	ERR(EI, "bra truncated", 0x31, 0x28, 0x01);
	ERR(EI, "bra taken out of bounds", 0x31, 0x28, 0x10, 0x00, 0x35);
	/* Countdown loop: 3; L: 1 minus; dup; bra L -> leaves 0 after 3 turns. */
	OK(0, "bra loop counts down", 0x33, 0x31, 0x1c, 0x12, 0x28, 0xfa, 0xff);
	/* A loop of 5 steps per turn over 255 turns: > 1000 steps. */
	ERR(ER, "long loop hits the step limit", 0x08, 0xff, 0x31, 0x1c, 0x12, 0x28, 0xfa, 0xff);
}

static void t_regs(void)
{
	memset(&regs, 0, sizeof(regs));
	cr_reg_set(&regs, 7, 0x7ff0);
	cr_reg_set(&regs, 16, 0x401000);
	OK(0x7ff0 - 8, "breg7 -8", 0x77, 0x78);
	OK(0x401000, "breg16 0", 0x80, 0x00);
	ERR(EI, "breg5: register not valid", 0x75, 0x00);
	ERR(EI, "breg31: beyond arch nregs", 0x8f, 0x00);
	ERR(EI, "breg7 truncated", 0x77);
	OK(0x7ff0 + 16, "bregx 7 16", 0x92, 0x07, 0x10);
	ERR(EI, "bregx 17: beyond arch nregs", 0x92, 0x11, 0x00);
	ERR(EI, "bregx huge register", 0x92, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00);
	ERR(EI, "bregx truncated offset", 0x92, 0x07);
	ERR(EI, "bregx truncated register", 0x92, 0x87);
	ERR(EI, "reg7: a location, not a value", 0x57);
	ERR(EI, "reg0", 0x50);
	ERR(EI, "reg31", 0x6f);
	ERR(EI, "regx", 0x90, 0x07);
}

static void t_memory(void)
{
	static const uint8_t data[8] = { 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11 };
	uint64_t r;
	int e;

	/* const2u DATA (0x1200) then deref; the bytes at DATA are written below. */
	memcpy(img + (DATA - IMG), data, 8);
	OK(0x1122334455667788ull, "deref", 0x0a, 0x00, 0x12, 0x06);
	OK(0x88, "deref_size 1", 0x0a, 0x00, 0x12, 0x94, 1);
	OK(0x7788, "deref_size 2", 0x0a, 0x00, 0x12, 0x94, 2);
	OK(0x667788, "deref_size 3", 0x0a, 0x00, 0x12, 0x94, 3);
	OK(0x55667788, "deref_size 4", 0x0a, 0x00, 0x12, 0x94, 4);
	OK(0x1122334455667788ull, "deref_size 8", 0x0a, 0x00, 0x12, 0x94, 8);
	ERR(EI, "deref_size 0", 0x0a, 0x00, 0x12, 0x94, 0);
	ERR(EI, "deref_size 9", 0x0a, 0x00, 0x12, 0x94, 9);
	ERR(EI, "deref_size truncated", 0x0a, 0x00, 0x12, 0x94);
	ERR(EF, "deref unreadable", 0x0a, 0x00, 0x80, 0x06);
	ERR(EF, "deref straddles the end of memory", 0x0a, 0xfc, 0x12, 0x06);
	ERR(EF, "deref_size 4 unreadable", 0x30, 0x94, 4);
	ERR(EI, "deref on empty stack", 0x06);
	ERR(EI, "deref_size on empty stack", 0x94, 4);
	ERR(EI, "xderef", 0x31, 0x31, 0x18);
	ERR(EI, "xderef_size", 0x31, 0x31, 0x95, 8);
	ERR(EI, "fbreg", 0x91, 0x00);
	ERR(EI, "piece", 0x31, 0x93, 0x08);
	ERR(EI, "call_frame_cfa (not in CFI)", 0x9c);
	ERR(EI, "stack_value (not in CFI)", 0x31, 0x9f);
	ERR(EI, "push_object_address", 0x97);
	ERR(EI, "call2", 0x98, 0, 0);
	ERR(EI, "form_tls_address", 0x31, 0x9b);
	ERR(EI, "opcode 0x00", 0x00);
	ERR(EI, "opcode 0xff", 0xff);
	ERR(EI, "GNU_entry_value", 0xf3, 0x01, 0x57);

	/* The CFA (initial) is pushed first: DW_CFA_expression rules. */
	uint64_t cfa = 0x7000;

	e = eval(B(0x08, 0x10, 0x1c), &cfa, &r);
	tap_ok(e == 0 && r == 0x7000 - 16, "initial value pushed first");
	e = eval(B(0x13), &cfa, &r);
	tap_ok(e == EI, "dropping the initial value: empty stack");
	/* The expression bound is exact: bytes after len are not read. */
	e = eval(B(0x31, 0x35), NULL, &r);
	e = cr_expr_eval(&mem, &test_arch, &regs, IMG, 1, NULL, &r);
	tap_ok(e == 0 && r == 1, "len bounds the expression");
	e = cr_expr_eval(&mem, &test_arch, &regs, ~0ull - 2, 8, NULL, &r);
	tap_is_i64(e, EI, "expr + len wraps: -CR_EINVAL");
	e = cr_expr_eval(&mem, &test_arch, &regs, 0x100, 2, NULL, &r);
	tap_is_i64(e, EF, "expression bytes unreadable: -CR_EFAULT");
}

/*
 * The x86_64 PLT CFA expression GCC/binutils emit (rsp + 8 + ((rip & 15) >= 11) * 8),
 * and a signal-frame style deref: for every N, the Nth read failing.
 */
static void t_faults(void)
{
	static const uint8_t plt[] = { 0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a,
				       0x33, 0x24, 0x22 };
	static const uint8_t sig[] = { 0x77, 0x00, 0x23, 0x08, 0x06, 0x23, 0x10 };
	unsigned long fail_at;
	uint64_t r, want_plt, want_sig;
	unsigned n, bad = 0, faults = 0;
	int e;

	memset(&regs, 0, sizeof(regs));
	cr_reg_set(&regs, 7, DATA - 8);
	cr_reg_set(&regs, 16, 0x40102c);
	e = eval(plt, sizeof(plt), NULL, &want_plt);
	tap_ok(e == 0 && want_plt == DATA - 8 + 8 + 8, "PLT CFA expression (rip&15 = 12)");
	e = eval(sig, sizeof(sig), NULL, &want_sig);
	tap_ok(e == 0 && want_sig == 0x1122334455667788ull + 16, "deref expression");
	fail_ptr = &fail_at;
	for (n = 1; n < 20; n++) {
		fail_at = n;
		e = eval(plt, sizeof(plt), NULL, &r);
		bad += e == 0 ? r != want_plt : e != EF;
		fail_at = n;
		e = eval(sig, sizeof(sig), NULL, &r);
		bad += e == 0 ? r != want_sig : e != EF;
		faults += e == EF;
		if (e == 0 && fail_at)
			break;
	}
	fail_ptr = NULL;
	/* The cursor retries a failed window with fewer bytes, so not every N faults. */
	printf("# %u of %u injected faults surfaced\n", faults, n);
	tap_ok(faults >= 1 && n < 20, "fault injection: every N until success");
	tap_is_u64(bad, 0, "fault injection: -CR_EFAULT or the right answer");
}

int main(void)
{
	t_consts();
	t_stack_ops();
	t_arith();
	t_compare();
	t_branch();
	t_regs();
	t_memory();
	t_faults();
	return tap_done();
}
