# The demangler (libcrash/demangle*.c): C++ (Itanium ABI) as GNU c++filt prints it, Rust
# legacy and v0 as Rust's backtraces do.  t-demangle: a table of names and twins, bounds,
# elision.  run-demangle-corpus.sh: every C++ name of libstdc++ (and more) against c++filt,
# through demangle-cli; demangle-corpus is never run, only read by nm.
check_PROGRAMS += tests/unit/t-demangle tests/unit/demangle-cli tests/unit/demangle-corpus
TESTS += tests/unit/t-demangle tests/unit/run-demangle-corpus.sh
tests_unit_t_demangle_LDADD = $(UNIT_LDADD)
# C++17 (g++ 12's default, not clang++ 14's).
tests_unit_demangle_corpus_CXXFLAGS = $(AM_CXXFLAGS) -std=gnu++17
tests_unit_demangle_cli_LDADD = $(UNIT_LDADD)
tests_unit_demangle_corpus_SOURCES = tests/unit/demangle-corpus.cc
EXTRA_DIST += tests/unit/run-demangle-corpus.sh
