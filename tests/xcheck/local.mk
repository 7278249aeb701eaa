# Cross-checks against libunwind (an oracle only, never linked into libcrash).
#
# The code under test is compiled by explicit rules with its flags AFTER
# $(CFLAGS): automake puts a target's _CFLAGS before the user's CFLAGS, which
# would silently turn every -O0/-O3/-Os build into the configured -O2.
EXTRA_DIST += tests/xcheck/run-fpcheck.sh tests/xcheck/run-sigprof.sh tests/xcheck/workload.h \
	tests/xcheck/workload.c tests/xcheck/workload-cxx.cc
XW_CF = -g -fasynchronous-unwind-tables -I$(srcdir)/tests/xcheck
XW_O0 = -O0
XW_O2 = -O2 -fomit-frame-pointer
XW_O3 = -O3 -fomit-frame-pointer
XW_Os = -Os -fomit-frame-pointer
XW_O2fp = -O2 -fno-omit-frame-pointer
XW_nopie = -O2 -fno-pie
XW_pic = -O2 -fPIC
tests/xcheck/xw-%.o: $(srcdir)/tests/xcheck/workload.c $(srcdir)/tests/xcheck/workload.h
	$(AM_V_CC)$(MKDIR_P) tests/xcheck && $(CC) $(CFLAGS) $(XW_CF) $(XW_$*) -c -o $@ $<
tests/xcheck/xw-cxx.o: $(srcdir)/tests/xcheck/workload-cxx.cc $(srcdir)/tests/xcheck/workload.h
	$(AM_V_CXX)$(MKDIR_P) tests/xcheck && $(CXX) $(CXXFLAGS) $(XW_CF) -O2 -c -o $@ $<
tests/xcheck/libxwork.so: tests/xcheck/xw-pic.o
	$(AM_V_CCLD)$(CC) $(CFLAGS) -shared -o $@ tests/xcheck/xw-pic.o
CLEANFILES += tests/xcheck/xw-*.o tests/xcheck/libxwork.so

# Scan against CFI (issue 5): needs no libunwind.
include tests/xcheck/scan.mk

# crash_backtrace against glibc backtrace() at many call sites (every arch;
# the oracle where no libunwind is packaged): callsites.c built each way.
EXTRA_DIST += tests/xcheck/callsites.c tests/xcheck/callsites.h tests/xcheck/run-glibccheck.sh
tests/xcheck/xc-%.o: $(srcdir)/tests/xcheck/callsites.c $(srcdir)/tests/xcheck/callsites.h
	$(AM_V_CC)$(MKDIR_P) tests/xcheck && $(CC) $(CFLAGS) $(XW_CF) $(XW_$*) -c -o $@ $<
GLIBCCHECK_VARIANTS = tests/xcheck/glibccheck-O0 tests/xcheck/glibccheck-O2 \
	tests/xcheck/glibccheck-Os tests/xcheck/glibccheck-O2fp
check_PROGRAMS += $(GLIBCCHECK_VARIANTS)
tests_xcheck_glibccheck_O0_SOURCES = tests/xcheck/glibccheck.c
tests_xcheck_glibccheck_O0_LDADD = tests/xcheck/xc-O0.o $(UNIT_LDADD)
tests_xcheck_glibccheck_O2_SOURCES = tests/xcheck/glibccheck.c
tests_xcheck_glibccheck_O2_LDADD = tests/xcheck/xc-O2.o $(UNIT_LDADD)
tests_xcheck_glibccheck_Os_SOURCES = tests/xcheck/glibccheck.c
tests_xcheck_glibccheck_Os_LDADD = tests/xcheck/xc-Os.o $(UNIT_LDADD)
tests_xcheck_glibccheck_O2fp_SOURCES = tests/xcheck/glibccheck.c
tests_xcheck_glibccheck_O2fp_LDADD = tests/xcheck/xc-O2fp.o $(UNIT_LDADD)
CLEANFILES += tests/xcheck/xc-*.o
TESTS += tests/xcheck/run-glibccheck.sh

if HAVE_LIBUNWIND
XCHECK_LDADD = $(UNIT_LDADD) $(UNWIND_LIBS) -ldl
check_PROGRAMS += tests/xcheck/fpcheck
tests_xcheck_fpcheck_SOURCES = tests/xcheck/fpcheck.c
tests_xcheck_fpcheck_LDADD = tests/xcheck/fpwork.o $(XCHECK_LDADD)
tests/xcheck/fpwork.o: $(srcdir)/tests/xcheck/fpwork.c
	$(AM_V_CC)$(MKDIR_P) tests/xcheck && $(CC) $(CFLAGS) -g -O0 -fno-omit-frame-pointer \
		-fasynchronous-unwind-tables -c -o $@ $<
CLEANFILES += tests/xcheck/fpwork.o
EXTRA_DIST += tests/xcheck/fpwork.c
TESTS += tests/xcheck/run-fpcheck.sh

