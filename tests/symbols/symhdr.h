/* Inline functions defined in a header, so that an inlined frame's file is not the caller's. */
#ifndef SYMHDR_H
#define SYMHDR_H

/* The crash: a store through a null pointer the compiler cannot see (a trap instead of the
 * store would change the signal). */
extern int *volatile sym_nullp;

#define SYM_AI static inline __attribute__((always_inline))

SYM_AI int hdr_store(int v)
{
	*sym_nullp = v;
	return v + 1;
}

SYM_AI int hdr_poke(int v)
{
	int r = hdr_store(v * 3);

	return r + (v >> 1);
}

#endif
