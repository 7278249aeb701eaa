// SPDX-License-Identifier: MIT
// The C++ workload: templates, virtual calls, exceptions thrown and caught
// (so samples land inside the C++ runtime's own unwinder), destructors.
#include <stdexcept>
#include <string>
#include <vector>

#include "workload.h"

namespace {
volatile unsigned long sink;

struct Shape {
	virtual ~Shape() = default;
	virtual unsigned long area(unsigned long n) const = 0;
};

struct Sq : Shape {
	unsigned long area(unsigned long n) const override
	{
		unsigned long x = n;
		for (int i = 0; i < 100; i++)
			x = x * 2862933555777941757ul + 3037000493ul;
		return x;
	}
};

struct Guard {
	unsigned long *p;
	~Guard() { *p += 1; }
};

template <typename T> __attribute__((noinline)) T churn(T n)
{
	std::vector<T> v;
	for (T i = 0; i < 32; i++)
		v.push_back(n ^ i);
	T s = 0;
	for (T x : v)
		s += x;
	return s;
}

__attribute__((noinline)) unsigned long thrower(unsigned long n)
{
	unsigned long g = 0;
	{
		Guard guard{ &g };
		if (n % 3 == 0)
			throw std::runtime_error("x");
	}
	return g;
}

__attribute__((noinline)) unsigned long catcher(unsigned long n)
{
	try {
		return thrower(n);
	} catch (const std::exception &e) {
		return std::string(e.what()).size();
	}
}
} // namespace

extern "C" __attribute__((noinline)) unsigned long xw_recurse(unsigned long depth, unsigned long n)
{
	static const Sq sq;
	const Shape *s = &sq;

	if (depth == 0) {
		switch (n % 3) {
		case 0:
			return catcher(n);
		case 1:
			return churn<unsigned long>(n);
		default:
			return s->area(n);
		}
	}
	unsigned long r = xw_recurse(depth - 1, n * 31 + depth);
	return r + depth;
}

extern "C" unsigned long xw_run(unsigned long iters)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < iters; i++)
		s += xw_recurse(i % 12, i);
	sink = s;
	return s;
}
