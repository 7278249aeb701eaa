/* SPDX-License-Identifier: MIT */
/*
 * cr_demangle (libcrash/demangle.c): mangled names and what they must
 * demangle to.  C++: the text GNU c++filt (binutils 2.40, Debian 12)
 * prints for them, taken from it; NULL where c++filt leaves the name as
 * it is: then cr_demangle must return -CR_EINVAL and write nothing.  Rust:
 * the text of rustc-demangle's alternate form (Rust's own backtraces), no
 * hash.  Then truncated twins (the longest prefix of each name that
 * c++filt, or rustc-demangle, rejects), every prefix of every name (a
 * buffer of exactly its size: ASan sees any read past the NUL), the
 * bounds, and the elision.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "demangle.h"

static const struct {
	const char *in, *out;
} cases[] = {
	/* nested names, qualifiers */
	{ "_Z1fv",
	  "f()" },
	{ "_Z3fooi",
	  "foo(int)" },
	{ "_ZN3foo3barEv",
	  "foo::bar()" },
	{ "_ZN2ns1A1B1fEic",
	  "ns::A::B::f(int, char)" },
	{ "_ZNK1A1fEv",
	  "A::f() const" },
	{ "_ZNVK1A1fEv",
	  "A::f() const volatile" },
	{ "_ZNKR1A1fEv",
	  "A::f() const &" },
	{ "_ZNO1A1fEv",
	  "A::f() &&" },
	{ "_ZN12_GLOBAL__N_11fEv",
	  "(anonymous namespace)::f()" },
	{ "_ZN1A1xE",
	  "A::x" },
	{ "_ZNSt6vectorIiSaIiEE9push_backERKi",
	  "std::vector<int, std::allocator<int> >::push_back(int const&)" },
	/* constructors, destructors */
	{ "_ZN1AC1Ev",
	  "A::A()" },
	{ "_ZN1AC2ERKS_",
	  "A::A(A const&)" },
	{ "_ZN1AC3Ev",
	  "A::A()" },
	{ "_ZN1AIiEC1ERKS0_",
	  "A<int>::A(A<int> const&)" },
	{ "_ZN1BCI11AEi",
	  "B::A(int)" },
	{ "_ZN1AD0Ev",
	  "A::~A()" },
	{ "_ZN1AD1Ev",
	  "A::~A()" },
	{ "_ZN1AD2Ev",
	  "A::~A()" },
	{ "_ZNSsC1Ev",
	  "std::basic_string<char, std::char_traits<char>, std::allocator<char> >::basic_string"
	  "()" },
	{ "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEC1ERKS4_",
	  "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::bas"
	  "ic_string(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<ch"
	  "ar> > const&)" },
	{ "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED2Ev",
	  "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::~ba"
	  "sic_string()" },
	/* templates, template parameters, return types */
	{ "_Z1fIiEvT_",
	  "void f<int>(int)" },
	{ "_Z1fIiiEvT0_",
	  "void f<int, int>(int)" },
	{ "_ZN1AIiE1fIcEEvT_",
	  "void A<int>::f<char>(char)" },
	{ "_Z4makeI7FactoryiET_IT0_Ev",
	  "Factory<int> make<Factory, int>()" },
	{ "_ZN1A1fIiEET_v",
	  "int A::f<int>()" },
	{ "_ZSt7forwardIRiEOT_RNSt16remove_referenceIS1_E4typeE",
	  "int& std::forward<int&>(std::remove_reference<int&>::type&)" },
	{ "_Z1fIiJcdEEvT_DpT0_",
	  "void f<int, char, double>(int, char, double)" },
	{ "_Z1fIJEEvDpT_",
	  "void f<>()" },
	{ "_Z1fIiJEcEvv",
	  "void f<int, , char>()" },
	{ "_ZN1AIJicEE1fEv",
	  "A<int, char>::f()" },
	{ "_Z1fIJicEEvDpPT_",
	  "void f<int, char>(int*, char*)" },
	{ "_Z1fIRiEvOT_",
	  "void f<int&>(int&)" },
	{ "_Z1fIOiEvRT_",
	  "void f<int&&>(int&)" },
	{ "_Z1fIKiEvRKT_",
	  "void f<int const>(int const&)" },
	{ "_ZN1A1fIiEEDav",
	  "auto A::f<int>()" },
	{ "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructIPKcEEvT_S8_St20f"
	  "orward_iterator_tag",
	  "void std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"
	  "::_M_construct<char const*>(char const*, char const*, std::forward_iterator_tag)" },
	{ "_ZNKSt7__cxx119money_getIwSt19istreambuf_iteratorIwSt11char_traitsIwEEE10_M_extractI"
	  "Lb0EEES4_S4_S4_RSt8ios_baseRSt12_Ios_IostateRNS_12basic_stringIcS2_IcESaIcEEE",
	  "std::istreambuf_iterator<wchar_t, std::char_traits<wchar_t> > std::__cxx11::money_ge"
	  "t<wchar_t, std::istreambuf_iterator<wchar_t, std::char_traits<wchar_t> > >::_M_extra"
	  "ct<false>(std::istreambuf_iterator<wchar_t, std::char_traits<wchar_t> >, std::istrea"
	  "mbuf_iterator<wchar_t, std::char_traits<wchar_t> >, std::ios_base&, std::_Ios_Iostat"
	  "e&, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >&"
	  ") const" },
	/* template argument literals */
	{ "_Z1fILi42EEvv",
	  "void f<42>()" },
	{ "_Z1fILin5EEvv",
	  "void f<-5>()" },
	{ "_Z1fILj1EEvv",
	  "void f<1u>()" },
	{ "_Z1fILl5EEvv",
	  "void f<5l>()" },
	{ "_Z1fILm5EEvv",
	  "void f<5ul>()" },
	{ "_Z1fILx5EEvv",
	  "void f<5ll>()" },
	{ "_Z1fILy5EEvv",
	  "void f<5ull>()" },
	{ "_Z1fILb1EEvv",
	  "void f<true>()" },
	{ "_Z1fILb0EEvv",
	  "void f<false>()" },
	{ "_Z1fILc97EEvv",
	  "void f<(char)97>()" },
	{ "_Z1fILs5EEvv",
	  "void f<(short)5>()" },
	{ "_Z1fILd400921fb54442d18EEvv",
	  "void f<(double)[400921fb54442d18]>()" },
	{ "_Z1fILDnEEvv",
	  "void f<decltype(nullptr)>()" },
	{ "_Z1fIL_Z1gvEEvv",
	  "void f<g()>()" },
	{ "_Z1fIXadL_Z1gvEEEvv",
	  "void f<&(g())>()" },
	{ "_Z1fIXadL_ZN1A1gEvEEEvv",
	  "void f<&A::g>()" },
	{ "_Z1fIL5Color1EEvv",
	  "void f<(Color)1>()" },
	{ "_ZTAXtl1AEE",
	  "template parameter object for A{}" },
	/* expressions */
	{ "_Z1fIiEDTcl1gfp_EET_",
	  "decltype (g({parm#1})) f<int>(int)" },
	{ "_Z1fIiEvDTszfp_E",
	  "void f<int>(decltype (sizeof {parm#1}))" },
	{ "_Z1fIiEvDTstT_E",
	  "void f<int>(decltype (sizeof (int)))" },
	{ "_Z1fIiEvDTppfp_E",
	  "void f<int>(decltype ({parm#1}++))" },
	{ "_Z1fIiEvDTpp_fp_E",
	  "void f<int>(decltype (++{parm#1}))" },
	{ "_Z1fIiEvDTngfp_E",
	  "void f<int>(decltype (-{parm#1}))" },
	{ "_Z1fIiEvDTcvT_fp_E",
	  "void f<int>(decltype ((int){parm#1}))" },
	{ "_Z1fIiEvDTcvT__fp_fp_EE",
	  "void f<int>(decltype ((int)({parm#1}, {parm#1})))" },
	{ "_Z1fIiEvDTqufp_fp_fp_E",
	  "void f<int>(decltype ({parm#1}?{parm#1} : {parm#1}))" },
	{ "_Z1fIiEvDTnw_T_EE",
	  "void f<int>(decltype (new int))" },
	{ "_Z1fIiEvDTnw_T_piEE",
	  "void f<int>(decltype (new int()))" },
	{ "_Z1fIiEvDTdtfp_1xE",
	  "void f<int>(decltype ({parm#1}.x))" },
	{ "_Z1fIiEvDTptfp_1xE",
	  "void f<int>(decltype ({parm#1}->x))" },
	{ "_Z1fIiEvDTsrT_1xE",
	  "void f<int>(decltype (int::x))" },
	{ "_Z1fIiEvDTsr1AIiE1xE",
	  "void f<int>(decltype (A<int>::x))" },
	{ "_Z1fIiEvDTscT_fp_E",
	  "void f<int>(decltype (static_cast<int>({parm#1})))" },
	{ "_Z1fIiEvDTixfp_fp_E",
	  "void f<int>(decltype ({parm#1}[{parm#1}]))" },
	{ "_Z1fIiEvDTgtfp_fp_E",
	  "void f<int>(decltype (({parm#1}>{parm#1})))" },
	{ "_Z1fIiEvDTtlT_fp_EE",
	  "void f<int>(decltype (int{{parm#1}}))" },
	{ "_Z1fIiEvDTil1xEE",
	  "void f<int>(decltype ({x}))" },
	{ "_Z1fIiEvDTtw1xE",
	  "void f<int>(decltype (throw x))" },
	{ "_Z1fIiEvDTtrE",
	  "void f<int>(decltype (throw))" },
	{ "_Z1fIiEvDTgsdlfp_E",
	  "void f<int>(decltype (::delete {parm#1}))" },
	{ "_Z1fIiEvDTdafp_E",
	  "void f<int>(decltype (delete[] {parm#1}))" },
	{ "_Z1fIiEvDTaw1xE",
	  "void f<int>(decltype (co_await x))" },
	{ "_Z1fIJiEEvDTflplfp_E",
	  "void f<int>(decltype ((...+{parm#1})))" },
	{ "_Z1fIJiEEvDTfLplfp_Li1EE",
	  "void f<int>(decltype (({parm#1}+...+(1))))" },
	{ "_Z1fIJiiEEvDTsZT_E",
	  "void f<int, int>(decltype (2))" },
	{ "_Z1fIiEvDTsPiiEE",
	  "void f<int>(decltype (2))" },
	{ "_Z1fIiEvDTdi1xdi1yfp_E",
	  "void f<int>(decltype (.x.y={parm#1}))" },
	{ "_Z1fIiEvDTdXfp_fp_fp_E",
	  "void f<int>(decltype ([{parm#1} ... {parm#1}]={parm#1}))" },
	{ "_Z1fIiEvDTclonplfp_EE",
	  "void f<int>(decltype ((operator+)({parm#1})))" },
	{ "_Z1fIiEvDTv11xfp_E",
	  "void f<int>(decltype (operator x{parm#1}))" },
	{ "_Z1fILi1EEvPAT__i",
	  "void f<1>(int (*) [1])" },
	{ "_ZngILi42EEvN1AIXplT_Li2EEE1TE",
	  "void operator-<42>(A<(42)+(2)>::T)" },
	{ "_ZN4llvm4yaml7yamlizeISt6vectorIlSaIlEENS0_12EmptyContextEEENSt9enable_ifIXsr18has_S"
	  "equenceTraitsIT_EE5valueEvE4typeERNS0_2IOERS7_bRT0_",
	  "std::enable_if<has_SequenceTraits<std::vector<long, std::allocator<long> > >::value,"
	  " void>::type llvm::yaml::yamlize<std::vector<long, std::allocator<long> >, llvm::yam"
	  "l::EmptyContext>(llvm::yaml::IO&, std::vector<long, std::allocator<long> >&, bool, l"
	  "lvm::yaml::EmptyContext&)" },
	/* substitutions */
	{ "_Z3foo5Hello5WorldS0_S_",
	  "foo(Hello, World, World, Hello)" },
	{ "_Z3fooiPiPS_PS0_PS1_",
	  "foo(int, int*, int**, int***, int****)" },
	{ "_ZSt4swapIiEvRT_S1_",
	  "void std::swap<int>(int&, int&)" },
	{ "_ZN1N1TIiiE2mfES0_IddE",
	  "N::T<int, int>::mf(N::T<double, double>)" },
	{ "_ZSt4cout",
	  "std::cout" },
	{ "_Z1fSaIcE",
	  "f(std::allocator<char>)" },
	{ "_Z1fSbIcE",
	  "f(std::basic_string<char>)" },
	{ "_Z1fSs",
	  "f(std::basic_string<char, std::char_traits<char>, std::allocator<char> >)" },
	{ "_Z1fRSi",
	  "f(std::basic_istream<char, std::char_traits<char> >&)" },
	{ "_Z1fRSo",
	  "f(std::basic_ostream<char, std::char_traits<char> >&)" },
	{ "_Z1fRSd",
	  "f(std::basic_iostream<char, std::char_traits<char> >&)" },
	{ "_ZlsRSoRKSs",
	  "operator<<(std::basic_ostream<char, std::char_traits<char> >&, std::basic_string<cha"
	  "r, std::char_traits<char>, std::allocator<char> > const&)" },
	{ "_ZN5libcw5debug13cwprint_usingINS_9_private_12GlobalObjectEEENS0_17cwprint_using_tct"
	  "IT_EERKS5_MS5_KFvRSt7ostreamE",
	  "libcw::debug::cwprint_using_tct<libcw::_private_::GlobalObject> libcw::debug::cwprin"
	  "t_using<libcw::_private_::GlobalObject>(libcw::_private_::GlobalObject const&, void "
	  "(libcw::_private_::GlobalObject::*)(std::ostream&) const)" },
	/* function types, pointers to members */
	{ "_Z1fPFvvE",
	  "f(void (*)())" },
	{ "_Z1fPFivEPFvRKiE",
	  "f(int (*)(), void (*)(int const&))" },
	{ "_Z1fKPFiiE",
	  "f(int (* const)(int))" },
	{ "_Z1fPFPFivEvE",
	  "f(int (*(*)())())" },
	{ "_Z10hairyfunc5PFPFilEPcE",
	  "hairyfunc5(int (*(*)(char*))(long))" },
	{ "_Z1fM1AFvvE",
	  "f(void (A::*)())" },
	{ "_Z1fM1AKFvvE",
	  "f(void (A::*)() const)" },
	{ "_Z1fM1AKRFvvE",
	  "f(void (& const A::*)())" },
	{ "_Z1fM1Ai",
	  "f(int A::*)" },
	{ "_Z1fPKM1AFivE",
	  "f(int (A::* const*)())" },
	{ "_Z1fPDoFvvE",
	  "f(void (*)() noexcept)" },
	{ "_Z1fPDxFvvE",
	  "f(void (*)() transaction_safe)" },
	{ "_Z1fiz",
	  "f(int, ...)" },
	{ "_Z1fPFviEz",
	  "f(void (*)(int), ...)" },
	{ "_Z1fIFvdEEvv",
	  "void f<void (double)>()" },
	{ "_Z1rM1GFivEMS_KFivES_M1HFivES1_4whatIKS_E5what2IS8_ES3_",
	  "r(int (G::*)(), int (G::*)() const, G, int (H::*)(), int (G::*)(), what<G const>, wh"
	  "at2<G const>, int (G::*)() const)" },
	/* arrays */
	{ "_Z1fA10_i",
	  "f(int [10])" },
	{ "_Z1fPA10_i",
	  "f(int (*) [10])" },
	{ "_Z1fRA10_i",
	  "f(int (&) [10])" },
	{ "_Z1fA2_A3_i",
	  "f(int [2][3])" },
	{ "_Z1fPA2_A3_i",
	  "f(int (*) [2][3])" },
	{ "_Z1fA_i",
	  "f(int [])" },
	{ "_Z1fPFPA1_ivE",
	  "f(int (*(*)()) [1])" },
	{ "_Z1fRA10_Ki",
	  "f(int const (&) [10])" },
	/* pointers, references, qualifiers, builtin types */
	{ "_Z1fPKc",
	  "f(char const*)" },
	{ "_Z1fRKi",
	  "f(int const&)" },
	{ "_Z1fOi",
	  "f(int&&)" },
	{ "_Z1fPVKi",
	  "f(int const volatile*)" },
	{ "_Z1fPri",
	  "f(int restrict*)" },
	{ "_Z1fRKPKc",
	  "f(char const* const&)" },
	{ "_Z1fabcdefghijlmnostwxyz",
	  "f(signed char, bool, char, double, long double, float, __float128, unsigned char, in"
	  "t, unsigned int, long, unsigned long, __int128, unsigned __int128, short, unsigned s"
	  "hort, wchar_t, long long, unsigned long long, ...)" },
	{ "_Z1fDnDaDcDsDiDuDfDdDeDh",
	  "f(decltype(nullptr), auto, decltype(auto), char16_t, char32_t, char8_t, decimal32, d"
	  "ecimal64, decimal128, half)" },
	{ "_Z1fDF16_DF32xDF16b",
	  "f(_Float16, _Float32x, std::bfloat16_t)" },
	{ "_Z1fDv4_f",
	  "f(float __vector(4))" },
	{ "_Z1fu3foo",
	  "f(foo)" },
	{ "_Z1fU3fooi",
	  "f(int foo)" },
	{ "_Z1fCdGd",
	  "f(double _Complex, double _Imaginary)" },
	/* operators */
	{ "_ZN1AaNEv",
	  "A::operator&=()" },
	{ "_ZN1AaSEv",
	  "A::operator=()" },
	{ "_ZN1AaaEv",
	  "A::operator&&()" },
	{ "_ZN1AadEv",
	  "A::operator&()" },
	{ "_ZN1AanEv",
	  "A::operator&()" },
	{ "_ZN1AatEv",
	  "A::operator alignof()" },
	{ "_ZN1AawEv",
	  "A::operator co_await()" },
	{ "_ZN1AazEv",
	  "A::operator alignof()" },
	{ "_ZN1AccEv",
	  "A::operator const_cast()" },
	{ "_ZN1AclEv",
	  "A::operator()()" },
	{ "_ZN1AcmEv",
	  "A::operator,()" },
	{ "_ZN1AcoEv",
	  "A::operator~()" },
	{ "_ZN1AdVEv",
	  "A::operator/=()" },
	{ "_ZN1AdXEv",
	  "A::operator[...]=()" },
	{ "_ZN1AdaEv",
	  "A::operator delete[]()" },
	{ "_ZN1AdcEv",
	  "A::operator dynamic_cast()" },
	{ "_ZN1AdeEv",
	  "A::operator*()" },
	{ "_ZN1AdiEv",
	  "A::operator=()" },
	{ "_ZN1AdlEv",
	  "A::operator delete()" },
	{ "_ZN1AdsEv",
	  "A::operator.*()" },
	{ "_ZN1AdtEv",
	  "A::operator.()" },
	{ "_ZN1AdvEv",
	  "A::operator/()" },
	{ "_ZN1AdxEv",
	  "A::operator]=()" },
	{ "_ZN1AeOEv",
	  "A::operator^=()" },
	{ "_ZN1AeoEv",
	  "A::operator^()" },
	{ "_ZN1AeqEv",
	  "A::operator==()" },
	{ "_ZN1AfLEv",
	  "A::operator...()" },
	{ "_ZN1AgeEv",
	  "A::operator>=()" },
	{ "_ZN1AgsEv",
	  "A::operator::()" },
	{ "_ZN1AgtEv",
	  "A::operator>()" },
	{ "_ZN1AixEv",
	  "A::operator[]()" },
	{ "_ZN1AlSEv",
	  "A::operator<<=()" },
	{ "_ZN1AleEv",
	  "A::operator<=()" },
	{ "_ZN1AlsEv",
	  "A::operator<<()" },
	{ "_ZN1AltEv",
	  "A::operator<()" },
	{ "_ZN1AmIEv",
	  "A::operator-=()" },
	{ "_ZN1AmLEv",
	  "A::operator*=()" },
	{ "_ZN1AmiEv",
	  "A::operator-()" },
	{ "_ZN1AmlEv",
	  "A::operator*()" },
	{ "_ZN1AmmEv",
	  "A::operator--()" },
	{ "_ZN1AnaEv",
	  "A::operator new[]()" },
	{ "_ZN1AneEv",
	  "A::operator!=()" },
	{ "_ZN1AngEv",
	  "A::operator-()" },
	{ "_ZN1AntEv",
	  "A::operator!()" },
	{ "_ZN1AnwEv",
	  "A::operator new()" },
	{ "_ZN1AoREv",
	  "A::operator|=()" },
	{ "_ZN1AooEv",
	  "A::operator||()" },
	{ "_ZN1AorEv",
	  "A::operator|()" },
	{ "_ZN1ApLEv",
	  "A::operator+=()" },
	{ "_ZN1AplEv",
	  "A::operator+()" },
	{ "_ZN1ApmEv",
	  "A::operator->*()" },
	{ "_ZN1AppEv",
	  "A::operator++()" },
	{ "_ZN1ApsEv",
	  "A::operator+()" },
	{ "_ZN1AptEv",
	  "A::operator->()" },
	{ "_ZN1AquEv",
	  "A::operator?()" },
	{ "_ZN1ArMEv",
	  "A::operator%=()" },
	{ "_ZN1ArSEv",
	  "A::operator>>=()" },
	{ "_ZN1ArcEv",
	  "A::operator reinterpret_cast()" },
	{ "_ZN1ArmEv",
	  "A::operator%()" },
	{ "_ZN1ArsEv",
	  "A::operator>>()" },
	{ "_ZN1AsPEv",
	  "A::operator sizeof...()" },
	{ "_ZN1AsZEv",
	  "A::operator sizeof...()" },
	{ "_ZN1AscEv",
	  "A::operator static_cast()" },
	{ "_ZN1AssEv",
	  "A::operator<=>()" },
	{ "_ZN1AstEv",
	  "A::operator sizeof()" },
	{ "_ZN1AszEv",
	  "A::operator sizeof()" },
	{ "_ZN1AtrEv",
	  "A::operator throw()" },
	{ "_ZN1AtwEv",
	  "A::operator throw()" },
	{ "_Znwm",
	  "operator new(unsigned long)" },
	{ "_Znam",
	  "operator new[](unsigned long)" },
	{ "_ZdlPv",
	  "operator delete(void*)" },
	{ "_ZdaPv",
	  "operator delete[](void*)" },
	{ "_ZN1AcviEv",
	  "A::operator int()" },
	{ "_ZNK1AcvPKcEv",
	  "A::operator char const*() const" },
	{ "_ZN1AcvT_IiEEv",
	  "A::operator int<int>()" },
	{ "_ZN1AIfEcvT_IiEEv",
	  "A<float>::operator int<int>()" },
	{ "_Zli2_xPKc",
	  "operator\"\" _x(char const*)" },
	{ "_ZN1Av15myopEv",
	  NULL },
	/* lambdas, unnamed types, local names, discriminators */
	{ "_ZZ1fvENKUlvE_clEv",
	  "f()::{lambda()#1}::operator()() const" },
	{ "_ZZ1fvENKUliE0_clEi",
	  "f()::{lambda(int)#2}::operator()(int) const" },
	{ "_ZZ1fvENKUlT_E_clIiEEDaS_",
	  "auto f()::{lambda(auto:1)#1}::operator()<int>(int) const" },
	{ "_ZZ4mainENKUlRKT_RKT0_E_clISt4pairIilES8_EEDaS1_S4_",
	  "auto main::{lambda(auto:1 const&, auto:2 const&)#1}::operator()<std::pair<int, long>"
	  ", std::pair<int, long> >(std::pair<int, long> const&, std::pair<int, long> const&) c"
	  "onst" },
	{ "_ZN1AUt_E",
	  "A::{unnamed type#1}" },
	{ "_ZN1AUt0_1fEv",
	  "A::{unnamed type#2}::f()" },
	{ "_Z1fN1AUt_ES0_",
	  "f(A::{unnamed type#1}, {unnamed type#1})" },
	{ "_ZZ1fvE1x",
	  "f()::x" },
	{ "_ZZ1fvE1x_0",
	  "f()::x" },
	{ "_ZZ1fvE1x__12_",
	  "f()::x" },
	{ "_ZZ1fvEs",
	  "f()::string literal" },
	{ "_ZZ1fvEs_0",
	  "f()::string literal" },
	{ "_ZZ1fvEd_1x",
	  "f()::{default arg#1}::x" },
	{ "_ZZ1fvEN1B1gEv",
	  "f()::B::g()" },
	{ "_ZZN1A1fEvE1B",
	  "A::f()::B" },
	{ "_ZZZ1fvE1gIiEivE1x",
	  "f()::g<int>()::x" },
	{ "_ZZNSt9once_flag18_Prepare_executionC4IZSt9call_onceIMSt6threadFvvEJPS3_EEvRS_OT_DpO"
	  "T0_EUlvE_EERS8_ENUlvE_4_FUNEv",
	  "std::once_flag::_Prepare_execution::_Prepare_execution<std::call_once<void (std::thr"
	  "ead::*)(), std::thread*>(std::once_flag&, void (std::thread::*&&)(), std::thread*&&)"
	  "::{lambda()#1}>(void (std::thread::*&)())::{lambda()#1}::_FUN()" },
	/* ABI tags, modules, structured bindings */
	{ "_ZN1A3fooB5cxx11Ev",
	  "A::foo[abi:cxx11]()" },
	{ "_ZNK1A3strB5cxx11Ev",
	  "A::str[abi:cxx11]() const" },
	{ "_ZN1AB3abiC1Ev",
	  "A[abi:abi]::A()" },
	{ "_Z1fB3tagv",
	  "f[abi:tag]()" },
	{ "_ZW3foo1fv",
	  "f@foo()" },
	{ "_ZW3fooWP3bar1fv",
	  "f@foo:bar()" },
	{ "_ZDC1a1bE",
	  "[a, b]" },
	/* clone suffixes */
	{ "_Z1fv.cold",
	  "f() [clone .cold]" },
	{ "_Z1fi.constprop.0",
	  "f(int) [clone .constprop.0]" },
	{ "_Z1fi.isra.0",
	  "f(int) [clone .isra.0]" },
	{ "_Z1fv.part.0.cold",
	  "f() [clone .part.0] [clone .cold]" },
	{ "_Z1fv.constprop.0.isra.0",
	  "f() [clone .constprop.0] [clone .isra.0]" },
	{ "_Z1fv.lto_priv.0",
	  "f() [clone .lto_priv.0]" },
	{ "_ZN1A1fEv.cold.123",
	  "A::f() [clone .cold.123]" },
	/* special names */
	{ "_ZTV1A",
	  "vtable for A" },
	{ "_ZTT1A",
	  "VTT for A" },
	{ "_ZTI1A",
	  "typeinfo for A" },
	{ "_ZTS1A",
	  "typeinfo name for A" },
	{ "_ZTIPKc",
	  "typeinfo for char const*" },
	{ "_ZTF1A",
	  "typeinfo fn for A" },
	{ "_ZThn16_N1A1fEv",
	  "non-virtual thunk to A::f()" },
	{ "_ZTv0_n24_N1A1fEv",
	  "virtual thunk to A::f()" },
	{ "_ZTch0_h16_N1A1fEv",
	  "covariant return thunk to A::f()" },
	{ "_ZGVZ1fvE1x",
	  "guard variable for f()::x" },
	{ "_ZGVN1A1xE",
	  "guard variable for A::x" },
	{ "_ZTCN1A1BE0_N1A1CE",
	  "construction vtable for A::C-in-A::B" },
	{ "_ZGR1x",
	  "reference temporary #0 for x" },
	{ "_ZTH1x",
	  "TLS init function for x" },
	{ "_ZTW1x",
	  "TLS wrapper function for x" },
	{ "_ZGTt1fv",
	  "transaction clone for f()" },
	{ "_ZGTn1fv",
	  "non-transaction clone for f()" },
	{ "_ZGA1fv",
	  "hidden alias for f()" },
	{ "_GLOBAL__I__Z2fnv",
	  "global constructors keyed to fn()" },
	{ "_GLOBAL__D_foo",
	  "global destructors keyed to foo" },
	/* what c++filt leaves as it is: so does cr_demangle */
	{ "_GLOBAL__sub_I_main.cc",
	  NULL },
	{ "_Z1fT_",
	  NULL },
	{ "_ZN1AcvN1BIT_EEIiEEv",
	  NULL },
	{ "_ZN2v88internal11StringShape33DispatchToSpecificTypeWithoutCastIZNS1_22DispatchToSpe"
	  "cificTypeIZNKS0_6String7GetImplEiNS0_16PtrComprCageBaseERKNS0_31SharedStringAccessGu"
	  "ardIfNeededEE19StringGetDispatchertJRiRS5_S8_EEET0_S4_DpOT1_E17CastingDispatchertJRS"
	  "4_SA_SB_S8_EEESC_SF_",
	  NULL },
	{ "_Z1x.cold",
	  NULL },
	{ "_ZN1AliEv",
	  NULL },
	{ "_ZNSt7__cxx1110moneypunctIwLbEEC2Ev",
	  NULL },
	{ "_ZN1Av15myopEv",
	  NULL },
	{ "main",
	  NULL },
	/* Rust legacy (rustc-demangle, alternate form) */
	{ "_ZN100_$LT$$RF$std..os..unix..net..stream..UnixStream$u20$as$u20$std..sys..unix..ker"
	  "nel_copy..CopyRead$GT$10properties17hd5977624e6d612beE",
	  "<&std::os::unix::net::stream::UnixStream as std::sys::unix::kernel_copy::CopyRead>::"
	  "properties" },
	{ "_ZN104_$LT$std..sys_common..net..LookupHost$u20$as$u20$core..convert..TryFrom$LT$$LP"
	  "$$RF$str$C$u16$RP$$GT$$GT$8try_from17hffc22c9180518223E",
	  "<std::sys_common::net::LookupHost as core::convert::TryFrom<(&str,u16)>>::try_from" },
	{ "_ZN145_$LT$$RF$std..net..addr..SocketAddr$u20$as$u20$std..sys_common..IntoInner$LT$$"
	  "LP$$BP$const$u20$libc..unix..linux_like..sockaddr$C$u32$RP$$GT$$GT$10into_inner17h4d"
	  "11977081321e14E",
	  "<&std::net::addr::SocketAddr as std::sys_common::IntoInner<(*const libc::unix::linux"
	  "_like::sockaddr,u32)>>::into_inner" },
	{ "_ZN3std2rt10lang_start17h2f8d3cdd1e0b6a74E.llvm.4D2F1E0A",
	  "std::rt::lang_start" },
	{ "_ZN3std2rt10lang_start17h2f8d3cdd1e0b6a74E.cold",
	  "std::rt::lang_start.cold" },
	{ "_ZN4core3ptr13drop_in_place17h0c6ab9f5e7d8a123E",
	  "core::ptr::drop_in_place" },
	{ "_ZN7mycrate7_$u7e$x7example17h19a8bc6e2f3d4e5aE",
	  "mycrate::~x::example" },
	/* Rust v0 (rustc-demangle, alternate form) */
	{ "_RNvCs15kBYyAo9fc_7mycrate7example",
	  "mycrate::example" },
	{ "_RNvMs_Cs4Cv8Wi1oAIB_7mycrateNtB4_7Example3foo",
	  "<mycrate::Example>::foo" },
	{ "_RNvXs_Cs4Cv8Wi1oAIB_7mycrateNtB4_7ExampleNtNtCs8NwYtU1Mohg_4core5clone5Clone5clone",
	  "<mycrate::Example as core::clone::Clone>::clone" },
	{ "_RINvCskOGwlKjLXpR_1t2cgKc78_Kb1_Kln7_Kyffffffffffffffff_EB2_",
	  "t::cg::<'x', true, -7, 18446744073709551615>" },
	{ "_RINvCskOGwlKjLXpR_1t2ceKVNtNtB2_1E1AUEB2_",
	  "t::ce::<{t::E::A}>" },
	{ "_RINvCskOGwlKjLXpR_1t2ceKVNtNtB2_1E1BTh3_EEB2_",
	  "t::ce::<{t::E::B(3)}>" },
	{ "_RINvCskOGwlKjLXpR_1t2ceKVNtNtB2_1E1CS1xan1_EEB2_",
	  "t::ce::<{t::E::C { x: -1 }}>" },
	{ "_RINvCskOGwlKjLXpR_1t2csKRe6865226c096c6f01_EB2_",
	  "t::cs::<\"he\\\"l\\tlo\\u{1}\">" },
	{ "_RINvCskOGwlKjLXpR_1t2ctKTh4_b1_EEB2_",
	  "t::ct::<{(4, true)}>" },
	{ "_RINvCskOGwlKjLXpR_1t2caKAt1_t2_t3_EEB2_",
	  "t::ca::<{[1, 2, 3]}>" },
	{ "_RNvCskOGwlKjLXpR_1tu9gre_6ka8i",
	  "t::gr\303\266\303\237e" },
	{ "_RINvNtCskOGwlKjLXpR_1tu6wgv71au7kdvt68hlEB4_",
	  "t::\346\227\245\346\234\254::\351\226\242\346\225\260::<i32>" },
	{ "_RINvXs0_NtNtNtCs8NwYtU1Mohg_4core4iter8adapters3mapINtB6_3MapINtNtNtBc_5slice4iter4"
	  "ItermENCNCNvCskOGwlKjLXpR_1t8closuress0_00ENtNtNtBa_6traits8iterator8Iterator4foldmN"
	  "CINvXsy_NtB24_5accummNtB2N_3Sum3sumBN_E0EB1v_",
	  "<core::iter::adapters::map::Map<core::slice::iter::Iter<u32>, t::closures::{closure#"
	  "2}::{closure#0}> as core::iter::traits::iterator::Iterator>::fold::<u32, <u32 as cor"
	  "e::iter::traits::accum::Sum>::sum<core::iter::adapters::map::Map<core::slice::iter::"
	  "Iter<u32>, t::closures::{closure#2}::{closure#0}>>::{closure#0}>" },
	{ "_RINvCsbeDLtcNx0ot_2t21gFG_RL0_hERL0_hFK8C_unwindEuEB2_",
	  "t2::g::<for<'a> fn(&'a u8) -> &'a u8, extern \"C-unwind\" fn()>" },
	{ "_RINvCsbeDLtcNx0ot_2t21gOnPoEB2_",
	  "t2::g::<*mut i128, *const u128>" },
	{ "_RINvCsbeDLtcNx0ot_2t21gThEAtj3_EB2_",
	  "t2::g::<(u8,), [u16; 3]>" },
	{ "_RINvMs2_NtCs8NwYtU1Mohg_4core3fmtNtB6_9Arguments3newKj19_Kj8_ECskOGwlKjLXpR_1t",
	  "<core::fmt::Arguments>::new::<25, 8>" },
	{ "_RINvNtCs8NwYtU1Mohg_4core3ptr9drop_glueINtNtB4_6option6OptionINtNtNtCsiLkOfxryNm2_5"
	  "gimli4read4line21IncompleteLineProgramINtNtB12_12endian_slice11EndianSliceNtNtB14_9e"
	  "ndianity12LittleEndianEjEEECsi4IsKQVxMg0_3std",
	  "core::ptr::drop_glue::<core::option::Option<gimli::read::line::IncompleteLineProgram"
	  "<gimli::read::endian_slice::EndianSlice<gimli::endianity::LittleEndian>, usize>>>" },
	{ "_RNvCs15kBYyAo9fc_7mycrate7example.cold",
	  "mycrate::example.cold" },
	{ "_RINvCsbeDLtcNx0ot_2t22g1DG_INtNtNtCs8NwYtU1Mohg_4core3ops8function2FnTRL0_eEEp6Outp"
	  "utRL0_eNtNtBw_6marker4SyncNtB1s_4SendEL_EB2_",
	  "t2::g1::<dyn for<'a> core::ops::function::Fn<(&'a str,), Output = &'a str> + core::m"
	  "arker::Sync + core::marker::Send>" },
	{ "_RINvCsbeDLtcNx0ot_2t22g1DNtNtCs8NwYtU1Mohg_4core3fmt5DebugEL_EB2_",
	  "t2::g1::<dyn core::fmt::Debug>" },
	{ "_RINvCsbeDLtcNx0ot_2t22g1DNtNtNtNtCs8NwYtU1Mohg_4core4iter6traits8iterator8Iteratorp"
	  "4ItemTcbEEL_EB2_",
	  "t2::g1::<dyn core::iter::traits::iterator::Iterator<Item = (char, bool)>>" },
	{ "_RINvCsbeDLtcNx0ot_2t22g1FEzEB2_",
	  "t2::g1::<fn() -> !>" },
	{ "_RINvCsbeDLtcNx0ot_2t22g1FG0_RL1_hRL0_hERL1_hEB2_",
	  "t2::g1::<for<'a, 'b> fn(&'a u8, &'b u8) -> &'a u8>" },
	{ "_RINvCsbeDLtcNx0ot_2t22g1FUKCPhvEuEB2_",
	  "t2::g1::<unsafe extern \"C\" fn(*const u8, ...)>" },
	{ "_RINvCsbeDLtcNx0ot_2t22g1FuTiEETfdEEB2_",
	  "t2::g1::<fn((), (isize,)) -> (f32, f64)>" },
	{ "_RINvCsbeDLtcNx0ot_2t22g1RDG_INtNtNtCs8NwYtU1Mohg_4core3ops8function5FnMutTQL0_INtNt"
	  "CsbEht8wFNRx7_5alloc3vec3VechEEEp6OutputuEL_EB2_",
	  "t2::g1::<&dyn for<'a> core::ops::function::FnMut<(&'a mut alloc::vec::Vec<u8>,), Out"
	  "put = ()>>" },
	{ "_RINvCsbeDLtcNx0ot_2t22g1SQeEB2_",
	  "t2::g1::<[&mut str]>" },
	{ "_RNSNvYNCINvMs0_NtNtCsi4IsKQVxMg0_3std4sync4onceNtBd_4Once15call_once_forceNCINvMNtB"
	  "f_9once_lockINtB1g_8OnceLockINtNtBf_14reentrant_lock13ReentrantLockINtNtCs8NwYtU1Moh"
	  "g_4core4cell7RefCellINtNtNtNtBh_2io8buffered10linewriter10LineWriterNtNtB36_5stdio9S"
	  "tdoutRawEEEE10initializeNCINvB1f_11get_or_initNCNvB3N_6stdout0E0zE0E0INtNtNtB2t_3ops"
	  "8function6FnOnceTRNtBd_9OnceStateEE9call_once6vtableBh_",
	  "<<std::sync::once::Once>::call_once_force<<std::sync::once_lock::OnceLock<std::sync:"
	  ":reentrant_lock::ReentrantLock<core::cell::RefCell<std::io::buffered::linewriter::Li"
	  "neWriter<std::io::stdio::StdoutRaw>>>>>::initialize<<std::sync::once_lock::OnceLock<"
	  "std::sync::reentrant_lock::ReentrantLock<core::cell::RefCell<std::io::buffered::line"
	  "writer::LineWriter<std::io::stdio::StdoutRaw>>>>>::get_or_init<std::io::stdio::stdou"
	  "t::{closure#0}>::{closure#0}, !>::{closure#0}>::{closure#0} as core::ops::function::"
	  "FnOnce<(&std::sync::once::OnceState,)>>::call_once::{shim:vtable#0}" },
};

