/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "common.h"
#include "options.h"
#include "out.h"
#include "sigdesc.h"
#include "str.h"

static int parse_uint(const char *s, size_t len, unsigned long long max, unsigned long long *v)
{
	unsigned long long x = 0;

	if (len == 0 || len > 19)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (unsigned)(s[i] - '0');
	}
	if (x > max)
		return -1;
	*v = x;
	return 0;
}

int cr_opt_output(const char *s, int *fd, const char **path)
{
	unsigned long long v;

	if (!s || !*s)
		return -1;
	if (cr_strcmp(s, "stderr") == 0) {
		*fd = 2;
		*path = NULL;
		return 0;
	}
	if (cr_strncmp(s, "fd:", 3) == 0) {
		if (parse_uint(s + 3, cr_strlen(s + 3), 0x7fffffff, &v) < 0)
			return -1;
		*fd = (int)v;
		*path = NULL;
		return 0;
	}
	*fd = -1;
	*path = s;
	return 0;
}

int cr_opt_signals(const char *s, unsigned long long *mask)
{
	unsigned long long m = 0, v;
	char up[16];

	if (!s || !*s)
		return -1;
	while (*s) {
		size_t len = cr_strcspn(s, ",");

		if (len == 0 || len >= sizeof(up))
			return -1;
		for (size_t i = 0; i < len; i++)
			up[i] = (s[i] >= 'a' && s[i] <= 'z') ? (char)(s[i] - 32) : s[i];
		if (parse_uint(up, len, 63, &v) == 0 && v > 0)
			m |= CRASH_SIGMASK(v);
		else if ((v = (unsigned)cr_sig_from_name(up, (unsigned)len)) != 0)
			m |= CRASH_SIGMASK(v);
		else
			return -1;
		s += len;
		if (*s == ',' && *++s == 0)
			return -1;
	}
	/* SIGKILL and SIGSTOP cannot be caught; the others' default action is
	   not the end of the process (signal(7)): CHLD 17, CONT 18, TSTP 20,
	   TTIN 21, TTOU 22, URG 23, WINCH 28. */
	if (m & (CRASH_SIGMASK(9) | CRASH_SIGMASK(19) | CRASH_SIGMASK(17) | CRASH_SIGMASK(18) |
		 CRASH_SIGMASK(20) | CRASH_SIGMASK(21) | CRASH_SIGMASK(22) | CRASH_SIGMASK(23) |
		 CRASH_SIGMASK(28)))
		return -1;
	*mask = m;
	return 0;
}

int cr_opt_engine(const char *s, int *engine)
{
	static const char *const names[] = { "auto", "fp", "cfi", "scan", "all" };

	for (int i = 0; s && i < (int)CR_ARRAY_SIZE(names); i++) {
		if (cr_strcmp(s, names[i]) == 0) {
			*engine = i;
			return 0;
		}
	}
	return -1;
}

/*
 * The index of s in names, count NUL-separated words (one string, no pointer
 * table: no relocation), into *out; -1 when s is none of them.
 */
