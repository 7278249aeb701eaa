# Every thread in the report (issue 18): a 16-thread process blocked in many
# system calls crashes, or asks for a report and lives on (run-threads.sh).
check_PROGRAMS += tests/threads/threads
tests_threads_threads_SOURCES = tests/threads/threads.c
tests_threads_threads_LDFLAGS = -no-install
tests_threads_threads_LDADD = libcrash.la -lpthread
check_PROGRAMS += tests/threads/noalloc
tests_threads_noalloc_SOURCES = tests/threads/noalloc.c
tests_threads_noalloc_LDADD = -lpthread
TESTS += tests/threads/run-threads.sh
EXTRA_DIST += tests/threads/run-threads.sh
