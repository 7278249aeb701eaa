/* SPDX-License-Identifier: MIT */
/*
 * A 18-thread process for the report's thread sections (tests/threads/run-threads.sh):
 * main (in pthread_join) and 17 threads, each blocked somewhere else (a condition
 * variable, a pipe read, nanosleep, poll, accept, waitpid, a busy loop, every signal
 * blocked, inside a signal handler, a mutex, epoll_wait, sigwaitinfo, a deep recursion,
 * select, stopped by a tracer, exited but not reaped by that tracer), and one that crashes (argv[1] "crash") or sleeps while
 * main requests a report ("request": crash_report_fd twice, then every thread finishes
 * its work and main says so).  Each thread is named after what it does
 * (pthread_setname_np) and blocks in a function of that name, which the report must show.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "crash.h"

#define NOINLINE __attribute__((noinline))

static atomic_int ready, done, stop;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER, held = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int pipe_rd[2], pipe_poll[2], pipe_ep[2], pipe_sel[2], lsock = -1;
static char sock_path[108];
static pid_t child;
static volatile int errno_kept = -1;

static void arrive(void)
{
	atomic_fetch_add(&ready, 1);
}

static void leave(void)
{
	atomic_fetch_add(&done, 1);
}

NOINLINE static void thr_cond(void)
{
	pthread_mutex_lock(&mu);
	arrive();
	while (!atomic_load(&stop))
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

NOINLINE static void thr_pipe(void)
{
	char c;

	arrive();
	while (read(pipe_rd[0], &c, 1) < 0 && errno == EINTR)
		;
}

NOINLINE static void thr_sleep(void)
{
	arrive();
	while (!atomic_load(&stop)) {
		struct timespec ts = { 0, 300 * 1000000 };

		nanosleep(&ts, NULL);	/* a signal's handler makes it EINTR: loop */
	}
}

NOINLINE static void thr_poll(void)
{
	struct pollfd p = { .fd = pipe_poll[0], .events = POLLIN };

	arrive();
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
}

NOINLINE static void thr_accept(void)
{
	int fd;

	arrive();
	while ((fd = accept(lsock, NULL, NULL)) < 0 && errno == EINTR)
		;
	if (fd >= 0)
		close(fd);
}

NOINLINE static void thr_waitpid(void)
{
	/* Forked here: PR_SET_PDEATHSIG fires when the thread that forked ends, and
	   main ends early in a crash. */
	if ((child = fork()) == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pause();
		_exit(0);
	}
	arrive();
	while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
		;
}

NOINLINE static void thr_busy(void)
{
	volatile unsigned long n = 0;

	arrive();
	errno = 4321;
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		n++;
	errno_kept = errno;
}

NOINLINE static void thr_blocked(void)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	arrive();
	while (!atomic_load(&stop)) {
		struct timespec ts = { 0, 20 * 1000000 };

		nanosleep(&ts, NULL);
	}
}

static void on_usr1(int sig)
{
	(void)sig;
	arrive();
	while (!atomic_load(&stop)) {
		struct timespec ts = { 0, 20 * 1000000 };

		nanosleep(&ts, NULL);
	}
}

NOINLINE static void thr_handler(void)
{
	raise(SIGUSR1);	/* on_usr1 runs until stop */
}

NOINLINE static void thr_mutex(void)
{
	arrive();
	pthread_mutex_lock(&held);
	pthread_mutex_unlock(&held);
}

NOINLINE static void thr_epoll(void)
{
	struct epoll_event ev = { .events = EPOLLIN }, got;
	int ep = epoll_create1(0), r;

	epoll_ctl(ep, EPOLL_CTL_ADD, pipe_ep[0], &ev);
	arrive();
	while ((r = epoll_wait(ep, &got, 1, -1)) < 0 && errno == EINTR)
		;
	/* Only the pipe's byte at the end wakes it: say so if anything else did
	   (seen once under qemu-riscv64: the thread had left before a report). */
	if (r != 1)
		fprintf(stderr, "t-epoll: epoll_wait returned %d, errno %d\n", r, r < 0 ? errno : 0);
	close(ep);
}

NOINLINE static void thr_sigwait(void)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	arrive();
	while (sigwaitinfo(&s, NULL) < 0 && errno == EINTR)
		;
}

/* 20 frames of itself: a local read after the call keeps each frame (no loop). */
NOINLINE static int thr_deep(int n)
{
	volatile int here = n;

	if (n == 0) {
		arrive();
		while (!atomic_load(&stop))
			usleep(20000);
		return 0;
	}
	return thr_deep(n - 1) + here;
}

