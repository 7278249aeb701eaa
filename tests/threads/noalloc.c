/* SPDX-License-Identifier: MIT */
/*
 * Threads that never allocate, made and joined; then the mappings of 60 MiB
 * or more are counted (a glibc malloc arena reserves 64 MiB: a thread that
 * allocates for the first time gets one).  run-threads.sh compares the
 * count with libcrash.so preloaded and without: libcrash's pthread_create
 * wrapper must not allocate in the new thread (nor change the program's
 * memory in any other way a count of large mappings sees).
 */
#include <pthread.h>
#include <stdio.h>

static void *idle(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t t[4];
	char line[512];
	unsigned long lo, hi;
	int big = 0;
	FILE *m;

	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, idle, NULL) != 0)
			return 2;
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	m = fopen("/proc/self/maps", "r");
	if (!m)
		return 2;
	while (fgets(line, sizeof(line), m))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && hi - lo >= (60ul << 20))
			big++;
	fclose(m);
	printf("large mappings: %d\n", big);
	return 0;
}
