# Arch descriptions and prologue decoders: pure data and decoders, built and
# unit-tested on every host (each host's context.c is listed in Makefile.am).
# libcrash.so carries the host's only (no code of it names another arch:
# generic code goes through cr_host); the others go into a convenience
# library that only the unit tests link.
ARCH_X86_64_SRC = libcrash/arch/x86_64/desc.c libcrash/arch/x86_64/scan.c \
	libcrash/arch/x86_64/insn.c libcrash/arch/x86_64/insn.h
ARCH_AARCH64_SRC = libcrash/arch/aarch64/desc.c libcrash/arch/aarch64/scan.c
ARCH_RISCV64_SRC = libcrash/arch/riscv64/desc.c libcrash/arch/riscv64/scan.c
ARCH_LOONGARCH64_SRC = libcrash/arch/loongarch64/desc.c libcrash/arch/loongarch64/scan.c
noinst_LTLIBRARIES += libcrash-otherarch.la
libcrash_otherarch_la_SOURCES = libcrash/arch/scan.h
libcrash_core_la_SOURCES += libcrash/arch/scan.h \
	libcrash/arch/x86_64/syscall.h libcrash/arch/aarch64/syscall.h \
	libcrash/arch/riscv64/syscall.h libcrash/arch/loongarch64/syscall.h
if ARCH_X86_64
libcrash_core_la_SOURCES += $(ARCH_X86_64_SRC)
else
libcrash_otherarch_la_SOURCES += $(ARCH_X86_64_SRC)
endif
if ARCH_AARCH64
libcrash_core_la_SOURCES += $(ARCH_AARCH64_SRC)
else
libcrash_otherarch_la_SOURCES += $(ARCH_AARCH64_SRC)
endif
if ARCH_RISCV64
libcrash_core_la_SOURCES += $(ARCH_RISCV64_SRC)
else
libcrash_otherarch_la_SOURCES += $(ARCH_RISCV64_SRC)
endif
if ARCH_LOONGARCH64
libcrash_core_la_SOURCES += $(ARCH_LOONGARCH64_SRC)
else
libcrash_otherarch_la_SOURCES += $(ARCH_LOONGARCH64_SRC)
endif

SCAN_UNIT = tests/unit/t-scan-x86_64 tests/unit/t-scan-aarch64 tests/unit/t-scan-riscv64 \
	tests/unit/t-scan-loongarch64
check_PROGRAMS += $(SCAN_UNIT)
TESTS += $(SCAN_UNIT)
tests_unit_t_scan_x86_64_SOURCES = tests/unit/t-scan-x86_64.c tests/unit/scan-check.h
tests_unit_t_scan_x86_64_LDADD = $(UNIT_LDADD)
tests_unit_t_scan_aarch64_SOURCES = tests/unit/t-scan-aarch64.c tests/unit/scan-check.h
tests_unit_t_scan_aarch64_LDADD = $(UNIT_LDADD)
tests_unit_t_scan_riscv64_SOURCES = tests/unit/t-scan-riscv64.c tests/unit/scan-check.h
tests_unit_t_scan_riscv64_LDADD = $(UNIT_LDADD)
tests_unit_t_scan_loongarch64_SOURCES = tests/unit/t-scan-loongarch64.c tests/unit/scan-check.h
tests_unit_t_scan_loongarch64_LDADD = $(UNIT_LDADD)
