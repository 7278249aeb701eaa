/* SPDX-License-Identifier: MIT */
/* The report's memory sections: dump.h, docs/report-format.md. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>

#include "dump.h"
#include "maps.h"
#include "module.h"
#include "sigdesc.h"
#include "str.h"
#include "sys.h"

#define ROW 16
#define ROWS 16		/* 256 bytes around each address */
#define NEAR_MAX 40	/* registers dumped at most: pc, sp and every GPR */

void cr_dump_row(struct cr_out *o, const struct cr_mem *m, uint64_t addr)
{
	uint8_t b[ROW];
	int ok[ROW];
	int all = cr_read(m, addr, b, ROW) == 0;

	for (int i = 0; i < ROW; i++)
		ok[i] = all || cr_read(m, addr + (uint64_t)i, &b[i], 1) == 0;
	cr_puts(o, "    ");
	cr_putx(o, addr, 16);
	for (int i = 0; i < ROW; i++) {
		cr_putc(o, ' ');
		if (ok[i])
			cr_putx(o, b[i], 2);
		else
			cr_puts(o, "--");
	}
	cr_puts(o, "  ");
	for (int i = 0; i < ROW; i++)
		cr_putc(o, ok[i] && b[i] >= 0x20 && b[i] < 0x7f ? (char)b[i] : '.');
	cr_putc(o, '\n');
}

/* 256 bytes around v, if v lies in a readable mapping: "memory near NAME (MODULE):". */
static int near(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m,
		const char *name, uint64_t v, uint64_t *done, unsigned *ndone)
{
	const struct cr_map *map = cr_maps_find(c->maps, v);
	uint64_t start = (v & ~(uint64_t)(ROW - 1)) - ROW * ROWS / 2;
	struct cr_module mod;

	if (!map || !(map->flags & CR_MAP_R) || v < ROW * ROWS / 2)
		return 0;
	for (unsigned i = 0; i < *ndone; i++)
		if (done[i] == start)
			return 0;	/* another register's window: not twice */
	if (*ndone < NEAR_MAX)
		done[(*ndone)++] = start;
	cr_puts(o, "\nmemory near ");
	cr_puts(o, name);
	if (cr_module_find(m, v, &mod) == 0 && mod.path[0]) {
		cr_puts(o, " (");
		cr_puts(o, mod.path);
		cr_putc(o, ')');
	}
	cr_puts(o, ":\n");
	for (unsigned r = 0; r < ROWS; r++)
		cr_dump_row(o, m, start + r * ROW);
	return 1;
}

