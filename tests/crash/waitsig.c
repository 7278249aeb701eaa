/* SPDX-License-Identifier: MIT */
/*
 * waitsig [-t SECONDS] CMD ARGS...: run CMD and print how it ended, from the
 * real wait status: "exit N", "signal N core 0|1", or "timeout".
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i = 1, timeout = 60, status;
	pid_t pid;

	if (argc > 2 && strcmp(argv[1], "-t") == 0) {
		timeout = atoi(argv[2]);
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: waitsig [-t SECONDS] CMD ARGS...\n");
		return 2;
	}
	pid = fork();
	if (pid == 0) {
		execvp(argv[i], argv + i);
		_exit(127);
	}
	for (int t = 0; t < timeout * 100; t++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid) {
			if (WIFSIGNALED(status))
				printf("signal %d core %d\n", WTERMSIG(status),
				       WCOREDUMP(status) ? 1 : 0);
			else
				printf("exit %d\n", WEXITSTATUS(status));
			return 0;
		}
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	printf("timeout\n");
	return 0;
}
