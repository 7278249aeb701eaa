/* SPDX-License-Identifier: MIT */
/*
 * The report, modelled on Android tombstones.  Every line format here is
 * specified in docs/report-format.md; tests parse it.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "config.h"
#include "abortmsg.h"
#include "crash-int.h"
#include "debuginfo.h"
#include "demangle.h"
#include "dump.h"
#include "options.h"
#include "str.h"
#include "module.h"
#include "report.h"
#include "scratch.h"
#include "sigdesc.h"
#include "sym.h"
#include "sys.h"

/* Up to cap - 1 bytes of a /proc file into buf; the count (0: unreadable). */
static size_t read_proc(const char *path, char *buf, size_t cap)
{
	int fd = cr_sys_open(path, O_RDONLY | O_CLOEXEC, 0);
	size_t n = 0;

	if (fd < 0)
		return 0;
	for (int i = 0; i < 16 && n + 1 < cap; i++) {
		long r = cr_sys_read(fd, buf + n, cap - 1 - n);

		if (r == -EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	cr_sys_close(fd);
	buf[n] = 0;
	return n;
}

void cr_report_ids(struct cr_ids *d)
{
	char path[64] = "/proc/self/task/", num[24];
	size_t k = 16, n;

	/* A seccomp filter may refuse either call (handler.c): -1, printed "?". */
	d->pid = cr_sys_getpid();
	d->tid = cr_sys_gettid();
	/* The thread's name (the handler runs on the crashed thread): PR_GET_NAME
	   is a system call; its /proc file, the fallback, costs ~20 us here. */
	memset(d->name, 0, sizeof(d->name));
	if (cr_sys_prctl(PR_GET_NAME, (unsigned long)(uintptr_t)d->name) == 0 && d->name[0]) {
		d->name[16] = 0;
	} else {
		cr_fmt_u(num, sizeof(num), (uint64_t)d->tid);
		for (size_t i = 0; num[i]; i++)
			path[k++] = num[i];
		for (const char *s = "/comm"; *s; s++)
			path[k++] = *s;
		path[k] = 0;
		n = read_proc(path, d->name, sizeof(d->name));
		while (n > 0 && d->name[n - 1] == '\n')
			d->name[--n] = 0;
	}
	/* Read now (the file may have been renamed since start); the module
	   lines reuse it. */
	cr_exe_path(d->exe, sizeof(d->exe), 1);
}

static void put_ids(struct cr_out *o)
{
	struct cr_ids d;

	cr_report_ids(&d);
	cr_puts(o, "pid: ");
	if (d.pid > 0)
		cr_putu(o, (uint64_t)d.pid);
	else
		cr_putc(o, '?');
	cr_puts(o, ", tid: ");
	if (d.tid > 0)
		cr_putu(o, (uint64_t)d.tid);
	else
		cr_putc(o, '?');
	cr_puts(o, ", name: ");
	cr_puts(o, d.name[0] ? d.name : "?");
	cr_puts(o, "  >>> ");
	cr_puts(o, d.exe[0] ? d.exe : "?");
	cr_puts(o, " <<<\n");
}

/*
 * The process's age: now (CLOCK_BOOTTIME) minus its start, field 22 of
 * /proc/self/stat in clock ticks since boot (proc(5); USER_HZ is 100 on
 * every Linux arch of ours, the kernel's fixed unit for that field).
 * Milliseconds, or -1.
 */
static int64_t uptime_ms(void)
{
	char st[1024], *p = NULL;
	struct timespec now;
	uint64_t ticks = 0;
	size_t n = read_proc("/proc/self/stat", st, sizeof(st));

	/* The name (field 2) may hold spaces and parentheses: fields count
	   from its last ')'. */
	for (size_t i = 0; i < n; i++)
		if (st[i] == ')')
			p = st + i + 1;
	if (!p || cr_sys_clock_gettime(CLOCK_BOOTTIME, &now) < 0)
		return -1;
	for (int field = 2; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		ticks = ticks * 10 + (uint64_t)(*p - '0');
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 - (int64_t)ticks * 10;
}

void cr_report_proc(struct cr_proc *p, const struct cr_crash *c)
{
	struct timespec ts;

	p->uptime_ms = uptime_ms();
	p->uid = cr_sys_getuid();
	p->euid = cr_sys_geteuid();
	p->time[0] = 0;
	if (c->when)
		ts = *c->when;
	else if (cr_sys_clock_gettime(CLOCK_REALTIME, &ts) < 0)
		ts.tv_sec = -1;
	if (ts.tv_sec >= 0)
		cr_fmt_utc(p->time, sizeof(p->time), (uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec);
	p->cmdlen = read_proc("/proc/self/cmdline", p->cmdline, sizeof(p->cmdline));
	p->cmdcut = p->cmdlen == sizeof(p->cmdline) - 1;
	while (p->cmdlen && p->cmdline[p->cmdlen - 1] == 0)
		p->cmdlen--;
	p->have_uname = cr_sys_uname(&p->u) == 0;
	if (p->have_uname) {
		p->u.sysname[sizeof(p->u.sysname) - 1] = p->u.release[sizeof(p->u.release) - 1] = 0;
		p->u.machine[sizeof(p->u.machine) - 1] = 0;
	}
}

/*
 * When, for how long, what command, who, on what: "timestamp:",
 * "process uptime:", "cmdline:", "uid:", "kernel:" and "libcrash version:" lines
 * (docs/report-format.md).  Each from one system call or /proc file; what
 * cannot be read prints "?".
 */
static void put_process(struct cr_out *o, const struct cr_crash *c)
{
	struct cr_proc p;
	int64_t up;
	size_t n;

	cr_report_proc(&p, c);
	up = p.uptime_ms;
	cr_puts(o, "timestamp: ");
	cr_puts(o, p.time[0] ? p.time : "?");
	cr_puts(o, "\nprocess uptime: ");
	if (up >= 0) {
		cr_putu(o, (uint64_t)up / 1000);
		cr_putc(o, '.');
		cr_putc(o, (char)('0' + up / 100 % 10));
		cr_putc(o, (char)('0' + up / 10 % 10));
		cr_puts(o, " s");
	} else {
		cr_putc(o, '?');
	}
	/* The arguments, NUL-separated in /proc: spaces between them, other
	   control characters as '?', cut at 1 KiB with " ...". */
	cr_puts(o, "\ncmdline: ");
	n = p.cmdlen;
	for (size_t i = 0; i < n; i++)
		p.cmdline[i] = p.cmdline[i] == 0 ? ' '
			       : (unsigned char)p.cmdline[i] < 0x20 || p.cmdline[i] == 0x7f ? '?'
			       : p.cmdline[i];
	cr_putsn(o, n ? p.cmdline : "?", n ? n : 1);
	if (p.cmdcut)
		cr_puts(o, " ...");
	cr_puts(o, "\nuid: ");
	if (p.uid >= 0)
		cr_putu(o, (uint64_t)p.uid);
	else
		cr_putc(o, '?');
	if (p.euid >= 0 && p.euid != p.uid) {
		cr_puts(o, ", euid: ");
		cr_putu(o, (uint64_t)p.euid);
	}
	cr_puts(o, "\nkernel: ");
	if (p.have_uname) {
		cr_puts(o, p.u.sysname);
		cr_putc(o, ' ');
		cr_puts(o, p.u.release);
		cr_putc(o, ' ');
		cr_puts(o, p.u.machine);
	} else {
		cr_putc(o, '?');
	}
	cr_puts(o, "\nlibcrash version: " PACKAGE_VERSION "\n");
}

/* "11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x..." and what else si says. */
static void put_sigdesc(struct cr_out *o, int sig, const siginfo_t *si)
{
	const char *name = cr_signame(sig), *code;

	cr_putu(o, (uint64_t)sig);
	cr_puts(o, " (");
	cr_puts(o, name ? name : "SIG?");
	cr_puts(o, "), code ");
	cr_putd(o, si->si_code);
	code = cr_codename(sig, si->si_code);
	cr_puts(o, " (");
	cr_puts(o, code ? code : "?");
	cr_puts(o, ")");
	if (cr_code_has_sender(si->si_code)) {
		cr_puts(o, ", sender pid ");
		cr_putu(o, (uint64_t)si->si_pid);
		cr_puts(o, ", uid ");
		cr_putu(o, (uint64_t)si->si_uid);
	} else if (cr_code_has_addr(sig, si->si_code)) {
		cr_puts(o, ", fault addr ");
		cr_put0x(o, (uintptr_t)si->si_addr, 16);
	}
	if (sig == SIGSYS && si->si_code == 1) {	/* SYS_SECCOMP */
		cr_puts(o, ", syscall ");
		cr_putd(o, si->si_syscall);
		cr_puts(o, ", audit arch ");
		cr_put0x(o, si->si_arch, 8);
	}
}

static void put_signal(struct cr_out *o, const struct cr_crash *c)
{
	if (c->sig == 0) {
		cr_puts(o, "reason: crash_report_fd() called\n");
		return;
	}
	cr_puts(o, "signal ");
	if (!c->si) {
		/* handler.c foreign: another handler called ours; its arguments unproven. */
		const char *name = cr_signame(c->sig);

		cr_putu(o, (uint64_t)c->sig);
		cr_puts(o, " (");
		cr_puts(o, name ? name : "SIG?");
		cr_puts(o, "), handler called by other code, not by the kernel: no signal context\n");
		return;
	}
	put_sigdesc(o, c->sig, c->si);
	cr_puts(o, "\n");
}

/*
 * What the walk found about where the signal came from: the signal whose
 * handler raised this one (read from the kernel's signal frame the walk
 * crossed), and a stack overflow behind either.
 */
/* x86_64's page-fault error code (trapno 14), bits of the Intel SDM 4.7: or -1. */
static int64_t pf_err(const struct cr_crash *c)
{
	uint64_t trapno = ~0ull, err = ~0ull;

	for (unsigned i = 0; c->extra && i < c->extra->n; i++) {
		if (cr_strcmp(c->extra->name[i], "trapno") == 0)
			trapno = c->extra->val[i];
		else if (cr_strcmp(c->extra->name[i], "err") == 0)
			err = c->extra->val[i];
	}
	return trapno == 14 && err != ~0ull ? (int64_t)err : -1;
}
#define PF_WRITE 2	/* the access was a write */
#define PF_FETCH 16	/* an instruction fetch */

/*
 * The cause of a fault, from what the kernel said (signal, code, address),
 * the mapping that holds the address and, on x86_64, the page fault's error
 * code; pc: the faulting pc, if have_pc.  NULL when that does not tell:
 * no guess.  The reasoning, rule by rule, is in docs/report-format.md.
 */
static const char *fault_cause(const struct cr_crash *c, int sig, const siginfo_t *si,
			       int have_pc, uint64_t pc, int64_t err)
{
	uint64_t a = (uintptr_t)si->si_addr;
	const struct cr_map *map = c->maps ? cr_maps_find(c->maps, a) : NULL;
	/* An instruction fetch: the error code says so, or the fault is at the
	   pc (the kernel reports a fetch fault at the address fetched); maybe
	   one when the address is just past the pc (an instruction that spans
	   into the next page). */
	int fetch = err >= 0 ? (err & PF_FETCH) != 0 : have_pc && a == pc;
	int maybe_fetch = err >= 0 ? fetch : !have_pc || (a >= pc && a - pc < 16);

	if (sig == SIGBUS && si->si_code == BUS_ADRALN)
		return "misaligned memory access";
	if (sig == SIGBUS && si->si_code == BUS_ADRERR && map && (map->flags & CR_MAP_FILE))
		return "access past the end of a mapped file";
	if (sig != SIGSEGV || !c->maps)
		return NULL;
	if (fetch && si->si_code == SEGV_MAPERR)
		return a < 4096 ? "execution at a null address (a null function pointer or return "
				  "address)"
				: "execution at an unmapped address";
	if (fetch && si->si_code == SEGV_ACCERR && map && !(map->flags & CR_MAP_X))
		return "execution of non-executable memory";
	if (si->si_code == SEGV_MAPERR && a < 4096 && !maybe_fetch)
		return "null pointer dereference";
	if (si->si_code != SEGV_ACCERR || !map)
		return NULL;
	if (!(map->flags & (CR_MAP_R | CR_MAP_W | CR_MAP_X)))
		return "access to a page mapped without access (PROT_NONE)";
	/* A readable page refuses only a write or a fetch: not a fetch here,
	   so a write (x86_64's error code confirms it where it is given). */
	if ((map->flags & CR_MAP_R) && !(map->flags & CR_MAP_W) && !maybe_fetch &&
	    (err < 0 || (err & PF_WRITE)))
		return "write to read-only memory";
	return NULL;
}

/*
 * What the walk found about where the signal came from: the signal whose
 * handler raised this one (read from the kernel's signal frame the walk
 * crossed), and the cause: of that first signal when there is one (the
 * fault an application's handler turned into this signal), else of this.
 */
static void origin_find(const struct cr_crash *c, const struct cr_mem *m, const struct cr_walk *w,
			int have_sig_pc, uint64_t sig_pc, struct cr_origin *og)
{
	siginfo_t *si = &og->si;
	const char *cause = NULL;
	int overflow = 0;

	og->nested = 0;
	og->cause[0] = 0;
	if (c->si && c->maps && c->sig == SIGSEGV && cr_code_has_addr(c->sig, c->si->si_code))
		overflow = cr_maps_overflow(c->maps, (uintptr_t)c->si->si_addr,
					    c->regs->r[cr_host->sp]);
	if (w->sig_info && cr_read(m, w->sig_info, si, sizeof(*si)) == 0 && si->si_signo > 0 &&
	    si->si_signo <= 64) {
		og->nested = 1;
		og->line = w->sig_frame;
		if (!overflow && c->maps && si->si_signo == SIGSEGV &&
		    cr_code_has_addr(si->si_signo, si->si_code))
			overflow = cr_maps_overflow(c->maps, (uintptr_t)si->si_addr, w->sig_sp);
	}
	if (overflow) {
		cause = "stack overflow";
	} else if (og->nested) {
		/* The first signal's pc: its frame's, where the walk kept it (0:
		   not known, then only what needs no pc).  Its error code is in
		   its signal frame, not read here. */
		if (cr_code_has_addr(si->si_signo, si->si_code))
			cause = fault_cause(c, si->si_signo, si, have_sig_pc, sig_pc, -1);
	} else if (c->si && cr_code_has_addr(c->sig, c->si->si_code)) {
		cause = fault_cause(c, c->sig, c->si, c->exact, c->regs->pc, pf_err(c));
	} else if (c->si && cr_code_has_sender(c->si->si_code)) {
		long pid = cr_sys_getpid();

		/* A pid past the kernel's PID_MAX_LIMIT (2^22) is no sender's:
		   qemu-user 10 sends loongarch64's SIGILL with code 0 and junk. */
		if (c->si->si_pid <= 0 || c->si->si_pid > (1 << 22)) {
			cause = NULL;
		} else if (pid > 0 && c->si->si_pid == pid) {
			cause = "raised by the process itself (abort, raise, or kill of its own pid)";
		} else if (pid > 0) {
			struct cr_out o;

			cr_out_mem(&o, og->cause, sizeof(og->cause));
			cr_puts(&o, "sent by another process (pid ");
			cr_putu(&o, (uint64_t)c->si->si_pid);
			cr_puts(&o, ", uid ");
			cr_putu(&o, (uint64_t)c->si->si_uid);
			cr_puts(&o, ")");
			cr_out_drain(&o);
		}
	}
	if (cause) {
		size_t n = cr_strlen(cause);

		n = n < sizeof(og->cause) ? n : sizeof(og->cause) - 1;
		memcpy(og->cause, cause, n);
		og->cause[n] = 0;
	}
}

/* "raised in the handler of signal ..." and "cause: ..." lines. */
static void put_origin(struct cr_out *o, const struct cr_origin *og)
{
	if (og->nested) {
		cr_puts(o, "raised in the handler of signal ");
		put_sigdesc(o, og->si.si_signo, &og->si);
		cr_puts(o, " (frame #");
		if (og->line < 10)
			cr_putc(o, '0');
		cr_putu(o, og->line);
		cr_puts(o, ")\n");
	}
	if (og->cause[0]) {
		cr_puts(o, "cause: ");
		cr_puts(o, og->cause);
		cr_putc(o, '\n');
	}
}

/*
 * "abort message: '...'" (abortmsg.h): for a SIGABRT the process raised
 * itself (abort()), what glibc recorded or the C++ exception being handled.
 * Not inlined: its buffer is never on the stack with the walk's frames.
 */
size_t cr_report_abort(const struct cr_crash *c, const struct cr_mem *m, char *buf, size_t cap)
{
	if (c->sig != SIGABRT || !c->si || !cr_code_has_sender(c->si->si_code) ||
	    c->si->si_pid != cr_sys_getpid())
		return 0;
	return cr_abort_message(m, buf, cap);
}

static __attribute__((noinline)) void put_abort(struct cr_out *o, const struct cr_crash *c,
						const struct cr_mem *m)
{
	char buf[CR_REPORT_ABORT_MAX];

	if (!cr_report_abort(c, m, buf, sizeof(buf)))
		return;
	cr_puts(o, "abort message: '");
	cr_puts(o, buf);
	cr_puts(o, "'\n");
}

static void put_reg(struct cr_out *o, const char *name, int valid, uint64_t v, unsigned *col)
{
	cr_puts(o, *col == 0 ? "    " : "  ");
	cr_putpad(o, name, 3);
	cr_putc(o, ' ');
	if (valid)
		cr_putx(o, v, 16);
	else
		cr_puts(o, "----------------");
	if (++*col == 4) {
		cr_putc(o, '\n');
		*col = 0;
	}
}

void cr_report_regs(const struct cr_crash *c, cr_reg_fn *fn, void *arg)
{
	const struct cr_arch *a = cr_host;
	const struct cr_regs *r = c->regs;

	for (const uint8_t *p = a->dump_order; *p != 0xff; p++)
		if (a->regname[*p])
			fn(arg, a->regname[*p], cr_reg_valid(r, *p), r->r[*p]);
	if (a->ra_in_reg)	/* the pc is no DWARF column on these arches */
		fn(arg, "pc", 1, r->pc);
	for (unsigned i = 0; c->extra && i < c->extra->n; i++)
		fn(arg, c->extra->name[i], 1, c->extra->val[i]);
}

struct regcols {
	struct cr_out *o;
	unsigned col;
};

static void put_reg_fn(void *arg, const char *name, int valid, uint64_t v)
{
	struct regcols *rc = arg;

	put_reg(rc->o, name, valid, v, &rc->col);
}

void cr_report_regs_text(struct cr_out *o, const struct cr_crash *c)
{
	struct regcols rc = { o, 0 };

	cr_report_regs(c, put_reg_fn, &rc);
	if (rc.col)
		cr_putc(o, '\n');
}

static int batched_sym(const struct cr_symz *z, const struct cr_module *mod, uint64_t pc,
		       struct cr_sym *out);

static int find_sym(const struct cr_mem *m, const struct cr_module *mod, uint64_t pc,
		    struct cr_btlines *bl, const struct cr_sym **out)
{
	static struct cr_btlines none;

	if (!bl)
		bl = &none;	/* never read back: a scratch slot */
	if (bl != &none && bl->mod_lo == mod->lo && pc >= bl->sym.start &&
	    pc - bl->sym.start < bl->sym.size) {
		*out = &bl->sym;
		return 0;
	}
	bl->mod_lo = 0;
	if (bl->z) {	/* syms_batch's answer: cr_sym_find_in's */
		int r = batched_sym(bl->z, mod, pc, &bl->sym);

		if (r == -CR_ENOINFO)
			return r;
		if (r == 0) {
			bl->mod_lo = mod->lo;
			*out = &bl->sym;
			return 0;
		}
	}
	if (cr_sym_find_in(m, mod, pc, bl != &none ? &bl->files : NULL, &bl->sym) < 0)
		return -CR_ENOINFO;
	bl->mod_lo = mod->lo;
	*out = &bl->sym;
	return 0;
}

/* Is this the module's first frame?  Then it is recorded as seen. */
static int first_of(struct cr_btlines *bl, uint64_t lo)
{
	for (unsigned i = 0; i < bl->nseen; i++)
		if (bl->seen[i] == lo)
			return 0;
	if (bl->nseen < CR_ARRAY_SIZE(bl->seen))
		bl->seen[bl->nseen++] = lo;
	return 1;
}

/*
 * The symbolizer of one report: names whole and demangled, and the DWARF of
 * file:line and inlined frames (docs/report-format.md).  Static (~380 KiB of
 * .bss, touched only by a report): one report at a time holds it; a report
 * that finds it held prints names as the symbol tables have them.
 */
#define NAME_OUT 2048		/* a demangled name longer than this is elided in the middle */
#define CHAINS 256		/* pcs whose DWARF lookup is kept (recursion repeats pcs) */
#define POOL 2048		/* their frames */
#define SYMS 256		/* frames whose symbols syms_batch finds */
#define UNITS 128		/* units (and their spans) chain_at keeps */
#define SYM_BATCH 64		/* pcs of one cr_sym_find_many */

/* What the DWARF says about one pc. */
struct chain {
	uint64_t pc, mod_lo;		/* the lookup pc (absolute) and its module */
	const struct cr_dbgimage *im;	/* NULL: no DWARF unit for pc */
	struct cr_dwcu cu;		/* the unit that holds pc (im != NULL) */
	uint64_t bias;			/* the module's load bias */
	uint16_t first, n;		/* frames[first, first + n): innermost first,
					   the subprogram last; n 0: none */
	uint8_t row_state;		/* ROW_*: the line table's row for pc */
	struct cr_dwline_row row;	/* ROW_FOUND */
};
enum { ROW_UNKNOWN, ROW_FOUND, ROW_NONE };

struct cr_symz {
	int mode;			/* enum cr_symbols */
	struct cr_dbgset dbg;
	struct cr_demangle_ws ws;
	char raw[CR_DEMANGLE_MAXLEN + 1];	/* a name as the tables have it */
	char text[NAME_OUT];		/* demangled */
	char path[1024];		/* a source file */
	char comp_dir[512];
	struct chain cache[CHAINS], tmp;
	unsigned ncache, npool;
	struct cr_dwframe pool[POOL];
	struct cr_dwframe tmpf[CR_DWINFO_MAX_FRAMES];	/* tmp's */
	struct cr_dwabbrevs ab;		/* the last unit's abbreviations, decoded */
	struct cr_dwwalks walks;	/* the units' first walks (sub: an anonymous mapping) */
	/* rows_batch's: the pcs of one unit and their rows */
	struct chain *bat[64];
	uint64_t bpcs[64];
	struct cr_dwline_row brows[64];
	uint8_t bfound[64];
	/* chain_at's: the units found so far (an aranges span gives a unit for
	   every pc in it), and their headers and first DIEs */
	struct {
		const struct cr_dbgimage *im;
		uint64_t lo, hi, off;
	} spans[UNITS];
	struct {
		const struct cr_dbgimage *im;
		struct cr_dwcu cu;
	} units[UNITS];
	unsigned nspans, nunits;
	/* spans_batch's: one module's pcs and their units from .debug_aranges */
	uint64_t upc[CR_DWINFO_MANY], uoff[CR_DWINFO_MANY];
	uint8_t ufound[CR_DWINFO_MANY];
	/* syms_batch's: the symbols of a backtrace's frames, found a module at a
	   time (one pass over each table), for find_sym */
	unsigned nsyms, nmods;
	uint64_t spc[SYMS], smod[SYMS];
	uint8_t sok[SYMS], sfm[SYMS];
	struct cr_sym ssym[SYMS];
	struct cr_module mods[CR_SYMFILES];
	struct cr_symbest swork[3 * SYM_BATCH];
	/* chains_by_unit's order of the lookups (not on the handler's stack) */
	uint64_t ukey[SYMS];
	uint16_t uord[SYMS];
};
static struct cr_symz symz_store;
/* The units' records, then the window of a long unit's walk (info.h). */
#define WALKS_ROOM (CR_DWWALK_SUBS * sizeof(struct cr_dwwalk_sub) + CR_DWWALK_WIN)
_Static_assert(CR_DWWALK_SUBS * sizeof(struct cr_dwwalk_sub) % (64u << 10) == 0,
	       "the window starts on a page, whatever the page size (cr_mem_populate_write)");

/* syms_batch's symbol for pc: 0 and *out, -CR_ENOINFO (none), 1: not in the batch. */
static int batched_sym(const struct cr_symz *z, const struct cr_module *mod, uint64_t pc,
		       struct cr_sym *out)
{
	for (unsigned i = 0; i < z->nsyms; i++) {
		if (z->spc[i] != pc || z->smod[i] != mod->lo)
			continue;
		if (!z->sok[i])
			return -CR_ENOINFO;
		*out = z->ssym[i];
		return 0;
	}
	return 1;
}
static struct cr_scratch symz_scratch = { &symz_store, sizeof(symz_store), 0 };

/* For the .symtab reader: the module's separate debug file (the image's, if it has one). */
static int symz_debug_file(void *arg, const struct cr_module *mod, char *path, size_t cap)
{
	struct cr_symz *z = arg;
	const struct cr_dbgimage *im;
	size_t n;

	if (z->mode == CR_SYMBOLS_FULL) {
		im = cr_dbg_image(&z->dbg, mod);
		if (!im || cr_strcmp(im->path, mod->path) == 0)
			return -1;	/* none, or the module's own file: the reader's fallback */
		n = cr_strlen(im->path);
		if (n >= cap)
			return -1;
		memcpy(path, im->path, n + 1);
		return 0;
	}
	return cr_dbg_find_file(mod, path, cap);
}

static struct cr_symz *symz_get(struct cr_symfiles *files)
{
	size_t size;
	struct cr_symz *z = cr_scratch_get(&symz_scratch, NULL, 0, &size);

	if (!z)
		return NULL;
	z->mode = cr_cfg.symbols;
	z->ncache = z->npool = 0;
	z->ab.mem = NULL;	/* a new report maps files anew */
	z->walks.sub = NULL;
	z->walks.win = NULL;
	z->walks.win_fresh = 0;
	z->walks.wmem = NULL;
	z->walks.used = z->walks.nunits = 0;
	z->nsyms = 0;
	z->nspans = z->nunits = 0;	/* a new report maps files anew */
	cr_dbgset_init(&z->dbg);
	files->debug_file = symz_debug_file;
	files->debug_arg = z;
	return z;
}

static void symz_put(struct cr_symz *z)
{
	if (!z)
		return;
	cr_dbgset_close(&z->dbg);
	if (z->walks.sub)
		cr_sys_munmap(z->walks.sub, WALKS_ROOM);
	cr_scratch_put(&symz_scratch, z);
}

void cr_report_sym_begin(struct cr_repsym *s)
{
	cr_symfiles_init(&s->files);
	s->z = symz_get(&s->files);
}

void cr_report_sym_pause(struct cr_repsym *s)
{
	if (s)
		cr_report_sym_end(s);
}

void cr_report_sym_resume(struct cr_repsym *s)
{
	if (s && !s->z)
		cr_report_sym_begin(s);
}

void cr_report_sym_end(struct cr_repsym *s)
{
	if (!s->z)
		return;
	cr_symfiles_close(&s->files);
	symz_put(s->z);
	s->z = NULL;
}

static const struct cr_dwframe *chain_frames(const struct cr_symz *z, const struct chain *c)
{
	return c == &z->tmp ? z->tmpf : &z->pool[c->first];
}

/*
 * The unit that holds a (module-relative) in im, and its first DIE: what
 * cr_dwinfo_find_cu and cr_dwinfo_unit give, from what earlier frames found
 * (the same answers: a span is where find_cu answers the same).
 */
/* The unit of a kept span that holds a (module-relative, in im): 0 and *off, or -1. */
static int span_of(const struct cr_symz *z, const struct cr_dbgimage *im, uint64_t a,
		   uint64_t *off)
{
	for (unsigned i = 0; i < z->nspans; i++)
		if (z->spans[i].im == im && a >= z->spans[i].lo && a < z->spans[i].hi) {
			*off = z->spans[i].off;
			return 0;
		}
	return -1;
}

static int unit_at(struct cr_symz *z, const struct cr_dbgimage *im, uint64_t a,
		   struct cr_dwcu *cu)
{
	uint64_t off, lo, hi;
	unsigned i;
	int ret;

	if (span_of(z, im, a, &off) < 0) {
		ret = cr_dwinfo_find_cu_span(&im->src, a, &off, &lo, &hi);
		if (ret < 0)
			return ret;
		if (z->nspans < UNITS) {
			z->spans[z->nspans].im = im;
			z->spans[z->nspans].lo = lo;
			z->spans[z->nspans].hi = hi;
			z->spans[z->nspans++].off = off;
		}
	}
	for (i = 0; i < z->nunits; i++)
		if (z->units[i].im == im && z->units[i].cu.off == off) {
			*cu = z->units[i].cu;
			return 0;
		}
	if ((ret = cr_dwinfo_unit_ab(&im->src, off, cu, &z->ab)) < 0)
		return ret;
	if (z->nunits < UNITS) {
		z->units[z->nunits].im = im;
		z->units[z->nunits++].cu = *cu;
	}
	return 0;
}

/*
 * Is a (module-relative, in im's unit at off) the only pc spans_batch found
 * in that unit, in this backtrace and the ones before it in the report, with
 * no aranges span of another lookup there and room left in the chain cache
 * (a pc looked up again is not walked again)?  Then no other lookup will
 * resume a walk in that unit, and recording the walk (cr_dwwalks) would
 * write pages for nothing: in a program of many small units most units hold
 * one frame (bench/symbols.sh, 150 units a module: 66 pages of records,
 * -0.24 ms without them).  A guess that proves wrong (another thread's
 * backtrace, later in the report, in the same unit) costs that lookup a
 * walk from the unit's start instead of one resumed: the same frames.
 */
static int lone_pc(const struct cr_symz *z, const struct cr_dbgimage *im, uint64_t off,
		   uint64_t a)
{
	unsigned n = 0;

	if (z->ncache >= CHAINS)
		return 0;
	for (unsigned i = 0; i < z->nspans; i++)
		if (z->spans[i].im == im && z->spans[i].off == off &&
		    (z->spans[i].hi - z->spans[i].lo != 1 || z->spans[i].lo != a || n++))
			return 0;
	return n == 1;
}

/* The DWARF at pc (absolute, in mod): kept for the next lookup of the same pc. */
static const struct chain *chain_at(struct cr_symz *z, const struct cr_module *mod, uint64_t pc)
{
	struct chain *c = &z->tmp;
	uint64_t a = pc - mod->bias;
	unsigned n = 0;
	int lone;

	for (unsigned i = 0; i < z->ncache; i++)
		if (z->cache[i].pc == pc && z->cache[i].mod_lo == mod->lo)
			return &z->cache[i];
	c->pc = pc;
	c->mod_lo = mod->lo;
	c->bias = mod->bias;
	c->row_state = ROW_UNKNOWN;
	c->n = 0;
	c->im = z->mode == CR_SYMBOLS_FULL ? cr_dbg_image(&z->dbg, mod) : NULL;
	if (c->im && unit_at(z, c->im, a, &c->cu) < 0)
		c->im = NULL;
	lone = c->im && lone_pc(z, c->im, c->cu.off, a);
	if (c->im && !lone && !z->walks.sub && z->walks.nunits == 0) {
		/* Room for the units' records and the long units' window (only
		   the pages written are touched). */
		long p = cr_sys_mmap_sparse(WALKS_ROOM);

		z->walks.sub = cr_sys_failed(p) ? NULL : (struct cr_dwwalk_sub *)p;
		z->walks.win = z->walks.sub ? (uint8_t *)(z->walks.sub + CR_DWWALK_SUBS) : NULL;
		z->walks.win_fresh = 1;	/* 1 MiB into the room: page-aligned */
		z->walks.wmem = NULL;
		z->walks.nunits = z->walks.sub ? 0 : CR_DWWALK_UNITS;	/* failed: not again */
	}
	if (c->im && cr_dwinfo_inlines_wk(&c->im->src, &c->cu, a, z->tmpf, CR_DWINFO_MAX_FRAMES,
					  &n, &z->ab, lone ? NULL : &z->walks) < 0)
		n = 0;
	c->n = (uint16_t)n;
	if (z->ncache < CHAINS && n <= POOL - z->npool) {
		struct chain *k = &z->cache[z->ncache++];

		*k = *c;
		k->first = (uint16_t)z->npool;
		memcpy(&z->pool[z->npool], z->tmpf, n * sizeof(z->tmpf[0]));
		z->npool += n;
		return k;
	}
	return c;
}

/* The frames inlined at a frame's pc: the lines before its own. */
static unsigned inline_count(struct cr_symz *z, const struct cr_module *mod, uint64_t pc)
{
	const struct chain *c = chain_at(z, mod, pc);

	return c->n > 1 ? c->n - 1u : 0;
}

/*
 * The line table rows of every pc looked up so far, one run of each unit's
 * line program for all its pcs (a backtrace's frames fall in few units;
 * a run per frame would repeat most of the program).
 */
#define BATCH CR_ARRAY_SIZE(((struct cr_symz *)0)->bpcs)
static void rows_batch(struct cr_symz *z)
{
	for (unsigned i = 0; i < z->ncache; i++) {
		struct chain *a = &z->cache[i];
		unsigned n = 0;

		if (a->row_state != ROW_UNKNOWN || !a->im || !(a->cu.has & CR_DWCU_STMT_LIST))
			continue;
		for (unsigned j = i; j < z->ncache && n < BATCH; j++) {
			struct chain *b = &z->cache[j];

			if (b->row_state == ROW_UNKNOWN && b->im == a->im &&
			    (b->cu.has & CR_DWCU_STMT_LIST) && b->cu.stmt_list == a->cu.stmt_list) {
				z->bat[n] = b;
				z->bpcs[n++] = b->pc - b->bias;
			}
		}
		/* A long program through the long units' window (its bytes are
		   then no longer the window's: walk_window reads it again). */
		if (cr_dwline_find_many_win(&a->im->line, a->cu.stmt_list, z->bpcs, n, z->brows,
					    z->bfound, z->walks.win, CR_DWWALK_WIN,
					    &z->walks.win_fresh) < 0)
			memset(z->bfound, 0, n);
		z->walks.wmem = NULL;
		for (unsigned k = 0; k < n; k++) {
			z->bat[k]->row_state = z->bfound[k] ? ROW_FOUND : ROW_NONE;
			if (z->bfound[k])
				z->bat[k]->row = z->brows[k];
		}
	}
}

/* A name as the symbol tables or DWARF have it, demangled unless CRASH_SYMBOLS=mangled. */
static const char *demangled(struct cr_symz *z, const char *name)
{
	if (z->mode != CR_SYMBOLS_MANGLED && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R') &&
	    cr_demangle_ws(&z->ws, name, z->text, sizeof(z->text)) >= 0)
		return z->text;
	return name;
}

/* FILE of " at FILE:LINE" for file number file of c's unit (row: the line table's row, file
   set), or NULL when the line says nothing. */
static const char *at_file(struct cr_symz *z, const struct chain *c, int row, uint64_t file,
			   uint64_t line)
{
	const char *dir = cr_dwinfo_str(&c->cu.comp_dir, z->comp_dir, sizeof(z->comp_dir)) == 0
				  ? z->comp_dir
				  : NULL;

	if (!line || !(c->cu.has & CR_DWCU_STMT_LIST))
		return NULL;
	if (!row && cr_dwline_file(&c->im->line, c->cu.stmt_list, file, dir, z->path,
				   sizeof(z->path)) < 0)
		return NULL;
	return z->path[0] ? z->path : NULL;
}

static void put_build_id(struct cr_out *o, const struct cr_module *mod)
{
	if (mod->build_id_len) {
		cr_puts(o, " (BuildId: ");
		for (unsigned i = 0; i < mod->build_id_len; i++)
			cr_putx(o, mod->build_id[i], 2);
		cr_putc(o, ')');
	}
}

/* One frame line of the text report (docs/report-format.md, "One line per frame"). */
static void put_fline(void *arg, const struct cr_fline *l)
{
	struct cr_out *o = arg;

	cr_puts(o, "      #");
	if (l->idx < 10)
		cr_putc(o, '0');
	cr_putu(o, l->idx);
	cr_puts(o, " pc ");
	if (l->noexec || !l->mod) {
		cr_putx(o, l->pc, 16);
		cr_puts(o, l->noexec ? "  <not in any executable mapping>" : "  <unknown>");
	} else {
		cr_putx(o, l->pc - l->mod->bias, 16);
		cr_puts(o, "  ");
		cr_puts(o, l->mod->path[0] ? l->mod->path : "<anonymous>");
		if (l->name) {
			cr_puts(o, " (");
			cr_puts(o, l->name);
			if (l->has_off) {
				cr_putc(o, '+');
				cr_putu(o, l->off);
			}
			cr_putc(o, ')');
		}
		if (l->first_of_module)
			put_build_id(o, l->mod);
	}
	cr_puts(o, " [");
	cr_puts(o, l->is_inline ? "inline" : cr_tag_name(l->tag));
	cr_putc(o, ']');
	if (l->file) {
		cr_puts(o, " at ");
		cr_puts(o, l->file);
		cr_putc(o, ':');
		cr_putu(o, l->line);
	}
	cr_putc(o, '\n');
}

unsigned cr_report_frame_lines(const struct cr_mem *m, unsigned idx, const struct cr_frame *f,
			       struct cr_btlines *bl, cr_fline_fn *fn, void *arg)
{
	/* Callers print the return address - 1: inside the call instruction. */
	uint64_t pc = (f->flags & CR_FRAME_EXACT) ? f->pc : f->pc - 1;
	struct cr_btlines local;
	const struct cr_sym *sym;
	const struct chain *c = NULL;
	const struct cr_dwframe *fr = NULL;
	struct cr_dwline_row row;
	struct cr_module mod;
	struct cr_symz *z;
	struct cr_fline l = { .idx = idx, .pc = pc, .tag = f->tag };
	unsigned lines = 1, k = 0;
	int have_row = 0;

	if (!bl) {
		local.find_module = NULL;
		local.mod_lo = 0;
		local.nseen = 0;
		local.z = NULL;
		cr_symfiles_init(&local.files);
		bl = &local;
	}
	z = bl->z;
	if (f->flags & CR_FRAME_NOEXEC) {
		l.pc = f->pc;
		l.noexec = 1;
		goto own;
	}
	if ((bl->find_module ? bl->find_module : cr_module_find)(m, pc, &mod) < 0)
		goto own;
	if (z) {
		c = chain_at(z, &mod, pc);
		fr = chain_frames(z, c);
		if (c->im && (c->cu.has & CR_DWCU_STMT_LIST) && c->row_state != ROW_NONE) {
			const char *dir =
				cr_dwinfo_str(&c->cu.comp_dir, z->comp_dir, sizeof(z->comp_dir)) == 0
					? z->comp_dir
					: NULL;

			if (c->row_state == ROW_FOUND) {	/* rows_batch's: its file's path */
				row = c->row;
				have_row = cr_dwline_file(&c->im->line, c->cu.stmt_list, row.file, dir,
							  z->path, sizeof(z->path)) == 0;
			} else {
				have_row = cr_dwline_find(&c->im->line, c->cu.stmt_list,
							  pc - mod.bias, dir, &row, z->path,
							  sizeof(z->path)) == 0;
			}
		}
		lines = c->n > 1 ? c->n : 1;
	}
	l.mod = &mod;
	/* The inlined frames, innermost first: the DWARF's names, at the line
	   table's row, then each at the call site of the one before. */
	for (k = 0; k + 1 < lines; k++) {
		l.idx = idx + k;
		l.name = l.raw = NULL;
		l.has_off = 0;
		if (cr_dwinfo_str(&fr[k].name, z->raw, sizeof(z->raw)) == 0 && z->raw[0]) {
			l.raw = z->raw;
			l.name = demangled(z, z->raw);
			if (pc - mod.bias >= fr[k].low) {
				l.has_off = 1;
				l.off = pc - mod.bias - fr[k].low;
				l.sym_start = fr[k].low + mod.bias;
			}
		}
		l.first_of_module = first_of(bl, mod.lo);
		l.is_inline = 1;
		l.file = NULL;
		if (k == 0 && have_row)
			l.file = at_file(z, c, 1, row.file, l.line = row.line);
		else if (k > 0)
			l.file = at_file(z, c, 0, fr[k - 1].call_file, l.line = fr[k - 1].call_line);
		fn(arg, &l);
	}
	l.idx = idx + k;
	l.name = l.raw = NULL;
	l.has_off = 0;
	if (find_sym(m, &mod, pc, bl, &sym) == 0) {
		if (z) {
			cr_sym_name(m, sym, z->raw, sizeof(z->raw));
			l.raw = z->raw;
			l.name = demangled(z, z->raw);
		} else {
			l.raw = l.name = sym->name;
		}
		l.has_off = 1;
		l.off = pc - sym->start;
		l.sym_start = sym->start;
	}
	l.first_of_module = first_of(bl, mod.lo);
own:
	l.is_inline = 0;
	l.file = NULL;
	if (c && c->im) {
		if (k == 0 && have_row)
			l.file = at_file(z, c, 1, row.file, l.line = row.line);
		else if (k > 0)
			l.file = at_file(z, c, 0, fr[k - 1].call_file, l.line = fr[k - 1].call_line);
	}
	fn(arg, &l);
	if (bl == &local)
		cr_symfiles_close(&local.files);
	return lines;
}

unsigned cr_report_frame(struct cr_out *o, const struct cr_mem *m, unsigned idx,
			 const struct cr_frame *f, struct cr_btlines *bl)
{
	return cr_report_frame_lines(m, idx, f, bl, put_fline, o);
}

/* How many lines a frame takes: 1, and the frames inlined at its pc. */
static unsigned frame_lines(const struct cr_mem *m, const struct cr_frame *f, struct cr_btlines *bl)
{
	uint64_t pc = (f->flags & CR_FRAME_EXACT) ? f->pc : f->pc - 1;
	struct cr_module mod;

	if (!bl->z || (f->flags & CR_FRAME_NOEXEC) ||
	    (bl->find_module ? bl->find_module : cr_module_find)(m, pc, &mod) < 0)
		return 1;
	return 1 + inline_count(bl->z, &mod, pc);
}

static const char *const stop_text[] = {
	[CR_STOP_COMPLETE] = "complete",
	[CR_STOP_NOINFO] = "truncated: no unwind info for pc ",
	[CR_STOP_BADMEM] = "truncated: invalid memory at ",
	[CR_STOP_MAXFRAMES] = "truncated: frame limit",
	[CR_STOP_SP_BACKWARDS] = "truncated: stack pointer went backwards at ",
	[CR_STOP_LOOP] = "truncated: loop at ",
	[CR_STOP_BADPC] = "truncated: bad return address ",
	[CR_STOP_BADSP] = "truncated: stack pointer left the stack at ",
	[CR_STOP_NOSTART] = "truncated: no function start for pc ",
};

/*
 * Pass 1 counts the lines (and finds the line of the frame a signal
 * interrupted), pass 2 gives each frame's lines as the walk finds it (when
 * the frame buffer is held by another walk); build-id once per module.
 */
static void count_sink(struct cr_trace *t, const struct cr_frame *f)
{
	struct cr_bt *b = t->arg;

	b->lines += frame_lines(b->m, f, &b->bl);
	if (t->n == b->sig_frame)
		b->sig_line = b->lines - 1;	/* the frame's own line, after its inlines */
}

static void print_sink(struct cr_trace *t, const struct cr_frame *f)
{
	struct cr_bt *b = t->arg;

	b->lines += cr_report_frame_lines(b->m, b->lines, f, &b->bl, b->fn, b->arg);
}

static unsigned walk(struct cr_bt *b)
{
	cr_walk_live(&b->w, b->c->maps, b->c->regs->r[cr_host->sp], b->c->exact);
	b->w.mem = b->m;
	return cr_unwind(&b->w, b->c->regs, b->p, &b->t);
}

/* One walk into here when it is free (the crash owner always finds it free). */
static struct cr_frame frame_buf[1024];
static struct cr_scratch frames = CR_SCRATCH(frame_buf);

void cr_report_head(struct cr_out *o, const struct cr_policy *p, const struct cr_trace *t)
{
	cr_puts(o, "backtrace: ");
	cr_putu(o, t->n);
	cr_puts(o, t->n == 1 ? " frame, engine " : " frames, engine ");
	cr_puts(o, p->name);
	cr_puts(o, ", ");
	cr_puts(o, t->stop < CR_ARRAY_SIZE(stop_text) ? stop_text[t->stop] : "?");
	if (t->stop == CR_STOP_COMPLETE && t->unconfirmed)
		cr_puts(o, " (unconfirmed scan frames)");	/* docs/scan.md */
	if (t->stop != CR_STOP_COMPLETE && t->stop != CR_STOP_MAXFRAMES)
		cr_put0x(o, t->stop_addr, 16);
	cr_putc(o, '\n');
}

/*
 * The symbols of every frame of a walk, a module at a time: its pcs sorted,
 * one cr_sym_find_many (one pass over its .dynsym, and over its .symtab for
 * the pcs that need it) instead of a lookup per frame.  Only when the
 * frames' modules fit in the symbol files kept open (CR_SYMFILES): a name
 * read from a file later must find its file still open (their slots are
 * held until the next backtrace's batch).  Otherwise, and for frames past
 * SYMS, find_sym looks each up.
 */
static void syms_batch(struct cr_bt *b)
{
	struct cr_symz *z = b->bl.z;
	struct cr_module mod;
	unsigned n = 0;

	z->nsyms = z->nmods = 0;
	cr_symfiles_release(&b->bl.files);	/* the last backtrace's are printed */
	for (unsigned i = 0; i < b->t.n && n < SYMS; i++) {
		const struct cr_frame *f = &b->t.f[i];
		uint64_t pc = (f->flags & CR_FRAME_EXACT) ? f->pc : f->pc - 1;
		unsigned k;

		if ((f->flags & CR_FRAME_NOEXEC) ||
		    (b->bl.find_module ? b->bl.find_module : cr_module_find)(b->m, pc, &mod) < 0)
			continue;
		for (k = 0; k < z->nmods; k++)
			if (z->mods[k].lo == mod.lo && z->mods[k].bias == mod.bias)
				break;
		if (k == z->nmods) {
			if (k == CR_SYMFILES)
				return;	/* too many modules: a lookup per frame */
			z->mods[z->nmods++] = mod;
		}
		z->spc[n] = pc;
		z->sfm[n++] = (uint8_t)k;
	}
	/* Each module's pcs, sorted, in batches of SYM_BATCH; spc/smod/ssym
	   end up grouped by module (insertion sort: a few hundred at most). */
	for (unsigned i = 1; i < n; i++) {
		uint64_t pc = z->spc[i];
		uint8_t k = z->sfm[i];
		unsigned j = i;

		for (; j > 0 && (z->sfm[j - 1] > k || (z->sfm[j - 1] == k && z->spc[j - 1] > pc)); j--) {
			z->spc[j] = z->spc[j - 1];
			z->sfm[j] = z->sfm[j - 1];
		}
		z->spc[j] = pc;
		z->sfm[j] = k;
	}
	for (unsigned i = 0; i < n;) {
		unsigned k = z->sfm[i], m = 0;

		while (i + m < n && m < SYM_BATCH && z->sfm[i + m] == k)
			m++;
		cr_sym_find_many(b->m, &z->mods[k], &z->spc[i], m, &b->bl.files, z->swork, &z->ssym[i],
				 &z->sok[i]);
		for (unsigned j = i; j < i + m; j++)
			z->smod[j] = z->mods[k].lo;
		i += m;
	}
	z->nsyms = n;
}

/*
 * The units of syms_batch's pcs, a module's at a time: one pass over its
 * .debug_aranges for all its frames (a search per frame reads half the
 * section on average), each pc's unit a span of that pc alone in the
 * spans unit_at looks in first.  The pcs no tuple holds are left to
 * unit_at, and so are modules with fewer than three frames (the passes
 * would read about as much; libc's compressed section would be inflated
 * whole).
 */
static void spans_batch(struct cr_symz *z)
{
	for (unsigned i = 0; i < z->nsyms;) {
		unsigned k = z->sfm[i], n = 0, j = i;
		const struct cr_dbgimage *im;
		int found;

		for (; j < z->nsyms && z->sfm[j] == k; j++)
			if (n < CR_DWINFO_MANY && (n == 0 || z->spc[j] - z->mods[k].bias != z->upc[n - 1]))
				z->upc[n++] = z->spc[j] - z->mods[k].bias;
		i = j;
		if (n < 3 || !(im = cr_dbg_image(&z->dbg, &z->mods[k])))
			continue;
		found = cr_dwinfo_find_cu_many(&im->src, z->upc, n, z->uoff, z->ufound);
		for (unsigned q = 0; q < n && found > 0 && z->nspans < UNITS; q++) {
			if (!z->ufound[q])
				continue;
			z->spans[z->nspans].im = im;
			z->spans[z->nspans].lo = z->upc[q];
			z->spans[z->nspans].hi = z->upc[q] + 1;
			z->spans[z->nspans++].off = z->uoff[q];
		}
	}
}

/*
 * The DWARF lookups of the frames syms_batch found (z->spc: grouped by
 * module, by pc in each), a unit at a time: ordered by module, then by the
 * unit spans_batch found (by pc within it), before the frames' own order asks
 * for them (chain_at keeps them).  In the frames' order a backtrace goes from
 * module to module, and each lookup in a unit seen before decoded that unit's
 * abbreviation table again (z->ab holds one: bench/symbols.sh's unity build,
 * 64 frames in 26 units, 62 tables decoded, 26 now), and a unit's lookups
 * came in whatever order the stack had them.  Lookups whose unit is
 * not known yet keep the frames' order; none is made past the chain cache's
 * room.
 */
static void chains_by_unit(struct cr_symz *z)
{
	uint64_t *key = z->ukey;
	uint16_t *ord = z->uord;
	unsigned n = 0, room = CHAINS - z->ncache;

	for (unsigned i = 0; i < z->nsyms && n < room; i++) {
		const struct cr_module *mod = &z->mods[z->sfm[i]];
		const struct cr_dbgimage *im = cr_dbg_image(&z->dbg, mod);

		if (!im || span_of(z, im, z->spc[i] - mod->bias, &key[n]) < 0)
			continue;
		ord[n++] = (uint16_t)i;
	}
	/* By module (z->spc's order), unit, then pc from the highest: the
	   unit's first walk, the one recorded (cr_dwwalks), then goes
	   furthest, and the unit's other lookups are answered from its
	   records (from the lowest, each would go on from where the first
	   stopped, past what the one before it read).  Insertion sort of at
	   most SYMS. */
	for (unsigned i = 1; i < n; i++) {
		uint64_t k = key[i];
		uint16_t o = ord[i];
		unsigned j = i;

		for (; j > 0 && (z->sfm[ord[j - 1]] > z->sfm[o] ||
				 (z->sfm[ord[j - 1]] == z->sfm[o] &&
				  (key[j - 1] > k ||
				   (key[j - 1] == k && z->spc[ord[j - 1]] < z->spc[o]))));
		     j--) {
			key[j] = key[j - 1];
			ord[j] = ord[j - 1];
		}
		key[j] = k;
		ord[j] = o;
	}
	for (unsigned i = 0; i < n && z->ncache < CHAINS; i++)
		chain_at(z, &z->mods[z->sfm[ord[i]]], z->spc[ord[i]]);
}

void cr_bt_prepare(struct cr_bt *b, const struct cr_crash *c, const struct cr_mem *m,
		   const struct cr_policy *p)
{
	size_t size = 0;

	b->c = c;
	b->m = m;
	b->p = p;
	b->t = (struct cr_trace){ .f = NULL, .sink = NULL, .arg = b, .max = c->max_frames };
	b->lines = 0;
	b->sig_frame = b->sig_line = ~0u;
	b->bl.find_module = NULL;
	b->bl.mod_lo = 0;
	b->bl.nseen = 0;
	if (c->sym && c->sym->z) {
		cr_symfiles_move(&b->bl.files, &c->sym->files);	/* given back by cr_bt_done */
		b->bl.z = c->sym->z;
	} else {
		cr_symfiles_init(&b->bl.files);
		b->bl.z = symz_get(&b->bl.files);
	}
	/* The header comes first: walk once into the buffer, or, when another
	   thread holds it, count in a first pass and print in a second.  The
	   count includes the inlined frames' lines (their DWARF lookups are
	   kept for the printing pass). */
	if (b->t.max <= CR_ARRAY_SIZE(frame_buf))
		b->t.f = cr_scratch_get(&frames, NULL, 0, &size);
	if (b->t.f) {
		walk(b);
		if (b->bl.z) {
			syms_batch(b);
			if (b->bl.z->mode == CR_SYMBOLS_FULL) {
				spans_batch(b->bl.z);
				chains_by_unit(b->bl.z);
			}
		}
		b->sig_frame = b->w.sig_info ? b->w.sig_frame : ~0u;
		for (unsigned i = 0; i < b->t.n; i++) {
			b->lines += frame_lines(m, &b->t.f[i], &b->bl);
			if (i == b->sig_frame)
				b->sig_line = b->lines - 1;
		}
	} else {
		/* The sig_frame of a walk is known only at its end: a first walk
		   finds it, the counting walk its line. */
		b->t.sink = count_sink;
		walk(b);
		b->sig_frame = b->w.sig_info ? b->w.sig_frame : ~0u;
		b->lines = 0;
		walk(b);
	}
	b->have_sig_pc = b->t.f && b->w.sig_info && b->w.sig_frame < b->t.n;
	b->sig_pc = b->have_sig_pc ? b->t.f[b->w.sig_frame].pc : 0;
	if (b->bl.z)
		rows_batch(b->bl.z);
	if (b->w.sig_info)
		b->w.sig_frame = b->sig_line;
}

void cr_bt_origin(const struct cr_bt *b, struct cr_origin *out)
{
	origin_find(b->c, b->m, &b->w, b->have_sig_pc, b->sig_pc, out);
}

void cr_bt_head(const struct cr_bt *b, struct cr_trace *head)
{
	*head = b->t;
	head->n = b->lines;
}

void cr_bt_lines(struct cr_bt *b, cr_fline_fn *fn, void *arg)
{
	unsigned lines = 0;

	b->bl.nseen = 0;
	if (b->t.f) {
		for (unsigned i = 0; i < b->t.n; i++)
			lines += cr_report_frame_lines(b->m, lines, &b->t.f[i], &b->bl, fn, arg);
		cr_scratch_put(&frames, b->t.f);
		b->t.f = NULL;
	} else {
		b->lines = 0;
		b->fn = fn;
		b->arg = arg;
		b->t.sink = print_sink;
		walk(b);
	}
}

void cr_bt_done(struct cr_bt *b)
{
	if (b->t.f)
		cr_scratch_put(&frames, b->t.f);
	b->t.f = NULL;
	if (b->c->sym && b->c->sym->z && b->bl.z == b->c->sym->z) {
		/* what this walk opened, for the next */
		cr_symfiles_move(&b->c->sym->files, &b->bl.files);
	} else {
		cr_symfiles_close(&b->bl.files);
		symz_put(b->bl.z);
	}
	b->bl.z = NULL;
}

void cr_report_backtrace(struct cr_out *o, const struct cr_crash *c, const struct cr_mem *m,
			 const struct cr_policy *p, int first)
{
	struct cr_bt b;
	struct cr_trace head;

	cr_bt_prepare(&b, c, m, p);
	if (first) {
		struct cr_origin og;

		cr_bt_origin(&b, &og);
		put_origin(o, &og);
		put_abort(o, c, m);
	}
	cr_bt_head(&b, &head);
	cr_report_head(o, p, &head);
	cr_bt_lines(&b, put_fline, o);
	cr_bt_done(&b);
}

void cr_report(struct cr_out *o, const struct cr_crash *c)
{
	/* Pages proven readable once (one system call for a page and up to seven
	   above it), then read directly.  Another thread may unmap a proven page
	   meanwhile: the fault that follows is a fault inside the crash handler,
	   which ends in the original signal's default action with a note
	   (handler.c); in crash_report_fd it is the caller's own crash, as with
	   crash_backtrace. */
	struct cr_mem_fast ms;

	cr_mem_fast_init(&ms);
	if (cr_reg_valid(c->regs, cr_host->sp))
		cr_mem_fast_sp(&ms, c->regs->r[cr_host->sp]);	/* the stack the walk climbs */
	cr_puts(o, c->sig ? "*** libcrash: fatal signal ***\n" : "*** libcrash: report requested ***\n");
	put_ids(o);
	put_process(o, c);
	put_signal(o, c);
	cr_report_regs_text(o, c);
	cr_flush(o);	/* what we have is out, even if the walk goes wrong */
	/* The public engine becomes the walk's policy here; ALL: one backtrace each. */
	if (c->engine == CRASH_ENGINE_ALL) {
		for (int e = CRASH_ENGINE_AUTO; e <= CRASH_ENGINE_SCAN; e++)
			cr_report_backtrace(o, c, &ms.m, cr_policy(e), e == CRASH_ENGINE_AUTO);
	} else if (cr_policy(c->engine)) {
		cr_report_backtrace(o, c, &ms.m, cr_policy(c->engine), 1);
	}
	cr_flush(o);
	cr_dump_memory(o, c, &ms.m);
	/* The map as the process has it, not with the shared symbolizer's files
	   and indexes in it (an anonymous one may even merge with the
	   application's mapping beside it). */
	cr_report_sym_pause(c->sym);
	cr_dump_maps(o, c, &ms.m);
	cr_report_sym_resume(c->sym);
	cr_report_threads(o, c, &ms.m);
	cr_puts(o, "\n*** end of libcrash report ***\n");
	cr_flush(o);
}
