/* SPDX-License-Identifier: MIT */
/* /proc/self/maps parsing: text in, table out; and the live file. */
#include <stdint.h>

#include "../tap.h"
#include "maps.h"

static struct cr_maps t;

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
	tap_is_u64(t.m[1].flags, CR_MAP_R | CR_MAP_X, "r-x");
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
	return tap_done();
}
