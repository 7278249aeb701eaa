# Unit tests of the foundation (TAP, tests/tap.h).
FOUNDATION_UNIT = tests/unit/t-out tests/unit/t-sigdesc tests/unit/t-options tests/unit/t-maps \
	tests/unit/t-memfast tests/unit/t-meminit tests/unit/t-install tests/unit/t-unwind \
	tests/unit/t-sym tests/unit/t-sys tests/unit/t-str
check_PROGRAMS += $(FOUNDATION_UNIT)
TESTS += $(FOUNDATION_UNIT)
tests_unit_t_out_LDADD = $(UNIT_LDADD)
tests_unit_t_sigdesc_LDADD = $(UNIT_LDADD)
tests_unit_t_options_LDADD = $(UNIT_LDADD)
tests_unit_t_maps_LDADD = $(UNIT_LDADD)
tests_unit_t_memfast_LDADD = $(UNIT_LDADD)
tests_unit_t_meminit_LDADD = $(UNIT_LDADD) -lpthread
tests_unit_t_install_LDADD = $(UNIT_LDADD)
tests_unit_t_unwind_LDADD = $(UNIT_LDADD)
tests_unit_t_sym_LDADD = $(UNIT_LDADD)
tests_unit_t_sys_LDADD = $(UNIT_LDADD)
tests_unit_t_str_LDADD = $(UNIT_LDADD)
# Unit tests may cast and compare freely.
tests_unit_t_sym_CFLAGS = $(AM_CFLAGS) -Wno-missing-prototypes
# t-sym again as a non-PIE executable: bias 0, its ELF header where it was
# linked (the link map walk finds its program headers through the auxv).
check_PROGRAMS += tests/unit/t-sym-nopie
TESTS += tests/unit/t-sym-nopie
tests_unit_t_sym_nopie_SOURCES = tests/unit/t-sym.c
tests_unit_t_sym_nopie_CFLAGS = $(AM_CFLAGS) -Wno-missing-prototypes -fno-pie
tests_unit_t_sym_nopie_LDFLAGS = -no-pie
tests_unit_t_sym_nopie_LDADD = $(UNIT_LDADD)

# Integration: real crashes under LD_PRELOAD and via crash_install().
TESTS += tests/abi/check-symbols.sh tests/crash/run-crash.sh
EXTRA_DIST += tests/crash/run-crash.sh tests/abi/check-symbols.sh tests/abi/allowlist.txt

include tests/xcheck/local.mk

# waitsig: how a test program really ended (wait status, core bit).
check_PROGRAMS += tests/crash/waitsig
tests_crash_waitsig_SOURCES = tests/crash/waitsig.c

# The handler's stack use, measured on a poisoned alternate stack.
check_PROGRAMS += tests/crash/stackuse
tests_crash_stackuse_SOURCES = tests/crash/stackuse.c
tests_crash_stackuse_LDADD = $(UNIT_LDADD)
TESTS += tests/crash/stackuse

# The row cache: a pc's two slots, keys, page 0.
check_PROGRAMS += tests/unit/t-cache
tests_unit_t_cache_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/t-cache

# The row cache's compact rows against the full ones, on every real FDE.
check_PROGRAMS += tests/unit/t-crow
tests_unit_t_crow_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/t-crow