static const char *const twins[] = {
	"_Z1",
	"_Z3fo",
	"_ZN3foo3bar",
	"_ZN2ns1A1B1f",
	"_ZNK1A1f",
	"_ZNVK1A1f",
	"_ZNKR1A1f",
	"_ZNO1A1f",
	"_ZN12_GLOBAL__N_11f",
	"_ZN1A1x",
	"_ZNSt6vectorIiSaIiEE9push_backERK",
	"_ZN1AC1",
	"_ZN1AC2ERKS",
	"_ZN1AC3",
	"_ZN1AIiEC1ERKS0",
	"_ZN1BCI11A",
	"_ZN1AD0",
	"_ZN1AD1",
	"_ZN1AD2",
	"_ZNSsC1",
	"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEC1ERKS4",
	"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED2",
	"_Z1fIiEvT",
	"_Z1fIiiEvT0",
	"_ZN1AIiE1fIcEEvT",
	"_Z4makeI7FactoryiET_IT0_E",
	"_ZN1A1fIiEET_",
	"_ZSt7forwardIRiEOT_RNSt16remove_referenceIS1_E4type",
	"_Z1fIiJcdEEvT_DpT0",
	"_Z1fIJEEvDpT",
	"_Z1fIiJEcEv",
	"_ZN1AIJicEE1f",
	"_Z1fIJicEEvDpPT",
	"_Z1fIRiEvOT",
	"_Z1fIOiEvRT",
	"_Z1fIKiEvRKT",
	"_ZN1A1fIiEEDa",
	"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructIPKcEEvT_S8_St20f"
	  "orward_iterator_ta",
	"_ZNKSt7__cxx119money_getIwSt19istreambuf_iteratorIwSt11char_traitsIwEEE10_M_extractI"
	  "Lb0EEES4_S4_S4_RSt8ios_baseRSt12_Ios_IostateRNS_12basic_stringIcS2_IcESaIcEE",
	"_Z1fILi42EEv",
	"_Z1fILin5EEv",
	"_Z1fILj1EEv",
	"_Z1fILl5EEv",
	"_Z1fILm5EEv",
	"_Z1fILx5EEv",
	"_Z1fILy5EEv",
	"_Z1fILb1EEv",
	"_Z1fILb0EEv",
	"_Z1fILc97EEv",
	"_Z1fILs5EEv",
	"_Z1fILd400921fb54442d18EEv",
	"_Z1fILDnEEv",
	"_Z1fIL_Z1gvEEv",
	"_Z1fIXadL_Z1gvEEEv",
	"_Z1fIXadL_ZN1A1gEvEEEv",
	"_Z1fIL5Color1EEv",
	"_ZTAXtl1AE",
	"_Z1fIiEDTcl1gfp_EET",
	"_Z1fIiEvDTszfp_",
	"_Z1fIiEvDTstT_",
	"_Z1fIiEvDTppfp_",
	"_Z1fIiEvDTpp_fp_",
	"_Z1fIiEvDTngfp_",
	"_Z1fIiEvDTcvT_fp_",
	"_Z1fIiEvDTcvT__fp_fp_E",
	"_Z1fIiEvDTqufp_fp_fp_",
	"_Z1fIiEvDTnw_T_E",
	"_Z1fIiEvDTnw_T_piE",
	"_Z1fIiEvDTdtfp_1x",
	"_Z1fIiEvDTptfp_1x",
	"_Z1fIiEvDTsrT_1x",
	"_Z1fIiEvDTsr1AIiE1x",
	"_Z1fIiEvDTscT_fp_",
	"_Z1fIiEvDTixfp_fp_",
	"_Z1fIiEvDTgtfp_fp_",
	"_Z1fIiEvDTtlT_fp_E",
	"_Z1fIiEvDTil1xE",
	"_Z1fIiEvDTtw1x",
	"_Z1fIiEvDTtr",
	"_Z1fIiEvDTgsdlfp_",
	"_Z1fIiEvDTdafp_",
	"_Z1fIiEvDTaw1x",
	"_Z1fIJiEEvDTflplfp_",
	"_Z1fIJiEEvDTfLplfp_Li1E",
	"_Z1fIJiiEEvDTsZT_",
	"_Z1fIiEvDTsPiiE",
	"_Z1fIiEvDTdi1xdi1yfp_",
	"_Z1fIiEvDTdXfp_fp_fp_",
	"_Z1fIiEvDTclonplfp_E",
	"_Z1fIiEvDTv11xfp_",
	"_Z1fILi1EEvPAT__",
	"_ZngILi42EEvN1AIXplT_Li2EEE1T",
	"_ZN4llvm4yaml7yamlizeISt6vectorIlSaIlEENS0_12EmptyContextEEENSt9enable_ifIXsr18has_S"
	  "equenceTraitsIT_EE5valueEvE4typeERNS0_2IOERS7_bRT0",
	"_Z3foo5Hello5WorldS0_S",
	"_Z3fooiPiPS_PS0_PS1",
	"_ZSt4swapIiEvRT_S1",
	"_ZN1N1TIiiE2mfES0_Idd",
	"_ZSt4cou",
	"_Z1fSaIc",
	"_Z1fSbIc",
	"_Z1fS",
	"_Z1fRS",
	"_ZlsRSoRKS",
	"_ZN5libcw5debug13cwprint_usingINS_9_private_12GlobalObjectEEENS0_17cwprint_using_tct"
	  "IT_EERKS5_MS5_KFvRSt7ostream",
	"_Z1fPFvv",
	"_Z1fPFivEPFvRKi",
	"_Z1fKPFii",
	"_Z1fPFPFivEv",
	"_Z10hairyfunc5PFPFilEPc",
	"_Z1fM1AFvv",
	"_Z1fM1AKFvv",
	"_Z1fM1AKRFvv",
	"_Z1fM1A",
	"_Z1fPKM1AFiv",
	"_Z1fPDoFvv",
	"_Z1fPDxFvv",
	"_Z1fPFvi",
	"_Z1fIFvdEEv",
	"_Z1rM1GFivEMS_KFivES_M1HFivES1_4whatIKS_E5what2IS8_ES3",
	"_Z1fA10_",
	"_Z1fPA10_",
	"_Z1fRA10_",
	"_Z1fA2_A3_",
	"_Z1fPA2_A3_",
	"_Z1fA_",
	"_Z1fPFPA1_iv",
	"_Z1fRA10_K",
	"_Z1fPK",
	"_Z1fRK",
	"_Z1fO",
	"_Z1fPVK",
	"_Z1fPr",
	"_Z1fRKPK",
	"_Z1fDnDaDcDsDiDuDfDdDeD",
	"_Z1fDF16_DF32xDF16",
	"_Z1fDv4_",
	"_Z1fu3fo",
	"_Z1fU3foo",
	"_Z1fCdG",
	"_ZN1AaN",
	"_ZN1AaS",
	"_ZN1Aaa",
	"_ZN1Aad",
	"_ZN1Aan",
	"_ZN1Aat",
	"_ZN1Aaw",
	"_ZN1Aaz",
	"_ZN1Acc",
	"_ZN1Acl",
	"_ZN1Acm",
	"_ZN1Aco",
	"_ZN1AdV",
	"_ZN1AdX",
	"_ZN1Ada",
	"_ZN1Adc",
	"_ZN1Ade",
	"_ZN1Adi",
	"_ZN1Adl",
	"_ZN1Ads",
	"_ZN1Adt",
	"_ZN1Adv",
	"_ZN1Adx",
	"_ZN1AeO",
	"_ZN1Aeo",
	"_ZN1Aeq",
	"_ZN1AfL",
	"_ZN1Age",
	"_ZN1Ags",
	"_ZN1Agt",
	"_ZN1Aix",
	"_ZN1AlS",
	"_ZN1Ale",
	"_ZN1Als",
	"_ZN1Alt",
	"_ZN1AmI",
	"_ZN1AmL",
	"_ZN1Ami",
	"_ZN1Aml",
	"_ZN1Amm",
	"_ZN1Ana",
	"_ZN1Ane",
	"_ZN1Ang",
	"_ZN1Ant",
	"_ZN1Anw",
	"_ZN1AoR",
	"_ZN1Aoo",
	"_ZN1Aor",
	"_ZN1ApL",
	"_ZN1Apl",
	"_ZN1Apm",
	"_ZN1App",
	"_ZN1Aps",
	"_ZN1Apt",
	"_ZN1Aqu",
	"_ZN1ArM",
	"_ZN1ArS",
	"_ZN1Arc",
	"_ZN1Arm",
	"_ZN1Ars",
	"_ZN1AsP",
	"_ZN1AsZ",
	"_ZN1Asc",
	"_ZN1Ass",
	"_ZN1Ast",
	"_ZN1Asz",
	"_ZN1Atr",
	"_ZN1Atw",
	"_Zn",
	"_ZdlP",
	"_ZdaP",
	"_ZN1Acvi",
	"_ZNK1AcvPKc",
	"_ZN1AcvT_IiE",
	"_ZN1AIfEcvT_IiE",
	"_Zli2_xPK",
	"_ZZ1fvENKUlvE_cl",
	"_ZZ1fvENKUliE0_cl",
	"_ZZ1fvENKUlT_E_clIiEEDaS",
	"_ZZ4mainENKUlRKT_RKT0_E_clISt4pairIilES8_EEDaS1_S4",
	"_ZN1AUt_",
	"_ZN1AUt0_1f",
	"_Z1fN1AUt_ES0",
	"_ZZ1fvE1",
	"_ZZ1fvE1x__12",
	"_ZZ1fvE",
	"_ZZ1fvEd_1",
	"_ZZ1fvEN1B1g",
	"_ZZN1A1fEvE1",
	"_ZZZ1fvE1gIiEivE1",
	"_ZZNSt9once_flag18_Prepare_executionC4IZSt9call_onceIMSt6threadFvvEJPS3_EEvRS_OT_DpO"
	  "T0_EUlvE_EERS8_ENUlvE_4_FUN",
	"_ZN1A3fooB5cxx11",
	"_ZNK1A3strB5cxx11",
	"_ZN1AB3abiC1",
	"_Z1fB3ta",
	"_ZW3foo1",
	"_ZW3fooWP3bar1",
	"_ZDC1a1b",
	"_Z1fv.",
	"_Z1fi.constprop.",
	"_Z1fi.isra.",
	"_Z1fv.part.0.",
	"_Z1fv.constprop.0.isra.",
	"_Z1fv.lto_priv.",
	"_ZN1A1fEv.cold.",
	"_ZTV1",
	"_ZTT1",
	"_ZTI1",
	"_ZTS1",
	"_ZTIPK",
	"_ZTF1",
	"_ZThn16_N1A1f",
	"_ZTv0_n24_N1A1f",
	"_ZTch0_h16_N1A1f",
	"_ZGVZ1fvE1",
	"_ZGVN1A1x",
	"_ZTCN1A1BE0_N1A1C",
	"_ZGR1",
	"_ZTH1",
	"_ZTW1",
	"_ZGTt1",
	"_ZGTn1",
	"_ZGA1",
	"_GLOBAL__I__Z2f",
	"_GLOBAL__D_",
	"_ZN100_$LT$$RF$std..os..unix..net..stream..UnixStream$u20$as$u20$std..sys..unix..ker"
	  "nel_copy..CopyRead$GT$10properties17hd5977624e6d612be",
	"_ZN104_$LT$std..sys_common..net..LookupHost$u20$as$u20$core..convert..TryFrom$LT$$LP"
	  "$$RF$str$C$u16$RP$$GT$$GT$8try_from17hffc22c9180518223",
	"_ZN145_$LT$$RF$std..net..addr..SocketAddr$u20$as$u20$std..sys_common..IntoInner$LT$$"
	  "LP$$BP$const$u20$libc..unix..linux_like..sockaddr$C$u32$RP$$GT$$GT$10into_inner17h4d"
	  "11977081321e14",
	"_ZN3std2rt10lang_start17h2f8d3cdd1e0b6a74",
	"_ZN4core3ptr13drop_in_place17h0c6ab9f5e7d8a123",
	"_ZN7mycrate7_$u7e$x7example17h19a8bc6e2f3d4e5a",
	"_RNvCs15kBYyAo9fc_7mycrate7exampl",
	"_RNvMs_Cs4Cv8Wi1oAIB_7mycrateNtB4_7Example3fo",
	"_RNvXs_Cs4Cv8Wi1oAIB_7mycrateNtB4_7ExampleNtNtCs8NwYtU1Mohg_4core5clone5Clone5clon",
	"_RINvCskOGwlKjLXpR_1t2cgKc78_Kb1_Kln7_Kyffffffffffffffff_EB2",
	"_RINvCskOGwlKjLXpR_1t2ceKVNtNtB2_1E1AUEB2",
	"_RINvCskOGwlKjLXpR_1t2ceKVNtNtB2_1E1BTh3_EEB2",
	"_RINvCskOGwlKjLXpR_1t2ceKVNtNtB2_1E1CS1xan1_EEB2",
	"_RINvCskOGwlKjLXpR_1t2csKRe6865226c096c6f01_EB2",
	"_RINvCskOGwlKjLXpR_1t2ctKTh4_b1_EEB2",
	"_RINvCskOGwlKjLXpR_1t2caKAt1_t2_t3_EEB2",
	"_RNvCskOGwlKjLXpR_1tu9gre_6ka8",
	"_RINvNtCskOGwlKjLXpR_1tu6wgv71au7kdvt68hlEB4",
	"_RINvXs0_NtNtNtCs8NwYtU1Mohg_4core4iter8adapters3mapINtB6_3MapINtNtNtBc_5slice4iter4"
	  "ItermENCNCNvCskOGwlKjLXpR_1t8closuress0_00ENtNtNtBa_6traits8iterator8Iterator4foldmN"
	  "CINvXsy_NtB24_5accummNtB2N_3Sum3sumBN_E0EB1v",
	"_RINvCsbeDLtcNx0ot_2t21gFG_RL0_hERL0_hFK8C_unwindEuEB2",
	"_RINvCsbeDLtcNx0ot_2t21gOnPoEB2",
	"_RINvCsbeDLtcNx0ot_2t21gThEAtj3_EB2",
	"_RINvMs2_NtCs8NwYtU1Mohg_4core3fmtNtB6_9Arguments3newKj19_Kj8_ECskOGwlKjLXpR_1",
	"_RINvNtCs8NwYtU1Mohg_4core3ptr9drop_glueINtNtB4_6option6OptionINtNtNtCsiLkOfxryNm2_5"
	  "gimli4read4line21IncompleteLineProgramINtNtB12_12endian_slice11EndianSliceNtNtB14_9e"
	  "ndianity12LittleEndianEjEEECsi4IsKQVxMg0_3st",
	"_RINvCsbeDLtcNx0ot_2t22g1DG_INtNtNtCs8NwYtU1Mohg_4core3ops8function2FnTRL0_eEEp6Outp"
	  "utRL0_eNtNtBw_6marker4SyncNtB1s_4SendEL_EB2",
	"_RINvCsbeDLtcNx0ot_2t22g1DNtNtCs8NwYtU1Mohg_4core3fmt5DebugEL_EB2",
	"_RINvCsbeDLtcNx0ot_2t22g1DNtNtNtNtCs8NwYtU1Mohg_4core4iter6traits8iterator8Iteratorp"
	  "4ItemTcbEEL_EB2",
	"_RINvCsbeDLtcNx0ot_2t22g1FEzEB2",
	"_RINvCsbeDLtcNx0ot_2t22g1FG0_RL1_hRL0_hERL1_hEB2",
	"_RINvCsbeDLtcNx0ot_2t22g1FUKCPhvEuEB2",
	"_RINvCsbeDLtcNx0ot_2t22g1FuTiEETfdEEB2",
	"_RINvCsbeDLtcNx0ot_2t22g1RDG_INtNtNtCs8NwYtU1Mohg_4core3ops8function5FnMutTQL0_INtNt"
	  "CsbEht8wFNRx7_5alloc3vec3VechEEEp6OutputuEL_EB2",
	"_RINvCsbeDLtcNx0ot_2t22g1SQeEB2",
	"_RNSNvYNCINvMs0_NtNtCsi4IsKQVxMg0_3std4sync4onceNtBd_4Once15call_once_forceNCINvMNtB"
	  "f_9once_lockINtB1g_8OnceLockINtNtBf_14reentrant_lock13ReentrantLockINtNtCs8NwYtU1Moh"
	  "g_4core4cell7RefCellINtNtNtNtBh_2io8buffered10linewriter10LineWriterNtNtB36_5stdio9S"
	  "tdoutRawEEEE10initializeNCINvB1f_11get_or_initNCNvB3N_6stdout0E0zE0E0INtNtNtB2t_3ops"
	  "8function6FnOnceTRNtBd_9OnceStateEE9call_once6vtableBh",
};

