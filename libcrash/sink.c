/* SPDX-License-Identifier: MIT */
/*
 * Where a report goes (sink.h).  System calls only: AS-safe at the crash.
 *
 * The rules, each against a way a crash report made things worse:
 * - nothing can block without end: files are opened O_NONBLOCK (a FIFO that
 *   nobody reads fails at once instead of hanging start-up), pipes, FIFOs,
 *   sockets and terminals are written after ppoll() says they can take a
 *   piece (bounded by the report's deadline), in pieces small enough not to
 *   block then;
 * - no SIGPIPE: it is blocked during the report, and one the report caused
 *   is taken before the mask comes back (a broken stderr pipe must not turn
 *   a SIGSEGV into exit 141);
 * - never another file: libcrash's descriptor sits high and close-on-exec,
 *   and at the crash it is used only if it still is the file it opened
 *   (device and inode), else the path is opened again; nothing falls back to
 *   a descriptor that may have become the application's data;
 * - never interleaved: the report is written whole (one write(2) on an
 *   O_APPEND file) under an advisory lock (flock) taken with a bounded wait.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/un.h>

#include "module.h"
#include "out.h"
#include "sigdesc.h"
#include "sink.h"
#include "str.h"
#include "sys.h"

#define FILE_FLAGS (O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

static int file_id(int dirfd, const char *path, int flags, uint64_t *dev, uint64_t *ino,
		   unsigned *mode)
{
	struct statx st;
	int r = cr_sys_statx(dirfd, path, flags, STATX_TYPE | STATX_INO, &st);

	if (r < 0)
		return r;
	*dev = ((uint64_t)st.stx_dev_major << 32) | st.stx_dev_minor;
	*ino = st.stx_ino;
	*mode = st.stx_mode;
	return 0;
}

/* Is fd still the file (dev, ino)?  A daemon may have closed it and reused the number. */
static int same_file(int fd, uint64_t dev, uint64_t ino)
{
	uint64_t d, i;
	unsigned mode;

	return fd >= 0 && file_id(fd, "", AT_EMPTY_PATH, &d, &i, &mode) == 0 && d == dev &&
	       i == ino;
}

/*
 * Out of the application's way: a high number (below 1024, so that select()
 * users' FD_SETSIZE and the kernel's table stay small), close-on-exec.
 */
static int move_high(int fd)
{
	struct rlimit lim;
	long soft = 1024;
	int nfd;

	if (cr_sys_prlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 1024)
		soft = (long)lim.rlim_cur;
	if (soft <= 64)
		return fd;
	nfd = cr_sys_fcntl(fd, F_DUPFD_CLOEXEC, soft - 64);
	if (nfd < 0)
		return fd;
	cr_sys_close(fd);
	return nfd;
}

static void to_stderr(struct cr_sink *s)
{
	s->kind = CR_SINK_FD;
	s->fd = 2;
	s->path = NULL;
}

