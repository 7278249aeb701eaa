/* SPDX-License-Identifier: MIT */
/*
 * latency [-F] [-s SIG] [-a VAR=VALUE]... [-b VAR=VALUE]... RUNS PRELOAD_A PRELOAD_B -- CMD...:
 * run CMD RUNS times with LD_PRELOAD=PRELOAD_A and RUNS times with PRELOAD_B
 * ("-" for none), in pairs (A B, then B A) so drift hits both, and print the
 * median wall time of each in milliseconds and the median of the paired
 * differences A - B.
 *
 * -a, -b: set VAR=VALUE in A's or B's environment only (the same library
 *   with two settings: CRASH_SYMBOLS=full against CRASH_SYMBOLS=mangled).
 * -F: from the fault: CMD writes a struct timespec (CLOCK_MONOTONIC) to the
 *   descriptor named by LATENCY_FD just before it crashes, and each run is
 *   timed from then to the parent's seeing the death, not from the fork (the
 *   loading of large modules, which both sides pay, is left out).  Prints the
 *   three figures from the fault, then the same three for whole processes.
 * -s SIG: each run must end by signal SIG (a handler that crashes or hangs
 *   must not pass for a fast one); fail otherwise.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SETS 16

struct side {
	const char *preload;
	char *set[MAX_SETS];
	int nset;
};

static int from_fault, want_sig;

static double ms(const struct timespec *t0, const struct timespec *t1)
{
	return (t1->tv_sec - t0->tv_sec) * 1e3 + (t1->tv_nsec - t0->tv_nsec) / 1e6;
}

/* One run; *fault gets the time from the fault (-F), the return value the
   whole process's. */
static double run(char **cmd, const struct side *s, double *fault)
{
	struct timespec t0, t1, tf;
	int fds[2] = { -1, -1 }, status, i;
	pid_t pid;

	if (from_fault && pipe2(fds, O_CLOEXEC) < 0) {
		perror("latency: pipe2");
		exit(1);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		if (strcmp(s->preload, "-") == 0)
			unsetenv("LD_PRELOAD");
		else
			setenv("LD_PRELOAD", s->preload, 1);
		for (i = 0; i < s->nset; i++)
			putenv(s->set[i]);
		if (from_fault) {
			char fd[16];

			fcntl(fds[1], F_SETFD, 0);
			snprintf(fd, sizeof(fd), "%d", fds[1]);
			setenv("LATENCY_FD", fd, 1);
		}
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (want_sig && !(WIFSIGNALED(status) && WTERMSIG(status) == want_sig)) {
		fprintf(stderr, "latency: %s (LD_PRELOAD=%s%s%s) ended with status 0x%x, not signal %d\n",
			cmd[0], s->preload, s->nset ? ", " : "", s->nset ? s->set[0] : "", status,
			want_sig);
		exit(1);
	}
	if (from_fault) {
		close(fds[1]);
		if (read(fds[0], &tf, sizeof(tf)) != (ssize_t)sizeof(tf)) {
			fprintf(stderr, "latency: -F: %s wrote no time to LATENCY_FD\n", cmd[0]);
			exit(1);
		}
		close(fds[0]);
		*fault = ms(&tf, &t1);
	}
	return ms(&t0, &t1);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void usage(void)
{
	fprintf(stderr, "usage: latency [-F] [-s SIG] [-a VAR=VALUE]... [-b VAR=VALUE]... "
			"RUNS PRELOAD_A PRELOAD_B -- CMD...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct side sa = { 0 }, sb = { 0 };
	int runs, i, opt;
	double fa, fb;

	while ((opt = getopt(argc, argv, "+Fs:a:b:")) != -1) {
		struct side *s = opt == 'a' ? &sa : &sb;

		switch (opt) {
		case 'F':
			from_fault = 1;
			break;
		case 's':
			want_sig = atoi(optarg);
			break;
		case 'a':
		case 'b':
			if (!strchr(optarg, '=') || s->nset == MAX_SETS)
				usage();
			s->set[s->nset++] = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 6 || strcmp(argv[4], "--") != 0)
		usage();
	runs = atoi(argv[1]);
	sa.preload = argv[2];
	sb.preload = argv[3];
	double *a = calloc((size_t)runs, sizeof(double)), *b = calloc((size_t)runs, sizeof(double));
	double *d = calloc((size_t)runs, sizeof(double));
	double *xa = calloc((size_t)runs, sizeof(double)), *xb = calloc((size_t)runs, sizeof(double));
	double *xd = calloc((size_t)runs, sizeof(double));
	for (i = 0; i < 3; i++)	/* warm the page cache */
		run(argv + 5, &sa, &fa), run(argv + 5, &sb, &fb);
	/* Each pair in turn A B, then B A: whichever runs second gains from the
	   first's warm caches (~0.004 ms here), and alternating cancels that. */
	for (i = 0; i < runs; i++) {
		if (i & 1) {
			b[i] = run(argv + 5, &sb, &fb);
			a[i] = run(argv + 5, &sa, &fa);
		} else {
			a[i] = run(argv + 5, &sa, &fa);
			b[i] = run(argv + 5, &sb, &fb);
		}
		d[i] = a[i] - b[i];
		xa[i] = fa, xb[i] = fb, xd[i] = fa - fb;
	}
	if (from_fault)
		printf("%.3f %.3f %.3f ", median(xa, runs), median(xb, runs), median(xd, runs));
	printf("%.3f %.3f %.3f\n", median(a, runs), median(b, runs), median(d, runs));
	return 0;
}
