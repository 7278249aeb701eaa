# make check-cross: the same `make check` built for aarch64, riscv64 and loongarch64, every
# target program run under qemu-user (tests/cross/check-cross.sh; toolchains and qemu from
# tests/cross/setup.sh, into <srcdir>/.cross).  CROSS_CONFIGS picks some: "riscv64 riscv64-gcc".
check-cross:
	$(SHELL) $(top_srcdir)/tests/cross/check-cross.sh $(CROSS_CONFIGS)
.PHONY: check-cross
EXTRA_DIST += tests/cross/setup.sh tests/cross/check-cross.sh
