# Cross-checks against libunwind (an oracle only, never linked into libcrash).
EXTRA_DIST += tests/xcheck/run-fpcheck.sh tests/xcheck/run-sigprof.sh tests/xcheck/workload.h \
	tests/xcheck/workload.c tests/xcheck/workload-cxx.cc
if HAVE_LIBUNWIND
XCHECK_LDADD = $(UNIT_LDADD) $(UNWIND_LIBS) -ldl
check_PROGRAMS += tests/xcheck/fpcheck
tests_xcheck_fpcheck_SOURCES = tests/xcheck/fpcheck.c
tests_xcheck_fpcheck_CFLAGS = $(AM_CFLAGS) -O0 -g -fno-omit-frame-pointer
tests_xcheck_fpcheck_LDADD = $(XCHECK_LDADD)
TESTS += tests/xcheck/run-fpcheck.sh

# The SIGPROF cross-check, one program per way of building the workload.
SIGPROF_VARIANTS = tests/xcheck/sigprof-O0 tests/xcheck/sigprof-O2 tests/xcheck/sigprof-O3 \
	tests/xcheck/sigprof-Os tests/xcheck/sigprof-O2fp tests/xcheck/sigprof-nopie \
	tests/xcheck/sigprof-cxx tests/xcheck/sigprof-dl
check_PROGRAMS += $(SIGPROF_VARIANTS)
check_DATA = tests/xcheck/libxwork.so
SP_SRC = tests/xcheck/sigprof.c tests/xcheck/workload.c
SP_CF = -g -fasynchronous-unwind-tables -Wno-missing-prototypes
tests_xcheck_sigprof_O0_SOURCES = $(SP_SRC)
tests_xcheck_sigprof_O0_CFLAGS = $(AM_CFLAGS) $(SP_CF) -O0
tests_xcheck_sigprof_O0_LDADD = $(XCHECK_LDADD)
tests_xcheck_sigprof_O2_SOURCES = $(SP_SRC)
tests_xcheck_sigprof_O2_CFLAGS = $(AM_CFLAGS) $(SP_CF) -O2 -fomit-frame-pointer
tests_xcheck_sigprof_O2_LDADD = $(XCHECK_LDADD)
tests_xcheck_sigprof_O3_SOURCES = $(SP_SRC)
tests_xcheck_sigprof_O3_CFLAGS = $(AM_CFLAGS) $(SP_CF) -O3 -fomit-frame-pointer
tests_xcheck_sigprof_O3_LDADD = $(XCHECK_LDADD)
tests_xcheck_sigprof_Os_SOURCES = $(SP_SRC)
tests_xcheck_sigprof_Os_CFLAGS = $(AM_CFLAGS) $(SP_CF) -Os -fomit-frame-pointer
tests_xcheck_sigprof_Os_LDADD = $(XCHECK_LDADD)
tests_xcheck_sigprof_O2fp_SOURCES = $(SP_SRC)
tests_xcheck_sigprof_O2fp_CFLAGS = $(AM_CFLAGS) $(SP_CF) -O2 -fno-omit-frame-pointer
tests_xcheck_sigprof_O2fp_LDADD = $(XCHECK_LDADD)
tests_xcheck_sigprof_nopie_SOURCES = $(SP_SRC)
tests_xcheck_sigprof_nopie_CFLAGS = $(AM_CFLAGS) $(SP_CF) -O2 -fno-pie
tests_xcheck_sigprof_nopie_LDFLAGS = -no-pie
tests_xcheck_sigprof_nopie_LDADD = $(XCHECK_LDADD)
tests_xcheck_sigprof_cxx_SOURCES = tests/xcheck/sigprof.c tests/xcheck/workload-cxx.cc
tests_xcheck_sigprof_cxx_CFLAGS = $(AM_CFLAGS) $(SP_CF) -O2
tests_xcheck_sigprof_cxx_CXXFLAGS = -g -O2 -fasynchronous-unwind-tables
tests_xcheck_sigprof_cxx_LDADD = $(XCHECK_LDADD)
tests_xcheck_sigprof_dl_SOURCES = tests/xcheck/sigprof.c
tests_xcheck_sigprof_dl_CFLAGS = $(AM_CFLAGS) $(SP_CF) -O2 -DXW_DLOPEN
tests_xcheck_sigprof_dl_LDADD = $(XCHECK_LDADD)
tests/xcheck/libxwork.so: $(srcdir)/tests/xcheck/workload.c
	$(AM_V_CC)$(MKDIR_P) tests/xcheck && $(CC) $(CFLAGS) -g -O2 -fPIC -shared \
		-fasynchronous-unwind-tables -I$(srcdir)/tests/xcheck -o $@ $(srcdir)/tests/xcheck/workload.c
CLEANFILES += tests/xcheck/libxwork.so
TESTS += tests/xcheck/run-sigprof.sh
endif