void cr_dump_memory(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m)
{
	const struct cr_arch *a = cr_host;
	const struct cr_regs *r = c->regs;
	uint64_t done[NEAR_MAX];
	unsigned ndone = 0;

	if (!c->maps)
		return;
	near(o, c, m, "pc", r->pc, done, &ndone);
	if (cr_reg_valid(r, a->sp))
		near(o, c, m, "sp", r->r[a->sp], done, &ndone);
	for (const uint8_t *p = a->dump_order; *p != 0xff; p++)
		if (a->regname[*p] && *p != a->sp && cr_reg_valid(r, *p))
			near(o, c, m, a->regname[*p], r->r[*p], done, &ndone);
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
 * /proc/self/maps a line at a time, in 1 KiB reads (on the report's stack:
 * this runs at its shallowest); a line longer than the buffer is cut (its
 * path).  fn's return: 0 goes on.  The number of lines, or -1.
 */
#define LINE_MAX_ 512
static int each_line(int (*fn)(void *arg, char *line, size_t len), void *arg)
{
	char chunk[1024], line[LINE_MAX_ + 1];
	size_t n = 0;
	int fd = cr_sys_open("/proc/self/maps", O_RDONLY | O_CLOEXEC, 0), lines = 0;

	if (fd < 0)
		return -1;
	/* Bounded: at most 64 MiB of text. */
	for (int i = 0; i < 1 << 16; i++) {
		long r = cr_sys_read(fd, chunk, sizeof(chunk));

		if (r == -EINTR)
			continue;
		if (r <= 0)
			break;
		for (long k = 0; k < r; k++) {
			if (chunk[k] != '\n') {
				if (n < LINE_MAX_)
					line[n++] = chunk[k];
				continue;
			}
			lines++;
			if (fn(arg, line, n))
				goto out;
			n = 0;
		}
	}
	if (n) {
		lines++;
		fn(arg, line, n);
	}
out:
	cr_sys_close(fd);
	return lines;
}

static int count_line(void *arg, char *line, size_t len)
{
	(void)arg;
	(void)line;
	(void)len;
	return 0;
}

struct printer {
	struct cr_out *o;
	const struct cr_mem *m;
	int has_fault, marked;
	uint64_t fault, prev_hi;
	struct cr_module mod;	/* the last module found (mod.hi 0: none) */
};

static void put_fault(struct printer *p, const char *where)
{
	cr_puts(p->o, "--->fault address ");
	cr_put0x(p->o, p->fault, 16);
	cr_puts(p->o, where);
	p->marked = 1;
}

static int print_line(void *arg, char *line, size_t len)
{
	struct printer *p = arg;
	struct cr_mapline l;

	if (cr_dump_parse_line(line, len, &l) < 0)
		return 0;
	if (p->has_fault && !p->marked && p->fault < l.lo)
		put_fault(p, p->prev_hi ? " falls between mappings\n" : " falls before the first mapping\n");
	if (p->has_fault && !p->marked && p->fault >= l.lo && p->fault < l.hi) {
		cr_puts(p->o, "--->");
		p->marked = 1;
	} else {
		cr_puts(p->o, "    ");
	}
	cr_putx(p->o, l.lo, 16);
	cr_putc(p->o, '-');
	cr_putx(p->o, l.hi, 16);
	cr_putc(p->o, ' ');
	cr_puts(p->o, l.perms);
	cr_putc(p->o, ' ');
	cr_putx(p->o, l.offset, 8);
	if (l.path[0]) {
		cr_puts(p->o, "  ");
		cr_puts(p->o, l.path);
	}
	/* A module's mappings: its build-id and load bias (the file's, not "[vdso]"'s name). */
	if (l.path[0] == '/' || l.path[0] == '[') {
		if (!(l.lo >= p->mod.lo && l.lo < p->mod.hi) &&
		    cr_module_find(p->m, l.lo, &p->mod) < 0)
			p->mod.lo = p->mod.hi = 0;
		if (l.lo >= p->mod.lo && l.lo < p->mod.hi) {
			if (p->mod.build_id_len) {
				cr_puts(p->o, " (BuildId: ");
				for (unsigned i = 0; i < p->mod.build_id_len; i++)
					cr_putx(p->o, p->mod.build_id[i], 2);
				cr_putc(p->o, ')');
			}
			cr_puts(p->o, " (load bias ");
			cr_put0x(p->o, p->mod.bias, 16);
			cr_putc(p->o, ')');
		}
	}
	cr_putc(p->o, '\n');
	p->prev_hi = l.hi;
	return 0;
}

void cr_dump_maps(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m)
{
	struct printer p = { .o = o, .m = m };
	int n = each_line(count_line, NULL);

	if (n < 0)
		return;
	if (c->si && cr_code_has_addr(c->sig, c->si->si_code)) {
		p.has_fault = 1;
		p.fault = (uintptr_t)c->si->si_addr;
	}
	cr_puts(o, "\nmemory map (");
	cr_putu(o, (uint64_t)n);
	cr_puts(o, n == 1 ? " entry):\n" : " entries):\n");
	each_line(print_line, &p);
	if (p.has_fault && !p.marked)
		put_fault(&p, " falls after the last mapping\n");
}
