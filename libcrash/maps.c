/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "maps.h"

/* A parser that is fed chunks: the line is kept up to LINE bytes, the rest ignored. */
#define LINE 192

struct parser {
	struct cr_maps *t;
	char line[LINE];
	size_t len;
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static const char *hex(const char *s, const char *end, uint64_t *v)
{
	uint64_t x = 0;
	int d, n = 0;

	for (; s < end && (d = hexval(*s)) >= 0 && n < 16; s++, n++)
		x = x << 4 | (uint64_t)d;
	*v = x;
	return n ? s : NULL;
}

/* "lo-hi perms offset dev inode   path" */
static void parse_line(struct parser *p)
{
	const char *s = p->line, *end = p->line + p->len;
	struct cr_map m = { 0, 0, 0 };

	if (!(s = hex(s, end, &m.lo)) || s >= end || *s++ != '-' || !(s = hex(s, end, &m.hi)))
		return;
	if (end - s < 5 || *s != ' ' || m.hi <= m.lo)
		return;
	m.flags |= s[1] == 'r' ? CR_MAP_R : 0;
	m.flags |= s[2] == 'w' ? CR_MAP_W : 0;
	m.flags |= s[3] == 'x' ? CR_MAP_X : 0;
	for (int field = 0; s < end && field < 4; field++) {	/* skip to the path */
		while (s < end && *s == ' ')
			s++;
		while (s < end && *s != ' ')
			s++;
	}
	while (s < end && *s == ' ')
		s++;
	if (end - s >= 7 && memcmp(s, "[stack]", 7) == 0)
		m.flags |= CR_MAP_STACK;
	if (p->t->n == CR_MAPS_MAX) {
		p->t->truncated = 1;
		return;
	}
	p->t->m[p->t->n++] = m;
}

static void feed(struct parser *p, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			parse_line(p);
			p->len = 0;
		} else if (p->len < LINE) {
			p->line[p->len++] = buf[i];
		}
	}
}

int cr_maps_parse(struct cr_maps *t, const char *text, size_t len)
{
	struct parser p = { .t = t, .len = 0 };

	t->n = 0;
	t->truncated = 0;
	feed(&p, text, len);
	if (p.len)
		parse_line(&p);
	return (int)t->n;
}

int cr_maps_load(struct cr_maps *t)
{
	struct parser p = { .t = t, .len = 0 };
	char buf[1024];
	int fd, saved = errno;
	ssize_t r;

	t->n = 0;
	t->truncated = 0;
	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		errno = saved;
		return (int)r;
	}
	/* Bounded: at most 64 MiB of text (far more than CR_MAPS_MAX lines). */
	for (int i = 0; i < 65536; i++) {
		r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		feed(&p, buf, (size_t)r);
	}
	if (p.len)
		parse_line(&p);
	close(fd);
	errno = saved;
	return (int)t->n;
}

const struct cr_map *cr_maps_find(const struct cr_maps *t, uint64_t addr)
{
	unsigned lo = 0, hi = t->n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (addr < t->m[mid].lo)
			hi = mid;
		else if (addr >= t->m[mid].hi)
			lo = mid + 1;
		else
			return &t->m[mid];
	}
	return NULL;
}

int cr_maps_stack(const struct cr_maps *t, uint64_t sp, uint64_t *lo, uint64_t *hi)
{
	const struct cr_map *m = cr_maps_find(t, sp);

	if (m && (m->flags & CR_MAP_R)) {
		*lo = m->lo;
		*hi = m->hi;
		return 0;
	}
	/*
	 * sp in a guard gap (main thread) or a PROT_NONE guard page (pthread
	 * stacks): stack overflow.  The stack is the writable mapping just above.
	 */
	for (unsigned i = 0; i < t->n; i++) {
		if (t->m[i].lo > sp) {
			if (t->m[i].lo - sp > (1u << 20) || !(t->m[i].flags & CR_MAP_W))
				return -CR_ENOINFO;
			*lo = sp;
			*hi = t->m[i].hi;
			return 0;
		}
	}
	return -CR_ENOINFO;
}
