/* SPDX-License-Identifier: MIT */
/*
 * dump.c: a memory row over bytes with holes (exact text out), and
 * /proc/self/maps lines parsed (as the kernel writes them: padded, without a
 * path, a path with spaces, cut).
 */
#include <string.h>

#include "../tap.h"
#include "dump.h"

/* Readable: [0x1000, 0x1008) and [0x100c, 0x1010), byte 0x1004 'A'; and a row high up. */
static int holes_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	uint8_t *d = dst;

	(void)m;
	for (size_t i = 0; i < len; i++) {
		uint64_t a = addr + i;

		if (a >= 0xfedcba9876543200ull && a < 0xfedcba9876543210ull) {
			d[i] = (uint8_t)(0x7a + (a & 0xf) * 9);	/* 'z', then 0x83 and up, 0x01 last */
			continue;
		}
		if (a < 0x1000 || a >= 0x1010 || (a >= 0x1008 && a < 0x100c))
			return -CR_EFAULT;
		d[i] = a == 0x1004 ? 'A' : (uint8_t)(a & 0xff);
	}
	return 0;
}

static const char *row(uint64_t addr)
{
	static char mem[256];
	struct cr_mem m = { .read = holes_read };
	struct cr_out o;

	memset(mem, 0, sizeof(mem));
	cr_out_mem(&o, mem, sizeof(mem) - 1);
	cr_dump_row(&o, &m, addr);
	cr_flush(&o);
	return mem;
}

static void t_row(void)
{
	tap_is_str(row(0x1000),
		   "    0000000000001000 00 01 02 03 41 05 06 07 -- -- -- -- 0c 0d 0e 0f"
		   "  ....A...........\n",
		   "row: readable bytes in hex and ASCII, '--' and '.' for the unreadable");
	tap_is_str(row(0x2000),
		   "    0000000000002000 -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- --"
		   "  ................\n",
		   "row: nothing readable");
	tap_is_str(row(0xfedcba9876543200ull),
		   "    fedcba9876543200 7a 83 8c 95 9e a7 b0 b9 c2 cb d4 dd e6 ef f8 01"
		   "  z...............\n",
		   "row: every address digit, bytes from 'z' past 0x7f and around");
}

static int parse(const char *text, struct cr_mapline *l, char *buf)
{
	size_t n = strlen(text);

	memcpy(buf, text, n + 1);
	return cr_dump_parse_line(buf, n, l);
}

static void t_parse(void)
{
	char buf[512];
	struct cr_mapline l;

	tap_ok(parse("555555554000-555555556000 r--p 00001000 08:01 123   /usr/bin/my app", &l,
		     buf) == 0 &&
		       l.lo == 0x555555554000 && l.hi == 0x555555556000 && l.offset == 0x1000 &&
		       strcmp(l.perms, "r--p") == 0 && strcmp(l.path, "/usr/bin/my app") == 0,
	       "parse: padded, a path with a space");
	tap_ok(parse("7f0000000000-7f0000001000 ---p 00000000 00:00 0 ", &l, buf) == 0 &&
		       l.path[0] == 0 && strcmp(l.perms, "---p") == 0,
	       "parse: no path");
	tap_ok(parse("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0  [vsyscall]", &l,
		     buf) == 0 &&
		       strcmp(l.path, "[vsyscall]") == 0,
	       "parse: [vsyscall]");
	tap_ok(parse("1000-1000 r--p 0 0 0", &l, buf) < 0, "parse: empty range refused");
	tap_ok(parse("garbage", &l, buf) < 0, "parse: not a maps line");
	tap_ok(parse("1000-2000 r-", &l, buf) < 0, "parse: cut in the permissions");
	tap_ok(parse("1000-2000 r--p", &l, buf) < 0, "parse: no offset");
}

/* What cr_dump_text_lines hands over: each line's length and first byte, in order. */
struct seen {
	size_t len[8];
	char first[8];
	int n, stop_at;
};

static int see(void *arg, char *line, size_t len)
{
	struct seen *v = arg;

	if (v->n < 8) {
		v->len[v->n] = len;
		v->first[v->n] = len ? line[0] : 0;
	}
	return ++v->n == v->stop_at;
}

static void t_lines(void)
{
	static char text[1200];
	struct seen v = { .stop_at = -1 };
	int ok;

	tap_is_i64(cr_dump_text_lines("a1\nb22\n\nc", 9, see, &v), 4,
		   "lines: four, the last without a newline");
	tap_ok(v.n == 4 && v.len[0] == 2 && v.len[1] == 3 && v.len[2] == 0 && v.len[3] == 1 &&
		       v.first[0] == 'a' && v.first[1] == 'b' && v.first[3] == 'c',
	       "lines: each line's bytes, none of the newlines");
	v = (struct seen){ .stop_at = 2 };
	tap_is_i64(cr_dump_text_lines("a\nb\nc\n", 6, see, &v), 2, "lines: fn's stop: the lines so far");
	v = (struct seen){ .stop_at = -1 };
	tap_is_i64(cr_dump_text_lines("", 0, see, &v), 0, "lines: none in nothing");
	memset(text, 'x', sizeof(text));
	text[700] = '\n';
	text[701] = 'y';
	v = (struct seen){ .stop_at = -1 };
	ok = cr_dump_text_lines(text, 703, see, &v) == 2;
	tap_ok(ok && v.len[0] == 512 && v.first[1] == 'y' && v.len[1] == 2,
	       "lines: a line of 700 bytes cut at 512, the next one whole");
}

int main(void)
{
	t_row();
	t_parse();
	t_lines();
	return tap_done();
}
