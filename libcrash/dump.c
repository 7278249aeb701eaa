/* SPDX-License-Identifier: MIT */
/* The report's memory sections: dump.h, docs/report-format.md. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>

#include "dump.h"
#include "maps.h"
#include "module.h"
#include "scratch.h"
#include "sigdesc.h"
#include "str.h"
#include "sys.h"

#define ROW 16
#define ROWS 16		/* 256 bytes around each address */
#define NEAR_MAX 40	/* registers dumped at most: pc, sp and every GPR */

void cr_dump_read_row(const struct cr_mem *m, uint64_t addr, uint8_t *b, uint8_t *ok)
{
	int all = cr_read(m, addr, b, ROW) == 0;

	for (int i = 0; i < ROW; i++)
		ok[i] = all || cr_read(m, addr + (uint64_t)i, &b[i], 1) == 0;
}

/* "    ADDR" (16 digits), " XX" or " --" a byte, two spaces, the bytes as text, newline. */
#define ROW_LINE (4 + 16 + 3 * ROW + 2 + ROW + 1)

void cr_dump_row(struct cr_out *o, const struct cr_mem *m, uint64_t addr)
{
	static const char hex[16] = "0123456789abcdef";
	uint8_t b[ROW], ok[ROW];
	char line[ROW_LINE + 1], *p = line;

	cr_dump_read_row(m, addr, b, ok);
	/* The line whole, then one copy into the output: a dump is hundreds
	   of rows, a call a byte cost them most of their time. */
	for (int i = 0; i < 4; i++)
		*p++ = ' ';
	for (int sh = 60; sh >= 0; sh -= 4)
		*p++ = hex[(addr >> sh) & 15];
	for (int i = 0; i < ROW; i++) {
		*p++ = ' ';
		*p++ = ok[i] ? hex[b[i] >> 4] : '-';
		*p++ = ok[i] ? hex[b[i] & 15] : '-';
	}
	*p++ = ' ';
	*p++ = ' ';
	for (int i = 0; i < ROW; i++)
		*p++ = ok[i] && b[i] >= 0x20 && b[i] < 0x7f ? (char)b[i] : '.';
	*p++ = '\n';
	*p = 0;
	cr_putsn(o, line, (size_t)(p - line));
}

/* 256 bytes around v, if v lies in a readable mapping and no earlier block has them. */
static void near(const struct cr_crash *c, const struct cr_mem *m, const char *name, uint64_t v,
		 uint64_t *done, unsigned *ndone, cr_dump_block_fn *fn, void *arg)
{
	const struct cr_map *map = cr_maps_find(c->maps, v);
	uint64_t start = (v & ~(uint64_t)(ROW - 1)) - ROW * ROWS / 2;
	struct cr_module mod;

	if (!map || !(map->flags & CR_MAP_R) || v < ROW * ROWS / 2)
		return;
	for (unsigned i = 0; i < *ndone; i++)
		if (done[i] == start)
			return;	/* another register's window: not twice */
	if (*ndone < NEAR_MAX)
		done[(*ndone)++] = start;
	fn(arg, name, v, start,
	   cr_module_find(m, v, &mod) == 0 && mod.path[0] ? mod.path : NULL);
}

void cr_dump_blocks(const struct cr_crash *c, const struct cr_mem *m, cr_dump_block_fn *fn,
		    void *arg)
{
	const struct cr_arch *a = cr_host;
	const struct cr_regs *r = c->regs;
	uint64_t done[NEAR_MAX];
	unsigned ndone = 0;

	if (!c->maps)
		return;
	near(c, m, "pc", r->pc, done, &ndone, fn, arg);
	if (cr_reg_valid(r, a->sp))
		near(c, m, "sp", r->r[a->sp], done, &ndone, fn, arg);
	for (const uint8_t *p = a->dump_order; *p != 0xff; p++)
		if (a->regname[*p] && *p != a->sp && cr_reg_valid(r, *p))
			near(c, m, a->regname[*p], r->r[*p], done, &ndone, fn, arg);
}

struct blockout {
	struct cr_out *o;
	const struct cr_mem *m;
};

/* "memory near NAME (MODULE):" and its rows. */
static void put_block(void *arg, const char *name, uint64_t v, uint64_t start, const char *module)
{
	struct blockout *b = arg;

	(void)v;
	cr_puts(b->o, "\nmemory near ");
	cr_puts(b->o, name);
	if (module) {
		cr_puts(b->o, " (");
		cr_puts(b->o, module);
		cr_putc(b->o, ')');
	}
	cr_puts(b->o, ":\n");
	for (unsigned r = 0; r < ROWS; r++)
		cr_dump_row(b->o, b->m, start + r * ROW);
}

void cr_dump_memory(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m)
{
	struct blockout b = { o, m };

	cr_dump_blocks(c, m, put_block, &b);
}


