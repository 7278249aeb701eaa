/* SPDX-License-Identifier: MIT */
/*
 * The JSON report (docs/report-format.md, "JSON"; docs/report.schema.json):
 * the facts of the text report, gathered by the same code (report.c, dump.c)
 * and printed as one JSON object on one line.  Field names follow Sentry's
 * native event payload where it has one (instruction_addr, image_addr,
 * package, function, symbol, filename, lineno, registers, debug_meta's elf
 * images with code_id and debug_id).  AS-safe as the text report is.
 */
#include <signal.h>
#include <string.h>

#include "config.h"
#include "crash-int.h"
#include "dump.h"
#include "json.h"
#include "threads.h"
#include "module.h"
#include "report.h"
#include "sigdesc.h"
#include "str.h"

#define MODS 64	/* the modules of the frames, for debug_meta */

struct cr_jrep {
	struct cr_json j;
	const struct cr_crash *c;
	const struct cr_mem *m;
	uint64_t mods[MODS];	/* their starts */
	unsigned nmods;
	long tid;		/* the current thread's, and its name */
	char name[64];
};

static void sigdesc(struct cr_json *j, int sig, const siginfo_t *si)
{
	const char *name = cr_signame(sig), *code = cr_codename(sig, si->si_code);

	cr_json_u64(j, "number", (uint64_t)sig);
	if (name)
		cr_json_str(j, "name", name);
	else
		cr_json_null(j, "name");
	cr_json_i64(j, "code", si->si_code);
	if (code)
		cr_json_str(j, "code_name", code);
	else
		cr_json_null(j, "code_name");
	if (cr_code_has_sender(si->si_code)) {
		cr_json_u64(j, "sender_pid", (uint64_t)si->si_pid);
		cr_json_u64(j, "sender_uid", (uint64_t)si->si_uid);
	} else if (cr_code_has_addr(sig, si->si_code)) {
		cr_json_addr(j, "fault_addr", (uintptr_t)si->si_addr);
	}
	if (sig == SIGSYS && si->si_code == 1) {	/* SYS_SECCOMP */
		cr_json_i64(j, "syscall", si->si_syscall);
		cr_json_u64(j, "audit_arch", si->si_arch);
	}
}

static void nonneg(struct cr_json *j, const char *key, int64_t v)
{
	if (v >= 0)
		cr_json_i64(j, key, v);
	else
		cr_json_null(j, key);
}

static void str_or_null(struct cr_json *j, const char *key, const char *s)
{
	if (s && s[0])
		cr_json_str(j, key, s);
	else
		cr_json_null(j, key);
}

/* Who, when, what command, on what (the text's lines 2 and 3).  Apart: its buffers are on
   the stack only while it runs. */
static __attribute__((noinline)) void process(struct cr_jrep *r)
{
	struct cr_json *j = &r->j;
	struct cr_ids d;
	struct cr_proc p;

	cr_report_ids(&d);
	r->tid = d.tid;
	memcpy(r->name, d.name, sizeof(r->name));
	nonneg(j, "pid", d.pid > 0 ? d.pid : -1);
	nonneg(j, "tid", d.tid > 0 ? d.tid : -1);
	str_or_null(j, "thread_name", d.name);
	str_or_null(j, "executable", d.exe);
	cr_report_proc(&p, r->c);
	str_or_null(j, "timestamp", p.time);
	nonneg(j, "uptime_ms", p.uptime_ms);
	cr_json_arr(j, "cmdline");
	for (size_t i = 0, n = p.cmdlen; i < n && i < sizeof(p.cmdline);) {
		size_t k = cr_strlen(p.cmdline + i);

		cr_json_strn(j, NULL, p.cmdline + i, k < n - i ? k : n - i);
		i += k + 1;
	}
	cr_json_end(j);
	if (p.cmdcut)
		cr_json_bool(j, "cmdline_truncated", 1);
	nonneg(j, "uid", p.uid);
	nonneg(j, "euid", p.euid);
	if (p.have_uname) {
		cr_json_obj(j, "kernel");
		cr_json_str(j, "name", p.u.sysname);
		cr_json_str(j, "release", p.u.release);
		cr_json_str(j, "machine", p.u.machine);
		cr_json_end(j);
	} else {
		cr_json_null(j, "kernel");
	}
	cr_json_str(j, "arch", cr_host->name);
	cr_json_str(j, "libcrash_version", PACKAGE_VERSION);
}

