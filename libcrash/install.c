/* SPDX-License-Identifier: MIT */
/*
 * crash_install/uninstall: options, output, alternate stack, sigaction.
 * Everything lazy happens here, before any signal, but the safe reader's
 * probe (mem.c), which its first read does.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cfi/cache.h"
#include "abortmsg.h"
#include "debuginfo.h"
#include "altstack.h"
#include "crash-int.h"
#include "disp.h"
#include "module.h"
#include "options.h"
#include "str.h"
#include "sys.h"

struct cr_config cr_cfg = {
	.sink = { .kind = CR_SINK_FD, .fd = 2, .timeout_ms = CR_TIMEOUT_DEFAULT * 1000 },
	.engine = CRASH_ENGINE_AUTO,
	.max_frames = CR_DEFAULT_FRAMES,
	.signals = CR_DEFAULT_SIGNALS,
	.chain = 1,
	.thread_altstack = 1,
};
CR_INSTALL_DATA static unsigned long long installed;	/* signals that have our handler now */
/* Never taken in the handler. */
CR_INSTALL_DATA static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;

/* The calling thread's alternate stack: libcrash's unless it has one. */
static int thread_init(void)
{
	stack_t cur, ss;
	void *map;
	int ret;

	if (cr_sys_sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE))
		return 0;	/* the thread has one (the application's or ours) */
	if (!(map = cr_altstack_map()))
		return -ENOMEM;
	ss.ss_sp = (char *)map + CR_ALT_GUARD;
	ss.ss_size = CR_ALT_SIZE;
	ss.ss_flags = 0;
	if ((ret = cr_sys_sigaltstack(&ss, NULL)) < 0)
		cr_sys_munmap(map, CR_ALT_GUARD + CR_ALT_SIZE);
	return ret;
}

/* crash_thread_init(), called by install without going through the GOT (the
   exported name is interposable: the loader would have to bind it). */
int crash_thread_init(void)
{
	return thread_init();
}


static int set_handlers(unsigned long long sigs)
{
	/* Each install adopts a handler the kernel has that is not libcrash's
	   (disp.h), so the application's is always the one called first. */
	int ret = cr_disp_install(sigs);

	installed |= sigs;
	return ret;
}

static void restore(unsigned long long sigs)
{
	if (sigs & installed)
		cr_disp_uninstall(sigs & installed);
	installed &= ~sigs;
}

static int validate(const struct crash_options *o)
{
	if (o->engine < CRASH_ENGINE_AUTO || o->engine > CRASH_ENGINE_ALL)
		return -EINVAL;
	if (o->max_frames < 0 || o->max_frames > CR_MAX_FRAMES)
		return -EINVAL;
	if (o->timeout < 0 || o->timeout > CR_TIMEOUT_MAX)
		return -EINVAL;
	if (o->threads != CRASH_THREADS_ALL && o->threads != CRASH_THREADS_CRASHING)
		return -EINVAL;
	if (o->format < CRASH_FORMAT_TEXT || o->format > CRASH_FORMAT_BOTH)
		return -EINVAL;
	if (o->signals & (CRASH_SIGMASK(0) | CRASH_SIGMASK(9) | CRASH_SIGMASK(19)))
		return -EINVAL;
	/* A later version's option, meant by a program built against it: refusing
	 * it is honest, ignoring it would not be. */
	for (unsigned i = 0; i < sizeof o->reserved / sizeof o->reserved[0]; i++)
		if (o->reserved[i])
			return -EINVAL;
	return 0;
}

/*
 * What the frame lines carry and where debug files are, from the environment
 * (also for crash_install(opts): struct crash_options has no field for them).
 * The debuginfod paths point into the environment's strings, which stay.
 */
static void symbols_from_env(const struct cr_env *e)
{
	const char *v = e->v[CR_ENV_SYMBOLS];
	int mode = CR_SYMBOLS_FULL;

	if (v && *v && cr_opt_symbols(v, &mode) < 0) {
		cr_opt_warn("CRASH_SYMBOLS", v, "expected full, names or mangled; using full");
		mode = CR_SYMBOLS_FULL;
	}
	cr_cfg.symbols = mode;
	cr_dbgcfg.roots = e->v[CR_ENV_DEBUG_PATH];
	cr_dbgcfg.dcache = e->v[CR_ENV_DEBUGINFOD_CACHE];
	cr_dbgcfg.xdg = e->v[CR_ENV_XDG_CACHE];
	cr_dbgcfg.home = e->v[CR_ENV_HOME];
}

