# Where a report goes, and what it must never do there (issue 16): a FIFO nobody
# reads, a full or broken stderr pipe, a daemon's reused descriptors, bad paths,
# one file per crash, concurrent crashes into one file, seccomp, journald.
#
# tests/output/outhelper: the crashing (and not crashing) programs, run with and
# without LD_PRELOAD=libcrash.so; links nothing of libcrash.
# tests/output/outhelper-linked: the same linked with libcrash, calling
# crash_install(NULL) at the start of main, as a daemon would.
# tests/output/journal-listen: a stand-in for journald's native socket.
check_PROGRAMS += tests/output/outhelper tests/output/outhelper-linked tests/output/journal-listen
tests_output_outhelper_SOURCES = tests/output/outhelper.c
tests_output_outhelper_LDADD =
tests_output_outhelper_linked_SOURCES = tests/output/outhelper.c
tests_output_outhelper_linked_CPPFLAGS = $(AM_CPPFLAGS) -DOUTHELPER_LINKED
tests_output_outhelper_linked_LDFLAGS = -no-install
tests_output_outhelper_linked_LDADD = libcrash.la
tests_output_journal_listen_SOURCES = tests/output/journal-listen.c
tests_output_journal_listen_LDADD =
TESTS += tests/output/run-output.sh
EXTRA_DIST += tests/output/run-output.sh
