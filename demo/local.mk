# demo/crashme: the demo crash.  crashme is built -O0 with frame pointers so that
# every engine walks it; crashme-nofp is the same source at -O2 without them.
# The demo's objects are compiled by explicit rules with their flags after
# $(CFLAGS) (automake would put the user's -O2 last).
DEMO_CF = -g -fasynchronous-unwind-tables -std=gnu11 -Wno-unused-result -I$(srcdir)/include
DEMO_LDF = -no-install -Wl,-rpath,'$$ORIGIN' -Wl,--export-dynamic
DEMO_LIBS = demo/libcrashme.so -ldl -lpthread
noinst_PROGRAMS = demo/crashme demo/crashme-nofp demo/crashme-linked
demo_crashme_SOURCES =
demo_crashme_LDFLAGS = $(DEMO_LDF)
demo_crashme_LDADD = demo/crashme-fp.o $(DEMO_LIBS)
demo_crashme_DEPENDENCIES = demo/crashme-fp.o demo/libcrashme.so demo/libcrashinit.so
demo_crashme_nofp_SOURCES =
demo_crashme_nofp_LDFLAGS = $(DEMO_LDF)
demo_crashme_nofp_LDADD = demo/crashme-nofp.o $(DEMO_LIBS)
demo_crashme_nofp_DEPENDENCIES = demo/crashme-nofp.o demo/libcrashme.so demo/libcrashinit.so
demo_crashme_linked_SOURCES =
demo_crashme_linked_LDFLAGS = $(DEMO_LDF)
demo_crashme_linked_LDADD = demo/crashme-linked.o libcrash.la $(DEMO_LIBS)
demo_crashme_linked_DEPENDENCIES = demo/crashme-linked.o libcrash.la demo/libcrashme.so

demo/crashme-fp.o: $(srcdir)/demo/crashme.c
	$(AM_V_CC)$(MKDIR_P) demo && $(CC) $(CFLAGS) $(DEMO_CF) -O0 -fno-omit-frame-pointer -c -o $@ $<
demo/crashme-nofp.o: $(srcdir)/demo/crashme.c
	$(AM_V_CC)$(MKDIR_P) demo && $(CC) $(CFLAGS) $(DEMO_CF) -O2 -fomit-frame-pointer -c -o $@ $<
demo/crashme-linked.o: $(srcdir)/demo/crashme.c $(srcdir)/include/crash.h
	$(AM_V_CC)$(MKDIR_P) demo && $(CC) $(CFLAGS) $(DEMO_CF) -O0 -fno-omit-frame-pointer \
		-DCRASHME_LINKED -c -o $@ $<
demo/libcrashme.so: $(srcdir)/demo/crashlib.c
	$(AM_V_CC)$(MKDIR_P) demo && $(CC) $(CFLAGS) -g -O0 -fPIC -shared -fno-omit-frame-pointer \
		-fasynchronous-unwind-tables -Wl,-soname,libcrashme.so -o $@ $<
demo/libcrashinit.so: $(srcdir)/demo/crashinit.c
	$(AM_V_CC)$(MKDIR_P) demo && $(CC) $(CFLAGS) -g -O0 -fPIC -shared -fno-omit-frame-pointer \
		-fasynchronous-unwind-tables -o $@ $<
CLEANFILES += demo/*.o demo/libcrashme.so demo/libcrashinit.so
EXTRA_DIST += demo/crashme.c demo/crashlib.c demo/crashinit.c

# demo/crashme-pac (aarch64): return addresses signed on the stack (pointer
# authentication, also in leaf functions), -O2 without frame pointers.
if ARCH_AARCH64
noinst_PROGRAMS += demo/crashme-pac
demo_crashme_pac_SOURCES =
demo_crashme_pac_LDFLAGS = $(DEMO_LDF)
demo_crashme_pac_LDADD = demo/crashme-pac.o $(DEMO_LIBS)
demo_crashme_pac_DEPENDENCIES = demo/crashme-pac.o demo/libcrashme.so demo/libcrashinit.so
demo/crashme-pac.o: $(srcdir)/demo/crashme.c
	$(AM_V_CC)$(MKDIR_P) demo && $(CC) $(CFLAGS) $(DEMO_CF) -O2 -fomit-frame-pointer \
		-mbranch-protection=pac-ret+leaf -c -o $@ $<
endif

# `make demo`: build and run the demo crash under LD_PRELOAD (it dies by SIGSEGV on purpose).
demo: all
	@echo "+ LD_PRELOAD=$(abs_builddir)/.libs/libcrash.so demo/crashme segv"
	@LD_PRELOAD=$(abs_builddir)/.libs/libcrash.so $(builddir)/demo/crashme segv; \
	 st=$$?; echo "(exit status $$st: the demo died by SIGSEGV, as it would without libcrash)"
.PHONY: demo

# demo/crashcxx: C++ exception paths, -O2 without frame pointers.
noinst_PROGRAMS += demo/crashcxx
nodist_EXTRA_demo_crashcxx_SOURCES = dummy.cxx
demo_crashcxx_SOURCES =
demo_crashcxx_LDFLAGS = -no-install
demo_crashcxx_LDADD = demo/crashcxx.o
demo_crashcxx_DEPENDENCIES = demo/crashcxx.o
demo/crashcxx.o: $(srcdir)/demo/crashcxx.cc
	$(AM_V_CXX)$(MKDIR_P) demo && $(CXX) $(CXXFLAGS) -g -O2 -fomit-frame-pointer -c -o $@ $<
EXTRA_DIST += demo/crashcxx.cc
