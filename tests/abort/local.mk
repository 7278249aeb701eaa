# The abort message (issue 18): programs that abort the ways glibc and
# libstdc++ do, and the script that checks the report's 'abort message:'
# line, the wait status and the programs' own stderr against runs without
# libcrash.  Explicit rules: the flags come after $(CFLAGS) (fortify needs
# optimization; a user's -O0 would turn it off).  The warnings of the
# deliberate faults are off (GCC ignores a -Wno- it does not know, clang is
# told to).
check_PROGRAMS += tests/abort/abortme tests/abort/abortme-cxx
tests_abort_abortme_SOURCES =
tests_abort_abortme_LDADD = tests/abort/abortme.o
tests_abort_abortme_DEPENDENCIES = tests/abort/abortme.o
tests/abort/abortme.o: $(srcdir)/tests/abort/abortme.c
	$(AM_V_CC)$(MKDIR_P) tests/abort && $(CC) $(CFLAGS) -g -O2 -U_FORTIFY_SOURCE \
		-D_FORTIFY_SOURCE=2 -fstack-protector-all -Wno-unknown-warning-option \
		-Wno-stringop-overflow -Wno-array-bounds -c -o $@ $<
nodist_EXTRA_tests_abort_abortme_cxx_SOURCES = dummy.cxx
tests_abort_abortme_cxx_SOURCES =
tests_abort_abortme_cxx_LDADD = tests/abort/abortme-cxx.o -lpthread
tests_abort_abortme_cxx_DEPENDENCIES = tests/abort/abortme-cxx.o
tests/abort/abortme-cxx.o: $(srcdir)/tests/abort/abortme-cxx.cc
	$(AM_V_CXX)$(MKDIR_P) tests/abort && $(CXX) $(CXXFLAGS) -g -O2 \
		-Wno-unknown-warning-option -Wno-terminate -Wno-exceptions -c -o $@ $<
TESTS += tests/abort/run-abort.sh
EXTRA_DIST += tests/abort/run-abort.sh tests/abort/abortme.c tests/abort/abortme-cxx.cc
CLEANFILES += tests/abort/abortme.o tests/abort/abortme-cxx.o
