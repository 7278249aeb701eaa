# Every unit test (TAP, tests/tap.h): the program tests/unit/t-NAME, built from
# tests/unit/t-NAME.c and linked with LDADD (Makefile.am: the library's
# internals and the other arches' decoders) unless its lines below say more.
# A new unit test: its name in UNIT_TESTS, nothing else.
UNIT_TESTS = \
	tests/unit/t-cursor tests/unit/t-ehframe tests/unit/t-cfa tests/unit/t-expr \
	tests/unit/t-cache tests/unit/t-crow \
	tests/unit/t-scan-x86_64 tests/unit/t-scan-aarch64 tests/unit/t-scan-riscv64 \
	tests/unit/t-scan-loongarch64 \
	tests/unit/t-unwind tests/unit/t-special tests/unit/t-step tests/unit/t-report \
	tests/unit/t-out tests/unit/t-sigdesc tests/unit/t-options tests/unit/t-maps \
	tests/unit/t-memfast tests/unit/t-meminit tests/unit/t-install tests/unit/t-sym \
	tests/unit/t-sym-nopie tests/unit/t-sys tests/unit/t-str tests/unit/t-sink \
	tests/unit/t-debuginfo tests/unit/t-dump tests/unit/t-unzstd tests/unit/t-threads \
	tests/unit/t-abortmsg tests/unit/t-json tests/unit/t-symidx tests/unit/t-recall \
	tests/unit/t-modmem tests/unit/t-shape tests/unit/t-first tests/unit/t-populate
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)

# The prologue decoders' tests share their checks.
tests_unit_t_scan_x86_64_SOURCES = tests/unit/t-scan-x86_64.c tests/unit/scan-check.h
tests_unit_t_scan_aarch64_SOURCES = tests/unit/t-scan-aarch64.c tests/unit/scan-check.h
tests_unit_t_scan_riscv64_SOURCES = tests/unit/t-scan-riscv64.c tests/unit/scan-check.h
tests_unit_t_scan_loongarch64_SOURCES = tests/unit/t-scan-loongarch64.c tests/unit/scan-check.h
tests_unit_t_special_SOURCES = tests/unit/t-special.c tests/unit/fakeproc.h
tests_unit_t_step_SOURCES = tests/unit/t-step.c tests/unit/fakeproc.h
tests_unit_t_report_SOURCES = tests/unit/t-report.c tests/unit/fakeproc.h
tests_unit_t_abortmsg_SOURCES = tests/unit/t-abortmsg.c tests/unit/faultmem.h
tests_unit_t_cfa_SOURCES = tests/unit/t-cfa.c tests/unit/faultmem.h tests/unit/testarch.h
tests_unit_t_crow_SOURCES = tests/unit/t-crow.c tests/unit/loadedfde.h
tests_unit_t_shape_SOURCES = tests/unit/t-shape.c tests/unit/loadedfde.h tests/unit/testarch.h
tests_unit_t_meminit_LDADD = $(LDADD) -lpthread
tests_unit_t_debuginfo_CFLAGS = $(AM_CFLAGS) -Wno-missing-prototypes
# Unit tests may cast and compare freely.
tests_unit_t_sym_CFLAGS = $(AM_CFLAGS) -Wno-missing-prototypes
# t-sym again as a non-PIE executable: bias 0, its ELF header where it was
# linked (the link map walk finds its program headers through the auxv).
tests_unit_t_sym_nopie_SOURCES = tests/unit/t-sym.c
tests_unit_t_sym_nopie_CFLAGS = $(AM_CFLAGS) -Wno-missing-prototypes -fno-pie
tests_unit_t_sym_nopie_LDFLAGS = -no-pie

# Zstandard (libcrash/unzstd.c) against the zstd CLI and objcopy: the driver and its script.
check_PROGRAMS += tests/unit/unzstd-cli
TESTS += tests/unit/run-unzstd.sh
tests_unit_unzstd_cli_SOURCES = tests/unit/unzstd-cli.c tests/unit/elfsect.h
tests_unit_unzstd_cli_LDADD = $(UNIT_LDADD)
EXTRA_DIST += tests/unit/run-unzstd.sh

# Other areas' unit tests, in fragments of their own beside them.
include tests/unit/dwarf.mk
include tests/unit/demangle.mk

