/* SPDX-License-Identifier: MIT */
/* /proc/self/maps parsing: text in, table out; and the live file. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../tap.h"
#include "maps.h"

static struct cr_maps t, q;

/* The same answer from the loaded table (t) and the query mode (q). */
static int same_find(uint64_t a)
{
	const struct cr_map *x = cr_maps_find(&t, a), *y = cr_maps_find(&q, a);

	if (!x || !y)
		return !x && !y;
	return x->lo == y->lo && x->hi == y->hi &&
	       (x->flags & (CR_MAP_R | CR_MAP_W | CR_MAP_X | CR_MAP_FILE)) == y->flags;
}

static int same_stack(uint64_t a)
{
	uint64_t l1 = 1, h1 = 1, l2 = 2, h2 = 2;
	int r1 = cr_maps_stack(&t, a, &l1, &h1), r2 = cr_maps_stack(&q, a, &l2, &h2);

	return r1 == r2 && (r1 < 0 || (l1 == l2 && h1 == h2));
}

int main(void)
{
	static const char text[] =
		"555555554000-555555556000 r--p 00000000 08:01 123  /usr/bin/app\n"
		"555555556000-555555558000 r-xp 00002000 08:01 123  /usr/bin/app\n"
		"7ffff7fc1000-7ffff7fc5000 r--p 00000000 00:00 0    [vvar]\n"
		"7ffff7fc5000-7ffff7fc7000 r-xp 00000000 00:00 0    [vdso]\n"
		"7ffff7dff000-7ffff7e00000 ---p 00000000 00:00 0 \n"
		"7ffffffde000-7ffffffff000 rw-p 00000000 00:00 0                          [stack]\n"
		"garbage line\n"
		"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0  [vsyscall]";
	uint64_t lo, hi;
	const struct cr_map *m;

	tap_is_u64((uint64_t)cr_maps_parse(&t, text, sizeof(text) - 1), 7, "7 mappings, junk skipped");
	tap_is_u64(t.m[0].lo, 0x555555554000, "lo");
	tap_is_u64(t.m[0].hi, 0x555555556000, "hi");
	tap_is_u64(t.m[1].flags, CR_MAP_R | CR_MAP_X | CR_MAP_FILE, "r-x, a file's (inode 123)");
	tap_is_u64(t.m[3].flags, CR_MAP_R | CR_MAP_X, "[vdso]: inode 0, no file");
	tap_is_u64(t.m[5].flags, CR_MAP_R | CR_MAP_W | CR_MAP_STACK, "[stack] after padding");
	tap_is_u64(t.m[6].flags, CR_MAP_X, "last line without newline");
	m = cr_maps_find(&t, 0x555555556123);
	tap_ok(m && m->lo == 0x555555556000, "find in text");
	tap_ok(cr_maps_find(&t, 0x555555558000) == NULL, "hi is exclusive");
	tap_ok(cr_maps_find(&t, 0x1000) == NULL, "below everything");
	tap_ok(cr_maps_stack(&t, 0x7ffffffe0000, &lo, &hi) == 0 && lo == 0x7ffffffde000 &&
		       hi == 0x7ffffffff000,
	       "stack bounds");
	tap_ok(cr_maps_stack(&t, 0x7ffffffdd000, &lo, &hi) == 0 && lo == 0x7ffffffdd000 &&
		       hi == 0x7ffffffff000,
	       "sp in the guard gap: overflow");
	tap_ok(cr_maps_stack(&t, 0x7ffff7dff800, &lo, &hi) < 0,
	       "PROT_NONE page below a non-writable mapping: no stack");
	tap_ok(cr_maps_stack(&t, 0x600000000000, &lo, &hi) < 0, "far from any stack");

	/* A very long line (a long path) must not break the next one. */
	char big[1200];
	size_t k = (size_t)snprintf(big, sizeof(big), "1000-2000 r-xp 00000000 00:00 0 /");
	memset(big + k, 'a', 900);
	k += 900;
	k += (size_t)snprintf(big + k, sizeof(big) - k, "\n3000-4000 rw-p 0 00:00 0 [stack]\n");
	tap_is_u64((uint64_t)cr_maps_parse(&t, big, k), 2, "long line");
	tap_is_u64(t.m[1].flags, CR_MAP_R | CR_MAP_W | CR_MAP_STACK, "line after a long one");

	/* Lines cut between reads, at every position: the same table. */
	int same = 1;
	for (size_t chunk = 1; chunk < sizeof(text); chunk++) {
		struct cr_map first[7];

		cr_maps_parse(&t, text, sizeof(text) - 1);
		memcpy(first, t.m, sizeof(first));
		if (cr_maps_parse_chunks(&t, text, sizeof(text) - 1, chunk) != 7)
			same = 0;
		for (int i = 0; i < 7; i++)
			if (first[i].lo != t.m[i].lo || first[i].hi != t.m[i].hi ||
			    first[i].flags != t.m[i].flags)
				same = 0;
	}
	tap_ok(same, "chunked parse equals whole parse for every chunk size");
	tap_is_u64((uint64_t)cr_maps_parse_chunks(&t, big, k, 7), 2, "long line, cut in chunks");
	tap_is_u64(t.m[1].flags, CR_MAP_R | CR_MAP_W | CR_MAP_STACK, "line after a long one, chunks");

	/* The live file: our own code is executable, our stack is a stack. */
	int local = 0;
	tap_ok(cr_maps_load(&t) > 5, "live maps load");
	m = cr_maps_find(&t, (uintptr_t)&main);
	tap_ok(m && (m->flags & CR_MAP_X), "main is in an executable mapping");
	tap_ok(cr_maps_stack(&t, (uintptr_t)&local, &lo, &hi) == 0 && lo <= (uintptr_t)&local &&
		       (uintptr_t)&local < hi,
	       "our stack found");
	tap_ok(!cr_maps_find(&t, 0) , "page 0 unmapped");

	/*
	 * Query mode (PROCMAP_QUERY, Linux 6.11+), where the kernel has it: the
	 * same answers as the text for code, data, heap, stack, a PROT_NONE
	 * guard page under a writable mapping (the thread-stack overflow rule),
	 * unmapped addresses.
	 */
	uint8_t *g = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *heap = malloc(100);
	int r = cr_maps_open(&q);

	if (g == MAP_FAILED || !heap || r <= 0) {
		tap_ok(0, "setup of the query-mode checks");
	} else if (!q.query) {
		printf("# no PROCMAP_QUERY here (kernel before 6.11, or qemu-user): %d mappings read\n", r);
		tap_ok(r > 5 && same_find((uintptr_t)&main), "cr_maps_open falls back to the text");
		cr_maps_close(&q);
	} else {
		munmap(g, 4096);			/* a hole below */
		mprotect(g + 4096, 4096, PROT_NONE);	/* a guard page, writable above */
		tap_ok(cr_maps_load(&t) > 5, "query mode: the text reloaded to compare");
		uint64_t as[] = { (uintptr_t)&main, (uintptr_t)&t, (uintptr_t)heap,
				  (uintptr_t)&local, (uintptr_t)g, (uintptr_t)g + 4096 + 8,
				  (uintptr_t)g + 2 * 4096 + 8, 0, 4096, (uintptr_t)&memcpy,
				  (uintptr_t)&local - 65536 * 16, 0x10000000000ull };
		unsigned nf = 0, ns = 0;

		for (unsigned i = 0; i < sizeof(as) / sizeof(as[0]); i++) {
			nf += same_find(as[i]);
			ns += same_stack(as[i]);
		}
		tap_is_u64(nf, sizeof(as) / sizeof(as[0]), "query mode: every mapping as the text says");
		tap_is_u64(ns, sizeof(as) / sizeof(as[0]), "query mode: every stack bound as the text's");
		uint64_t lo2, hi2;
		tap_ok(cr_maps_stack(&q, (uintptr_t)g + 4096 + 8, &lo2, &hi2) == 0 &&
			       lo2 == (uintptr_t)g + 4096 + 8 && hi2 >= (uintptr_t)g + 3 * 4096,
		       "query mode: sp in a guard page: the writable mapping above");
		tap_ok(q.n >= 3 && q.n < 20, "query mode: only what was asked about is kept");
		cr_maps_close(&q);
		tap_ok(!q.query, "closed");
		/* The kernel stops answering (here: the fd is gone): the text. */
		tap_ok(cr_maps_open(&q) == 1 && q.query, "query mode again");
		close(q.qfd);
		const struct cr_map *h = cr_maps_find(&q, (uintptr_t)heap);
		tap_ok(h && !q.query && q.n > 5 && same_find((uintptr_t)heap) && same_stack((uintptr_t)&local),
		       "a failed query: the text read, the same answers");
		cr_maps_close(&q);
	}
	free(heap);
	return tap_done();
}
