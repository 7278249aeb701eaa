# Decoders for the report's file:line: DEFLATE/zlib for SHF_COMPRESSED debug
# sections (libcrash/inflate.c) and .debug_line (libcrash/dwarf/line.c); their
# unit tests, the drivers of the data-driven checks against zlib and addr2line.
libcrash_symbols_la_SOURCES += libcrash/inflate.c libcrash/inflate.h libcrash/dwarf/line.c \
	libcrash/dwarf/line.h

DWARF_UNIT = tests/unit/t-inflate tests/unit/t-dwarf-line
check_PROGRAMS += $(DWARF_UNIT) tests/unit/inflate-cli tests/unit/dwarf-line-cli
TESTS += $(DWARF_UNIT) tests/unit/run-inflate.sh tests/unit/run-dwarf-line.sh
tests_unit_t_inflate_LDADD = $(UNIT_LDADD)
tests_unit_t_dwarf_line_SOURCES = tests/unit/t-dwarf-line.c tests/unit/faultmem.h
tests_unit_t_dwarf_line_LDADD = $(UNIT_LDADD)
tests_unit_inflate_cli_SOURCES = tests/unit/inflate-cli.c tests/unit/elfsect.h
tests_unit_inflate_cli_LDADD = $(UNIT_LDADD)
tests_unit_dwarf_line_cli_SOURCES = tests/unit/dwarf-line-cli.c tests/unit/elfsect.h
tests_unit_dwarf_line_cli_LDADD = $(UNIT_LDADD)
EXTRA_DIST += tests/unit/run-inflate.sh tests/unit/run-dwarf-line.sh tests/unit/dwarf.mk \
	tests/fuzz/fuzz-dwarf.c
