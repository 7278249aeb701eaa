# The report's symbols against binutils, frame by frame (issue 17): names, file:line and
# inlined frames of crashes of programs built at test time (tests/symbols/run-symbols.sh).
TESTS += tests/symbols/run-symbols.sh
EXTRA_DIST += tests/symbols/run-symbols.sh tests/symbols/symcheck.sh tests/symbols/symprog.c \
	tests/symbols/symprog.cc tests/symbols/symhdr.h tests/symbols/symlib.c tests/symbols/symlib.h
# Its build products (one directory per program and per scenario).
clean-local: clean-symbols
clean-symbols:
	-rm -rf tests/symbols/gcc-* tests/symbols/clang-*
.PHONY: clean-symbols
