/* SPDX-License-Identifier: MIT */
/*
 * A module without unwind tables, built with frame pointers, whose work()
 * calls out of its cold part: GCC at -O2 moves the unlikely branch into a
 * fragment of its own, work.cold (a local symbol with a size), entered by a
 * jump with work's frame.  tests/unit/t-recall captures from the callback
 * under auto and fp: the fragment's first byte is no entry, so the scan
 * engine must not read a frame from there (it would take [sp] for the return
 * address); fp reads work's record.  Each function keeps its own return
 * address (__builtin_return_address): what the capture must find.  Compilers
 * that do not split (clang) still give a chain that must be walked.
 */
typedef int cold_cb(void *const *ra, int n);

static void *ra[3];

__attribute__((noinline, cold)) static int cold_call(int x, cold_cb *cb)
{
	int r;

	ra[0] = __builtin_return_address(0);	/* in work.cold */
	r = cb(ra, 3);
	__asm__ volatile("" : "+r"(r) :: "memory");	/* not a tail call */
	return r + x;
}

__attribute__((noinline)) static int work(int x, cold_cb *cb)
{
	int r = 0;

	ra[1] = __builtin_return_address(0);
	for (int i = 0; i < x; i++) {
		r += i * x;
		if (__builtin_expect(r == 24, 0))
			r += cold_call(r, cb);
	}
	__asm__ volatile("" : "+r"(r) :: "memory");
	return r;
}

int cold_chain(cold_cb *cb, int x)
{
	int r;

	ra[2] = __builtin_return_address(0);
	r = work(x, cb);
	__asm__ volatile("" : "+r"(r) :: "memory");
	return r;
}
