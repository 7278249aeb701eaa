# Living with other handlers: C programs for each chaining order, handler style,
# recovery, alternate stack and thread stack (issue 14).
#
# tests/coexist/coexist: the application, run with and without LD_PRELOAD=libcrash.so.
# It needs libcoexist-early.so (found next to it through $ORIGIN), whose constructor
# installs the application's handler before a preloaded libcrash's; the library calls
# back into the program, which exports that function (--export-dynamic).
# tests/coexist/coexist-linked: the same source linked with libcrash, calling
# crash_install() itself (-DCOEXIST_LINKED).
COEXIST_LDF = -no-install -Wl,-rpath,'$$ORIGIN' -Wl,--export-dynamic
check_PROGRAMS += tests/coexist/coexist tests/coexist/coexist-linked
tests_coexist_coexist_SOURCES = tests/coexist/coexist.c tests/coexist/coexist.h
tests_coexist_coexist_LDFLAGS = $(COEXIST_LDF)
tests_coexist_coexist_LDADD = tests/coexist/libcoexist-early.so -lpthread
tests_coexist_coexist_DEPENDENCIES = tests/coexist/libcoexist-early.so
tests_coexist_coexist_linked_SOURCES = tests/coexist/coexist.c tests/coexist/coexist.h
tests_coexist_coexist_linked_CPPFLAGS = $(AM_CPPFLAGS) -DCOEXIST_LINKED
tests_coexist_coexist_linked_LDFLAGS = $(COEXIST_LDF)
tests_coexist_coexist_linked_LDADD = libcrash.la -lpthread
tests/coexist/libcoexist-early.so: $(srcdir)/tests/coexist/early.c $(srcdir)/tests/coexist/coexist.h
	$(AM_V_CC)$(MKDIR_P) tests/coexist && $(CC) $(CFLAGS) $(CR_WARN) -std=gnu11 -fPIC -shared \
		-Wl,-soname,libcoexist-early.so -o $@ $<
CLEANFILES += tests/coexist/libcoexist-early.so
TESTS += tests/coexist/run-coexist.sh tests/coexist/run-syscalls.sh
EXTRA_DIST += tests/coexist/run-coexist.sh tests/coexist/run-syscalls.sh tests/coexist/early.c
# tests/coexist/strict: strict ISO C, whose signal() is glibc's __sysv_signal.
check_PROGRAMS += tests/coexist/strict
tests_coexist_strict_SOURCES = tests/coexist/strict.c
tests_coexist_strict_CPPFLAGS =
tests_coexist_strict_CFLAGS = -std=c99 -O2