# The captures' remembered proofs against module unloads, freed thread stacks,
# fork and alternate stacks (issue 20): linked with libcrash.so (its
# pthread_create records each thread's stack) and two modules it loads in turn.
# Frame pointers in it and in its modules: the fp engine's captures are
# checked too, through module code whose proofs are remembered (modmem.c).
tests_unit_t_recall_CFLAGS = $(AM_CFLAGS) -fno-omit-frame-pointer
tests_unit_t_recall_LDFLAGS = -no-install -Wl,-z,now
tests_unit_t_recall_LDADD = libcrash.la -ldl -lpthread
tests_unit_t_recall_DEPENDENCIES = libcrash.la tests/unit/librecall-a.so tests/unit/librecall-b.so \
	tests/unit/librecall-scan-a.so tests/unit/librecall-scan-b.so tests/unit/librecall-cold.so \
	tests/unit/librecall-coldeh.so
tests/unit/librecall-a.so: $(srcdir)/tests/recall/mod.c
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(CC) $(CFLAGS) -O2 -fno-omit-frame-pointer -fPIC -shared \
		-DRECALL_PAD=1 -o $@ $<
tests/unit/librecall-b.so: $(srcdir)/tests/recall/mod.c
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(CC) $(CFLAGS) -O2 -fno-omit-frame-pointer -fPIC -shared \
		-DRECALL_PAD=8 -o $@ $<
CLEANFILES += tests/unit/librecall-a.so tests/unit/librecall-b.so
# Twins without unwind tables, of the same layout, with frames of 16 and 40
# bytes, loaded in turn at the same base: what the module table (t-modmem) and
# the scan engine's cached rows (t-recall) know of one must not serve the other.
# Not with the build's CFLAGS: a sanitizer's code in their prologues would
# make them other twins.
SCANMOD_FLAGS = -g -O2 -fomit-frame-pointer -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-fPIC -shared
tests/unit/librecall-scan-a.so: $(srcdir)/tests/recall/scanmod.c
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(CC) $(SCANMOD_FLAGS) -DSCAN_PAD=16 -o $@ $<
tests/unit/librecall-scan-b.so: $(srcdir)/tests/recall/scanmod.c
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(CC) $(SCANMOD_FLAGS) -DSCAN_PAD=40 -o $@ $<
CLEANFILES += tests/unit/librecall-scan-a.so tests/unit/librecall-scan-b.so
# Frame pointers, no unwind tables, and GCC's hot/cold split (on at -O2): a
# call from a fragment, work.cold (tests/recall/coldmod.c).
tests/unit/librecall-cold.so: $(srcdir)/tests/recall/coldmod.c
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(CC) -g -O2 -fno-omit-frame-pointer \
		-fno-asynchronous-unwind-tables -fno-unwind-tables -fPIC -shared -o $@ $<
# The same with unwind tables and without frame pointers: work.cold has an FDE
# of its own, whose start is no entry (for the scan engine alone).
tests/unit/librecall-coldeh.so: $(srcdir)/tests/recall/coldmod.c
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(CC) -g -O2 -fomit-frame-pointer \
		-fasynchronous-unwind-tables -fPIC -shared -o $@ $<
CLEANFILES += tests/unit/librecall-cold.so tests/unit/librecall-coldeh.so
# Module memory proven once (libcrash/modmem.c): the two modules above and one
# whose segments are 64 KiB apart (holes the loader makes PROT_NONE), with and
# without 12 KiB more code (the same span, more readable pages of text).
tests_unit_t_modmem_LDADD = $(LDADD) -ldl
tests_unit_t_modmem_DEPENDENCIES = $(UNIT_LDADD) tests/unit/librecall-a.so \
	tests/unit/librecall-b.so tests/unit/libmodmem-holes.so tests/unit/libmodmem-big.so \
	tests/unit/librecall-scan-a.so tests/unit/librecall-scan-b.so
tests/unit/libmodmem-holes.so: $(srcdir)/tests/recall/mod.c
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(CC) $(CFLAGS) -O2 -fPIC -shared -DRECALL_PAD=8 \
		-Wl,-z,max-page-size=0x10000 -Wl,-z,separate-code -o $@ $<
tests/unit/libmodmem-big.so: $(srcdir)/tests/recall/mod.c
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(CC) $(CFLAGS) -O2 -fPIC -shared -DRECALL_PAD=8 \
		-DMODMEM_BIG -Wl,-z,max-page-size=0x10000 -Wl,-z,separate-code -o $@ $<
CLEANFILES += tests/unit/libmodmem-holes.so tests/unit/libmodmem-big.so
EXTRA_DIST += tests/recall/mod.c tests/recall/scanmod.c tests/recall/coldmod.c

# The unit test programs' names: tests/run-all.sh's ASan step, and the valgrind run
# inside make distcheck (Makefile.am's installcheck-local).
CR_UNIT_LIST = $(filter tests/unit/t-%,$(check_PROGRAMS))
list-unit-tests:
	@echo $(CR_UNIT_LIST)
.PHONY: list-unit-tests
