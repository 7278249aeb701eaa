/* SPDX-License-Identifier: MIT */
/*
 * bench/threads.c: a process of 16 threads that crashes (issue 18, "crash
 * latency with the full report"): main and 14 workers blocked in different
 * system calls (a condition variable, a pipe, nanosleep, poll, select,
 * epoll_wait, sigwaitinfo, accept, a mutex, a futex-backed join, a busy loop,
 * a recursion that sleeps at its bottom), and one that faults 8 calls deep
 * once all are in place.  -g -O2, the frames symbolized with file:line.
 * bench/latency -F: the time just before the fault goes to LATENCY_FD.
 */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 14

static pthread_barrier_t ready;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER, held = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int pipefd[2];
static volatile int spin = 1;

static void *w_cond(void *a)
{
	pthread_barrier_wait(&ready);
	pthread_mutex_lock(&mu);
	for (;;)
		pthread_cond_wait(&cv, &mu);
	return a;
}

static void *w_pipe(void *a)
{
	char c;

	pthread_barrier_wait(&ready);
	while (read(pipefd[0], &c, 1) != 0)
		;
	return a;
}

static void *w_sleep(void *a)
{
	pthread_barrier_wait(&ready);
	for (;;)
		sleep(100);
	return a;
}

static void *w_poll(void *a)
{
	struct pollfd p = { pipefd[0], POLLPRI, 0 };

	pthread_barrier_wait(&ready);
	for (;;)
		poll(&p, 1, -1);
	return a;
}

static void *w_select(void *a)
{
	pthread_barrier_wait(&ready);
	for (;;)
		select(0, NULL, NULL, NULL, NULL);
	return a;
}

static void *w_epoll(void *a)
{
	struct epoll_event ev;
	int ep = epoll_create1(0);

	pthread_barrier_wait(&ready);
	for (;;)
		epoll_wait(ep, &ev, 1, -1);
	return a;
}

static void *w_sigwait(void *a)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	pthread_barrier_wait(&ready);
	for (;;)
		sigwaitinfo(&s, NULL);
	return a;
}

static void *w_accept(void *a)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_STREAM, 0);

	if (s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof(sa)) == 0)
		listen(s, 1);
	pthread_barrier_wait(&ready);
	for (;;)
		accept(s, NULL, NULL);
	return a;
}

static void *w_mutex(void *a)
{
	pthread_barrier_wait(&ready);
	pthread_mutex_lock(&held);	/* main holds it */
	return a;
}

static void *w_busy(void *a)
{
	pthread_barrier_wait(&ready);
	while (spin)
		;
	return a;
}

__attribute__((noinline)) static int deep(int n)
{
	if (n == 0) {
		for (;;)
			sleep(100);
	}
	return deep(n - 1) + 1;
}

static void *w_deep(void *a)
{
	pthread_barrier_wait(&ready);
	return (void *)(long)deep(12);
}

static void *w_join(void *a)
{
	pthread_t t;

	pthread_create(&t, NULL, w_sleep, NULL);	/* one of the 14 */
	pthread_join(t, NULL);
	return a;
}

__attribute__((noinline)) static void fault(volatile int *p, int n)
{
	if (n == 0) {
		const char *fd = getenv("LATENCY_FD");

		if (fd) {
			struct timespec t;

			clock_gettime(CLOCK_MONOTONIC, &t);
			if (write(atoi(fd), &t, sizeof(t)) != (ssize_t)sizeof(t))
				_exit(3);
		}
		*p = 1;
	}
	fault(p, n - 1);
	__asm__ volatile("" ::: "memory");
}

static void *w_crash(void *a)
{
	pthread_barrier_wait(&ready);
	usleep(20000);	/* the others in their calls */
	fault(NULL, 8);
	return a;
}

int main(void)
{
	static void *(*const fn[])(void *) = { w_cond,	  w_pipe, w_sleep, w_poll, w_select,
					       w_epoll,	  w_sigwait, w_accept, w_mutex, w_busy,
					       w_deep,	  w_join,   w_cond,	w_crash };
	pthread_t t;

	if (pipe(pipefd) < 0)
		return 2;
	pthread_mutex_lock(&held);
	/* 14 threads here, w_join's child, and main: 16. */
	pthread_barrier_init(&ready, NULL, WORKERS + 1);
	for (unsigned i = 0; i < sizeof(fn) / sizeof(fn[0]); i++)
		if (pthread_create(&t, NULL, fn[i], NULL) != 0)
			return 2;
	pthread_barrier_wait(&ready);
	for (;;)
		pause();
}