int cr_dump_parse_line(char *line, size_t len, struct cr_mapline *l)
{
	const char *s = line, *end = line + len;

	if (!(s = cr_parse_hex(s, end, &l->lo)) || s >= end || *s++ != '-' ||
	    !(s = cr_parse_hex(s, end, &l->hi)) || end - s < 6 || *s++ != ' ' || l->hi <= l->lo)
		return -1;
	for (int i = 0; i < 4; i++)
		l->perms[i] = *s++;
	l->perms[4] = 0;
	if (s >= end || *s++ != ' ' || !(s = cr_parse_hex(s, end, &l->offset)))
		return -1;
	for (int field = 0; s < end && field < 2; field++) {	/* dev, inode */
		while (s < end && *s == ' ')
			s++;
		while (s < end && *s != ' ')
			s++;
	}
	while (s < end && *s == ' ')
		s++;
	line[len] = 0;
	l->path = s;
	return 0;
}

/*
 * Lines out of text that comes in pieces: a line longer than LINE_MAX_ is
 * cut (its path).  fn's return: 0 goes on.
 */
#define LINE_MAX_ 512
struct splitter {
	int (*fn)(void *arg, char *line, size_t len);
	void *arg;
	char line[LINE_MAX_ + 1];
	size_t n;
	int lines;
};

/* 1: fn asked to stop. */
static int split(struct splitter *sp, const char *s, size_t len)
{
	for (size_t k = 0; k < len; k++) {
		if (s[k] != '\n') {
			if (sp->n < LINE_MAX_)
				sp->line[sp->n++] = s[k];
			continue;
		}
		sp->lines++;
		if (sp->fn(sp->arg, sp->line, sp->n))
			return 1;
		sp->n = 0;
	}
	return 0;
}

/* The last line, without its newline. */
static int split_end(struct splitter *sp)
{
	if (sp->n) {
		sp->lines++;
		sp->fn(sp->arg, sp->line, sp->n);
	}
	return sp->lines;
}

int cr_dump_text_lines(const char *s, size_t len, int (*fn)(void *arg, char *line, size_t len),
		       void *arg)
{
	struct splitter sp = { .fn = fn, .arg = arg };

	return split(&sp, s, len) ? sp.lines : split_end(&sp);
}

/*
 * /proc/self/maps: from t's copy when it holds the whole text, else read
 * in 1 KiB pieces (on the report's stack: this runs at its shallowest).
 * The number of lines, or -1.
 */
static int each_line(const struct cr_maps_text *t, int (*fn)(void *arg, char *line, size_t len),
		     void *arg)
{
	struct splitter sp = { .fn = fn, .arg = arg };
	char chunk[1024];
	int fd;

	if (t && t->p)
		return cr_dump_text_lines(t->p, t->len, fn, arg);
	if ((fd = cr_sys_open("/proc/self/maps", O_RDONLY | O_CLOEXEC, 0)) < 0)
		return -1;
	/* Bounded: at most 64 MiB of text. */
	for (int i = 0; i < 1 << 16; i++) {
		long r = cr_sys_read(fd, chunk, sizeof(chunk));

		if (r == -EINTR)
			continue;
		if (r <= 0)
			break;
		if (split(&sp, chunk, (size_t)r))
			goto out;
	}
	split_end(&sp);
out:
	cr_sys_close(fd);
	return sp.lines;
}

/*
 * The whole text once: the kernel formats every line again at each read,
 * and the section reads it twice (the count comes first).  In .bss, touched
 * only by a report; one report at a time holds it (the other reads the file
 * twice).  64 KiB: ~600 mappings.
 */
static char maps_store[64 << 10];
static struct cr_scratch maps_scratch = CR_SCRATCH(maps_store);

void cr_dump_maps_load(struct cr_maps_text *t)
{
	size_t size, len = 0;
	char *p = cr_scratch_get(&maps_scratch, NULL, 0, &size);
	int fd, whole = 0;

	t->p = NULL;
	t->len = 0;
	if (!p)
		return;
	if ((fd = cr_sys_open("/proc/self/maps", O_RDONLY | O_CLOEXEC, 0)) >= 0) {
		/* Bounded: each pass reads a byte, or ends; EINTR at most 64 times. */
		for (int i = 0; i < 64 && len < size;) {
			long r = cr_sys_read(fd, p + len, size - len);

			if (r == -EINTR) {
				i++;
				continue;
			}
			if (r <= 0) {
				whole = r == 0;
				break;
			}
			len += (size_t)r;
		}
		cr_sys_close(fd);
	}
	if (!whole) {
		cr_scratch_put(&maps_scratch, p);	/* too long, or unreadable */
		return;
	}
	t->p = p;
	t->len = len;
}

