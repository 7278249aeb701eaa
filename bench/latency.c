/* SPDX-License-Identifier: MIT */
/*
 * latency RUNS PRELOAD_A PRELOAD_B -- CMD...: run CMD RUNS times with
 * LD_PRELOAD=PRELOAD_A and RUNS times with PRELOAD_B ("-" for none), in
 * pairs (A B, then B A) so drift hits both, and print the median wall time
 * of each in milliseconds and the median of the paired differences A - B.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double run(char **cmd, const char *preload)
{
	struct timespec t0, t1;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		if (strcmp(preload, "-") == 0)
			unsetenv("LD_PRELOAD");
		else
			setenv("LD_PRELOAD", preload, 1);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
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

int main(int argc, char **argv)
{
	int runs, i;

	if (argc < 6 || strcmp(argv[4], "--") != 0) {
		fprintf(stderr, "usage: latency RUNS PRELOAD_A PRELOAD_B -- CMD...\n");
		return 2;
	}
	runs = atoi(argv[1]);
	double *a = calloc((size_t)runs, sizeof(double)), *b = calloc((size_t)runs, sizeof(double));
	double *d = calloc((size_t)runs, sizeof(double));
	for (i = 0; i < 3; i++)	/* warm the page cache */
		run(argv + 5, argv[2]), run(argv + 5, argv[3]);
	/* Each pair in turn A B, then B A: whichever runs second gains from the
	   first's warm caches (~0.004 ms here), and alternating cancels that. */
	for (i = 0; i < runs; i++) {
		if (i & 1) {
			b[i] = run(argv + 5, argv[3]);
			a[i] = run(argv + 5, argv[2]);
		} else {
			a[i] = run(argv + 5, argv[2]);
			b[i] = run(argv + 5, argv[3]);
		}
		d[i] = a[i] - b[i];
	}
	printf("%.3f %.3f %.3f\n", median(a, runs), median(b, runs), median(d, runs));
	return 0;
}
