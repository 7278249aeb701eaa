// SPDX-License-Identifier: MIT
// crashcxx MODE: C++ crashes for the demo and the tests.
//   uncaught  an exception nobody catches: __cxa_throw -> std::terminate -> abort
//   dtor      a destructor that crashes while the exception unwinds the stack
#include <cstdio>
#include <cstring>
#include <stdexcept>

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
	} else {
		std::fprintf(stderr, "usage: crashcxx uncaught|dtor\n");
		return 2;
	}
	return 1;
}