static int name_index(const char *names, int count, const char *s, int *out)
{
	const char *n = names;

	for (int i = 0; s && i < count; i++, n += cr_strlen(n) + 1) {
		if (cr_strcmp(s, n) == 0) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

int cr_opt_symbols(const char *s, int *mode)
{
	return name_index("full\0names\0mangled", 3, s, mode);	/* enum cr_symbols */
}

int cr_opt_threads(const char *s, int *threads)
{
	return name_index("all\0crashing", 2, s, threads);	/* enum crash_threads */
}

int cr_opt_format(const char *s, int *format)
{
	return name_index("text\0json\0both", 3, s, format);	/* enum crash_format */
}

int cr_opt_frames(const char *s, int *n)
{
	unsigned long long v;

	if (!s || parse_uint(s, cr_strlen(s), CR_MAX_FRAMES, &v) < 0 || v == 0)
		return -1;
	*n = (int)v;
	return 0;
}

int cr_opt_timeout(const char *s, int *secs)
{
	unsigned long long v;

	if (!s || parse_uint(s, cr_strlen(s), 3600, &v) < 0 || v == 0)
		return -1;
	*secs = (int)v;
	return 0;
}

int cr_opt_bool(const char *s)
{
	if (s && s[0] == '1' && !s[1])
		return 1;
	if (s && s[0] == '0' && !s[1])
		return 0;
	return -1;
}

void cr_opt_warn(const char *var, const char *val, const char *why)
{
	struct cr_out o;

	cr_out_init(&o, 2);
	cr_puts(&o, "libcrash: ");
	cr_puts(&o, var);
	cr_puts(&o, "=");
	cr_putsn(&o, val, 200);
	cr_puts(&o, ": ");
	cr_puts(&o, why);
	cr_puts(&o, "\n");
	cr_flush(&o);
}

/*
 * The names after "CRASH_", in the order of CR_ENV_*.  In .data, not .rodata:
 * the constructor reads them at every start-up, and .data's page is one that
 * the loader has already written (common.h, CR_INSTALL_DATA), where a first
 * read of .rodata costs a page fault.  So is the "CRASH_" prefix compared in
 * code, and no switch here makes a jump table.
 */
CR_INSTALL_DATA static char env_names[] =
	"OUTPUT\0SIGNALS\0ENGINE\0MAX_FRAMES\0DISABLE\0SELFTEST_FAULT\0CACHE\0TIMEOUT\0"
	"JOURNAL_SOCKET\0SYMBOLS\0DEBUG_PATH\0THREADS\0FORMAT";

/* Not CRASH_ names: the debuginfod client's cache (debuginfo.h) and
   LD_PRELOAD (mem.h), in the order of CR_ENV_*. */
CR_INSTALL_DATA static char env_other[] =
	"DEBUGINFOD_CACHE_PATH\0XDG_CACHE_HOME\0HOME\0LD_PRELOAD";

static void env_other_read(struct cr_env *e, const char *s)
{
	const char *name = env_other;

	for (int i = CR_ENV_CRASH_N; i < CR_ENV_N; i++) {
		size_t n = cr_strlen(name);

		if (cr_strncmp(s, name, n) == 0 && s[n] == '=') {
			if (!e->v[i])
				e->v[i] = s + n + 1;
			return;
		}
		name += n + 1;
	}
}

void cr_env_read(struct cr_env *e, char *const *envp)
{
	memset(e, 0, sizeof(*e));
	for (; envp && *envp; envp++) {
		const char *s = *envp, *name = env_names;

		if (s[0] == 'D' || s[0] == 'X' || s[0] == 'H' || s[0] == 'L') {
			env_other_read(e, s);
			continue;
		}
		if (s[0] != 'C' || s[1] != 'R' || s[2] != 'A' || s[3] != 'S' || s[4] != 'H' ||
		    s[5] != '_')
			continue;
		s += 6;
		for (int i = 0; i < CR_ENV_CRASH_N; i++) {
			size_t n = cr_strlen(name);

			if (cr_strncmp(s, name, n) == 0 && s[n] == '=') {
				if (!e->v[i])	/* the first of duplicates, as getenv */
					e->v[i] = s + n + 1;
				break;
			}
			name += n + 1;
		}
	}
}

void cr_opt_from_env(struct crash_options *opts, const struct cr_env *e, char *path_buf,
		     unsigned cap)
{
	const char *v, *path = NULL;
	int fd;

	memset(opts, 0, sizeof(*opts));
	if ((v = e->v[CR_ENV_OUTPUT]) && *v) {
		if (cr_opt_output(v, &fd, &path) < 0 || (!path && fd == 0)) {
			cr_opt_warn("CRASH_OUTPUT", v,
			     "expected stderr, fd:N (N > 0), journal, a directory or a file; "
			     "using stderr");
		} else if (path && cr_strlen(path) >= cap) {
			cr_opt_warn("CRASH_OUTPUT", v, "path too long; using stderr");
		} else if (path) {
			memcpy(path_buf, path, cr_strlen(path) + 1);
			opts->path = path_buf;
		} else {
			opts->fd = fd;
		}
	}
	if ((v = e->v[CR_ENV_SIGNALS]) && *v && cr_opt_signals(v, &opts->signals) < 0) {
		cr_opt_warn("CRASH_SIGNALS", v,
		     "expected a list like SEGV,ABRT,BUS of signals that end a process (not "
		     "KILL, STOP, CHLD, CONT, TSTP, TTIN, TTOU, URG, WINCH); using the default set");
		opts->signals = 0;
	}
	if ((v = e->v[CR_ENV_TIMEOUT]) && *v && cr_opt_timeout(v, &opts->timeout) < 0) {
		cr_opt_warn("CRASH_TIMEOUT", v, "expected seconds from 1 to 3600; using 10");
		opts->timeout = 0;
	}
	if ((v = e->v[CR_ENV_ENGINE]) && *v && cr_opt_engine(v, &opts->engine) < 0) {
		cr_opt_warn("CRASH_ENGINE", v, "expected auto, fp, cfi, scan or all; using auto");
		opts->engine = CRASH_ENGINE_AUTO;
	}
	if ((v = e->v[CR_ENV_FORMAT]) && *v && cr_opt_format(v, &opts->format) < 0) {
		cr_opt_warn("CRASH_FORMAT", v, "expected text, json or both; using text");
		opts->format = CRASH_FORMAT_TEXT;
	}
	if ((v = e->v[CR_ENV_MAX_FRAMES]) && *v && cr_opt_frames(v, &opts->max_frames) < 0) {
		cr_opt_warn("CRASH_MAX_FRAMES", v, "expected a number from 1 to 1024; using 256");
		opts->max_frames = 0;
	}
	if ((v = e->v[CR_ENV_THREADS]) && *v && cr_opt_threads(v, &opts->threads) < 0) {
		cr_opt_warn("CRASH_THREADS", v, "expected all or crashing; using all");
		opts->threads = CRASH_THREADS_ALL;
	}
}
