/* SPDX-License-Identifier: MIT */
/*
 * Where a report goes (sink.c): stderr or a descriptor, a file, one new file
 * per crash in a directory, or systemd-journald.  Set up at install; at the
 * crash every open and write is bounded in time (CRASH_TIMEOUT), raises no
 * SIGPIPE, and never lands in a file other than the one configured.
 */
#ifndef CR_SINK_H
#define CR_SINK_H

#include <time.h>

#include "common.h"

enum cr_sink_kind {
	CR_SINK_FD,		/* a descriptor the application gave (2: stderr) */
	CR_SINK_FILE,		/* a path, appended to */
	CR_SINK_DIR,		/* a directory: a new file per crash */
	CR_SINK_JOURNAL,	/* systemd-journald's native protocol */
};

#define CR_SINK_PATH 4096
#define CR_TIMEOUT_DEFAULT 10	/* seconds */
#define CR_TIMEOUT_MAX 3600

struct cr_sink {
	int kind;		/* enum cr_sink_kind */
	int fd;			/* FD: the descriptor; FILE, DIR: libcrash's own (a high
				   number, close-on-exec), -1: opened at the crash */
	uint64_t dev, ino;	/* FILE, DIR: the file fd was opened on */
	unsigned timeout_ms;	/* the whole report's bound */
	const char *path;	/* FILE, DIR: as configured; JOURNAL: the socket (storage
				   that lives as long as the sink: install.c's) */
};

/*
 * Install time (system calls only): *s for fd (> 0) or path (NULL: stderr),
 * which must outlive *s.  path "journal": journald at journal_socket (NULL:
 * /run/systemd/journal/socket); a path that ends in '/' or names a directory:
 * one file per crash there; anything else: a file, opened now (O_APPEND,
 * O_CREAT 0600, O_NOFOLLOW, O_NONBLOCK so a FIFO nobody reads cannot block).
 * 0; or -errno with *why set, and *s is stderr (the caller warns).
 */
int cr_sink_setup(struct cr_sink *s, int fd, const char *path, const char *journal_socket,
		  unsigned timeout_s, const char **why);

/* Close what an earlier setup opened (before a new one). */
void cr_sink_release(struct cr_sink *s);

/* One report's way out, crash time.  AS-safe, bounded. */
struct cr_sink_io {
	const struct cr_sink *s;
	int fd;			/* where this report goes; -1: nowhere */
	int own;		/* fd was opened for this report: closed at the end */
	int locked;		/* flock held (a shared file) */
	size_t chunk;		/* bytes a write: pipes and terminals cannot block after POLLOUT */
	int poll;		/* wait for POLLOUT (bounded) before each write */
	int cut;		/* the deadline passed, or the sink failed: nothing more written */
	int journal;		/* JOURNAL: the report is sent whole at the end */
	int jfd;		/* JOURNAL, a report too long for a datagram: its memfd */
	uint64_t jlen_at, jlen;	/* where MESSAGE's length goes in it, and the length */
	int sig;
	struct timespec deadline;	/* CLOCK_MONOTONIC */
	uint64_t pipe_was;	/* SIGPIPE already pending before the report */
	uint64_t mask;		/* the signal mask to restore */
	int json;		/* a JSON report (DIR: a .json file) */
	char name[100];		/* DIR: the report file's name */
};

/*
 * Set io->poll and io->chunk for io->fd: written whole (a regular file,
 * /dev/null), or in pieces after POLLOUT (4096 bytes for a pipe or socket,
 * 256 for a terminal or another character device).
 */
void cr_sink_classify(struct cr_sink_io *io);

/*
 * Open the report's destination for signal sig (0: crash_report_fd).  FILE,
 * DIR: libcrash's descriptor only if it still is the file it opened (device
 * and inode), else the path again; a new file per crash is
 * crash-<UTC time>-<pid>-<tid>.txt, O_EXCL, 0600.  SIGPIPE is blocked until
 * cr_sink_end.
 */
void cr_sink_begin(struct cr_sink_io *io, const struct cr_sink *s, int sig);

/*
 * The same for a JSON report.  text: NULL, or the text report just written
 * (CRASH_FORMAT=both), whose deadline it keeps (one CRASH_TIMEOUT for both)
 * and, in a directory, whose name it takes with .json for .txt.  Else a
 * directory gets crash-<UTC time>-<pid>-<tid>.json.
 */
void cr_sink_begin_json(struct cr_sink_io *io, const struct cr_sink *s, int sig,
			const struct cr_sink_io *text);

/* Write buf; nothing once the deadline has passed.  0 or -errno. */
int cr_sink_write(struct cr_sink_io *io, const char *buf, size_t len);

/*
 * The end: journald gets the report (whole, len bytes at report; inline or
 * through a sealed memfd), a cut report a note where it can still be
 * written; the lock released, our descriptor closed, a SIGPIPE the report
 * caused taken, the signal mask restored.
 */
void cr_sink_end(struct cr_sink_io *io, const char *report, size_t len);

/* "crash-20261125T083112Z-1234-1235.txt" for a time (UTC seconds), pid and tid. */
size_t cr_sink_name(char *dst, size_t cap, int64_t t, int pid, int tid);

/* The journal's native datagram for a report (tests): fields, then MESSAGE. */
size_t cr_journal_fields(char *dst, size_t cap, int sig, int pid, int tid, const char *comm,
			 const char *exe);

#endif
