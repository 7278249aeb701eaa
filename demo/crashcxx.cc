// SPDX-License-Identifier: MIT
// crashcxx MODE: C++ crashes for the demo and the tests.
//   uncaught  an exception nobody catches: __cxa_throw -> std::terminate -> abort
//   dtor      a destructor that crashes while the exception unwinds the stack
//   inline    a null pointer read in a member function inlined into its
//             caller, called through std::function: the report's [inline]
//             frames and file:line
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <vector>

namespace {
volatile int zero;

struct Bomb {
	__attribute__((noinline)) ~Bomb()
	{
		*(volatile int *)(unsigned long)zero = 1;
		__asm__ volatile("" ::: "memory");
	}
};
} // namespace

namespace shop {
template <typename T> struct Cart {
	std::vector<const T *> items;
	// Inlined into checkout(): the read of a null item is its frame.
	T total() const
	{
		T sum = 0;
		for (const T *p : items)
			sum += *p;
		return sum;
	}
};

__attribute__((noinline)) int checkout(const Cart<int> &cart)
{
	return cart.total() * 2;
}
} // namespace shop

__attribute__((noinline)) void thrower()
{
	throw std::runtime_error("crashcxx");
}

__attribute__((noinline)) void thrower_with_bomb()
{
	Bomb b;
	thrower();
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	if (argc > 1 && std::strcmp(argv[1], "uncaught") == 0) {
		thrower();
	} else if (argc > 1 && std::strcmp(argv[1], "dtor") == 0) {
		try {
			thrower_with_bomb();
		} catch (const std::exception &) {
			std::puts("caught");
		}
	} else if (argc > 1 && std::strcmp(argv[1], "inline") == 0) {
		static const int one = 1;
		shop::Cart<int> cart;
		cart.items = { &one, nullptr };
		std::function<int()> pay = [&cart] { return shop::checkout(cart); };
		return pay();
	} else {
		std::fprintf(stderr, "usage: crashcxx uncaught|dtor|inline\n");
		return 2;
	}
	return 1;
}
