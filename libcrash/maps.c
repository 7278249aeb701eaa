/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "maps.h"

/*
 * A parser that is fed chunks: whole lines are parsed where they lie; only a
 * line cut by the end of a chunk is kept, up to LINE bytes.  Of every line
 * the first LINE bytes count, the rest is ignored.
 */
#define LINE 192

struct parser {
	struct cr_maps *t;
	char line[LINE];
	size_t len;
};

static const char *hex(const char *s, const char *end, uint64_t *v)
{
	uint64_t x = 0;
	int n = 0;

	for (; s < end && n < 16; s++, n++) {
		unsigned c = (unsigned char)*s, d;

		if (c - '0' < 10)
			d = c - '0';
		else if (c - 'a' < 6)
			d = c - 'a' + 10;
		else
			break;
		x = x << 4 | d;
	}
	*v = x;
	return n ? s : NULL;
}

/* "lo-hi perms offset dev inode   path" in [s, end) */
static void parse_line(struct cr_maps *t, const char *s, const char *end)
{
	struct cr_map m = { 0, 0, 0 };

	if (end - s > LINE)
		end = s + LINE;
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
	if (t->n == CR_MAPS_MAX) {
		t->truncated = 1;
		return;
	}
	t->m[t->n++] = m;
}

static void keep(struct parser *p, const char *s, const char *end)
{
	while (s < end && p->len < LINE)
		p->line[p->len++] = *s++;
}

static void feed(struct parser *p, const char *buf, size_t len)
{
	const char *s = buf, *end = buf + len;

	while (s < end) {
		const char *nl = s;

		while (nl < end && *nl != '\n')
			nl++;
		if (nl == end) {	/* cut: the rest comes with the next chunk */
			keep(p, s, end);
			return;
		}
		if (p->len) {
			keep(p, s, nl);
			parse_line(p->t, p->line, p->line + p->len);
			p->len = 0;
		} else {
			parse_line(p->t, s, nl);
		}
		s = nl + 1;
	}
}

int cr_maps_parse_chunks(struct cr_maps *t, const char *text, size_t len, size_t chunk)
{
	struct parser p = { .t = t, .len = 0 };

	t->n = 0;
	t->truncated = 0;
	for (size_t i = 0; i < len; i += chunk)
		feed(&p, text + i, len - i < chunk ? len - i : chunk);
	if (p.len)
		parse_line(t, p.line, p.line + p.len);
	return (int)t->n;
}

int cr_maps_parse(struct cr_maps *t, const char *text, size_t len)
{
	return cr_maps_parse_chunks(t, text, len, len ? len : 1);
}

int cr_maps_load(struct cr_maps *t)
{
	struct parser p = { .t = t, .len = 0 };
	char buf[4096];	/* the kernel fills a page per read: few system calls */
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
	/* Bounded: at most 256 MiB of text (far more than CR_MAPS_MAX lines). */
	for (int i = 0; i < 65536; i++) {
		r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		feed(&p, buf, (size_t)r);
	}
	if (p.len)
		parse_line(t, p.line, p.line + p.len);
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
