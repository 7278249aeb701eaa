# Decoders for the report's file:line: DEFLATE/zlib for SHF_COMPRESSED debug
# sections (libcrash/inflate.c), .debug_line (libcrash/dwarf/line.c) and
# .debug_info's units and inlined frames (libcrash/dwarf/info.c); their unit
# tests, the drivers of the data-driven checks against zlib and addr2line.

DWARF_UNIT = tests/unit/t-inflate tests/unit/t-dwarf-line tests/unit/t-dwarf-info
check_PROGRAMS += $(DWARF_UNIT) tests/unit/inflate-cli tests/unit/dwarf-line-cli \
	tests/unit/dwarf-info-cli
TESTS += $(DWARF_UNIT) tests/unit/run-inflate.sh tests/unit/run-dwarf-line.sh \
	tests/unit/run-dwarf-info.sh
tests_unit_t_inflate_LDADD = $(UNIT_LDADD)
tests_unit_t_dwarf_line_SOURCES = tests/unit/t-dwarf-line.c tests/unit/faultmem.h
tests_unit_t_dwarf_line_LDADD = $(UNIT_LDADD)
tests_unit_t_dwarf_info_SOURCES = tests/unit/t-dwarf-info.c tests/unit/faultmem.h
tests_unit_t_dwarf_info_LDADD = $(UNIT_LDADD)
tests_unit_inflate_cli_SOURCES = tests/unit/inflate-cli.c tests/unit/elfsect.h
tests_unit_inflate_cli_LDADD = $(UNIT_LDADD)
tests_unit_dwarf_line_cli_SOURCES = tests/unit/dwarf-line-cli.c tests/unit/elfsect.h
tests_unit_dwarf_line_cli_LDADD = $(UNIT_LDADD)
tests_unit_dwarf_info_cli_SOURCES = tests/unit/dwarf-info-cli.c tests/unit/elfsect.h
tests_unit_dwarf_info_cli_LDADD = $(UNIT_LDADD)
EXTRA_DIST += tests/unit/run-inflate.sh tests/unit/run-dwarf-line.sh tests/unit/dwarf.mk \
	tests/unit/run-dwarf-info.sh tests/fuzz/fuzz-dwarf.c
