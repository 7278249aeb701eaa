/* SPDX-License-Identifier: MIT */
/* The AS-safe formatter: every number form, truncation, fd output. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "../tap.h"
#include "out.h"

static const char *fmt(void (*f)(struct cr_out *, uint64_t, int), uint64_t v, int w)
{
	static char mem[128];
	struct cr_out o;

	cr_out_mem(&o, mem, sizeof(mem));
	f(&o, v, w);
	cr_flush(&o);
	return mem;
}

static void putu(struct cr_out *o, uint64_t v, int w)
{
	(void)w;
	cr_putu(o, v);
}

static void putd(struct cr_out *o, uint64_t v, int w)
{
	(void)w;
	cr_putd(o, (int64_t)v);
}

int main(void)
{
	char mem[4096], small[8];
	struct cr_out o;
	int p[2];

	{
		/* Against date -u -d @SEC +%Y-%m-%dT%H:%M:%S (GNU coreutils). */
		static const struct {
			uint64_t sec, nsec;
			const char *want;
		} t[] = {
			{ 0, 0, "1970-01-01T00:00:00.000000Z" },
			{ 951782399, 999999999, "2000-02-28T23:59:59.999999Z" },
			{ 951782400, 1000, "2000-02-29T00:00:00.000001Z" },	/* 400th year: leap */
			{ 951868800, 0, "2000-03-01T00:00:00.000000Z" },
			{ 4107542400, 0, "2100-03-01T00:00:00.000000Z" },	/* 100th: not leap */
			{ 4107456000, 0, "2100-02-28T00:00:00.000000Z" },
			{ 1795608245, 123456789, "2026-11-25T12:04:05.123456Z" },
			{ 1709164800, 0, "2024-02-29T00:00:00.000000Z" },
			{ 253402300799, 0, "9999-12-31T23:59:59.000000Z" },
		};
		char buf[CR_UTC_LEN + 1], tiny[CR_UTC_LEN];

		for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			cr_fmt_utc(buf, sizeof(buf), t[i].sec, t[i].nsec);
			tap_is_str(buf, t[i].want, "utc");
		}
		tap_is_u64(cr_fmt_utc(buf, sizeof(buf), 253402300800, 0), 0, "utc: year 10000: nothing");
		tap_is_u64(cr_fmt_utc(tiny, sizeof(tiny), 0, 0), 0, "utc: no room: nothing");
	}
	tap_is_str(fmt(cr_putx, 0, 0), "0", "hex 0 width 0");
	tap_is_str(fmt(cr_putx, 0, 16), "0000000000000000", "hex 0 width 16");
	tap_is_str(fmt(cr_putx, 0x1139, 16), "0000000000001139", "hex padded");
	tap_is_str(fmt(cr_putx, UINT64_MAX, 0), "ffffffffffffffff", "hex max");
	tap_is_str(fmt(cr_putx, 0xab, 1), "ab", "hex wider than width");
	tap_is_str(fmt(cr_putx, 5, 40), "0000000000000005", "hex width clamped to 16");
	{
		/* Hex written straight into the buffer, and at its end (1 KiB):
		   the same text wherever the number starts. */
		static char big[4096], want[4096];
		unsigned bad = 0;

		for (size_t k = 990; k <= 1030; k++)
			for (int w = 0; w <= 16; w += 4) {
				memset(want, 'x', k);
				strcpy(want + k, &"00000abcdef01234"[16 - (w > 11 ? w : 11)]);
				cr_out_mem(&o, big, sizeof(big));
				for (size_t i = 0; i < k; i++)
					cr_putc(&o, 'x');
				cr_putx(&o, 0xabcdef01234, w);
				cr_flush(&o);
				bad += strcmp(big, want) != 0;
			}
		tap_is_u64(bad, 0, "hex at every place around the buffer's end, widths 0 to 16");
	}
	tap_is_str(fmt(cr_put0x, 0x10, 16), "0x0000000000000010", "0x form");
	tap_is_str(fmt(putu, 0, 0), "0", "dec 0");
	tap_is_str(fmt(putu, 1234567890, 0), "1234567890", "dec");
	tap_is_str(fmt(putu, UINT64_MAX, 0), "18446744073709551615", "dec max");
	tap_is_str(fmt(putd, (uint64_t)-6, 0), "-6", "signed negative");
	tap_is_str(fmt(putd, (uint64_t)INT64_MIN, 0), "-9223372036854775808", "signed min");
	tap_is_str(fmt(putd, 42, 0), "42", "signed positive");

	cr_out_mem(&o, mem, sizeof(mem));
	cr_putpad(&o, "r8", 3);
	cr_putc(&o, '|');
	cr_putsn(&o, "abcdef", 3);
	cr_flush(&o);
	tap_is_str(mem, "r8 |abc", "pad and bounded string");

	/* More than the 1024-byte buffer: flushes in the middle, nothing lost. */
	cr_out_mem(&o, mem, sizeof(mem));
	for (int i = 0; i < 3000; i++)
		cr_putc(&o, (char)('a' + i % 26));
	cr_flush(&o);
	tap_is_u64(strlen(mem), 3000, "3000 bytes through a 1024-byte buffer");
	tap_ok(mem[2999] == 'a' + 2999 % 26, "last byte right");

	/* Strings copied a run at a time, across the buffer's edge: every byte,
	   in order, and putsn's bound across a flush. */
	{
		char s[700], want[3000];
		size_t k = 0;

		for (size_t i = 0; i < sizeof(s) - 1; i++)
			s[i] = (char)('A' + i % 23);
		s[sizeof(s) - 1] = 0;
		cr_out_mem(&o, mem, sizeof(mem));
		for (int r = 0; r < 4; r++) {
			cr_puts(&o, s);
			memcpy(want + k, s, sizeof(s) - 1);
			k += sizeof(s) - 1;
		}
		cr_putsn(&o, s, 150);
		memcpy(want + k, s, 150);
		k += 150;
		want[k] = 0;
		cr_flush(&o);
		tap_ok(strlen(mem) == k && strcmp(mem, want) == 0,
		       "2,946 bytes of strings through the 1024-byte buffer, in order");
	}

	/* A sink too small: truncated, NUL-terminated, error recorded. */
	cr_out_mem(&o, small, sizeof(small));
	cr_puts(&o, "0123456789");
	cr_flush(&o);
	tap_is_str(small, "0123456", "small sink truncated");
	tap_ok(o.err != 0, "small sink reports the error");

	char tmp[5];
	tap_is_u64(cr_fmt_x(tmp, sizeof(tmp), 0x123456, 0), 4, "cr_fmt_x truncates to cap");
	tap_is_str(tmp, "1234", "cr_fmt_x keeps the leading digits");
	tap_is_u64(cr_fmt_u(tmp, sizeof(tmp), 99), 2, "cr_fmt_u length");

	/* The fd path: write(2) into a pipe. */
	if (pipe(p) == 0) {
		cr_out_init(&o, p[1]);
		cr_puts(&o, "hello ");
		cr_putu(&o, 7);
		cr_flush(&o);
		close(p[1]);
		ssize_t n = read(p[0], mem, sizeof(mem) - 1);
		mem[n > 0 ? n : 0] = 0;
		tap_is_str(mem, "hello 7", "fd output");
		close(p[0]);
	}
	/* A closed fd: the error is kept, nothing crashes. */
	cr_out_init(&o, 1000);
	cr_puts(&o, "x");
	cr_flush(&o);
	tap_ok(o.err < 0, "bad fd gives an error");
	return tap_done();
}