#define ELLIPSIS CR_DEMANGLE_ELLIPSIS

static char buf[CR_DEMANGLE_MAXOUT + 1];
static struct cr_demangle_ws ws;

/* cr_demangle into a buffer of cap bytes that must not be written past, nor at all on failure. */
static int demangle(const char *in, size_t cap, int *clean)
{
	int r;

	memset(buf, 0x5a, cap + 1);
	r = cr_demangle(in, buf, cap);
	*clean = buf[cap] == 0x5a;
	if (r < 0)
		*clean = *clean && (unsigned char)buf[0] == 0x5a;
	else
		*clean = *clean && (size_t)r < cap && buf[r] == 0 && strlen(buf) == (size_t)r;
	return r;
}

static void test_table(void)
{
	char name[96];
	int clean;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = demangle(cases[i].in, sizeof(buf) - 1, &clean);

		snprintf(name, sizeof(name), "%.80s", cases[i].in);
		if (!cases[i].out) {
			if (!tap_ok(r == -CR_EINVAL && clean, name))
				printf("#   got %d \"%s\", want -CR_EINVAL, nothing written\n", r,
				       r >= 0 ? buf : "");
			continue;
		}
		if (r < 0 || !clean)
			tap_is_str(r < 0 ? "(-CR_EINVAL)" : "(written past the end)", cases[i].out,
				   name);
		else
			tap_is_str(buf, cases[i].out, name);
	}
}

