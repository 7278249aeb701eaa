// tests/symbols: a C++ program that crashes several frames deep, through a std::function
// holding a lambda, a shared library (symlib.c), an operator of a class template in a
// namespace, recursive templates, a function GCC splits into a `.cold` clone at -O2, and
// inlined functions (always_inline templates, lambdas, members, from symhdr.h).
#include <cstdlib>
#include <cstring>
#include <functional>
#include "symhdr.h"
#include "symlib.h"

int *volatile sym_nullp;
volatile int sym_big = 1000;

#define NOINLINE __attribute__((noinline))

namespace sym {
namespace detail {
template <typename T> __attribute__((always_inline)) inline T twice(T x)
{
	return static_cast<T>(hdr_poke(static_cast<int>(x)) * 2);
}
} // namespace detail

// The crash, called on a path GCC -O2 moves into maybe_cold's `.cold` clone (a call to a cold
// function makes the branch unlikely; -freorder-blocks-and-partition).
NOINLINE __attribute__((cold)) int cold_sink(int v)
{
	return detail::twice<long>(v) > 3 ? 1 : 2;
}

NOINLINE int maybe_cold(int v)
{
	if (v > sym_big) {
		int r = cold_sink(v);

		return r + v * sym_big;
	}
	return v - 1;
}

template <int N> struct Rec {
	NOINLINE static int go(int x)
	{
		int r = Rec<N - 1>::go(x + N);

		return r ^ N;
	}
};

template <> struct Rec<0> {
	NOINLINE static int go(int x)
	{
		int r = maybe_cold(x + sym_big * 2);

		return r + 1;
	}
};

template <typename T> struct Vec2 {
	T x, y;
	NOINLINE Vec2 operator+(const Vec2 &o) const
	{
		auto add = [this](T a, T b) __attribute__((always_inline)) { return a + b + Rec<2>::go(static_cast<int>(x)); };
		Vec2 r{ add(x, o.x), y + o.y };

		return r;
	}
};
} // namespace sym

static int cb_entry(int v)
{
	sym::Vec2<int> a{ v, 2 }, b{ 3, v };
	sym::Vec2<int> c = a + b;

	return c.x + c.y;
}

NOINLINE static int run(int v)
{
	std::function<int(int)> fn = [v](int x) { return sym_lib_apply(cb_entry, x + v) + 1; };
	int r = fn(v + 1);

	return r * 2;
}

int main(int argc, char **argv)
{
	int r = run(argc);

	(void)argv;
	return r == 12345;
}
