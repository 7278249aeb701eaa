/* SPDX-License-Identifier: MIT */
/*
 * AS-safe text output: a fixed buffer flushed with write(2).  No malloc, no
 * stdio, no locale.  Tests can point it at memory instead of an fd.
 */
#ifndef CR_OUT_H
#define CR_OUT_H

#include "common.h"

struct cr_sink_io;

struct cr_out {
	int fd;			/* write(2) target; < 0: append to mem, or io */
	int err;		/* first write error (-errno), later output is dropped */
	size_t n, cap;		/* bytes pending in buf, and its size */
	char *buf;		/* small, or the caller's (cr_out_sink) */
	char *mem;		/* tests: sink when fd < 0 (NUL-terminated) */
	size_t memcap, memlen;
	struct cr_sink_io *io;	/* a report's destination (sink.h), or NULL */
	size_t flushed;		/* bytes already given to io before the last flush */
	char small[1024];
};

void cr_out_init(struct cr_out *o, int fd);
void cr_out_mem(struct cr_out *o, char *mem, size_t cap);
/*
 * A report into buf (cap bytes, a static buffer: the whole report fits in
 * most cases), handed to io whole at the last flush or, when buf fills, a
 * buffer at a time.
 */
void cr_out_sink(struct cr_out *o, struct cr_sink_io *io, char *buf, size_t cap);
void cr_putc(struct cr_out *o, char c);
void cr_puts(struct cr_out *o, const char *s);
void cr_putsn(struct cr_out *o, const char *s, size_t max);	/* at most max bytes of s */
void cr_putx(struct cr_out *o, uint64_t v, int width);	/* hex, zero-padded to width */
void cr_put0x(struct cr_out *o, uint64_t v, int width);	/* "0x" + cr_putx */
void cr_putu(struct cr_out *o, uint64_t v);		/* decimal */
void cr_putd(struct cr_out *o, int64_t v);		/* signed decimal */
void cr_putpad(struct cr_out *o, const char *s, int width);	/* s, then spaces to width */
/* write(2) loop: EINTR and short writes handled.  To a sink: only a full buffer. */
void cr_flush(struct cr_out *o);
/* Everything pending, now, wherever it goes. */
void cr_out_drain(struct cr_out *o);

/* Format into a small buffer (tests, names): returns the length, always NUL-terminates. */
size_t cr_fmt_u(char *dst, size_t cap, uint64_t v);
size_t cr_fmt_x(char *dst, size_t cap, uint64_t v, int width);
/*
 * A time since the epoch (CLOCK_REALTIME) as ISO 8601 in UTC to the
 * microsecond, "2026-11-25T12:04:05.123456Z" (27 bytes and the NUL; cap >=
 * 28, else ""); the proleptic Gregorian calendar, no leap seconds (POSIX
 * time).  Years 1970 to 9999.  Returns the length.
 */
#define CR_UTC_LEN 27
size_t cr_fmt_utc(char *dst, size_t cap, uint64_t sec, uint64_t nsec);

#endif
