# Arch descriptions and prologue decoders: pure data and decoders, built and
# unit-tested on every host (x86_64/desc.c and each host's context.c are listed
# in Makefile.am).
libcrash_core_la_SOURCES += libcrash/arch/scan.h \
	libcrash/arch/x86_64/scan.c libcrash/arch/x86_64/insn.c libcrash/arch/x86_64/insn.h \
	libcrash/arch/aarch64/desc.c libcrash/arch/aarch64/scan.c \
	libcrash/arch/riscv64/desc.c libcrash/arch/riscv64/scan.c \
	libcrash/arch/loongarch64/desc.c libcrash/arch/loongarch64/scan.c \
	libcrash/arch/x86_64/syscall.h libcrash/arch/aarch64/syscall.h \
	libcrash/arch/riscv64/syscall.h libcrash/arch/loongarch64/syscall.h

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