/* crash_install(opts), or with the options of the environment e if opts is NULL. */
static int install(const struct crash_options *opts, const struct cr_env *e)
{
	/* The environment's path, and the sink's: two, one in use (the sink
	   points into it) and one for the next, so a call that fails changes
	   nothing. */
	static char path_buf[CR_SINK_PATH], sink_path[2][CR_SINK_PATH];
	CR_INSTALL_DATA static int in_use;
	char *next = sink_path[in_use ^ 1];
	struct crash_options env;
	struct cr_sink sink;
	unsigned long long sigs;
	const char *why;
	int ret, from_env = !opts;

	pthread_mutex_lock(&install_lock);
	if (!opts) {	/* the environment's options (e is always given) */
		const char *t = e->v[CR_ENV_SELFTEST_FAULT], *c = e->v[CR_ENV_CACHE];

		cr_opt_from_env(&env, e, path_buf, sizeof(path_buf));
		opts = &env;
		cr_cfg.selftest_fault = t && cr_strcmp(t, "1") == 0;
		cr_cache_enabled = !(c && cr_strcmp(c, "0") == 0);	/* benchmarks of the cache */
	}
	if ((ret = validate(opts)) < 0)
		goto out;
	if (!opts->no_altstack && (ret = thread_init()) < 0)
		goto out;
	if (opts->path && cr_strlen(opts->path) < CR_SINK_PATH) {
		memcpy(next, opts->path, cr_strlen(opts->path) + 1);
		ret = cr_sink_setup(&sink, opts->fd, next, from_env ? e->v[CR_ENV_JOURNAL_SOCKET] : NULL,
				    (unsigned)opts->timeout, &why);
	} else {
		ret = cr_sink_setup(&sink, opts->fd, opts->path ? "" : NULL, NULL,
				    (unsigned)opts->timeout, &why);
		if (opts->path) {
			ret = -ENAMETOOLONG;
			why = "path too long; using stderr";
		}
	}
	if (ret < 0 && from_env) {
		/* The environment's: loud and safe, one warning and stderr. */
		cr_opt_warn("CRASH_OUTPUT", opts->path, why);
		ret = 0;
	} else if (ret < 0) {
		goto out;	/* crash_install(opts): the caller decides */
	}
	cr_sink_release(&cr_cfg.sink);
	cr_cfg.sink = sink;
	in_use ^= 1;
	symbols_from_env(e);
	cr_abort_resolve();	/* where glibc's and libstdc++'s abort data lie */
	cr_cfg.engine = opts->engine;
	cr_cfg.format = opts->format;
	cr_cfg.max_frames = opts->max_frames ? (unsigned)opts->max_frames : CR_DEFAULT_FRAMES;
	cr_cfg.chain = !opts->no_chain;
	cr_cfg.threads = opts->threads;
	cr_cfg.thread_altstack = !opts->no_altstack;
	sigs = opts->signals ? opts->signals : CR_DEFAULT_SIGNALS;
	/* Nothing else is lazy but the safe reader's probe (two system calls at
	   its first read, AS-safe): PLT slots are bound at load (-z now), modules
	   are looked up lock-free at walk time (module.h), the CFI row cache
	   fills as walks need it. */
	restore(installed & ~sigs);	/* signals dropped by this call */
	ret = set_handlers(sigs);
	cr_cfg.signals = sigs;
out:
	pthread_mutex_unlock(&install_lock);
	return ret;
}

int cr_install_env(const struct cr_env *e)
{
	return install(NULL, e);
}

int crash_install(const struct crash_options *opts)
{
	struct cr_env e;

	cr_env_read(&e, environ);
	return install(opts, &e);
}

void crash_uninstall(void)
{
	pthread_mutex_lock(&install_lock);
	restore(installed);
	pthread_mutex_unlock(&install_lock);
}
