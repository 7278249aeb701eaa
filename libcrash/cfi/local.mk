# CFI decoders: byte cursor, .eh_frame_hdr/.eh_frame, DW_CFA_* interpreter,
# DW_OP_* evaluator, and their unit tests (TAP, tests/tap.h).
libcrash_core_la_SOURCES += libcrash/cursor.c libcrash/cfi/cfi.h libcrash/cfi/ehframe.c \
	libcrash/cfi/cfa.c libcrash/cfi/expr.c

CFI_TESTS = tests/unit/t-cursor tests/unit/t-ehframe tests/unit/t-cfa tests/unit/t-expr
check_PROGRAMS += $(CFI_TESTS)
TESTS += $(CFI_TESTS)

tests_unit_t_cursor_SOURCES = tests/unit/t-cursor.c
tests_unit_t_cursor_LDADD = $(UNIT_LDADD)
tests_unit_t_ehframe_SOURCES = tests/unit/t-ehframe.c
tests_unit_t_ehframe_LDADD = $(UNIT_LDADD)
tests_unit_t_cfa_SOURCES = tests/unit/t-cfa.c
tests_unit_t_cfa_LDADD = $(UNIT_LDADD)
tests_unit_t_expr_SOURCES = tests/unit/t-expr.c
tests_unit_t_expr_LDADD = $(UNIT_LDADD)
