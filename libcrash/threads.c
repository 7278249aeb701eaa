/* SPDX-License-Identifier: MIT */
/*
 * The other threads of a report, captured without ptrace (threads.h;
 * docs/design.md, "Every thread").  The reporting thread lists
 * /proc/self/task, reads each thread's status, takes a realtime signal whose
 * disposition is SIG_DFL for the length of the report and queues it to each
 * thread that can run a handler, with a cookie; the thread copies the
 * registers of the context the signal interrupted into its slot and parks
 * (a futex wait with a timeout) so that its stack stays as the registers
 * describe it while the report walks it.  At the end: release, a bounded
 * wait for the threads to leave, the disposition back.
 *
 * AS-safe on both sides: raw system calls only (no errno), static memory,
 * every loop bounded.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <string.h>

#include "context.h"
#include "crash-int.h"
#include "out.h"
#include "str.h"
#include "sys.h"
#include "threads.h"

extern int cr_glibc_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
	__asm__("__sigaction");

/*
 * The signals the capture may take, highest first: the realtime signals
 * above glibc's own (SIGRTMIN 34 and below are NPTL's and the first ones an
 * application takes) and below the top few, which qemu-user cannot map to
 * host signals of its own (it keeps some for itself).
 */
#define SIG_HI 60
#define SIG_LO 40

/* A slot's protocol (both sides change it with compare-and-swap). */
enum { S_IDLE, S_SENT, S_BUSY, S_PARKED, S_LATE, S_LEFT };

static struct cr_threads tab;
static int slot[CR_THREADS_MAX];		/* S_*, per entry of tab.t */
static const struct cr_threads busy_tab = { .err = -EBUSY };
static int taken;			/* a capture holds tab (until its release) */
static int capsig;			/* the signal the capture uses, 0: none */
static struct sigaction capsig_old;
/* The capture's generation: threads park while open_gen is theirs. */
static uint32_t gen, open_gen;
static uint64_t park_until;		/* CLOCK_MONOTONIC ns: nobody parks longer */
/*
 * The threads the last capture parked (their tids): a thread leaves the
 * handler (S_LEFT) before its sigreturn gives its mask back, and until then
 * its SigBlk shows every signal blocked (the handler's sa_mask).  A capture
 * that follows at once (two requests in a row) would take such a thread for
 * one that blocks the signal: it waits for those instead (examine_again).
 * Under qemu-user, whose emulated sigreturn takes long, CI saw it.
 */
static int left_tid[CR_THREADS_MAX];
static unsigned nleft;
#define LEAVE_WAIT_MS 100

#define COOKIE 0x6c63746800000000ull	/* "lcth": the high half of si_value */

static long sys_getdents64(int fd, void *buf, size_t len)
{
	return CR_SYS3(SYS_getdents64, fd, buf, len);
}

static int sys_tgsigqueue(int pid, int tid, int sig, siginfo_t *si)
{
	return (int)CR_SYS4(SYS_rt_tgsigqueueinfo, pid, tid, sig, si);
}

static void sys_futex_wait(uint32_t *word, uint32_t val, const struct timespec *ts)
{
	CR_SYS4(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, ts);
}

