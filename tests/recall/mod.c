/* SPDX-License-Identifier: MIT */
/*
 * A module that tests/unit/t-recall loads and unloads between captures: a
 * chain of RECALL_N noinline functions that calls back at its end.  Built
 * twice, with different sizes of padding before the chain, so that the two
 * libraries loaded in turn at the same address have their code and their
 * unwind tables at different places.
 */
#define PAD_FN(k) __attribute__((noinline, used)) int recall_pad##k(int x) { return x * (k + 3) + RECALL_PAD; }
PAD_FN(0)
#if RECALL_PAD > 1
PAD_FN(1) PAD_FN(2) PAD_FN(3) PAD_FN(4) PAD_FN(5) PAD_FN(6) PAD_FN(7)
#endif

typedef int recall_cb(void *);

__attribute__((noinline)) static int step(int n, recall_cb *cb, void *arg)
{
	int r = n > 0 ? step(n - 1, cb, arg) : cb(arg);

	__asm__ volatile("" : "+r"(r) :: "memory");	/* not a tail call */
	return r;
}

int recall_chain(int n, recall_cb *cb, void *arg)
{
	int r = step(n, cb, arg);

	__asm__ volatile("" : "+r"(r) :: "memory");
	return r;
}

#ifdef MODMEM_BIG
/* tests/unit/t-modmem: one more function, 12 KiB of code: more pages of text
   in the same 64 KiB slot, so the same span as the module without it. */
__attribute__((noinline, used)) int modmem_big(int x)
{
	__asm__ volatile(".fill 12288, 1, 0x90" ::: "memory");
	return x + 1;
}
#endif