static void test_twins(void)
{
	char name[96];
	int clean;

	for (unsigned i = 0; i < sizeof(twins) / sizeof(twins[0]); i++) {
		int r = demangle(twins[i], sizeof(buf) - 1, &clean);

		snprintf(name, sizeof(name), "truncated %.70s", twins[i]);
		if (!tap_ok(r == -CR_EINVAL && clean, name))
			printf("#   got %d \"%s\"\n", r, r >= 0 ? buf : "");
	}
}

/* s[0..k) in a heap block of exactly k + 1 bytes, one byte changed if at < k. */
static int try_copy(const char *s, size_t k, size_t at, char c)
{
	char *p = malloc(k + 1);
	int clean;

	if (!p)
		abort();
	memcpy(p, s, k);
	p[k] = 0;
	if (at < k)
		p[at] = c;
	demangle(p, 96, &clean);
	free(p);
	return clean;
}

/* Every prefix of every name, and every name with one byte changed. */
static void test_prefixes(void)
{
	static const char junk[] = "_0E9SITLN$.";
	unsigned n = 0, bad = 0;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = strlen(cases[i].in);

		for (size_t k = 0; k <= len; k++, n++)
			bad += !try_copy(cases[i].in, k, k, 0);
		for (size_t at = 0; at < len; at++)
			for (unsigned j = 0; j < sizeof(junk) - 1; j++, n++)
				bad += !try_copy(cases[i].in, len, at, junk[j]);
	}
	if (!tap_ok(bad == 0, "every prefix and one-byte change: bounded and NUL-terminated, "
			      "or nothing written"))
		printf("#   %u of %u not clean\n", bad, n);
}

