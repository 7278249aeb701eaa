# Issue 5: the scan engine.  Agreement with CFI on the workload built each way
# (tests/xcheck/xw-*.o from local.mk, with unwind tables: scan ignores them),
# and the demo and the workload built with neither unwind tables nor frame
# pointers, where CRASH_ENGINE=scan must give the complete chain.
EXTRA_DIST += tests/xcheck/scan.mk tests/xcheck/run-scancheck.sh tests/xcheck/run-scan-demo.sh
SC_NOEH = -fno-asynchronous-unwind-tables -fno-unwind-tables -fomit-frame-pointer
SCANCHECK_LDADD = $(UNIT_LDADD) -ldl
SCANCHECK_VARIANTS = tests/xcheck/scancheck-O0 tests/xcheck/scancheck-O2 \
	tests/xcheck/scancheck-O3 tests/xcheck/scancheck-Os tests/xcheck/scancheck-O2fp \
	tests/xcheck/scancheck-noeh-O0 tests/xcheck/scancheck-noeh-O2
check_PROGRAMS += $(SCANCHECK_VARIANTS) demo/crashme-scan-O0 demo/crashme-scan-O2
tests_xcheck_scancheck_O0_SOURCES = tests/xcheck/scancheck.c
tests_xcheck_scancheck_O0_LDADD = tests/xcheck/xw-O0.o $(SCANCHECK_LDADD)
tests_xcheck_scancheck_O2_SOURCES = tests/xcheck/scancheck.c
tests_xcheck_scancheck_O2_LDADD = tests/xcheck/xw-O2.o $(SCANCHECK_LDADD)
tests_xcheck_scancheck_O3_SOURCES = tests/xcheck/scancheck.c
tests_xcheck_scancheck_O3_LDADD = tests/xcheck/xw-O3.o $(SCANCHECK_LDADD)
tests_xcheck_scancheck_Os_SOURCES = tests/xcheck/scancheck.c
tests_xcheck_scancheck_Os_LDADD = tests/xcheck/xw-Os.o $(SCANCHECK_LDADD)
tests_xcheck_scancheck_O2fp_SOURCES = tests/xcheck/scancheck.c
tests_xcheck_scancheck_O2fp_LDADD = tests/xcheck/xw-O2fp.o $(SCANCHECK_LDADD)
tests_xcheck_scancheck_noeh_O0_SOURCES = tests/xcheck/scancheck.c
tests_xcheck_scancheck_noeh_O0_LDADD = tests/xcheck/xwn-O0.o $(SCANCHECK_LDADD)
tests_xcheck_scancheck_noeh_O2_SOURCES = tests/xcheck/scancheck.c
tests_xcheck_scancheck_noeh_O2_LDADD = tests/xcheck/xwn-O2.o $(SCANCHECK_LDADD)
# The workload without tables: explicit rules, flags after $(CFLAGS) (see local.mk).
tests/xcheck/xwn-%.o: $(srcdir)/tests/xcheck/workload.c $(srcdir)/tests/xcheck/workload.h
	$(AM_V_CC)$(MKDIR_P) tests/xcheck && $(CC) $(CFLAGS) -g -I$(srcdir)/tests/xcheck -$* \
		$(SC_NOEH) -c -o $@ $<
# The demo without tables, linked like demo/crashme.
demo_crashme_scan_O0_SOURCES =
demo_crashme_scan_O0_LDFLAGS = $(DEMO_LDF)
demo_crashme_scan_O0_LDADD = demo/crashme-scan-O0.o $(DEMO_LIBS)
demo_crashme_scan_O0_DEPENDENCIES = demo/crashme-scan-O0.o demo/libcrashme.so
demo_crashme_scan_O2_SOURCES =
demo_crashme_scan_O2_LDFLAGS = $(DEMO_LDF)
demo_crashme_scan_O2_LDADD = demo/crashme-scan-O2.o $(DEMO_LIBS)
demo_crashme_scan_O2_DEPENDENCIES = demo/crashme-scan-O2.o demo/libcrashme.so
demo/crashme-scan-%.o: $(srcdir)/demo/crashme.c
	$(AM_V_CC)$(MKDIR_P) demo && $(CC) $(CFLAGS) -g -std=gnu11 -Wno-unused-result \
		-I$(srcdir)/include -$* $(SC_NOEH) -c -o $@ $<
CLEANFILES += tests/xcheck/xwn-*.o demo/crashme-scan-*.o
TESTS += tests/xcheck/run-scancheck.sh tests/xcheck/run-scan-demo.sh