static void signal_(struct cr_jrep *r)
{
	const struct cr_crash *c = r->c;
	struct cr_json *j = &r->j;

	if (c->sig == 0) {
		cr_json_null(j, "signal");
		cr_json_str(j, "reason", "crash_report_fd() called");
		return;
	}
	cr_json_obj(j, "signal");
	if (!c->si) {
		const char *name = cr_signame(c->sig);

		cr_json_u64(j, "number", (uint64_t)c->sig);
		str_or_null(j, "name", name);
		cr_json_bool(j, "no_context", 1);	/* handler called by other code */
	} else {
		sigdesc(j, c->sig, c->si);
	}
	cr_json_end(j);
}

/* What the crashing thread's walk (b) found of the signal's origin and cause.  Apart: its
   facts are on the stack only while it runs. */
static __attribute__((noinline)) void origin(struct cr_jrep *r, const struct cr_bt *b)
{
	struct cr_json *j = &r->j;
	struct cr_origin o, *og = &o;

	cr_bt_origin(b, og);
	if (og->nested) {
		cr_json_obj(j, "raised_in_handler_of");
		sigdesc(j, og->si.si_signo, &og->si);
		cr_json_u64(j, "frame", og->line);
		cr_json_end(j);
	}
	if (og->cause[0])
		cr_json_str(j, "cause", og->cause);
}

static void reg(void *arg, const char *name, int valid, uint64_t v)
{
	struct cr_json *j = arg;

	if (valid)
		cr_json_addr(j, name, v);
	else
		cr_json_null(j, name);
}

static void note_module(struct cr_jrep *r, uint64_t lo)
{
	for (unsigned i = 0; i < r->nmods; i++)
		if (r->mods[i] == lo)
			return;
	if (r->nmods < MODS)
		r->mods[r->nmods++] = lo;
}

/* One frame line's facts (report.h, struct cr_fline). */
static void fline(void *arg, const struct cr_fline *l)
{
	struct cr_jrep *r = arg;
	struct cr_json *j = &r->j;

	cr_json_obj(j, NULL);
	cr_json_u64(j, "index", l->idx);
	cr_json_addr(j, "instruction_addr", l->pc);
	if (l->noexec) {
		cr_json_str(j, "unresolved", "not_executable");
	} else if (!l->mod) {
		cr_json_str(j, "unresolved", "unknown");
	} else {
		cr_json_addr(j, "rel_pc", l->pc - l->mod->bias);
		if (l->mod->path[0])
			cr_json_str(j, "package", l->mod->path);
		cr_json_addr(j, "image_addr", l->mod->lo);
		if (l->mod->build_id_len)
			cr_json_hex(j, "code_id", l->mod->build_id, l->mod->build_id_len);
		note_module(r, l->mod->lo);
	}
	if (l->name) {
		cr_json_str(j, "function", l->name);
		cr_json_str(j, "symbol", l->raw);
	}
	if (l->has_off) {
		cr_json_u64(j, "offset", l->off);
		cr_json_addr(j, "symbol_addr", l->sym_start);
	}
	if (l->file) {
		cr_json_str(j, "filename", l->file);
		if (l->file[0] == '/')
			cr_json_str(j, "abs_path", l->file);
		cr_json_u64(j, "lineno", l->line);
	}
	cr_json_bool(j, "inline", l->is_inline);
	cr_json_str(j, "tag", l->is_inline ? "inline" : cr_tag_name(l->tag));
	cr_json_end(j);
}

static const char *const stop_name[] = {
	[CR_STOP_COMPLETE] = "complete",
	[CR_STOP_NOINFO] = "no_unwind_info",
	[CR_STOP_BADMEM] = "invalid_memory",
	[CR_STOP_MAXFRAMES] = "frame_limit",
	[CR_STOP_SP_BACKWARDS] = "sp_backwards",
	[CR_STOP_LOOP] = "loop",
	[CR_STOP_BADPC] = "bad_return_address",
	[CR_STOP_BADSP] = "sp_left_stack",
	[CR_STOP_NOSTART] = "no_function_start",
};