int cr_sink_setup(struct cr_sink *s, int fd, const char *path, const char *journal_socket,
		  unsigned timeout_s, const char **why)
{
	size_t len;
	unsigned mode;
	int r;

	s->timeout_ms = (timeout_s ? timeout_s : CR_TIMEOUT_DEFAULT) * 1000u;
	s->dev = s->ino = 0;
	to_stderr(s);
	*why = NULL;
	if (fd > 0) {
		s->fd = fd;
		return 0;
	}
	if (!path || !*path)
		return 0;
	if (cr_strcmp(path, "journal") == 0) {
		path = journal_socket && *journal_socket ? journal_socket : JOURNAL_SOCKET;
		if (cr_strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
			*why = "journal socket path too long; using stderr";
			return -ENAMETOOLONG;
		}
		s->path = path;
		s->kind = CR_SINK_JOURNAL;
		s->fd = -1;
		return 0;
	}
	len = cr_strlen(path);
	if (len >= CR_SINK_PATH) {
		*why = "path too long; using stderr";
		return -ENAMETOOLONG;
	}
	if (path[len - 1] == '/' ||
	    (file_id(AT_FDCWD, path, 0, &s->dev, &s->ino, &mode) == 0 && S_ISDIR(mode))) {
		r = cr_sys_open(path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
		if (r < 0) {
			*why = "cannot open the directory; using stderr";
			return r;
		}
		file_id(r, "", AT_EMPTY_PATH, &s->dev, &s->ino, &mode);
		s->kind = CR_SINK_DIR;
	} else {
		r = cr_sys_open(path, FILE_FLAGS, 0600);
		if (r == -ENXIO && file_id(AT_FDCWD, path, 0, &s->dev, &s->ino, &mode) == 0 &&
		    S_ISFIFO(mode)) {
			/* A FIFO nobody reads yet: opened at the crash, if then. */
			s->path = path;
			s->kind = CR_SINK_FILE;
			s->fd = -1;
			return 0;
		}
		if (r < 0) {
			*why = r == -ELOOP ? "is a symbolic link (not followed); using stderr"
					   : "cannot be opened for appending; using stderr";
			return r;
		}
		file_id(r, "", AT_EMPTY_PATH, &s->dev, &s->ino, &mode);
		s->kind = CR_SINK_FILE;
	}
	s->path = path;
	s->fd = move_high(r);
	return 0;
}

void cr_sink_release(struct cr_sink *s)
{
	if ((s->kind == CR_SINK_FILE || s->kind == CR_SINK_DIR) && s->fd >= 0 &&
	    same_file(s->fd, s->dev, s->ino))
		cr_sys_close(s->fd);
	to_stderr(s);
}

/* ---------------------------------------------------------------- time */

static void now(struct timespec *t)
{
	if (cr_sys_clock_gettime(CLOCK_MONOTONIC, t) < 0)
		t->tv_sec = t->tv_nsec = 0;
}

/* Time left to the deadline; 0: none. */
static int left(const struct cr_sink_io *io, struct timespec *rest)
{
	struct timespec t;

	now(&t);
	rest->tv_sec = io->deadline.tv_sec - t.tv_sec;
	rest->tv_nsec = io->deadline.tv_nsec - t.tv_nsec;
	if (rest->tv_nsec < 0) {
		rest->tv_nsec += 1000000000;
		rest->tv_sec--;
	}
	return rest->tv_sec > 0 || (rest->tv_sec == 0 && rest->tv_nsec > 0);
}

/*
 * Days since 1970-01-01 to a civil date, proleptic Gregorian: shift the year
 * to start in March (the leap day last), count 400-year eras of 146,097
 * days, then the year of the era, the day of that year and its month.
 */
static void civil(int64_t days, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t era;
	unsigned doe, yoe, doy, mp;

	days += 719468;	/* 0000-03-01 to 1970-01-01 */
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = (unsigned)(days - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static size_t put2(char *p, unsigned v)
{
	p[0] = (char)('0' + v / 10 % 10);
	p[1] = (char)('0' + v % 10);
	return 2;
}

size_t cr_sink_name(char *dst, size_t cap, int64_t t, int pid, int tid)
{
	char buf[96], *p = buf;
	int64_t days = (t >= 0 ? t : t - 86399) / 86400, y;
	unsigned sec = (unsigned)(t - days * 86400), m, d;

	civil(days, &y, &m, &d);
	memcpy(p, "crash-", 6);
	p += 6;
	p += cr_fmt_u(p, 8, y < 0 ? 0 : (uint64_t)y);
	p += put2(p, m);
	p += put2(p, d);
	*p++ = 'T';
	p += put2(p, sec / 3600);
	p += put2(p, sec / 60 % 60);
	p += put2(p, sec % 60);
	*p++ = 'Z';
	*p++ = '-';
	p += cr_fmt_u(p, 12, (uint64_t)pid);
	*p++ = '-';
	p += cr_fmt_u(p, 12, (uint64_t)tid);
	memcpy(p, ".txt", 5);
	p += 4;
	if ((size_t)(p - buf) >= cap)
		return 0;
	memcpy(dst, buf, (size_t)(p - buf) + 1);
	return (size_t)(p - buf);
}

/* ---------------------------------------------------------------- begin */

/*
 * How to write to fd: regular files, block devices and the memory devices
 * that take anything at once (/dev/null, /dev/zero: 1:3 and 1:5, where
 * daemons send stderr) whole; everything else in pieces after POLLOUT.
 */
void cr_sink_classify(struct cr_sink_io *io)
{
	struct statx st;

	io->poll = 0;
	io->chunk = (size_t)-1;
	if (io->fd < 0 ||
	    cr_sys_statx(io->fd, "", AT_EMPTY_PATH, STATX_TYPE, &st) < 0 || S_ISREG(st.stx_mode) ||
	    S_ISBLK(st.stx_mode) ||
	    (S_ISCHR(st.stx_mode) && st.stx_rdev_major == 1 &&
	     (st.stx_rdev_minor == 3 || st.stx_rdev_minor == 5)))
		return;
	io->poll = 1;
	/* After POLLOUT a pipe has a free page: PIPE_BUF bytes go in without
	   blocking; a terminal takes less, at least a line's worth. */
	io->chunk = S_ISCHR(st.stx_mode) ? 256 : 4096;
}

#define NEW_FLAGS (O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)

/*
 * A new report file in dirfd, its name into io->name.  The JSON twin of a
 * text report (text: its io) takes the text file's name with ".json" for
 * ".txt"; a report alone a new name (.json for JSON).
 */
static int open_new(int dirfd, struct cr_sink_io *io, const struct cr_sink_io *text)
{
	char *name = io->name;
	struct timespec t;
	size_t n = text ? cr_strlen(text->name) : 0;
	int fd = -EEXIST;

	if (text && n >= 4 && n + 2 <= sizeof(io->name)) {
		memcpy(name, text->name, n - 4);
		memcpy(name + n - 4, ".json", 6);
		return cr_sys_openat(dirfd, name, NEW_FLAGS, 0600);
	}
	if (cr_sys_clock_gettime(CLOCK_REALTIME, &t) < 0)
		t.tv_sec = 0;
	n = cr_sink_name(name, sizeof(io->name) - 8, t.tv_sec, cr_sys_getpid(), cr_sys_gettid());
	if (n < 4)
		return -ENAMETOOLONG;
	/* The same name again (the same thread's second crash within a second):
	   -2 to -9 before .txt. */
	for (unsigned i = 0; fd == -EEXIST && i < 9; i++) {
		size_t k = n - 4;

		if (i) {
			name[k++] = '-';
			name[k++] = (char)('1' + i);
		}
		memcpy(name + k, io->json ? ".json" : ".txt", io->json ? 6 : 5);
		fd = cr_sys_openat(dirfd, name, NEW_FLAGS, 0600);
	}
	return fd;
}

static void begin(struct cr_sink_io *io, const struct cr_sink *s, int sig, int json,
		  const struct cr_sink_io *text)
{
	uint64_t pipe = CR_SIGBIT(SIGPIPE), pending = 0;
	struct timespec t;
	int fd, dirfd;

	io->s = s;
	io->fd = -1;
	io->own = io->locked = io->cut = io->journal = 0;
	io->jfd = -1;
	io->sig = sig;
	io->json = json;
	io->name[0] = 0;
	now(&t);
	io->deadline.tv_sec = t.tv_sec + s->timeout_ms / 1000;
	io->deadline.tv_nsec = t.tv_nsec + (long)(s->timeout_ms % 1000) * 1000000;
	if (io->deadline.tv_nsec >= 1000000000) {
		io->deadline.tv_nsec -= 1000000000;
		io->deadline.tv_sec++;
	}
	if (text)
		io->deadline = text->deadline;	/* one CRASH_TIMEOUT for both */
	cr_sys_sigprocmask(SIG_BLOCK, &pipe, &io->mask);
	cr_sys_sigpending(&pending);
	io->pipe_was = pending & pipe;
	switch (s->kind) {
	case CR_SINK_FD:
		io->fd = s->fd;
		break;
	case CR_SINK_FILE:
		if (same_file(s->fd, s->dev, s->ino)) {
			io->fd = s->fd;
		} else if ((fd = cr_sys_open(s->path, FILE_FLAGS, 0600)) >= 0) {
			io->fd = fd;
			io->own = 1;
		}
		break;
	case CR_SINK_DIR:
		dirfd = same_file(s->fd, s->dev, s->ino)
				? s->fd
				: cr_sys_open(s->path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
		if (dirfd >= 0 && (fd = open_new(dirfd, io, text)) >= 0) {
			io->fd = fd;
			io->own = 1;
		}
		if (dirfd >= 0 && dirfd != s->fd)
			cr_sys_close(dirfd);
		break;
	case CR_SINK_JOURNAL:
		io->journal = 1;
		break;
	}
	cr_sink_classify(io);
}

void cr_sink_begin(struct cr_sink_io *io, const struct cr_sink *s, int sig)
{
	begin(io, s, sig, 0, NULL);
}

void cr_sink_begin_json(struct cr_sink_io *io, const struct cr_sink *s, int sig,
			const struct cr_sink_io *text)
{
	begin(io, s, sig, 1, text);
}

/* ---------------------------------------------------------------- write */

static int journal_append(struct cr_sink_io *io, const char *buf, size_t len);

/* The shared file's lock, waited for until the deadline (then written without). */
static void lock(struct cr_sink_io *io)
{
	static const struct timespec ms = { 0, 1000000 };
	struct timespec rest;

	for (unsigned i = 0; i < 1000000 && left(io, &rest); i++) {
		int r = cr_sys_flock(io->fd, LOCK_EX | LOCK_NB);

		if (r == 0) {
			io->locked = 1;
			return;
		}
		if (r != -EWOULDBLOCK && r != -EINTR)
			return;	/* no locks here (a FIFO, NFS without them) */
		cr_sys_nanosleep(&ms, NULL);
	}
}

int cr_sink_write(struct cr_sink_io *io, const char *buf, size_t len)
{
	struct timespec rest;
	size_t done = 0;

	if (io->journal) {
		/* A report longer than the buffer: streamed into the memfd. */
		if (journal_append(io, buf, len) < 0)
			io->cut = 1;
		return 0;
	}
	if (io->fd < 0 || io->cut)
		return -EIO;
	if (io->s->kind == CR_SINK_FILE && !io->locked && !io->poll)
		lock(io);
	/* Bounded: every pass writes a byte, or waits (bounded) for the deadline. */
	for (unsigned i = 0; done < len && i < 1000000; i++) {
		size_t n = len - done < io->chunk ? len - done : io->chunk;
		long w;

		if (!left(io, &rest)) {
			io->cut = 1;
			return -ETIMEDOUT;
		}
		if (io->poll) {
			int r = cr_sys_poll1(io->fd, POLLOUT, &rest);

			if (r == -EINTR)
				continue;
			if (r <= 0) {
				io->cut = 1;
				return r < 0 ? r : -ETIMEDOUT;
			}
		}
		w = cr_sys_write(io->fd, buf + done, n);
		if (w > 0) {
			done += (size_t)w;
		} else if (w == -EAGAIN) {
			/* Non-blocking and full: from now on, in pieces after POLLOUT. */
			io->poll = 1;
			if (io->chunk > 4096)
				io->chunk = 4096;
		} else if (w != -EINTR) {
			io->cut = 1;	/* EPIPE (SIGPIPE blocked), EBADF, ENOSPC */
			return w < 0 ? (int)w : -EIO;
		}
	}
	return done == len ? 0 : -ETIMEDOUT;
}

/* ---------------------------------------------------------------- journald */

static size_t put_field(char *dst, size_t cap, size_t k, const char *name, const char *val)
{
	size_t nn = cr_strlen(name);

	if (k + nn + 2 >= cap)
		return k;
	memcpy(dst + k, name, nn);
	k += nn;
	dst[k++] = '=';
	/* A value with a newline would need the binary form: these are names. */
	for (; *val && k + 2 < cap; val++)
		dst[k++] = *val == '\n' ? ' ' : *val;
	dst[k++] = '\n';
	return k;
}

static size_t put_num(char *dst, size_t cap, size_t k, const char *name, uint64_t v)
{
	char num[24];

	cr_fmt_u(num, sizeof(num), v);
	return put_field(dst, cap, k, name, num);
}

size_t cr_journal_fields(char *dst, size_t cap, int sig, int pid, int tid, const char *comm,
			 const char *exe)
{
	const char *name = cr_signame(sig);
	size_t k = 0;

	k = put_field(dst, cap, k, "PRIORITY", "2");
	k = put_field(dst, cap, k, "SYSLOG_IDENTIFIER", comm && *comm ? comm : "libcrash");
	k = put_num(dst, cap, k, "CRASH_SIGNAL", (uint64_t)sig);
	if (name)
		k = put_field(dst, cap, k, "CRASH_SIGNAL_NAME", name);
	k = put_num(dst, cap, k, "CRASH_PID", (uint64_t)pid);
	k = put_num(dst, cap, k, "CRASH_TID", (uint64_t)tid);
	if (exe && *exe)
		k = put_field(dst, cap, k, "CRASH_EXE", exe);
	if (k < cap)
		dst[k] = 0;	/* for tests and logs; the datagram takes k bytes */
	return k;
}

/* A datagram that waits for room no longer than the deadline. */
static long send_bounded(struct cr_sink_io *io, const struct msghdr *m)
{
	static const struct timespec ms = { 0, 1000000 };
	struct sockaddr_un sa;
	struct msghdr mm = *m;
	struct timespec rest;
	size_t plen = cr_strlen(io->s->path);
	long r = -ETIMEDOUT;
	int sock;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, io->s->path, plen + 1);	/* checked at setup: it fits */
	mm.msg_name = &sa;
	mm.msg_namelen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen + 1);
	if ((sock = cr_sys_socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return sock;
	for (unsigned i = 0; i < 1000000 && left(io, &rest); i++) {
		r = cr_sys_sendmsg(sock, &mm, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (r != -EAGAIN && r != -EINTR)
			break;
		cr_sys_nanosleep(&ms, NULL);
	}
	cr_sys_close(sock);
	return r;
}

/* The fields before MESSAGE (journald's native protocol). */
static size_t journal_head(const struct cr_sink_io *io, char *head, size_t cap)
{
	char comm[17], exe[256];

	memset(comm, 0, sizeof(comm));
	cr_sys_prctl(PR_GET_NAME, (unsigned long)(uintptr_t)comm);
	comm[16] = 0;
	cr_exe_path(exe, sizeof(exe), 1);
	return cr_journal_fields(head, cap, io->sig, cr_sys_getpid(), cr_sys_gettid(), comm, exe);
}

/* All of iov[0..n) into fd (writev may stop short).  0 or -errno. */
static int write_all(int fd, const struct iovec *iov, int n)
{
	size_t total = 0, done = 0;

	for (int k = 0; k < n; k++)
		total += iov[k].iov_len;
	for (unsigned i = 0; done < total && i < 64; i++) {
		struct iovec rest[8];
		size_t skip = done;
		int m = 0;
		long r;

		for (int k = 0; k < n && m < 8; k++) {
			if (skip >= iov[k].iov_len) {
				skip -= iov[k].iov_len;
				continue;
			}
			rest[m].iov_base = (char *)iov[k].iov_base + skip;
			rest[m++].iov_len = iov[k].iov_len - skip;
			skip = 0;
		}
		if ((r = cr_sys_writev(fd, rest, m)) <= 0)
			return r < 0 ? (int)r : -EIO;
		done += (size_t)r;
	}
	return done == total ? 0 : -EIO;
}

/*
 * A report longer than the buffer (or than a datagram): a memfd that holds
 * the fields, MESSAGE in the binary form with its length filled in at the
 * end, written as the report comes.
 */
static int journal_open(struct cr_sink_io *io)
{
	static char message[] = "MESSAGE\n";
	char head[1024];
	uint64_t zero = 0;
	struct iovec iov[3];
	size_t hn;
	int fd, r;

	if (io->jfd >= 0)
		return 0;
	fd = cr_sys_memfd_create("libcrash-journal", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return fd;
	hn = journal_head(io, head, sizeof(head));
	iov[0] = (struct iovec){ head, hn };
	iov[1] = (struct iovec){ message, 8 };
	iov[2] = (struct iovec){ &zero, 8 };
	if ((r = write_all(fd, iov, 3)) < 0) {
		cr_sys_close(fd);
		return r;
	}
	io->jfd = fd;
	io->jlen_at = hn + 8;
	io->jlen = 0;
	return 0;
}

static int journal_append(struct cr_sink_io *io, const char *buf, size_t len)
{
	struct iovec iov = { (char *)(uintptr_t)buf, len };	/* only read */
	int r;

	if ((r = journal_open(io)) < 0 || (r = write_all(io->jfd, &iov, 1)) < 0)
		return r;
	io->jlen += len;
	return 0;
}

/* The memfd finished (length, newline), sealed and passed with SCM_RIGHTS. */
static int journal_send_fd(struct cr_sink_io *io)
{
	static char newline[] = "\n";
	struct iovec nl = { newline, 1 };
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} c;
	struct cmsghdr *h = &c.h;
	struct msghdr m;
	uint64_t le = io->jlen;	/* all four arches are little-endian */
	long r;

	if ((r = write_all(io->jfd, &nl, 1)) < 0 ||
	    (r = cr_sys_pwrite(io->jfd, &le, sizeof(le), io->jlen_at)) != sizeof(le))
		return r < 0 ? (int)r : -EIO;
	cr_sys_fcntl(io->jfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	memset(&c, 0, sizeof(c));
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &io->jfd, sizeof(int));
	memset(&m, 0, sizeof(m));
	m.msg_control = &c;
	m.msg_controllen = sizeof(c);
	r = send_bounded(io, &m);
	return r < 0 ? (int)r : 0;
}

/*
 * journald's native protocol (systemd.journal-fields(7), "Native Protocol"):
 * one datagram of NAME=value lines, MESSAGE in the binary form (NAME, a
 * newline, a 64-bit little-endian length, the bytes, a newline) since a
 * report has many lines; too large for a datagram (or for the report
 * buffer, which cr_sink_write then streams into it), the same bytes in a
 * sealed memfd passed with SCM_RIGHTS.  0 or -errno (no journald: the caller
 * falls back).
 */
static int journal_send(struct cr_sink_io *io, const char *report, size_t len)
{
	static char message[] = "MESSAGE\n", newline[] = "\n";
	char head[1024];
	uint64_t le = len;	/* all four arches are little-endian */
	struct iovec iov[5];
	struct msghdr m;
	size_t hn;
	long r;

	if (io->jfd < 0) {
		hn = journal_head(io, head, sizeof(head));
		iov[0] = (struct iovec){ head, hn };
		iov[1] = (struct iovec){ message, 8 };
		iov[2] = (struct iovec){ &le, 8 };
		iov[3] = (struct iovec){ (char *)(uintptr_t)report, len };	/* only read */
		iov[4] = (struct iovec){ newline, 1 };
		memset(&m, 0, sizeof(m));
		m.msg_iov = iov;
		m.msg_iovlen = 5;
		r = send_bounded(io, &m);
		if (r != -EMSGSIZE && r != -ENOBUFS)
			return r < 0 ? (int)r : 0;
	}
	if ((r = journal_append(io, report, len)) < 0)
		return (int)r;
	return journal_send_fd(io);
}

/* No journald: what the memfd holds of MESSAGE, then report, to stderr. */
static void journal_fallback(struct cr_sink_io *io, const char *report, size_t len)
{
	char buf[1024];

	io->journal = 0;
	io->fd = 2;
	cr_sink_classify(io);
	for (uint64_t off = 0; io->jfd >= 0 && off < io->jlen && !io->cut;) {
		size_t k = io->jlen - off < sizeof(buf) ? (size_t)(io->jlen - off) : sizeof(buf);
		long r = cr_sys_pread(io->jfd, buf, k, io->jlen_at + 8 + off);

		if (r <= 0)
			break;
		cr_sink_write(io, buf, (size_t)r);
		off += (uint64_t)r;
	}
	cr_sink_write(io, report, len);
}

/* ---------------------------------------------------------------- end */

void cr_sink_end(struct cr_sink_io *io, const char *report, size_t len)
{
	static const char cut[] = "\n*** libcrash: report cut: CRASH_TIMEOUT reached ***\n";
	uint64_t pipe = CR_SIGBIT(SIGPIPE), pending = 0;

	if (io->journal && journal_send(io, report, len) < 0)
		journal_fallback(io, report, len);	/* no journald listening */
	if (io->jfd >= 0)
		cr_sys_close(io->jfd);
	io->jfd = -1;
	if (io->cut && io->fd >= 0) {
		/* Where it can still be written now, without waiting. */
		static const struct timespec zero = { 0, 0 };

		if (!io->poll || cr_sys_poll1(io->fd, POLLOUT, &zero) > 0)
			cr_sys_write(io->fd, cut, sizeof(cut) - 1);
	}
	if (io->locked)
		cr_sys_flock(io->fd, LOCK_UN);
	if (io->own)
		cr_sys_close(io->fd);
	io->fd = -1;
	/* A SIGPIPE of our own writes (thread-directed, pending while blocked) is
	   taken, not left to kill the process by the wrong signal. */
	if (cr_sys_sigpending(&pending) == 0 && (pending & pipe) && !io->pipe_was)
		cr_sys_sigtake(&pipe);
	cr_sys_sigprocmask(SIG_SETMASK, &io->mask, NULL);
}
