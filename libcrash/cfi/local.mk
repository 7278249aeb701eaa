# Engine cfi: its step and its trace loop, .eh_frame_hdr/.eh_frame, the DW_CFA_*
# interpreter, the DW_OP_* evaluator, the row cache and CIE memo.  Their unit
# tests: tests/unit/local.mk.
libcrash_core_la_SOURCES += libcrash/cfi/cfi.h libcrash/cfi/step.c libcrash/cfi/trace.c \
	libcrash/cfi/ehframe.c libcrash/cfi/cfa.c libcrash/cfi/expr.c libcrash/cfi/cache.c \
	libcrash/cfi/cache.h