/* A prepared backtrace as a stacktrace object's members: its verdict, then its frames. */
static void stacktrace(struct cr_jrep *r, struct cr_bt *b)
{
	struct cr_json *j = &r->j;
	struct cr_trace t;

	cr_bt_head(b, &t);
	cr_json_str(j, "engine", b->p->name);
	cr_json_u64(j, "frame_count", t.n);
	cr_json_str(j, "stop", t.stop < CR_ARRAY_SIZE(stop_name) ? stop_name[t.stop] : "?");
	if (t.stop != CR_STOP_COMPLETE && t.stop != CR_STOP_MAXFRAMES)
		cr_json_addr(j, "stop_addr", t.stop_addr);
	if (t.stop == CR_STOP_COMPLETE && t.unconfirmed)
		cr_json_bool(j, "unconfirmed_scan_frames", 1);	/* docs/scan.md */
	/* Callers' pcs are already return address - 1 (Sentry: no adjustment). */
	cr_json_str(j, "instruction_addr_adjustment", "none");
	cr_json_arr(j, "frames");
	cr_bt_lines(b, fline, r);
	cr_json_end(j);
}

/* c's backtrace walked with policy p, as a stacktrace's members.  Apart: its
   walk's state is on the stack only while it runs. */
static __attribute__((noinline)) void walk_stacktrace(struct cr_jrep *r, const struct cr_crash *c,
							const struct cr_policy *p)
{
	struct cr_bt b;

	cr_bt_prepare(&b, c, r->m, p);
	stacktrace(r, &b);
	cr_bt_done(&b);
}

/*
 * A thread object: t's facts, its registers and backtrace(s).  first: the
 * current thread's backtrace, prepared by the caller (its origin is printed
 * before "threads"), or NULL.
 */
static void thread(struct cr_jrep *r, const struct cr_crash *c, const struct cr_json_thread *t,
		   struct cr_bt *first)
{
	struct cr_json *j = &r->j;
	int engine = c->engine == CRASH_ENGINE_ALL ? CRASH_ENGINE_AUTO : c->engine;

	cr_json_obj(j, NULL);
	nonneg(j, "id", t->tid > 0 ? t->tid : -1);
	str_or_null(j, "name", t->name);
	cr_json_bool(j, "crashed", t->crashed);
	cr_json_bool(j, "current", t->current);
	if (t->error) {
		cr_json_str(j, "error", t->error);
		cr_json_end(j);
		return;
	}
	cr_json_obj(j, "stacktrace");
	cr_json_obj(j, "registers");
	cr_report_regs(c, reg, j);
	cr_json_end(j);
	if (first) {
		stacktrace(r, first);
		cr_bt_done(first);
	} else if (cr_policy(engine)) {
		walk_stacktrace(r, c, cr_policy(engine));
	}
	cr_json_end(j);
	/* CRASH_ENGINE=all: the other engines' backtraces, for diagnosis. */
	if (c->engine == CRASH_ENGINE_ALL) {
		cr_json_arr(j, "engine_stacktraces");
		for (int e = CRASH_ENGINE_FP; e <= CRASH_ENGINE_SCAN; e++) {
			cr_json_obj(j, NULL);
			walk_stacktrace(r, c, cr_policy(e));
			cr_json_end(j);
		}
		cr_json_end(j);
	}
	cr_json_end(j);
}

void cr_json_thread(struct cr_jrep *r, const struct cr_crash *c, const struct cr_json_thread *t)
{
	thread(r, c, t, NULL);
}

void cr_json_abort_message(struct cr_jrep *r, const char *msg)
{
	if (msg && msg[0])
		cr_json_str(&r->j, "abort_message", msg);
}

/* The memory blocks: "memory near NAME" as hex bytes ("--" where unreadable). */
static void block(void *arg, const char *name, uint64_t v, uint64_t start, const char *module)
{
	struct cr_jrep *r = arg;
	struct cr_json *j = &r->j;
	char hex[256 * 2 + 1];
	uint8_t b[16], ok[16];
	size_t k = 0;

	for (unsigned row = 0; row < 16; row++) {
		cr_dump_read_row(r->m, start + row * 16u, b, ok);
		for (unsigned i = 0; i < 16; i++) {
			hex[k++] = ok[i] ? "0123456789abcdef"[b[i] >> 4] : '-';
			hex[k++] = ok[i] ? "0123456789abcdef"[b[i] & 15] : '-';
		}
	}
	hex[k] = 0;
	cr_json_obj(j, NULL);
	cr_json_str(j, "name", name);
	cr_json_addr(j, "value", v);
	if (module)
		cr_json_str(j, "module", module);
	cr_json_addr(j, "start", start);
	cr_json_str(j, "bytes", hex);
	cr_json_end(j);
}