NOINLINE static void thr_select(void)
{
	fd_set r;

	arrive();
	for (;;) {
		FD_ZERO(&r);
		FD_SET(pipe_sel[0], &r);
		if (select(pipe_sel[0] + 1, &r, NULL, NULL, NULL) >= 0 || errno != EINTR)
			break;
	}
}

static atomic_int traced_tid, exited_tid, exit_now;

/* Exits while a tracer holds it: a zombie until the tracer reaps it (exit_notify). */
NOINLINE static void thr_exited(void)
{
	atomic_store(&exited_tid, (int)gettid());
	arrive();
	while (!atomic_load(&exit_now))
		usleep(1000);
}

/* Wait (2 s at most) for thread tid to be a zombie: 1 if it is. */
static int zombie(int tid)
{
	char path[64], buf[4096];

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	for (int i = 0; i < 2000; i++) {
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

		if (f)
			fclose(f);
		buf[n] = 0;
		if (strstr(buf, "\nState:\tZ"))
			return 1;
		usleep(1000);
	}
	return 0;
}

/* Stopped by a tracer (a child that seizes and interrupts it): a thread that cannot run a handler. */
NOINLINE static void thr_traced(void)
{
	atomic_store(&traced_tid, (int)gettid());
	arrive();
	while (!atomic_load(&stop)) {
		struct timespec ts = { 0, 20 * 1000000 };

		nanosleep(&ts, NULL);
	}
}

/* Wait (2 s at most) for thread tid to leave /proc/self/task. */
static void gone(int tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d", tid);
	for (int i = 0; i < 2000 && access(path, F_OK) == 0; i++)
		usleep(1000);
}

/*
 * A child process that stops thread tid in a ptrace stop (PTRACE_SEIZE, PTRACE_INTERRUPT)
 * and holds it until it dies, and traces thread tid2, which then exits and stays a zombie.
 * Its pid, or -1 when the stop could not be made (no ptrace here: a container's seccomp,
 * qemu-user; tid2 then exits for good).
 */
static pid_t trace_thread(int tid, int tid2)
{
	int p[2], st;
	char ok = 0;
	pid_t tr;

	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY);	/* Yama's ptrace_scope 1 */
	if (pipe(p))
		return -1;
	if ((tr = fork()) == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		ok = ptrace(PTRACE_SEIZE, tid, 0, 0) == 0 && ptrace(PTRACE_INTERRUPT, tid, 0, 0) == 0 &&
		     waitpid(tid, &st, __WALL) == tid && ptrace(PTRACE_SEIZE, tid2, 0, 0) == 0;
		if (write(p[1], &ok, 1) < 0)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (tr < 0 || read(p[0], &ok, 1) != 1 || !ok) {
		if (tr > 0) {
			kill(tr, SIGKILL);
			waitpid(tr, NULL, 0);
		}
		tr = -1;
	}
	close(p[0]);
	fprintf(stderr, "traced: %d\n", tr > 0);
	atomic_store(&exit_now, 1);
	fprintf(stderr, "zombie: %d\n", tr > 0 && zombie(tid2));
	if (tr < 0)	/* untraced, it ends: gone from /proc before anyone counts */
		gone(tid2);
	return tr;
}

static int crash_mode;
#define NJOBS 17

NOINLINE static void thr_crash(void)
{
	/* Everyone inside the call it blocks in (a little after arriving). */
	while (atomic_load(&ready) < (int)NJOBS - 1)
		usleep(1000);
	usleep(100000);
	if (crash_mode) {
		trace_thread(atomic_load(&traced_tid), atomic_load(&exited_tid));
		DIR *d = opendir("/proc/self/task");
		int n = 0;

		while (d && readdir(d))
			n++;
		if (d)
			closedir(d);
		fprintf(stderr, "threads in /proc: %d\n", n - 2);
		*(volatile int *)0 = 1;
	}
	arrive();
	while (!atomic_load(&stop))
		usleep(20000);
}