static void test_bounds(void)
{
	static char name[CR_DEMANGLE_MAXLEN + 64];
	size_t n;
	int clean, r;

	tap_ok(cr_demangle("_Z1fv", buf, CR_DEMANGLE_MINCAP - 1) == -CR_EINVAL,
	       "cap below CR_DEMANGLE_MINCAP");
	tap_ok(cr_demangle(NULL, buf, 100) == -CR_EINVAL &&
		       cr_demangle("_Z1fv", NULL, 100) == -CR_EINVAL,
	       "NULL name or buffer");
	tap_ok(cr_demangle("", buf, 100) == -CR_EINVAL && cr_demangle("_", buf, 100) == -CR_EINVAL,
	       "empty and one-byte names");

	/* Deeper than the work stack: a pointer to a pointer to ... int. */
	n = (size_t)snprintf(name, sizeof(name), "_Z1f");
	for (unsigned i = 0; i < 3 * CR_DEMANGLE_DEPTH; i++)
		name[n++] = 'P';
	name[n++] = 'i';
	name[n] = 0;
	r = demangle(name, 256, &clean);
	tap_ok(r == -CR_EINVAL && clean, "nesting deeper than CR_DEMANGLE_DEPTH: -CR_EINVAL");

	/* More components than CR_DEMANGLE_NODES: f(int, int, ...). */
	n = (size_t)snprintf(name, sizeof(name), "_Z1f");
	for (unsigned i = 0; i < CR_DEMANGLE_NODES; i++)
		name[n++] = 'i';
	name[n] = 0;
	r = demangle(name, 256, &clean);
	tap_ok(r == -CR_EINVAL && clean, "more than CR_DEMANGLE_NODES components: -CR_EINVAL");

	/* Longer than CR_DEMANGLE_MAXLEN: never read to the end. */
	memset(name, 'i', CR_DEMANGLE_MAXLEN + 1);
	memcpy(name, "_Z1f", 4);
	name[CR_DEMANGLE_MAXLEN + 1] = 0;
	tap_ok(cr_demangle(name, buf, 256) == -CR_EINVAL,
	       "longer than CR_DEMANGLE_MAXLEN: -CR_EINVAL");

	/*
	 * Substitutions that double the text at each level: 10 levels print,
	 * 20 (10 MiB) pass CR_DEMANGLE_MAXOUT: -CR_EINVAL, in bounded time.
	 */
	for (unsigned levels = 10; levels <= 20; levels += 10) {
		n = (size_t)snprintf(name, sizeof(name), "_Z1fSt4pairIiiE");
		for (unsigned k = 0; k < levels; k++) {
			/* S<2k in base 36>_: the pair type of the level before */
			unsigned id = 2 * k;
			char b36[4], *d = b36 + sizeof(b36);

			*--d = 0;
			do {
				*--d = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[id % 36];
				id /= 36;
			} while (id);
			if (k == 0)
				d = "";
			n +=
			    (size_t)snprintf(name + n, sizeof(name) - n, "St4pairIS%s_S%s_E", d, d);
		}
		r = demangle(name, 256, &clean);
		if (levels == 10)
			tap_ok(r > 0 && clean && strstr(buf, ELLIPSIS),
			       "doubling substitutions, 10 levels: elided");
		else
			tap_ok(r == -CR_EINVAL && clean,
			       "doubling substitutions, 20 levels: -CR_EINVAL");
	}

	/* The caller's workspace gives the same. */
	r = cr_demangle_ws(&ws, "_ZNSt6vectorIiSaIiEE9push_backERKi", buf, 100);
	tap_is_str(r > 0 ? buf : "",
	           "std::vector<int, std::allocator<int> >::push_back(int const&)",
	           "cr_demangle_ws");
}