struct mapstate {
	struct cr_jrep *r;
	int mark;		/* CR_MARK_* of the fault address */
	unsigned index;		/* the entry it is in, or the one after it */
};

static void map(void *arg, const struct cr_mapfacts *f)
{
	struct mapstate *s = arg;
	struct cr_json *j = &s->r->j;

	if (f->mark != CR_MARK_NONE) {
		s->mark = f->mark;
		s->index = f->index;
	}
	cr_json_obj(j, NULL);
	cr_json_addr(j, "start", f->l.lo);
	cr_json_addr(j, "end", f->l.hi);
	cr_json_str(j, "perms", f->l.perms);
	cr_json_u64(j, "offset", f->l.offset);
	if (f->l.path[0])
		cr_json_str(j, "path", f->l.path);
	if (f->mod && f->mod->build_id_len)
		cr_json_hex(j, "code_id", f->mod->build_id, f->mod->build_id_len);
	if (f->mod)
		cr_json_addr(j, "load_bias", f->mod->bias);
	cr_json_end(j);
}

static void memory_map(struct cr_jrep *r)
{
	struct cr_json *j = &r->j;
	struct mapstate s = { r, CR_MARK_NONE, 0 };
	struct cr_maps_text t;
	int n, after;

	cr_dump_maps_load(&t);
	if ((n = cr_dump_map_count(&t)) < 0) {
		cr_dump_maps_unload(&t);
		return;
	}
	cr_json_obj(j, "memory_map");
	cr_json_u64(j, "count", (uint64_t)n);
	cr_json_arr(j, "entries");
	after = cr_dump_maps_each(r->c, r->m, &t, map, &s);
	cr_dump_maps_unload(&t);
	cr_json_end(j);
	if (r->c->si && cr_code_has_addr(r->c->sig, r->c->si->si_code)) {
		static const char *const where[] = {
			[CR_MARK_NONE] = "after_last", [CR_MARK_IN] = "in",
			[CR_MARK_BEFORE_FIRST] = "before_first", [CR_MARK_BETWEEN] = "between",
		};

		cr_json_obj(j, "fault_addr");
		cr_json_addr(j, "address", (uintptr_t)r->c->si->si_addr);
		cr_json_str(j, "position", where[after ? CR_MARK_NONE : s.mark]);
		if (!after)
			cr_json_u64(j, "index", s.index);
		cr_json_end(j);
	}
	cr_json_end(j);
}

/*
 * Sentry's debug id of an ELF image: the build-id's first 16 bytes (zero-
 * padded) as a GUID whose first three fields are little-endian, as
 * Breakpad and Sentry read ELF build-ids on little-endian machines (all four
 * arches here): bytes 0-3, 4-5 and 6-7 reversed, then "-"-separated groups.
 */
size_t cr_json_debug_id(char *dst, size_t cap, const uint8_t *id, unsigned len)
{
	static const uint8_t order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	uint8_t g[16] = { 0 };
	size_t k = 0;

	if (cap < 37)
		return 0;
	for (unsigned i = 0; i < len && i < 16; i++)
		g[i] = id[i];
	for (unsigned i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			dst[k++] = '-';
		dst[k++] = "0123456789abcdef"[g[order[i]] >> 4];
		dst[k++] = "0123456789abcdef"[g[order[i]] & 15];
	}
	dst[k] = 0;
	return k;
}

/* Sentry's debug_meta: the modules the frames are in, as "elf" images. */
static void debug_meta(struct cr_jrep *r)
{
	struct cr_json *j = &r->j;
	struct cr_module mod;
	char id[40];

	cr_json_obj(j, "debug_meta");
	cr_json_arr(j, "images");
	for (unsigned i = 0; i < r->nmods; i++) {
		if (cr_module_find(r->m, r->mods[i], &mod) < 0)
			continue;
		cr_json_obj(j, NULL);
		cr_json_str(j, "type", "elf");
		if (mod.path[0])
			cr_json_str(j, "code_file", mod.path);
		if (mod.build_id_len) {
			cr_json_hex(j, "code_id", mod.build_id, mod.build_id_len);
			cr_json_debug_id(id, sizeof(id), mod.build_id, mod.build_id_len);
			cr_json_str(j, "debug_id", id);
		}
		cr_json_addr(j, "image_addr", mod.lo);
		cr_json_u64(j, "image_size", mod.hi - mod.lo);
		cr_json_addr(j, "image_vmaddr", mod.lo - mod.bias);
		cr_json_str(j, "arch", cr_host->name);
		cr_json_end(j);
	}
	cr_json_end(j);
	cr_json_end(j);
}

