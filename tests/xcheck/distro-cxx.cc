// SPDX-License-Identifier: MIT
// The libstdc++ part of tests/xcheck/distro.c: std::sort with a lambda (the
// comparison inlined into libstdc++'s templates, instantiated here) and
// std::stable_sort, whose merge buffer comes from libstdc++'s operator new.
#include <algorithm>
#include <cstdint>
#include <vector>

extern "C" unsigned long dx_sort(unsigned n, unsigned seed);

extern "C" unsigned long dx_sort(unsigned n, unsigned seed)
{
	std::vector<uint32_t> v(n);
	unsigned long sum = 0;

	for (auto &x : v) {
		seed = seed * 1103515245u + 12345u;
		x = seed >> 4;
	}
	std::sort(v.begin(), v.end(), [](uint32_t a, uint32_t b) { return (a ^ 0x5a5a) < (b ^ 0x5a5a); });
	std::stable_sort(v.begin(), v.end(), [](uint32_t a, uint32_t b) { return a % 1000 < b % 1000; });
	for (size_t i = 0; i < v.size(); i += 97)
		sum += v[i];
	return sum;
}