# The SIGPROF cross-check: one harness, the workload built each way.
SIGPROF_VARIANTS = tests/xcheck/sigprof-O0 tests/xcheck/sigprof-O2 tests/xcheck/sigprof-O3 \
	tests/xcheck/sigprof-Os tests/xcheck/sigprof-O2fp tests/xcheck/sigprof-nopie \
	tests/xcheck/sigprof-cxx tests/xcheck/sigprof-dl
check_PROGRAMS += $(SIGPROF_VARIANTS)
check_DATA = tests/xcheck/libxwork.so
tests_xcheck_sigprof_O0_SOURCES = tests/xcheck/sigprof.c
tests_xcheck_sigprof_O0_LDADD = tests/xcheck/xw-O0.o $(XCHECK_LDADD)
tests_xcheck_sigprof_O2_SOURCES = tests/xcheck/sigprof.c
tests_xcheck_sigprof_O2_LDADD = tests/xcheck/xw-O2.o $(XCHECK_LDADD)
tests_xcheck_sigprof_O3_SOURCES = tests/xcheck/sigprof.c
tests_xcheck_sigprof_O3_LDADD = tests/xcheck/xw-O3.o $(XCHECK_LDADD)
tests_xcheck_sigprof_Os_SOURCES = tests/xcheck/sigprof.c
tests_xcheck_sigprof_Os_LDADD = tests/xcheck/xw-Os.o $(XCHECK_LDADD)
tests_xcheck_sigprof_O2fp_SOURCES = tests/xcheck/sigprof.c
tests_xcheck_sigprof_O2fp_LDADD = tests/xcheck/xw-O2fp.o $(XCHECK_LDADD)
tests_xcheck_sigprof_nopie_SOURCES = tests/xcheck/sigprof.c
tests_xcheck_sigprof_nopie_LDFLAGS = -no-pie
tests_xcheck_sigprof_nopie_LDADD = tests/xcheck/xw-nopie.o $(XCHECK_LDADD)
# C++: libgcc_s before libunwind, so that exceptions use the normal C++
# runtime (libunwind.so also exports _Unwind_* and would interpose).
nodist_EXTRA_tests_xcheck_sigprof_cxx_SOURCES = dummy.cxx
tests_xcheck_sigprof_cxx_SOURCES = tests/xcheck/sigprof.c
tests_xcheck_sigprof_cxx_LDFLAGS = -Wl,--no-as-needed
tests_xcheck_sigprof_cxx_LDADD = tests/xcheck/xw-cxx.o -lgcc_s $(XCHECK_LDADD)
tests_xcheck_sigprof_dl_SOURCES = tests/xcheck/sigprof.c
tests_xcheck_sigprof_dl_CPPFLAGS = $(AM_CPPFLAGS) -DXW_DLOPEN
tests_xcheck_sigprof_dl_LDADD = $(XCHECK_LDADD)
TESTS += tests/xcheck/run-sigprof.sh
endif

if HAVE_DISTRO
# The SIGPROF cross-check over the distribution's own libraries (issue 19):
# glibc, libcrypto's perlasm, zlib, libm, libstdc++, swapcontext, longjmp.
check_PROGRAMS += tests/xcheck/distro
nodist_EXTRA_tests_xcheck_distro_SOURCES = dummy.cxx
tests_xcheck_distro_SOURCES = tests/xcheck/distro.c tests/xcheck/distro-cxx.cc
tests_xcheck_distro_CFLAGS = $(AM_CFLAGS) -fasynchronous-unwind-tables
tests_xcheck_distro_CXXFLAGS = $(AM_CXXFLAGS) -fasynchronous-unwind-tables
tests_xcheck_distro_LDADD = $(UNIT_LDADD) $(UNWIND_LIBS) -lcrypto -lz -lm -ldl
TESTS += tests/xcheck/run-distro.sh
endif
EXTRA_DIST += tests/xcheck/run-distro.sh

if HAVE_LIBUNWIND
# crash_backtrace vs glibc backtrace() and libunwind, plain, in a handler, nested.
check_PROGRAMS += tests/xcheck/btcheck
tests_xcheck_btcheck_SOURCES = tests/xcheck/btcheck.c
tests_xcheck_btcheck_LDADD = $(XCHECK_LDADD)
TESTS += tests/xcheck/btcheck
endif

# Exact frames without an FDE (issue 19): assembly that faults, every arch.
# Frame pointers in the C callers, so that a frame record is there to be
# weighed (the step's hard case); -rdynamic for dladdr.
check_PROGRAMS += tests/xcheck/nofde
tests_xcheck_nofde_SOURCES = tests/xcheck/nofde.c tests/xcheck/nofde-asm.S
tests_xcheck_nofde_CFLAGS = $(AM_CFLAGS) -fno-omit-frame-pointer -fasynchronous-unwind-tables
tests_xcheck_nofde_LDFLAGS = -rdynamic
tests_xcheck_nofde_LDADD = $(UNIT_LDADD) -ldl
TESTS += tests/xcheck/nofde
