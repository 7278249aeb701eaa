/* SPDX-License-Identifier: MIT */
/*
 * cr_mem_populate (mem.c): a debug file's mapping is mapped ahead of a long
 * read, from the start rounded down to 64 KiB but never below the mapping,
 * up to CR_POPULATE_MAX; nothing for memory that is not marked, for a short
 * read, or for a read before the mapping; and a file truncated under its
 * mapping costs no signal.  cr_mem_populate_write: fresh anonymous pages,
 * those asked and no more.  What is mapped is read off the mapping's Rss in
 * /proc/self/smaps.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../tap.h"
#include "mem.h"

#define KB 1024u
#define FILE_LEN (8192u * KB)	/* longer than CR_POPULATE_MAX */

/* The Rss of the mapping at p, in KiB, or -1. */
static long rss_kb(const void *p)
{
	char line[512];
	FILE *f = fopen("/proc/self/smaps", "r");
	int in = 0;
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/* A fresh mapping of the file fd (nothing of it mapped yet), and its cr_mem. */
static const uint8_t *map(int fd, struct cr_mem *m, int populate)
{
	void *p = mmap(NULL, FILE_LEN, PROT_READ, MAP_PRIVATE, fd, 0);

	if (p == MAP_FAILED)
		return NULL;
	cr_mem_buffer(m, 0, p, FILE_LEN);
	m->populate = (uint8_t)populate;
	return p;
}

int main(void)
{
	char path[] = "/tmp/t-populate.XXXXXX";
	int fd = mkstemp(path);
	static uint8_t block[64 * KB];
	const uint8_t *p;
	struct cr_mem m;
	uintptr_t from;
	long kb, want;

	if (fd < 0) {
		printf("ok %d # SKIP cr_mem_populate: no temporary file\n", ++tap_n);
		return tap_done();
	}
	unlink(path);
	memset(block, 0x5a, sizeof(block));
	for (unsigned o = 0; o < FILE_LEN; o += sizeof(block))
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			return 1;

	/* Does this kernel populate (5.14 and later)? */
	p = map(fd, &m, 1);
	if (!p)
		return 1;
	if (madvise((void *)(uintptr_t)p, 64 * KB, 22 /* MADV_POPULATE_READ */) != 0 ||
	    rss_kb(p) < 64) {
		munmap((void *)(uintptr_t)p, FILE_LEN);
		printf("ok %d # SKIP cr_mem_populate: madvise(MADV_POPULATE_READ) maps nothing here "
		       "(before Linux 5.14, or an emulator)\n",
		       ++tap_n);
		return tap_done();
	}
	munmap((void *)(uintptr_t)p, FILE_LEN);

	/* Mapped: from the read's start rounded down to 64 KiB of address (the
	   mapping's own address is not always so aligned: under valgrind it is
	   not), to its end, and what the kernel maps around the pages it
	   faults in (its fault-around: under valgrind 84 KiB more were seen;
	   allowed: 128 KiB, far from the 8 MiB file or the 4 MiB cap). */
	p = map(fd, &m, 1);
	tap_is_i64(rss_kb(p), 0, "a fresh mapping: nothing mapped");
	cr_mem_populate(&m, p + 100 * KB, 256 * KB);
	from = ((uintptr_t)p + 100 * KB) & ~(uintptr_t)(64 * KB - 1);
	want = (long)(((uintptr_t)p + 356 * KB - from) / KB);
	kb = rss_kb(p);
	tap_ok(kb >= want && kb <= want + 128,
	       "a read of 256 KiB at 100 KiB: mapped from its start's 64 KiB to its end");
	printf("# Rss %ld kB, %ld to %ld wanted\n", kb, want, want + 128);
	munmap((void *)(uintptr_t)p, FILE_LEN);

	p = map(fd, &m, 1);
	cr_mem_populate(&m, p + 4 * KB, FILE_LEN - 4 * KB);
	from = ((uintptr_t)p + 4 * KB) & ~(uintptr_t)(64 * KB - 1);
	from = from < (uintptr_t)p ? (uintptr_t)p : from;
	want = (long)(((uintptr_t)p + 4 * KB + CR_POPULATE_MAX - from) / KB);
	kb = rss_kb(p);
	tap_ok(kb >= want && kb <= want + 128,
	       "a read longer than CR_POPULATE_MAX: from the mapping's start (not below), that much");
	printf("# Rss %ld kB, %ld to %ld wanted\n", kb, want, want + 128);
	munmap((void *)(uintptr_t)p, FILE_LEN);

	p = map(fd, &m, 0);
	cr_mem_populate(&m, p, 1024 * KB);
	tap_is_i64(rss_kb(p), 0, "memory not marked: nothing");
	munmap((void *)(uintptr_t)p, FILE_LEN);

	p = map(fd, &m, 1);
	cr_mem_populate(&m, p, CR_POPULATE_MIN - 1);
	tap_is_i64(rss_kb(p), 0, "a read shorter than CR_POPULATE_MIN: nothing");
	cr_mem_populate(&m, p - 4 * KB, 1024 * KB);
	tap_is_i64(rss_kb(p), 0, "a read from before the mapping: nothing");
	munmap((void *)(uintptr_t)p, FILE_LEN);

	/* Truncated under its mapping: no signal, the pages that remain. */
	p = map(fd, &m, 1);
	if (ftruncate(fd, 128 * KB) != 0)
		return 1;
	cr_mem_populate(&m, p, 1024 * KB);
	tap_ok(1, "a file truncated under the mapping: no signal");
	kb = rss_kb(p);
	tap_ok(kb >= 0 && kb <= 128, "a file truncated under the mapping: at most what is left of it");
	munmap((void *)(uintptr_t)p, FILE_LEN);
	close(fd);

	/* cr_mem_populate_write: fresh anonymous pages, those asked alone. */
	{
		uint8_t *a = mmap(NULL, 256 * KB, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (a == MAP_FAILED)
			return 1;
		madvise(a, 256 * KB, MADV_NOHUGEPAGE);
		tap_is_i64(rss_kb(a), 0, "populate_write: a fresh anonymous mapping: nothing");
		cr_mem_populate_write(a + 64 * KB, 64 * KB);
		tap_is_i64(rss_kb(a), 64, "populate_write: the 64 KiB asked, mapped, no more");
		cr_mem_populate_write(a + 1, 4 * KB);
		tap_is_i64(rss_kb(a), 64, "populate_write: an address off a page: refused, nothing");
		munmap(a, 256 * KB);
	}
	return tap_done();
}
