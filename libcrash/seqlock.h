/* SPDX-License-Identifier: MIT */
/*
 * Sequence locks for the lock-free slot caches: the CFI row cache (one
 * generation for all its slots), the CIE and gap memos (cfi/cache.c), the modules
 * found at crash time (module.c).  The word is even when stable, odd while a
 * writer writes; 0 for a slot never written.  A writer claims it with a
 * compare-and-swap or, when another writer has it, does not write at all
 * (that writer may be the code a signal handler interrupted, on the same
 * thread); a reader takes what it read as a miss if the word was odd or
 * changed meanwhile.  Data is copied a word at a time with relaxed atomics,
 * so a reader racing a writer reads torn values, never undefined behaviour,
 * and the sequence check throws them away.  AS-safe, lock-free, no waiting.
 */
#ifndef CR_SEQLOCK_H
#define CR_SEQLOCK_H

#include "common.h"

/* A reader's start: the word, odd if a writer is at work (then: a miss). */
static inline uint64_t cr_seq_begin(const uint64_t *seq)
{
	return __atomic_load_n(seq, __ATOMIC_ACQUIRE);
}

/* A reader's end: 1 if no writer wrote since cr_seq_begin gave s. */
static inline int cr_seq_still(const uint64_t *seq, uint64_t s)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(seq, __ATOMIC_RELAXED) == s;
}

/* A writer's start: 1 with *s the word it claimed (made odd), 0 if another writer has it. */
static inline int cr_seq_claim(uint64_t *seq, uint64_t *s)
{
	*s = __atomic_load_n(seq, __ATOMIC_RELAXED);
	if ((*s & 1) ||
	    !__atomic_compare_exchange_n(seq, s, *s + 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return 0;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return 1;
}

/* A writer's end: the word even again, past s. */
static inline void cr_seq_release(uint64_t *seq, uint64_t s)
{
	__atomic_store_n(seq, s + 2, __ATOMIC_RELEASE);
}

/* size bytes (a multiple of 8, both 8-aligned) a word at a time, racing a writer. */
static inline void cr_seq_load(void *dst, const void *src, size_t size)
{
	uint64_t *d = dst;
	const uint64_t *s = src;

	/* Unrolled (size is a constant where it is inlined): a loop's compare
	   and branch cost more than the word's load and store (issue 20). */
#pragma GCC unroll 32
	for (size_t i = 0; i < size / 8; i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
}

/* size bytes (a multiple of 8, both 8-aligned) a word at a time, racing readers. */
static inline void cr_seq_store(void *dst, const void *src, size_t size)
{
	uint64_t *d = dst;
	const uint64_t *s = src;

#pragma GCC unroll 32
	for (size_t i = 0; i < size / 8; i++)
		__atomic_store_n(&d[i], s[i], __ATOMIC_RELAXED);
}

#endif