static void sys_futex_wake(uint32_t *word)
{
	CR_SYS3(SYS_futex, word, FUTEX_WAKE_PRIVATE, 0x7fffffff);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	if (cr_sys_clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	cr_sys_nanosleep(&ts, NULL);
}

int cr_threads_dirent(const uint8_t *buf, size_t len, size_t *pos, int *tid)
{
	/* struct linux_dirent64 (getdents64(2)): d_ino 8, d_off 8, d_reclen 2,
	   d_type 1, then the NUL-terminated name; records 8-aligned. */
	for (unsigned k = 0; k < 4096 && *pos < len; k++) {
		const uint8_t *r = buf + *pos;
		size_t reclen, i;
		uint64_t v = 0;

		if (len - *pos < 20)
			return -1;
		reclen = (size_t)r[16] | (size_t)r[17] << 8;
		if (reclen < 20 || reclen > len - *pos)
			return -1;
		for (i = 19; i < reclen && r[i]; i++)
			;
		if (i == reclen)
			return -1;	/* no NUL inside the record */
		*pos += reclen;
		if (i == 19 || i - 19 > 9)
			continue;	/* empty, or longer than any pid */
		for (size_t j = 19; j < i; j++) {
			if (r[j] < '0' || r[j] > '9') {
				v = 0;
				break;
			}
			v = v * 10 + (r[j] - '0');
		}
		if (v > 0 && v <= 0x3fffffff) {	/* PID_MAX_LIMIT is 2^22 */
			*tid = (int)v;
			return 1;
		}
	}
	return 0;
}

/* The value after "NAME:\t" on a line of s, or NULL. */
static const char *field(const char *s, const char *end, const char *name)
{
	size_t n = cr_strlen(name);

	for (const char *p = s; p + n < end;) {
		if (cr_strncmp(p, name, n) == 0 && p[n] == ':') {
			p += n + 1;
			while (p < end && (*p == '\t' || *p == ' '))
				p++;
			return p;
		}
		while (p < end && *p != '\n')
			p++;
		p++;
	}
	return NULL;
}

int cr_threads_status(const char *buf, size_t len, char *state, uint64_t *sigblk)
{
	const char *end = buf + len, *s = field(buf, end, "State"), *b = field(buf, end, "SigBlk");
	const char *e;

	if (!s || !b || s >= end || *s < 'A' || *s > 'z')
		return -1;
	/* The kernel prints 16 hex digits (render_sigset_t); fewer would be a
	   format this parser does not know. */
	if (!(e = cr_parse_hex(b, end, sigblk)) || e - b != 16)
		return -1;
	*state = *s;
	return 0;
}

const char *cr_thread_state_text(int state)
{
	static const char *const text[] = {
		[CR_THREAD_OK] = "captured",
		[CR_THREAD_BLOCKED] = "signal blocked",
		[CR_THREAD_STOPPED] = "stopped",
		[CR_THREAD_EXITING] = "exiting",
		[CR_THREAD_TIMEOUT] = "timed out",
		[CR_THREAD_FAILED] = "signal failed",
		[CR_THREAD_NOSIGNAL] = "no signal free",
	};

	return state >= 0 && state < (int)CR_ARRAY_SIZE(text) && text[state] ? text[state] : "?";
}

/* "/proc/self/task/TID/" + leaf into path. */
static void task_path(char *path, size_t cap, int tid, const char *leaf)
{
	static const char pre[] = "/proc/self/task/";
	char num[16];
	size_t k = 0;

	for (size_t i = 0; pre[i] && k + 1 < cap; i++)
		path[k++] = pre[i];
	cr_fmt_u(num, sizeof(num), (uint64_t)tid);
	for (size_t i = 0; num[i] && k + 1 < cap; i++)
		path[k++] = num[i];
	if (k + 1 < cap)
		path[k++] = '/';
	for (size_t i = 0; leaf[i] && k + 1 < cap; i++)
		path[k++] = leaf[i];
	path[k] = 0;
}

/* Up to cap - 1 bytes of a file, NUL-terminated; the count, or -errno. */
static long read_file(const char *path, char *buf, size_t cap)
{
	int fd = cr_sys_open(path, O_RDONLY | O_CLOEXEC, 0);
	long n;

	if (fd < 0)
		return fd;
	n = cr_sys_read(fd, buf, cap - 1);
	cr_sys_close(fd);
	buf[n > 0 ? n : 0] = 0;
	return n;
}

/* The thread's name and whether it can take the signal now. */
static void examine(struct cr_thread *t)
{
	char path[48], buf[1536];
	uint64_t blk;
	char st;
	long n;

	task_path(path, sizeof(path), t->tid, "comm");
	n = read_file(path, t->name, sizeof(t->name));
	if (n > 0 && t->name[n - 1] == '\n')
		t->name[n - 1] = 0;
	task_path(path, sizeof(path), t->tid, "status");
	if ((n = read_file(path, buf, sizeof(buf))) <= 0) {
		t->state = CR_THREAD_EXITING;	/* its directory went away */
		return;
	}
	if (cr_threads_status(buf, (size_t)n, &st, &blk) < 0)
		return;	/* unknown: try the signal, the wait is bounded */
	if (st == 'Z' || st == 'X')
		t->state = CR_THREAD_EXITING;
	else if (st == 'T' || st == 't')
		t->state = CR_THREAD_STOPPED;
	else if (capsig && (blk & CR_SIGBIT(capsig)))
		t->state = CR_THREAD_BLOCKED;
}

/*
 * In each signalled thread, on its alternate stack: the registers of the
 * interrupted context into the slot, then parked until the release or the
 * deadline.  A signal that is not the capture's (another sender, an old
 * capture's straggler) is dropped: while this handler is installed the
 * disposition it replaces is SIG_DFL, which for a queued realtime signal
 * would end the process.
 */
static void capture_handler(int sig, siginfo_t *si, void *uc)
{
	uint64_t v = (uint64_t)(uintptr_t)si->si_value.sival_ptr;
	uint32_t g = (uint32_t)(v >> 16) & 0xffff;
	unsigned i = (unsigned)(v & 0xffff);
	int want = S_SENT;

	(void)sig;
	if ((v & 0xffffffff00000000ull) != COOKIE || si->si_code != SI_QUEUE ||
	    si->si_pid != tab.pid || g != (__atomic_load_n(&open_gen, __ATOMIC_ACQUIRE) & 0xffff) ||
	    i >= CR_THREADS_MAX || tab.t[i].tid != cr_sys_gettid())
		return;
	if (!__atomic_compare_exchange_n(&slot[i], &want, S_BUSY, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return;	/* the capture gave up on this thread */
	cr_regs_from_ucontext(uc, &tab.t[i].regs);
	__atomic_store_n(&slot[i], S_PARKED, __ATOMIC_RELEASE);
	/* Parked: bounded by park_until, and by a count of waits of at most
	   100 ms each in case the clock cannot be read. */
	for (int k = 0; k < 36000; k++) {
		uint32_t cur = __atomic_load_n(&open_gen, __ATOMIC_ACQUIRE);
		uint64_t now = now_ns(), until = park_until;
		struct timespec ts = { 0, 100000000 };

		if ((cur & 0xffff) != g || !now || now >= until)
			break;
		if (until - now < 100000000u)
			ts.tv_nsec = (long)(until - now);
		sys_futex_wait(&open_gen, cur, &ts);
	}
	__atomic_store_n(&slot[i], S_LEFT, __ATOMIC_RELEASE);
}

/* A realtime signal nobody handles or has pending, with capture_handler installed. */
static int take_signal(uint64_t pending)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = capture_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	/* Nothing else runs on a parked thread: every signal waits (but
	   NPTL's SIGCANCEL and SIGSETXID, which glibc never lets be blocked). */
	memset(&sa.sa_mask, 0xff, sizeof(uint64_t));
	((uint64_t *)(void *)&sa.sa_mask)[0] &= ~(CR_SIGBIT(32) | CR_SIGBIT(33));
	for (int sig = SIG_HI; sig >= SIG_LO; sig--) {
		uint64_t h = 1;

		if ((cr_cfg.signals & (1ull << sig)) || (pending & CR_SIGBIT(sig)) ||
		    cr_sys_sighandler(sig, &h) < 0 || h != (uint64_t)(uintptr_t)SIG_DFL)
			continue;
		if (cr_glibc_sigaction(sig, &sa, &capsig_old) == 0)
			return sig;
	}
	return 0;
}

void cr_threads_block(uint64_t *added)
{
	uint64_t set = 0, old = 0;

	for (int sig = SIG_LO; sig <= SIG_HI; sig++)
		if (!(cr_cfg.signals & (1ull << sig)))
			set |= CR_SIGBIT(sig);
	*added = 0;
	if (cr_sys_sigprocmask(SIG_BLOCK, &set, &old) == 0)
		*added = set & ~old;
}

/* The process's pending signals (ShdPnd) and the caller's (SigPnd). */
static uint64_t pending_signals(void)
{
	char buf[1536];
	long n = read_file("/proc/self/status", buf, sizeof(buf));
	uint64_t a = 0, b = 0;
	const char *s;

	if (n <= 0)
		return 0;
	if ((s = field(buf, buf + n, "ShdPnd")))
		cr_parse_hex(s, buf + n, &a);
	if ((s = field(buf, buf + n, "SigPnd")))
		cr_parse_hex(s, buf + n, &b);
	return a | b;
}

/* tab.t[] from /proc/self/task: every thread but the caller, up to the limit. */
static void list_threads(void)
{
	uint64_t dbuf[256];	/* 2 KiB of records, 8-aligned */
	int fd = cr_sys_open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

	if (fd < 0) {
		tab.err = fd;
		return;
	}
	/* 4096 reads of 2 KiB: some 100,000 threads, more than a process has. */
	for (int k = 0; k < 4096; k++) {
		long n = sys_getdents64(fd, dbuf, sizeof(dbuf));
		size_t pos = 0;
		int tid;

		if (n <= 0) {
			if (n < 0)
				tab.err = (int)n;
			break;
		}
		while (cr_threads_dirent((const uint8_t *)dbuf, (size_t)n, &pos, &tid) == 1) {
			if (tid == tab.self)
				continue;
			if (tab.n == CR_THREADS_MAX) {
				tab.more++;
				continue;
			}
			memset(&tab.t[tab.n], 0, sizeof(tab.t[0]));
			tab.t[tab.n++].tid = tid;
		}
	}
	cr_sys_close(fd);
}

/* Queue the signal to every thread that can take it. */
static void send_all(void)
{
	siginfo_t si;
	long uid = cr_sys_getuid();

	for (unsigned i = 0; i < tab.n; i++) {
		struct cr_thread *t = &tab.t[i];
		int r;

		if (t->state != CR_THREAD_OK)
			continue;
		memset(&si, 0, sizeof(si));
		si.si_signo = capsig;
		si.si_code = SI_QUEUE;
		si.si_pid = tab.pid;
		si.si_uid = (uid_t)uid;
		si.si_value.sival_ptr = (void *)(uintptr_t)(COOKIE | (uint64_t)(gen & 0xffff) << 16 | i);
		__atomic_store_n(&slot[i], S_SENT, __ATOMIC_RELEASE);
		if ((r = sys_tgsigqueue(tab.pid, t->tid, capsig, &si)) < 0) {
			__atomic_store_n(&slot[i], S_IDLE, __ATOMIC_RELEASE);
			t->state = r == -ESRCH ? CR_THREAD_EXITING : CR_THREAD_FAILED;
		}
	}
}

/* Wait (bounded) for the answers; whoever has not answered times out. */
static void collect(void)
{
	uint64_t end = now_ns() + (uint64_t)CR_THREADS_WAIT_MS * 1000000u;

	/* 200 us steps: 5000 of them are the whole wait if the clock fails. */
	for (int k = 0; k < CR_THREADS_WAIT_MS * 5; k++) {
		unsigned waiting = 0;

		for (unsigned i = 0; i < tab.n; i++) {
			int s = __atomic_load_n(&slot[i], __ATOMIC_ACQUIRE);

			waiting += s == S_SENT || s == S_BUSY;
		}
		if (!waiting || now_ns() >= end)
			break;
		sleep_us(200);
	}
	for (unsigned i = 0; i < tab.n; i++) {
		int s = S_SENT;

		if (__atomic_compare_exchange_n(&slot[i], &s, S_LATE, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			tab.t[i].state = CR_THREAD_TIMEOUT;
			continue;
		}
		/* Copying its registers now: a few instructions more. */
		for (int k = 0; k < 100 && s == S_BUSY; k++) {
			sleep_us(100);
			s = __atomic_load_n(&slot[i], __ATOMIC_ACQUIRE);
		}
		if (s == S_BUSY)
			tab.t[i].state = CR_THREAD_TIMEOUT;	/* its regs are not used */
	}
}

/*
 * The threads examine() found blocking the signal that the last capture
 * parked: still on their way out of its handler (left_tid).  Examined again
 * every 200 us until none is, LEAVE_WAIT_MS at most; a thread that blocks
 * the signal of its own costs nothing unless it was parked a moment ago.
 */
static void examine_again(void)
{
	uint64_t end = now_ns() + (uint64_t)LEAVE_WAIT_MS * 1000000u;

	for (int k = 0; k < LEAVE_WAIT_MS * 5; k++) {
		unsigned again = 0;

		for (unsigned i = 0; i < tab.n; i++) {
			struct cr_thread *t = &tab.t[i];
			unsigned j = 0;

			if (t->state != CR_THREAD_BLOCKED)
				continue;
			while (j < nleft && left_tid[j] != t->tid)
				j++;
			if (j == nleft)
				continue;	/* not parked by the last capture */
			t->state = CR_THREAD_OK;
			examine(t);
			again += t->state == CR_THREAD_BLOCKED;
		}
		if (!again || now_ns() >= end)
			break;
		sleep_us(200);
	}
	nleft = 0;
}

const struct cr_threads *cr_threads_capture(unsigned timeout_ms)
{
	unsigned want = 0;

	if (__atomic_exchange_n(&taken, 1, __ATOMIC_ACQUIRE))
		return &busy_tab;
	tab.pid = cr_sys_getpid();
	tab.self = cr_sys_gettid();
	tab.n = tab.more = 0;
	tab.err = 0;
	capsig = 0;
	for (unsigned i = 0; i < CR_THREADS_MAX; i++)
		slot[i] = S_IDLE;
	list_threads();
	if (tab.n)
		capsig = take_signal(pending_signals());
	for (unsigned i = 0; i < tab.n; i++)
		examine(&tab.t[i]);
	examine_again();
	for (unsigned i = 0; i < tab.n; i++) {
		if (tab.t[i].state == CR_THREAD_OK && !capsig)
			tab.t[i].state = CR_THREAD_NOSIGNAL;
		want += tab.t[i].state == CR_THREAD_OK;
	}
	if (!want)
		return &tab;
	/* A generation's low 16 bits are never 0: open_gen is 0 before any
	   capture and 0xffff0000 after one, and no cookie may match those. */
	if (!(++gen & 0xffff))
		gen++;
	park_until = now_ns() + ((uint64_t)timeout_ms + CR_THREADS_WAIT_MS) * 1000000u;
	__atomic_store_n(&open_gen, gen & 0xffff, __ATOMIC_RELEASE);
	send_all();
	collect();
	return &tab;
}

void cr_threads_release(const struct cr_threads *ts)
{
	struct sigaction ign;

	if (ts != &tab)
		return;
	/* 0xffff0000 never matches a generation: nobody parks after this. */
	__atomic_store_n(&open_gen, 0xffff0000u, __ATOMIC_RELEASE);
	sys_futex_wake(&open_gen);
	/* The threads leave within microseconds; 200 ms for a loaded machine
	   (qemu-user), then the disposition goes back whatever they do: the
	   handler they are in stays mapped. */
	for (int k = 0; k < 1000; k++) {
		unsigned in = 0;

		for (unsigned i = 0; i < tab.n; i++)
			in += __atomic_load_n(&slot[i], __ATOMIC_ACQUIRE) == S_PARKED;
		if (!in)
			break;
		sleep_us(200);
	}
	nleft = 0;
	for (unsigned i = 0; i < tab.n; i++)
		if (__atomic_load_n(&slot[i], __ATOMIC_ACQUIRE) == S_LEFT)
			left_tid[nleft++] = tab.t[i].tid;
	if (capsig) {
		/*
		 * SIG_IGN first: POSIX (sigaction, "Setting a signal action to
		 * SIG_IGN for a signal that is pending shall cause the pending
		 * signal to be discarded") and Linux discard the signal still
		 * queued to a thread that timed out, which would otherwise end
		 * the process under the SIG_DFL given back.
		 */
		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		cr_glibc_sigaction(capsig, &ign, NULL);
		cr_glibc_sigaction(capsig, &capsig_old, NULL);
		capsig = 0;
	}
	__atomic_store_n(&taken, 0, __ATOMIC_RELEASE);
}