/* The text's "abort message:" line (report.c, cr_report_abort); its buffer off the main path. */
static __attribute__((noinline)) void abort_message(struct cr_jrep *r)
{
	char buf[CR_REPORT_ABORT_MAX];

	if (cr_report_abort(r->c, r->m, buf, sizeof(buf)))
		cr_json_abort_message(r, buf);
}

/* The text's "other threads: N (C captured, U not captured, K over the limit of L)" line. */
static void other_threads_count(struct cr_jrep *r)
{
	const struct cr_threads *ts = r->c->threads;
	struct cr_json *j = &r->j;
	const char *err;
	unsigned ok;

	if (!ts)
		return;	/* CRASH_THREADS=crashing: the text has no such line either */
	cr_json_obj(j, "other_threads");
	if ((err = cr_report_threads_error(ts))) {
		cr_json_null(j, "count");
		cr_json_str(j, "error", err);
	} else {
		ok = cr_report_threads_captured(ts);
		cr_json_u64(j, "count", ts->n + ts->more);
		cr_json_u64(j, "captured", ok);
		cr_json_u64(j, "not_captured", ts->n - ok);
		cr_json_u64(j, "over_limit", ts->more);
		cr_json_u64(j, "limit", CR_THREADS_MAX);
	}
	cr_json_end(j);
}

/*
 * The other threads of the capture (threads.h), as the text's sections after
 * the separator lines (report-threads.c): each with its registers and its
 * backtrace, or why it has none ("error").  CRASH_THREADS=crashing: none.
 */
static void other_threads(struct cr_jrep *r)
{
	const struct cr_threads *ts = r->c->threads;
	struct cr_crash tc;
	struct cr_json_thread f;

	if (!ts)
		return;
	for (unsigned i = 0; i < ts->n; i++) {
		const struct cr_thread *t = &ts->t[i];

		cr_report_thread_crash(r->c, t, &tc);
		f.tid = t->tid;
		f.name = t->name;
		f.crashed = 0;
		f.current = 0;
		f.error = t->state == CR_THREAD_OK ? NULL : cr_thread_state_text(t->state);
		cr_json_thread(r, &tc, &f);
	}
}

void cr_report_json(struct cr_out *o, const struct cr_crash *c, size_t limit)
{
	/* The text report's reader (report.c, cr_report): pages proven once. */
	struct cr_mem_fast ms;
	struct cr_jrep r;
	struct cr_bt bt, *first = NULL;
	struct cr_json_thread self;
	int engine = c->engine == CRASH_ENGINE_ALL ? CRASH_ENGINE_AUTO : c->engine;

	cr_mem_fast_init(&ms);
	if (cr_reg_valid(c->regs, cr_host->sp))
		cr_mem_fast_sp(&ms, c->regs->r[cr_host->sp]);	/* the stack the walk climbs */
	cr_json_init(&r.j, o, limit);
	r.c = c;
	r.m = &ms.m;
	r.nmods = 0;
	cr_json_obj(&r.j, NULL);
	cr_json_str(&r.j, "schema", CR_JSON_SCHEMA);
	cr_json_str(&r.j, "kind", c->sig ? "crash" : "requested");
	process(&r);
	signal_(&r);
	/* The crashing thread's walk first: what it found of the signal's
	   origin and cause are the report's, before "threads". */
	if (cr_policy(engine)) {
		cr_bt_prepare(&bt, c, r.m, cr_policy(engine));
		origin(&r, &bt);
		first = &bt;
	}
	abort_message(&r);
	other_threads_count(&r);
	cr_json_arr(&r.j, "threads");
	self.tid = r.tid;
	self.name = r.name;
	self.crashed = c->sig != 0;
	self.current = 1;
	self.error = NULL;
	thread(&r, c, &self, first);
	other_threads(&r);
	cr_json_end(&r.j);
	cr_json_arr(&r.j, "memory");
	cr_dump_blocks(c, r.m, block, &r);
	cr_json_end(&r.j);
	/* The map as the process has it: without the symbolizer's own mappings
	   (report.h, cr_report_sym_pause), as the text report lists it. */
	cr_report_sym_pause(c->sym);
	memory_map(&r);
	debug_meta(&r);
	cr_json_end(&r.j);
	cr_json_finish(&r.j);
	cr_flush(o);
}