/* Long names into small buffers: the start, a marker, the innermost name and the end. */
static const struct {
	const char *in;
	size_t cap;
	const char *out;
} elided[] = {
	{ "_ZNKSt7__cxx119money_getIwSt19istreambuf_iteratorIwSt11char_traitsIwEEE10_M_extract"
	  "ILb0EEES4_S4_S4_RSt8ios_baseRSt12_Ios_IostateRNS_12basic_stringIcS2_IcESaIcEEE",
	  64, "std::" ELLIPSIS "> > >::_M_extract<false>(std::" ELLIPSIS "> >&) const" },
	{ "_ZNKSt7__cxx119money_getIwSt19istreambuf_iteratorIwSt11char_traitsIwEEE10_M_extract"
	  "ILb0EEES4_S4_S4_RSt8ios_baseRSt12_Ios_IostateRNS_12basic_stringIcS2_IcESaIcEEE",
	  100, "std::" ELLIPSIS "<wchar_t> > >::_M_extract<false>(std::" ELLIPSIS
	       "<char> >&) const" },
	{ "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructIPKcEEvT_S8_St20"
	  "forward_iterator_tag",
	  100, "void std::" ELLIPSIS "<char> >::_M_construct<char const*>(char" ELLIPSIS
	       "::forward_iterator_tag)" },
	{ "_RINvNtCs8NwYtU1Mohg_4core3ptr9drop_glueINtNtB4_6option6OptionINtNtNtCsiLkOfxryNm2_5"
	  "gimli4read4line21IncompleteLineProgramINtNtB12_12endian_slice11EndianSliceNtNtB14_9en"
	  "dianity12LittleEndianEjEEECsi4IsKQVxMg0_3std",
	  64, "core::ptr::drop_glue::<core::option::" ELLIPSIS ">, usize>>>" },
	{ "_ZN100_$LT$$RF$std..os..unix..net..stream..UnixStream$u20$as$u20$std..sys..unix..kern"
	  "el_copy..CopyRead$GT$10properties17hd5977624e6d612beE",
	  64, "<&std::os::unix::" ELLIPSIS "::kernel_copy::CopyRead>::properties" },
};

