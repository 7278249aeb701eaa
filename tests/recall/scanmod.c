/* SPDX-License-Identifier: MIT */
/*
 * A module without unwind tables (no .eh_frame, no .eh_frame_hdr) that
 * tests/unit/t-recall loads, captures through with the scan engine, and
 * unloads, then loads its twin at the same address: the twins differ only in
 * SCAN_PAD, the size of each frame, so their code lies at the same places but
 * a return address's row differs (16 and 40 bytes: gcc 12 and clang 14 on
 * x86_64 give the two the same code but for the frame's size; 8 does not).  Each function keeps its own return address
 * (__builtin_return_address, the compiler's knowledge of its frame): what the
 * capture must find.
 */
#define SCAN_N 5

typedef int scan_cb(void *const *ra, int n);

static void *ra[SCAN_N + 1];

__attribute__((noinline)) static int scan_step(int n, scan_cb *cb)
{
	char pad[SCAN_PAD];
	int r;

	__asm__ volatile("" : : "r"(pad) : "memory");	/* the array is in the frame */
	ra[n] = __builtin_return_address(0);
	r = n > 0 ? scan_step(n - 1, cb) : cb(ra, SCAN_N + 1);
	__asm__ volatile("" : "+r"(r) : "r"(pad) : "memory");	/* not a tail call */
	return r;
}

int scan_chain(scan_cb *cb)
{
	int r = scan_step(SCAN_N, cb);

	__asm__ volatile("" : "+r"(r) :: "memory");
	return r;
}
