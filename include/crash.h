/* SPDX-License-Identifier: MIT */
/*
 * libcrash: turn a fatal signal into a precise crash report.
 *
 * Everything here is safe to call from ordinary code.  crash_backtrace(),
 * crash_backtrace_with() and crash_report_fd() are also async-signal-safe once
 * crash_install() has returned (they allocate nothing and take no lock).
 */
#ifndef CRASH_H
#define CRASH_H

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility; these are its only exports. */
#if defined(__GNUC__)
#define CRASH_API __attribute__((visibility("default")))
#else
#define CRASH_API
#endif

/*
 * Unwind engines.  AUTO tries, per frame: CFI, a kernel signal frame, the
 * frame pointer, prologue scanning; before the engine that would misread it,
 * a frame in generated code, a linker stub or a leaf function is taken from
 * its return address (docs/design.md).
 */
enum crash_engine {
	CRASH_ENGINE_AUTO = 0,
	CRASH_ENGINE_FP = 1,	/* frame-pointer chain */
	CRASH_ENGINE_CFI = 2,	/* DWARF CFI from .eh_frame_hdr/.eh_frame */
	CRASH_ENGINE_SCAN = 3,	/* prologue instruction scanning */
	CRASH_ENGINE_ALL = 4	/* reports only: one backtrace per engine */
};

/* crash_options.threads (CRASH_THREADS). */
enum crash_threads {
	CRASH_THREADS_ALL = 0,		/* the crashing thread, then every other one */
	CRASH_THREADS_CRASHING = 1	/* the crashing thread only */
};

/* The report's format (CRASH_FORMAT): text, one JSON line, or the text then the JSON. */
enum crash_format {
	CRASH_FORMAT_TEXT = 0,
	CRASH_FORMAT_JSON = 1,	/* docs/report-format.md, "JSON" */
	CRASH_FORMAT_BOTH = 2	/* the text report, then the JSON report (a .json file
				   beside the .txt in a directory) */
};

/* Bits for crash_options.signals: one bit per signal number, (1u << SIGSEGV) etc. */
#define CRASH_SIGMASK(sig) (1ull << (sig))

/*
 * Zero means "the default" in every field, so { .path = "crash.log" } is a
 * complete set of options.  Hence fd 0 (stdin) can never be the output: an fd
 * is used only when it is > 0.
 */
struct crash_options {
	int fd;			/* > 0: reports go to this descriptor; else: */
	const char *path;	/* a file, appended to (created 0600, a symbolic link
				   not followed); ending in '/' or naming a directory:
				   one new file per crash in it; "journal": systemd-
				   journald; NULL: stderr */
	unsigned long long signals;	/* CRASH_SIGMASK() bits; 0: the default set
					   SEGV,ABRT,BUS,FPE,ILL,TRAP,SYS */
	int engine;		/* enum crash_engine */
	int max_frames;		/* 0: 256; clamped to [1, 1024] */
	int no_altstack;	/* 1: do not install an alternate signal stack */
	int no_chain;		/* 1: do not call the application's handlers (README,
				   "Living with other handlers"); still re-raise */
	int timeout;		/* seconds a report may take at most (writes to a stalled
				   pipe or terminal); 0: 10 */
	int threads;		/* enum crash_threads: which threads a report shows */
	int format;		/* enum crash_format; 0: text */
	unsigned long reserved[8];	/* 0: room for options of later versions,
					   which take these slots and keep the
					   structure's size; crash_install()
					   refuses (-EINVAL) a non-zero one */
};

/*
 * Install the handlers.  opts == NULL: from the environment (CRASH_OUTPUT,
 * CRASH_SIGNALS, CRASH_ENGINE, CRASH_MAX_FRAMES, CRASH_TIMEOUT, CRASH_THREADS,
 * CRASH_FORMAT, ...: README),
 * where a bad value gets one warning line on stderr and its default.  Calling it
 * again replaces the options.  A handler the kernel has that is not
 * libcrash's becomes the application's, which libcrash calls first (README,
 * "Living with other handlers").  Returns 0 or a negative errno value
 * (-EINVAL for bad options, -errno of a failed open/mmap/sigaction; nothing
 * is changed then).
 */
CRASH_API int crash_install(const struct crash_options *opts);

/* Give the kernel the application's dispositions back (what it set, or what was there before). */
CRASH_API void crash_uninstall(void);

/*
 * Give the calling thread an alternate signal stack (64 KiB above a 64 KiB
 * guard) so that its stack overflow is reported.  crash_install() does this
 * for the thread that calls it, and every thread made later with pthread_create()
 * gets one (libcrash.so interposes it); a thread made otherwise (raw clone) calls
 * this once.  0 or -errno.
 */
CRASH_API int crash_thread_init(void);

/*
 * Like glibc backtrace(): return addresses of the calling thread, innermost
 * (the caller of crash_backtrace) first.  Returns the number stored.
 */
CRASH_API int crash_backtrace(void **buffer, int size);

/*
 * The same with one engine (enum crash_engine; ALL is not valid here).
 * Returns the number of addresses stored, or -ENOSYS for an engine that
 * this build or architecture does not have, -EINVAL for a bad argument.
 */
CRASH_API int crash_backtrace_with(int engine, void **buffer, int size);

/* Write a report of the calling thread (no signal) to fd, in the report format. */
CRASH_API void crash_report_fd(int fd);

#ifdef __cplusplus
}
#endif
#endif
