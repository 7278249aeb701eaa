// SPDX-License-Identifier: MIT
// abortme-cxx MODE: the ways libstdc++ terminates (tests/abort/run-abort.sh):
//   runtime   an uncaught std::runtime_error
//   logic     an uncaught std::invalid_argument (a std::logic_error)
//   derived   an uncaught class derived from std::runtime_error
//   override  the same with its own what(): the type only
//   plain     an uncaught class that derives from nothing
//   stdexc    an uncaught class derived from std::exception only: the type only
//   noexcept  a std::runtime_error thrown through a noexcept function
//   thread    a std::overflow_error uncaught in a std::thread
//   rethrow   std::rethrow_exception of a std::out_of_range (a dependent exception)
//   catch     abort() inside a catch block: the exception being handled
//   terminate std::terminate() without an exception: no message
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <thread>

namespace app {
struct Plain {
	int code;
};
struct StdExc : std::exception {
	const char *what() const noexcept override
	{
		return "its own";
	}
};
struct Derived : std::runtime_error {
	Derived() : std::runtime_error("derived text") {}
};
struct Override : std::runtime_error {
	Override() : std::runtime_error("hidden text") {}
	const char *what() const noexcept override
	{
		return "shown text";
	}
};
} // namespace app

static volatile int opaque = 1;

__attribute__((noinline)) static void thrower() noexcept
{
	if (opaque)
		throw std::runtime_error("thrown through noexcept");
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	std::fputs("abortme-cxx: start\n", stderr);
	if (!std::strcmp(m, "runtime"))
		throw std::runtime_error("boom: runtime");
	if (!std::strcmp(m, "logic"))
		throw std::invalid_argument("bad argument 'x'");
	if (!std::strcmp(m, "derived"))
		throw app::Derived();
	if (!std::strcmp(m, "override"))
		throw app::Override();
	if (!std::strcmp(m, "plain"))
		throw app::Plain{7};
	if (!std::strcmp(m, "stdexc"))
		throw app::StdExc();
	if (!std::strcmp(m, "noexcept"))
		thrower();
	if (!std::strcmp(m, "thread")) {
		std::thread t([] { throw std::overflow_error("in a thread"); });
		t.join();
	}
	if (!std::strcmp(m, "rethrow")) {
		std::exception_ptr p;
		try {
			throw std::out_of_range("kept\tand rethrown");
		} catch (...) {
			p = std::current_exception();
		}
		std::rethrow_exception(p);
	}
	if (!std::strcmp(m, "catch")) {
		try {
			throw std::length_error("being handled");
		} catch (const std::exception &) {
			std::abort();
		}
	}
	if (!std::strcmp(m, "terminate"))
		std::terminate();
	std::fputs("abortme-cxx: no crash\n", stderr);
	return 0;
}