void cr_dump_maps_unload(struct cr_maps_text *t)
{
	cr_scratch_put(&maps_scratch, t->p);
	t->p = NULL;
}

static int count_line(void *arg, char *line, size_t len)
{
	(void)arg;
	(void)line;
	(void)len;
	return 0;
}

int cr_dump_map_count(const struct cr_maps_text *t)
{
	return each_line(t, count_line, NULL);
}

struct mapwalk {
	const struct cr_mem *m;
	cr_dump_map_fn *fn;
	void *arg;
	struct cr_mapfacts f;
	uint64_t prev_hi;
	struct cr_module mod;	/* the last module found (mod.hi 0: none) */
};

static int map_line(void *arg, char *line, size_t len)
{
	struct mapwalk *w = arg;
	struct cr_mapfacts *f = &w->f;

	if (cr_dump_parse_line(line, len, &f->l) < 0)
		return 0;
	f->mark = CR_MARK_NONE;
	if (f->has_fault && !f->marked && f->fault < f->l.lo)
		f->mark = w->prev_hi ? CR_MARK_BETWEEN : CR_MARK_BEFORE_FIRST;
	else if (f->has_fault && !f->marked && f->fault >= f->l.lo && f->fault < f->l.hi)
		f->mark = CR_MARK_IN;
	if (f->mark != CR_MARK_NONE)
		f->marked = 1;
	/* A module's mappings: its build-id and load bias (the file's, not "[vdso]"'s name). */
	f->mod = NULL;
	if (f->l.path[0] == '/' || f->l.path[0] == '[') {
		if (!(f->l.lo >= w->mod.lo && f->l.lo < w->mod.hi) &&
		    cr_module_find(w->m, f->l.lo, &w->mod) < 0)
			w->mod.lo = w->mod.hi = 0;
		if (f->l.lo >= w->mod.lo && f->l.lo < w->mod.hi)
			f->mod = &w->mod;
	}
	w->fn(w->arg, f);
	f->index++;
	w->prev_hi = f->l.hi;
	return 0;
}

int cr_dump_maps_each(const struct cr_crash *c, const struct cr_mem *m,
		      const struct cr_maps_text *t, cr_dump_map_fn *fn, void *arg)
{
	struct mapwalk w = { .m = m, .fn = fn, .arg = arg };

	if (c->si && cr_code_has_addr(c->sig, c->si->si_code)) {
		w.f.has_fault = 1;
		w.f.fault = (uintptr_t)c->si->si_addr;
	}
	if (each_line(t, map_line, &w) < 0)
		return 0;
	return w.f.has_fault && !w.f.marked;
}

static void put_fault(struct cr_out *o, uint64_t fault, const char *where)
{
	cr_puts(o, "--->fault address ");
	cr_put0x(o, fault, 16);
	cr_puts(o, where);
}

static void print_map(void *arg, const struct cr_mapfacts *f)
{
	struct cr_out *o = arg;
	const struct cr_mapline *l = &f->l;

	if (f->mark == CR_MARK_BETWEEN || f->mark == CR_MARK_BEFORE_FIRST)
		put_fault(o, f->fault, f->mark == CR_MARK_BETWEEN ? " falls between mappings\n"
								  : " falls before the first mapping\n");
	cr_puts(o, f->mark == CR_MARK_IN ? "--->" : "    ");
	cr_putx(o, l->lo, 16);
	cr_putc(o, '-');
	cr_putx(o, l->hi, 16);
	cr_putc(o, ' ');
	cr_puts(o, l->perms);
	cr_putc(o, ' ');
	cr_putx(o, l->offset, 8);
	if (l->path[0]) {
		cr_puts(o, "  ");
		cr_puts(o, l->path);
	}
	if (f->mod) {
		if (f->mod->build_id_len) {
			cr_puts(o, " (BuildId: ");
			for (unsigned i = 0; i < f->mod->build_id_len; i++)
				cr_putx(o, f->mod->build_id[i], 2);
			cr_putc(o, ')');
		}
		cr_puts(o, " (load bias ");
		cr_put0x(o, f->mod->bias, 16);
		cr_putc(o, ')');
	}
	cr_putc(o, '\n');
}

void cr_dump_maps(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m)
{
	struct cr_maps_text t;
	int n;

	cr_dump_maps_load(&t);
	if ((n = cr_dump_map_count(&t)) >= 0) {
		cr_puts(o, "\nmemory map (");
		cr_putu(o, (uint64_t)n);
		cr_puts(o, n == 1 ? " entry):\n" : " entries):\n");
		if (cr_dump_maps_each(c, m, &t, print_map, o))
			put_fault(o, (uintptr_t)c->si->si_addr, " falls after the last mapping\n");
	}
	cr_dump_maps_unload(&t);
}