static const struct {
	const char *name;
	void (*fn)(void);
} jobs[] = {
	{ "t-cond", thr_cond }, { "t-pipe", thr_pipe }, { "t-sleep", thr_sleep },
	{ "t-poll", thr_poll }, { "t-accept", thr_accept }, { "t-waitpid", thr_waitpid },
	{ "t-busy", thr_busy }, { "t-blocked", thr_blocked }, { "t-handler", thr_handler },
	{ "t-mutex", thr_mutex }, { "t-epoll", thr_epoll }, { "t-sigwait", thr_sigwait },
	{ "t-deep", NULL }, { "t-select", thr_select }, { "t-traced", thr_traced },
	{ "t-exited", thr_exited }, { "t-crash", thr_crash },
};
_Static_assert(NJOBS == sizeof(jobs) / sizeof(jobs[0]), "NJOBS");

static void *start(void *arg)
{
	unsigned i = (unsigned)(uintptr_t)arg;

	pthread_setname_np(pthread_self(), jobs[i].name);
	if (jobs[i].fn)
		jobs[i].fn();
	else
		thr_deep(20);
	leave();
	return NULL;
}

/* Wake every thread out of what it blocks in. */
static void finish(pthread_t *t)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };

	atomic_store(&stop, 1);
	pthread_mutex_lock(&mu);
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	if (write(pipe_rd[1], "x", 1) < 0 || write(pipe_poll[1], "x", 1) < 0 ||
	    write(pipe_ep[1], "x", 1) < 0 || write(pipe_sel[1], "x", 1) < 0)
		perror("write");
	memcpy(a.sun_path, sock_path, sizeof(a.sun_path));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		perror("connect");
	close(fd);
	kill(child, SIGKILL);
	pthread_mutex_unlock(&held);
	for (unsigned i = 0; i < NJOBS; i++)
		if (!strcmp(jobs[i].name, "t-sigwait"))
			pthread_kill(t[i], SIGUSR2);
}

/* "many": more threads than a report shows (CR_THREADS_MAX, 64). */
#define NMANY 80

static void *many_start(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "t-many");
	arrive();
	while (!atomic_load(&stop))
		usleep(20000);
	leave();
	return NULL;
}

static int many(void)
{
	static pthread_t t[NMANY];

	for (unsigned i = 0; i < NMANY; i++)
		if (pthread_create(&t[i], NULL, many_start, NULL))
			return 2;
	while (atomic_load(&ready) < NMANY)
		usleep(1000);
	crash_report_fd(1);
	atomic_store(&stop, 1);
	for (unsigned i = 0; i < NMANY; i++)
		pthread_join(t[i], NULL);
	printf("finished: %d of %d threads\n", atomic_load(&done), NMANY);
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	pthread_t t[NJOBS];
	struct sigaction sa;
	pid_t tracer;

	if (argc < 2 || (strcmp(argv[1], "crash") && strcmp(argv[1], "request") &&
			 strcmp(argv[1], "many"))) {
		fprintf(stderr, "usage: threads crash|request|many\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "many"))
		return many();
	crash_mode = !strcmp(argv[1], "crash");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pipe(pipe_rd) || pipe(pipe_poll) || pipe(pipe_ep) || pipe(pipe_sel))
		return 2;
	snprintf(sock_path, sizeof(sock_path), "/tmp/libcrash-threads-%d.sock", (int)getpid());
	memcpy(a.sun_path, sock_path, sizeof(a.sun_path));
	unlink(sock_path);
	lsock = socket(AF_UNIX, SOCK_STREAM, 0);
	if (lsock < 0 || bind(lsock, (struct sockaddr *)&a, sizeof(a)) || listen(lsock, 4))
		return 2;
	if (crash_mode)
		unlink(sock_path);	/* the listening socket stays; nobody connects */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_mutex_lock(&held);
	for (unsigned i = 0; i < NJOBS; i++)
		if (pthread_create(&t[i], NULL, start, (void *)(uintptr_t)i))
			return 2;
	if (crash_mode) {
		pthread_join(t[NJOBS - 1], NULL);	/* never returns: t-crash crashes */
		return 3;
	}
	while (atomic_load(&ready) < (int)NJOBS)
		usleep(1000);
	usleep(100000);
	tracer = trace_thread(atomic_load(&traced_tid), atomic_load(&exited_tid));
	crash_report_fd(1);
	crash_report_fd(1);	/* a second capture works as the first */
	if (tracer > 0) {	/* the tracer's end lets the thread go on */
		kill(tracer, SIGKILL);
		waitpid(tracer, NULL, 0);
	}
	finish(t);
	for (unsigned i = 0; i < NJOBS; i++)
		pthread_join(t[i], NULL);
	unlink(sock_path);
	printf("finished: %d of %d threads, errno kept: %d\n", atomic_load(&done), (int)NJOBS,
	       errno_kept);
	return 0;
}
