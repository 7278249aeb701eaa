# demo/crashme: the demo crash.  Built with frame pointers at -O0 so that every
# engine walks it; crashme-nofp is the same at -O2 without frame pointers.
DEMO_CF = -g -O0 -fno-omit-frame-pointer -fasynchronous-unwind-tables -Wno-unused-result
DEMO_LDF = -no-install -Wl,-rpath,'$$ORIGIN' -Wl,--export-dynamic
noinst_PROGRAMS = demo/crashme demo/crashme-nofp demo/crashme-linked
demo_crashme_SOURCES = demo/crashme.c
demo_crashme_CFLAGS = $(DEMO_CF) -std=gnu11
demo_crashme_LDFLAGS = $(DEMO_LDF)
demo_crashme_LDADD = demo/libcrashme.so -ldl -lpthread
demo_crashme_DEPENDENCIES = demo/libcrashme.so demo/libcrashinit.so
demo_crashme_nofp_SOURCES = demo/crashme.c
demo_crashme_nofp_CFLAGS = -g -O2 -fomit-frame-pointer -fasynchronous-unwind-tables -std=gnu11 -Wno-unused-result
demo_crashme_nofp_LDFLAGS = $(DEMO_LDF)
demo_crashme_nofp_LDADD = demo/libcrashme.so -ldl -lpthread
demo_crashme_nofp_DEPENDENCIES = demo/libcrashme.so
demo_crashme_linked_SOURCES = demo/crashme.c
demo_crashme_linked_CFLAGS = $(DEMO_CF) -std=gnu11 -DCRASHME_LINKED
demo_crashme_linked_LDFLAGS = $(DEMO_LDF)
demo_crashme_linked_LDADD = libcrash.la demo/libcrashme.so -ldl -lpthread
demo_crashme_linked_DEPENDENCIES = libcrash.la demo/libcrashme.so

demo/libcrashme.so: $(srcdir)/demo/crashlib.c
	$(AM_V_CC)$(MKDIR_P) demo && $(CC) $(CFLAGS) -g -O0 -fPIC -shared -fno-omit-frame-pointer \
		-fasynchronous-unwind-tables -Wl,-soname,libcrashme.so -o $@ $(srcdir)/demo/crashlib.c
demo/libcrashinit.so: $(srcdir)/demo/crashinit.c
	$(AM_V_CC)$(MKDIR_P) demo && $(CC) $(CFLAGS) -g -O0 -fPIC -shared -fno-omit-frame-pointer \
		-fasynchronous-unwind-tables -o $@ $(srcdir)/demo/crashinit.c
CLEANFILES = demo/libcrashme.so demo/libcrashinit.so
EXTRA_DIST += demo/crashlib.c demo/crashinit.c

# `make demo`: build and run the demo crash under LD_PRELOAD (it dies by SIGSEGV on purpose).
demo: all
	@echo "+ LD_PRELOAD=$(abs_builddir)/.libs/libcrash.so demo/crashme segv"
	@LD_PRELOAD=$(abs_builddir)/.libs/libcrash.so $(builddir)/demo/crashme segv; \
	 st=$$?; echo "(exit status $$st: the demo dies by SIGSEGV, as it would without libcrash)"
.PHONY: demo
