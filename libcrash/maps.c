/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "maps.h"
#include "scratch.h"
#include "str.h"
#include "sys.h"

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


/* "lo-hi perms offset dev inode   path" in [s, end) */
static void parse_line(struct cr_maps *t, const char *s, const char *end)
{
	struct cr_map m = { 0, 0, 0 };

	if (end - s > LINE)
		end = s + LINE;
	if (!(s = cr_parse_hex(s, end, &m.lo)) || s >= end || *s++ != '-' ||
	    !(s = cr_parse_hex(s, end, &m.hi)))
		return;
	if (end - s < 5 || *s != ' ' || m.hi <= m.lo)
		return;
	m.flags |= s[1] == 'r' ? CR_MAP_R : 0;
	m.flags |= s[2] == 'w' ? CR_MAP_W : 0;
	m.flags |= s[3] == 'x' ? CR_MAP_X : 0;
	for (int field = 0; s < end && field < 4; field++) {	/* skip to the path */
		while (s < end && *s == ' ')
			s++;
		if (field == 3 && s < end && (*s != '0' || (s + 1 < end && s[1] != ' ')))
			m.flags |= CR_MAP_FILE;	/* the inode: not "0" */
		while (s < end && *s != ' ')
			s++;
	}
	while (s < end && *s == ' ')
		s++;
	if (end - s >= 7 && cr_memeq(s, "[stack]", 7))
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
	t->query = 0;
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

/*
 * All of fd's text into t, a page per read (the kernel fills a page per
 * read: few system calls) through a static buffer, not 4 KiB of the
 * handler's stack (this may run deep in a walk: to_text); whoever finds it
 * busy reads 256 bytes at a time on the stack.
 */
static char page_buf[4096];
static struct cr_scratch page = CR_SCRATCH(page_buf);

static int load_fd(struct cr_maps *t, int fd)
{
	struct parser p = { .t = t, .len = 0 };
	char small[256], *buf;
	size_t cap;
	long r;

	buf = cr_scratch_get(&page, small, sizeof(small), &cap);
	t->n = 0;
	t->truncated = 0;
	t->query = 0;
	/* Bounded: at most 256 MiB of text (far more than CR_MAPS_MAX lines). */
	for (int i = 0; i < 1 << 20; i++) {
		r = cr_sys_read(fd, buf, cap);
		if (r == -EINTR)
			continue;
		if (r <= 0)
			break;
		feed(&p, buf, (size_t)r);
	}
	cr_scratch_put(&page, buf);
	if (p.len)
		parse_line(t, p.line, p.line + p.len);
	return (int)t->n;
}

#define CR_PQ_COVERING_OR_NEXT 0x10
#define CR_PQ_FLAGS 0x7		/* readable 1, writable 2, executable 4: as CR_MAP_* */
_Static_assert(CR_MAP_R == 1 && CR_MAP_W == 2 && CR_MAP_X == 4, "the kernel's bits");

/*
 * The mapping that holds addr (next: or the first above it).  0; -1: there is
 * none (ENOENT); -2: the kernel did not answer (the caller reads the text).
 */
static int query(int fd, uint64_t addr, int next, struct cr_map *out)
{
	struct cr_procmap_query q;
	int r;

	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.query_flags = next ? CR_PQ_COVERING_OR_NEXT : 0;
	q.query_addr = addr;
	r = cr_sys_ioctl(fd, CR_PROCMAP_QUERY, &q);
	if (r != 0)
		return r == -ENOENT ? -1 : -2;
	if (q.vma_end <= q.vma_start || (!next && (addr < q.vma_start || addr >= q.vma_end)))
		return -2;
	out->lo = q.vma_start;
	out->hi = q.vma_end;
	out->flags = (uint32_t)(q.vma_flags & CR_PQ_FLAGS) | (q.inode ? CR_MAP_FILE : 0);
	return 0;
}

/* /proc/self/maps, in query mode if asked for and the kernel answers (cr_maps_open). */
static int maps_open(struct cr_maps *t, int try_query)
{
	struct cr_map m;
	int fd, ret;

	t->n = 0;
	t->truncated = 0;
	t->query = 0;
	fd = cr_sys_open("/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return fd;
	/* Query mode if the kernel answers for this very code: executable. */
	if (try_query && query(fd, (uintptr_t)&maps_open, 0, &m) == 0 && (m.flags & CR_MAP_X)) {
		t->query = 1;
		t->qfd = fd;
		t->m[t->n++] = m;
		return 1;
	}
	ret = load_fd(t, fd);
	cr_sys_close(fd);
	return ret;
}

int cr_maps_load(struct cr_maps *t)
{
	return maps_open(t, 0);
}

int cr_maps_open(struct cr_maps *t)
{
	return maps_open(t, 1);
}

void cr_maps_close(struct cr_maps *t)
{
	if (t->query)
		cr_sys_close(t->qfd);
	t->query = 0;
}

/* Query mode: keep m in m[], sorted (the answers never overlap). */
static const struct cr_map *remember(struct cr_maps *t, const struct cr_map *m)
{
	unsigned i = t->n;

	if (t->n == CR_MAPS_MAX) {
		t->last = *m;
		return &t->last;
	}
	while (i > 0 && t->m[i - 1].lo > m->lo) {
		t->m[i] = t->m[i - 1];
		i--;
	}
	t->m[i] = *m;
	t->n++;
	return &t->m[i];
}

static const struct cr_map *find(const struct cr_maps *t, uint64_t addr)
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

/* Query mode, the kernel did not answer: the text from here on. */
static void to_text(struct cr_maps *t)
{
	cr_sys_close(t->qfd);
	if (cr_maps_load(t) < 0)	/* ends query mode either way */
		t->n = 0;
}

const struct cr_map *cr_maps_find(struct cr_maps *t, uint64_t addr)
{
	const struct cr_map *m = find(t, addr);
	struct cr_map q;
	int r;

	if (m || !t->query)
		return m;
	if ((r = query(t->qfd, addr, 0, &q)) == 0)
		return remember(t, &q);
	if (r == -2) {
		to_text(t);
		return find(t, addr);
	}
	return NULL;
}

int cr_maps_stack(struct cr_maps *t, uint64_t sp, uint64_t *lo, uint64_t *hi)
{
	const struct cr_map *m = cr_maps_find(t, sp);
	struct cr_map q;

	if (m && (m->flags & CR_MAP_R)) {
		*lo = m->lo;
		*hi = m->hi;
		return 0;
	}
	if (t->query) {
		/* The same rule as below, on the kernel's first mapping above sp
		   (above the guard page that holds it, if one does). */
		int r = query(t->qfd, m ? m->hi : sp, 1, &q);

		if (r == -2) {
			to_text(t);
		} else {
			if (r < 0 || q.lo <= sp || q.lo - sp > (1u << 20) || !(q.flags & CR_MAP_W))
				return -CR_ENOINFO;
			*lo = sp;
			*hi = q.hi;
			return 0;
		}
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

int cr_maps_overflow(struct cr_maps *t, uint64_t fault, uint64_t sp)
{
	const struct cr_map *m = cr_maps_find(t, fault);
	uint64_t lo, hi, near = 1u << 20;

	if (m && (m->flags & CR_MAP_R))
		return 0;	/* readable: a bad write, not a guard */
	if (cr_maps_stack(t, fault, &lo, &hi) < 0)
		return 0;
	return sp < hi && (sp > fault ? sp - fault : fault - sp) <= near;
}
