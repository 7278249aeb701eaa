/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "out.h"
#include "sink.h"
#include "sys.h"

void cr_out_init(struct cr_out *o, int fd)
{
	o->fd = fd;
	o->err = 0;
	o->n = 0;
	o->buf = o->small;
	o->cap = sizeof(o->small);
	o->mem = NULL;
	o->memcap = o->memlen = 0;
	o->io = NULL;
	o->flushed = 0;
}

void cr_out_sink(struct cr_out *o, struct cr_sink_io *io, char *buf, size_t cap)
{
	cr_out_init(o, -1);
	o->io = io;
	o->buf = buf;
	o->cap = cap;
}

void cr_out_mem(struct cr_out *o, char *mem, size_t cap)
{
	cr_out_init(o, -1);
	o->mem = mem;
	o->memcap = cap;
	if (cap)
		mem[0] = 0;
}

static void flush_mem(struct cr_out *o)
{
	size_t room = o->memcap > o->memlen + 1 ? o->memcap - o->memlen - 1 : 0;
	size_t k = o->n < room ? o->n : room;

	memcpy(o->mem + o->memlen, o->buf, k);
	o->memlen += k;
	if (o->memcap)
		o->mem[o->memlen] = 0;
	if (k < o->n)
		o->err = -ENOSPC;
}

void cr_flush(struct cr_out *o)
{
	/* A report to a sink is written whole (sink.c): a flush in the middle
	   waits for the end (cr_out_drain), unless the buffer is full. */
	if (o->io && o->n < o->cap)
		return;
	cr_out_drain(o);
}

void cr_out_drain(struct cr_out *o)
{
	size_t done = 0;

	if (o->err == 0 && o->fd < 0 && o->io && o->n) {
		o->err = cr_sink_write(o->io, o->buf, o->n);
		o->flushed += o->n;
	}
	if (o->err == 0 && o->fd < 0 && o->mem)
		flush_mem(o);
	/* Bounded: every pass writes at least one byte or stops; EINTR retries at most 64 times. */
	for (int eintr = 0; o->err == 0 && o->fd >= 0 && done < o->n;) {
		long w = cr_sys_write(o->fd, o->buf + done, o->n - done);

		if (w > 0) {
			done += (size_t)w;
		} else if (w == -EINTR && ++eintr < 64) {
			continue;
		} else {
			o->err = w < 0 ? (int)w : -EIO;
		}
	}
	o->n = 0;
}

void cr_putc(struct cr_out *o, char c)
{
	if (o->n == o->cap)
		cr_flush(o);
	o->buf[o->n++] = c;
}

void cr_putsn(struct cr_out *o, const char *s, size_t max)
{
	/* Into the buffer a run at a time: the end of s is found as it is copied. */
	for (size_t i = 0; i < max && s[i];) {
		size_t room, k;

		if (o->n == o->cap)
			cr_flush(o);
		room = o->cap - o->n;
		for (k = 0; k < room && i < max && s[i]; k++, i++)
			o->buf[o->n + k] = s[i];
		o->n += k;
	}
}

void cr_puts(struct cr_out *o, const char *s)
{
	cr_putsn(o, s, (size_t)-1);
}

void cr_putpad(struct cr_out *o, const char *s, int width)
{
	int len = 0;

	for (; s[len]; len++)
		cr_putc(o, s[len]);
	for (; len < width; len++)
		cr_putc(o, ' ');
}

size_t cr_fmt_x(char *dst, size_t cap, uint64_t v, int width)
{
	char tmp[17];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	if (width > 16)
		width = 16;
	while (n < width)
		tmp[n++] = '0';
	size_t k = 0;
	while (n > 0 && k + 1 < cap)
		dst[k++] = tmp[--n];
	if (cap)
		dst[k] = 0;
	return k;
}

size_t cr_fmt_u(char *dst, size_t cap, uint64_t v)
{
	char tmp[21];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	size_t k = 0;
	while (n > 0 && k + 1 < cap)
		dst[k++] = tmp[--n];
	if (cap)
		dst[k] = 0;
	return k;
}

/* n as exactly w decimal digits (w <= 6) at dst. */
static void digits(char *dst, uint64_t n, int w)
{
	while (w-- > 0) {
		dst[w] = (char)('0' + n % 10);
		n /= 10;
	}
}

size_t cr_fmt_utc(char *dst, size_t cap, uint64_t sec, uint64_t nsec)
{
	uint64_t days = sec / 86400, s = sec % 86400, y, doy, mp;
	uint64_t era, doe, yoe;
	unsigned m, d;

	if (cap < CR_UTC_LEN + 1 || days > 2932896) {	/* 9999-12-31 */
		if (cap)
			dst[0] = 0;
		return 0;
	}
	/*
	 * Days -> date, counting years from March 1 so that the leap day ends
	 * the year: 400-year eras of 146,097 days; in an era, a year has 365
	 * days, one more every 4th, one fewer every 100th, one more every
	 * 400th; months from March follow 153 days per 5 months.  Day 0 of
	 * era 0 is 0000-03-01, 719,468 days before 1970-01-01.
	 */
	days += 719468;
	era = days / 146097;
	doe = days % 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
	m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	y = era * 400 + yoe + (m <= 2);
	digits(dst, y / 100, 2);
	digits(dst + 2, y % 100, 2);
	dst[4] = '-';
	digits(dst + 5, m, 2);
	dst[7] = '-';
	digits(dst + 8, d, 2);
	dst[10] = 'T';
	digits(dst + 11, s / 3600, 2);
	dst[13] = ':';
	digits(dst + 14, s / 60 % 60, 2);
	dst[16] = ':';
	digits(dst + 17, s % 60, 2);
	dst[19] = '.';
	digits(dst + 20, nsec / 1000 % 1000000, 6);
	dst[26] = 'Z';
	dst[27] = 0;
	return CR_UTC_LEN;
}

void cr_putx(struct cr_out *o, uint64_t v, int width)
{
	char tmp[17];
	int n = 1;

	/* Straight into the buffer, last digit first (a memory dump is
	   thousands of these); cr_fmt_x's digits and padding. */
	for (uint64_t t = v >> 4; t; t >>= 4)
		n++;
	if (width > 16)
		width = 16;
	if (n < width)
		n = width;
	if (o->cap - o->n < (size_t)n) {	/* at the buffer's end: as cr_puts fills and flushes */
		cr_fmt_x(tmp, sizeof(tmp), v, width);
		cr_puts(o, tmp);
		return;
	}
	for (char *p = o->buf + o->n + n; p > o->buf + o->n; v >>= 4)
		*--p = "0123456789abcdef"[v & 15];
	o->n += (size_t)n;
}

void cr_put0x(struct cr_out *o, uint64_t v, int width)
{
	cr_puts(o, "0x");
	cr_putx(o, v, width);
}

void cr_putu(struct cr_out *o, uint64_t v)
{
	char tmp[21];

	cr_fmt_u(tmp, sizeof(tmp), v);
	cr_puts(o, tmp);
}

void cr_putd(struct cr_out *o, int64_t v)
{
	if (v < 0) {
		cr_putc(o, '-');
		cr_putu(o, (uint64_t)0 - (uint64_t)v);	/* INT64_MIN safe */
	} else {
		cr_putu(o, (uint64_t)v);
	}
}
