# The demangler (libcrash/demangle*.c): C++ (Itanium ABI) as GNU c++filt prints it, Rust
# legacy and v0 as Rust's backtraces do.  t-demangle: a table of names and twins, bounds,
# elision.  run-demangle-corpus.sh: every C++ name of libstdc++ (and more) against c++filt,
# through demangle-cli; demangle-corpus is never run, only read by nm.
libcrash_symbols_la_SOURCES += libcrash/demangle.c libcrash/demangle.h libcrash/demangle-int.h \
	libcrash/demangle-cxx.h libcrash/demangle-cxx.c libcrash/demangle-cxxname.c \
	libcrash/demangle-cxxtype.c libcrash/demangle-cxxexpr.c libcrash/demangle-cxxprint.c \
	libcrash/demangle-cxxdecl.c libcrash/demangle-cxxpexpr.c libcrash/demangle-rust.c \
	libcrash/demangle-rustv0.c libcrash/demangle-rustconst.c
check_PROGRAMS += tests/unit/t-demangle tests/unit/demangle-cli tests/unit/demangle-corpus
TESTS += tests/unit/t-demangle tests/unit/run-demangle-corpus.sh
tests_unit_t_demangle_LDADD = $(UNIT_LDADD)
tests_unit_demangle_cli_LDADD = $(UNIT_LDADD)
tests_unit_demangle_corpus_SOURCES = tests/unit/demangle-corpus.cc
EXTRA_DIST += tests/unit/run-demangle-corpus.sh
