# DWARF decoders for the report's file:line and inlined frames (issue 17):
# .debug_line (line.c), .debug_info's units and inlined subroutines (info.c).
libcrash_core_la_SOURCES += libcrash/dwarf/dwarf.h libcrash/dwarf/line.c libcrash/dwarf/line.h \
	libcrash/dwarf/info.c libcrash/dwarf/info.h