static void test_elision(void)
{
	static char full[CR_DEMANGLE_MAXOUT + 1];
	unsigned n = 0, bad = 0;
	int clean, r;

	for (unsigned i = 0; i < sizeof(elided) / sizeof(elided[0]); i++) {
		char name[64];

		r = demangle(elided[i].in, elided[i].cap, &clean);
		snprintf(name, sizeof(name), "elided to %zu: %.30s", elided[i].cap, elided[i].in);
		tap_is_str(r >= 0 && clean ? buf : "(failed)", elided[i].out, name);
	}
	/*
	 * Every name of the table at every size: what is kept is the start
	 * and the end of the full text, a marker between; nothing past cap.
	 */
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t flen;

		if (!cases[i].out)
			continue;
		flen = strlen(cases[i].out);
		memcpy(full, cases[i].out, flen + 1);
		for (size_t cap = CR_DEMANGLE_MINCAP; cap < flen + 2; cap++) {
			const char *m1, *m2, *t;

			r = demangle(cases[i].in, cap, &clean);
			n++;
			if (r < 0 || !clean) {
				bad++;
				continue;
			}
			if ((size_t)r == flen) {
				bad += strcmp(buf, full) != 0;
				continue;
			}
			m1 = strstr(buf, ELLIPSIS);
			if (!m1) {
				bad++;
				continue;
			}
			for (m2 = m1; (t = strstr(m2 + 1, ELLIPSIS));)
				m2 = t;
			m2 += strlen(ELLIPSIS);
			if (strncmp(buf, full, (size_t)(m1 - buf)) ||
			    strcmp(full + flen - strlen(m2), m2)) {
				bad++;
				printf("#   %zu: %s\n", cap, buf);
			}
		}
	}
	if (!tap_ok(bad == 0, "every name at every size: start, marker, end; bounded"))
		printf("#   %u of %u bad\n", bad, n);
}

int main(void)
{
	test_table();
	test_twins();
	test_prefixes();
	test_bounds();
	test_elision();
	return tap_done();
}
