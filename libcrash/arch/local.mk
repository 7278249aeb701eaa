# Everything under arch/.  Descriptions and prologue decoders (desc.c, scan.c):
# pure data and decoders, built and unit-tested on every host.  libcrash.so
# carries the host's only (no code of it names another arch: generic code goes
# through cr_host); the others go into a convenience library that only the
# unit tests link.  context.c and entry.S: the host's glue (ucontext, signal
# frame, entry stubs), built for the host only.
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
libcrash_core_la_SOURCES += $(ARCH_X86_64_SRC) libcrash/arch/x86_64/context.c \
	libcrash/arch/x86_64/entry.S
else
libcrash_otherarch_la_SOURCES += $(ARCH_X86_64_SRC)
endif
if ARCH_AARCH64
libcrash_core_la_SOURCES += $(ARCH_AARCH64_SRC) libcrash/arch/aarch64/context.c \
	libcrash/arch/aarch64/entry.S
else
libcrash_otherarch_la_SOURCES += $(ARCH_AARCH64_SRC)
endif
if ARCH_RISCV64
libcrash_core_la_SOURCES += $(ARCH_RISCV64_SRC) libcrash/arch/riscv64/context.c \
	libcrash/arch/riscv64/entry.S
else
libcrash_otherarch_la_SOURCES += $(ARCH_RISCV64_SRC)
endif
if ARCH_LOONGARCH64
libcrash_core_la_SOURCES += $(ARCH_LOONGARCH64_SRC) libcrash/arch/loongarch64/context.c \
	libcrash/arch/loongarch64/entry.S
else
libcrash_otherarch_la_SOURCES += $(ARCH_LOONGARCH64_SRC)
endif
