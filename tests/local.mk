# The tests other than unit tests (those: tests/unit/local.mk).

# Integration: real crashes under LD_PRELOAD and via crash_install().
TESTS += tests/abi/check-symbols.sh tests/crash/run-crash.sh
EXTRA_DIST += tests/crash/run-crash.sh tests/abi/check-symbols.sh tests/abi/allowlist.txt

include tests/xcheck/local.mk

# waitsig: how a test program really ended (wait status, core bit).  Links
# nothing of libcrash.
check_PROGRAMS += tests/crash/waitsig
tests_crash_waitsig_SOURCES = tests/crash/waitsig.c
tests_crash_waitsig_LDADD =

# The handler's stack use, measured on a poisoned alternate stack.
check_PROGRAMS += tests/crash/stackuse
tests_crash_stackuse_SOURCES = tests/crash/stackuse.c
TESTS += tests/crash/stackuse
include tests/output/local.mk
include tests/symbols/local.mk
include tests/threads/local.mk
include tests/abort/local.mk
include tests/json/local.mk
