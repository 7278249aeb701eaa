/* SPDX-License-Identifier: MIT */
/*
 * The process's other threads at a report, without ptrace (docs/design.md,
 * "Every thread"): each is sent a realtime signal that libcrash handles only
 * for the report, copies its registers into a slot and parks in that handler
 * until the report has walked its stack.  Capture (here) and printing
 * (report-threads.c, and any other format) are apart: a report captures
 * once, prints from the table, releases.
 */
#ifndef CR_THREADS_H
#define CR_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "regs.h"

/* Threads captured at most; the others are counted (struct cr_threads.more). */
#define CR_THREADS_MAX 64
/* How long the capture waits for all the signalled threads together. */
#define CR_THREADS_WAIT_MS 1000

/* Why a thread has no registers; CR_THREAD_OK: it has (regs). */
enum cr_thread_state {
	CR_THREAD_OK,
	CR_THREAD_BLOCKED,	/* it blocks the signal (SigBlk of its status) */
	CR_THREAD_STOPPED,	/* stopped or traced: it would not run the handler */
	CR_THREAD_EXITING,	/* zombie, dead, or gone before it could be signalled */
	CR_THREAD_TIMEOUT,	/* signalled, did not answer in time */
	CR_THREAD_FAILED,	/* the signal could not be sent (rt_tgsigqueueinfo) */
	CR_THREAD_NOSIGNAL,	/* no signal free for the capture (all handled) */
};

struct cr_thread {
	int tid;
	int state;		/* enum cr_thread_state */
	char name[16];		/* /proc/self/task/TID/comm, "" if unreadable */
	struct cr_regs regs;	/* state CR_THREAD_OK: the interrupted context */
};

struct cr_threads {
	int pid, self;		/* the process, and the reporting thread (not in t[]) */
	unsigned n;		/* entries of t[] */
	unsigned more;		/* threads past CR_THREADS_MAX, counted only */
	int err;		/* 0, or -errno: /proc/self/task could not be read */
	struct cr_thread t[CR_THREADS_MAX];
};

/*
 * Capture every thread of the process but the caller into the static table
 * and return it; when another report holds the table (one capture at a
 * time), a table of no thread with err -EBUSY.
 * The captured threads stay parked in libcrash's handler until
 * cr_threads_release(), or until timeout_ms have passed (a report that never
 * ends leaves no one parked).  AS-safe; bounded: CR_THREADS_WAIT_MS for the
 * answers, a constant number of directory reads.
 */
const struct cr_threads *cr_threads_capture(unsigned timeout_ms);

/*
 * Let the threads parked by the capture ts go, wait (bounded) until they have
 * left the handler, give the signal its disposition back and free the table.
 * ts: what cr_threads_capture() returned (NULL, or the -EBUSY table: nothing
 * to do).  AS-safe.
 */
void cr_threads_release(const struct cr_threads *ts);

/*
 * Block, in the calling thread, every signal the capture may choose: a
 * thread that reports a crash runs on libcrash's own stack, where another
 * report's capture signal would be delivered on the top of its alternate
 * stack, over the frame of the crash it is reporting.  *added: the signals
 * this blocked that were not blocked before (SIG_UNBLOCK them to undo).
 */
void cr_threads_block(uint64_t *added);

/* Pure parsers, unit-tested (tests/unit/t-threads.c). */

/*
 * The next entry with a numeric name (a tid) of a getdents64 buffer
 * (struct linux_dirent64 records) from *pos: 1 and *tid, 0 at the end, -1 for
 * a malformed record (a length that does not fit, a name without its NUL).
 * Other names ("." and "..") are passed by.
 */
int cr_threads_dirent(const uint8_t *buf, size_t len, size_t *pos, int *tid);

/*
 * From a /proc/PID/task/TID/status text: the state letter ("State:\tS
 * (sleeping)": 'S') and the blocked signals (SigBlk, the kernel's 64-bit
 * set, bit n-1 for signal n).  0, or -1 when either line is missing or
 * malformed.
 */
int cr_threads_status(const char *buf, size_t len, char *state, uint64_t *sigblk);

/* The words a report prints for a state (docs/report-format.md). */
const char *cr_thread_state_text(int state);

#endif
