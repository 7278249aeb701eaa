/* The shared-library frame of tests/symbols: an exported function that calls back into the
 * program through an inlined helper. */
#include "symlib.h"

static inline __attribute__((always_inline)) int lib_twice(sym_cb cb, int v)
{
	int r = cb(v + 1);

	return r * 2 + 1;
}

__attribute__((noinline)) int sym_lib_apply(sym_cb cb, int v)
{
	int r = lib_twice(cb, v);

	return r - v;
}
