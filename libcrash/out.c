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

void cr_putx(struct cr_out *o, uint64_t v, int width)
{
	char tmp[17];

	cr_fmt_x(tmp, sizeof(tmp), v, width);
	cr_puts(o, tmp);
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
