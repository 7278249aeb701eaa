// SPDX-License-Identifier: MIT
// demangle-corpus: never run.  Its symbols are names as the C++ compiler mangles them
// (lambdas, generic lambdas, local classes and statics, ABI tags, anonymous namespaces,
// operators, conversions, packs, decltype return types, clones at -O2), which
// tests/unit/run-demangle-corpus.sh demangles and compares with c++filt.
#include <algorithm>
#include <complex>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

namespace ns {
template <class T, int N> struct Arr {
	T v[N];
	T &operator[](int i) { return v[i]; }
};
struct S {
	int x;
	S() : x(0) {}
	explicit S(int y) : x(y) {}
	virtual ~S() {}
	virtual int f() const & { return x; }
	int g() && { return x; }
	operator int() const { return x; }
	template <class U> operator U *() const { return nullptr; }
	S &operator+=(const S &o) { x += o.x; return *this; }
	bool operator<(const S &o) const { return x < o.x; }
	bool operator==(const S &o) const { return x == o.x; }
	void *operator new(std::size_t n) { return ::operator new(n); }
	void operator delete(void *p) { ::operator delete(p); }
	static int counter;
};
int S::counter;
struct D : virtual S {
	int f() const & override { return 2; }
};
struct E : S, std::stringstream {
	int f() const & override { return 3; }
};
namespace {
struct Hidden {
	int q;
};
int hidden_fn(Hidden h) { return h.q; }
} // namespace
inline namespace v1 {
struct In {
	int z;
};
} // namespace v1
struct __attribute__((abi_tag("mytag"))) Tagged {
	int t;
};
Tagged make_tagged() { return Tagged{1}; }
template <class... Ts> int count(Ts... ts) { return sizeof...(ts); }
template <class T> auto twice(T t) -> decltype(t + t) { return t + t; }
template <class T, class = typename std::enable_if<std::is_integral<T>::value>::type> T only_int(T t)
{
	return t;
}
template <typename F> int call(F f) { return f(1); }
template <class T> struct Outer {
	template <class U> struct Inner {
		static U get(T, U u) { return u; }
	};
};
int arrays(int (&a)[4], int (*p)[3][2], const char *const *pp) { return a[0] + (*p)[0][0] + !!pp; }
int funptrs(int (*f)(int), void (S::*m)(), int S::*dm, int (S::*cm)() const &)
{
	return (f ? f(1) : 0) + !!m + !!dm + !!cm;
}
void (*retfp(int))(double) { return nullptr; }
int vararg(const char *, ...) { return 0; }
template <class T> T tmpl_ret(T t) { return t; }
template <int N> int nontype() { return N; }
template <bool B, char C, long L, unsigned U> int lits() { return B + C + (int)L + (int)U; }
template <auto V> int autov() { return (int)V; }
enum class Color { Red, Green };
template <Color C> int colorv() { return (int)C; }
int use_lambdas(int k)
{
	auto l1 = [](int a) { return a + 1; };
	auto l2 = [k](auto a, auto b) { return a + b + k; };
	static int guard_me = l1(k);
	std::function<int(int)> fn = [&](int z) { return z * k; };
	struct Local {
		int m(int q) { return q * 2; }
	};
	Local lo;
	return l1(k) + l2(1, 2.0) + l2(k, 'c') + fn(3) + call([](int a) { return a; }) + lo.m(k) + guard_me;
}
thread_local int tls_var = 3;
int use_tls() { return tls_var++; }
std::complex<double> cplx(std::complex<float> f) { return std::complex<double>(f.real(), 1); }
int rv(std::string &&s, std::vector<std::unique_ptr<S>> &v) { return (int)s.size() + (int)v.size(); }
typedef struct {
	int anon_member;
} AnonTypedef;
int anon(AnonTypedef a) { return a.anon_member; }
struct {
	int u;
} unnamed_var;
int noexcept_fn(void (*f)() noexcept) noexcept { return !!f; }
} // namespace ns

template struct ns::Arr<double, 3>;
template int ns::count<int, char, double>(int, char, double);
template int ns::count<>();
template int ns::only_int<int>(int);
template ns::S ns::tmpl_ret<ns::S>(ns::S);
template int ns::nontype<-5>();
template int ns::lits<true, 'x', -3L, 7u>();
template int ns::autov<42ull>();
template int ns::colorv<ns::Color::Green>();
template struct ns::Outer<int>::Inner<char>;

int main(int argc, char **argv)
{
	using namespace ns;
	std::map<std::string, std::vector<int>> m;
	m["a"].push_back(argc);
	std::unordered_map<int, std::shared_ptr<S>> um;
	um[1] = std::make_shared<S>(3);
	std::variant<int, std::string, double> var = 2.0;
	std::ostringstream os;
	std::visit([&os](auto &&x) { os << sizeof(x); }, var);
	std::vector<std::pair<std::string, long>> vp{ { "x", 1 } };
	std::sort(vp.begin(), vp.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
	std::tuple<int, S, std::string> tup{ 1, S(2), "q" };
	std::optional<std::vector<int>> oa;
	std::set<S> ss{ S(1) };
	std::list<std::deque<char>> ld(2);
	Arr<double, 3> ad{};
	int a4[4] = {};
	int a32[3][2] = {};
	os << m.size() << std::get<0>(tup) << ad[0] << (oa ? 1 : 0) << ss.size() << ld.size();
	S s(4);
	E e;
	D d;
	int *ip = s;
	return use_lambdas(argc) + arrays(a4, &a32, argv) + count(1, 'c', 2.0) + twice(3) + only_int(4) +
	       (int)os.str().size() + (int)um.size() + !!ip + e.f() + d.f() + make_tagged().t + use_tls() +
	       (int)cplx(1.0f).real() + anon(AnonTypedef{ 1 }) + unnamed_var.u + noexcept_fn(nullptr) +
	       hidden_fn(Hidden{ 2 }) + funptrs(nullptr, nullptr, nullptr, nullptr) + vararg("x", 1) +
	       Outer<long>::Inner<short>::get(1, 2) + std::move(s).g() + nontype<-5>() +
	       lits<true, 'x', -3L, 7u>() + autov<42ull>() + colorv<Color::Green>() + (retfp(1) != nullptr) +
	       In{ 1 }.z;
}
