/* SPDX-License-Identifier: MIT */
/*
 * The output's pure pieces (libcrash/sink.c): one-file-per-crash names (UTC
 * from seconds, the civil calendar), journald's fields, and the options'
 * parsers of the output issue (CRASH_TIMEOUT, CRASH_DISABLE, CRASH_SIGNALS'
 * refusal of signals that do not end a process).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tap.h"
#include "options.h"
#include "sink.h"

static void name_is(int64_t t, int pid, int tid, const char *want)
{
	char got[96], what[160];

	cr_sink_name(got, sizeof(got), t, pid, tid);
	snprintf(what, sizeof(what), "name at %lld s", (long long)t);
	tap_is_str(got, want, what);
}

/* How each kind of descriptor is written. */
static void classify_is(int fd, int poll, size_t chunk, const char *what)
{
	struct cr_sink_io io = { .fd = fd };

	cr_sink_classify(&io);
	tap_ok(fd >= 0 && io.poll == poll && io.chunk == chunk, what);	/* a failed open fails */
	if (fd >= 0)
		close(fd);
}

static void t_classify(void)
{
	char path[] = "/tmp/t-sink-XXXXXX";
	int p[2] = { -1, -1 }, fd;

	classify_is(open("/dev/null", O_WRONLY), 0, (size_t)-1, "classify: /dev/null whole");
	classify_is(open("/dev/zero", O_WRONLY), 0, (size_t)-1, "classify: /dev/zero whole");
	fd = mkstemp(path);
	unlink(path);
	classify_is(fd, 0, (size_t)-1, "classify: a regular file whole");
	if (pipe(p) == 0)
		close(p[0]);
	classify_is(p[1], 1, 4096, "classify: a pipe: 4096 after POLLOUT");
	/* Another character device (a pty's master, else /dev/full: 1:7). */
	if ((fd = posix_openpt(O_RDWR | O_NOCTTY)) < 0)
		fd = open("/dev/full", O_WRONLY);
	classify_is(fd, 1, 256, "classify: another character device: 256 after POLLOUT");
	{
		struct cr_sink_io io = { .fd = -1 };

		cr_sink_classify(&io);
		tap_ok(io.poll == 0 && io.chunk == (size_t)-1, "classify: no descriptor");
	}
}

int main(void)
{
	char buf[512];
	unsigned long long m;
	int v;

	t_classify();
	name_is(0, 1, 1, "crash-19700101T000000Z-1-1.txt");
	name_is(86399, 2, 3, "crash-19700101T235959Z-2-3.txt");
	/* Leap days: 2000 (divisible by 400), 2024; 2100 is no leap year. */
	name_is(951782400, 10, 11, "crash-20000229T000000Z-10-11.txt");
	name_is(951868800, 10, 11, "crash-20000301T000000Z-10-11.txt");
	name_is(1709164800, 4, 4, "crash-20240229T000000Z-4-4.txt");
	name_is(4107456000, 5, 6, "crash-21000228T000000Z-5-6.txt");
	name_is(4107542400, 5, 6, "crash-21000301T000000Z-5-6.txt");
	name_is(1795509072, 31846, 31847, "crash-20261124T083112Z-31846-31847.txt");
	name_is(-1, 7, 7, "crash-19691231T235959Z-7-7.txt");
	tap_ok(cr_sink_name(buf, 20, 0, 1, 1) == 0, "name: a buffer too small gets nothing");

	cr_journal_fields(buf, sizeof(buf), SIGSEGV, 42, 43, "crashme", "/usr/bin/crashme");
	tap_is_str(buf,
		   "PRIORITY=2\nSYSLOG_IDENTIFIER=crashme\nCRASH_SIGNAL=11\n"
		   "CRASH_SIGNAL_NAME=SIGSEGV\nCRASH_PID=42\nCRASH_TID=43\n"
		   "CRASH_EXE=/usr/bin/crashme\n",
		   "journal fields");
	memset(buf, 0, sizeof(buf));
	cr_journal_fields(buf, sizeof(buf), SIGABRT, 1, 1, "", "/a\nb");
	tap_is_str(buf,
		   "PRIORITY=2\nSYSLOG_IDENTIFIER=libcrash\nCRASH_SIGNAL=6\n"
		   "CRASH_SIGNAL_NAME=SIGABRT\nCRASH_PID=1\nCRASH_TID=1\nCRASH_EXE=/a b\n",
		   "journal fields: no name, a newline in a value");
	tap_ok(cr_journal_fields(buf, 16, SIGSEGV, 1, 1, "x", "y") < 16, "journal fields: bounded");

	tap_ok(cr_opt_timeout("10", &v) == 0 && v == 10, "timeout 10");
	tap_ok(cr_opt_timeout("3600", &v) == 0 && v == 3600, "timeout 3600");
	tap_ok(cr_opt_timeout("0", &v) < 0 && cr_opt_timeout("3601", &v) < 0 &&
		       cr_opt_timeout("1s", &v) < 0 && cr_opt_timeout("", &v) < 0,
	       "timeout: 0, 3601, 1s, empty refused");
	tap_ok(cr_opt_bool("1") == 1 && cr_opt_bool("0") == 0 && cr_opt_bool("yes") < 0 &&
		       cr_opt_bool("") < 0 && cr_opt_bool("10") < 0,
	       "disable: 1, 0; yes, empty, 10 refused");
	tap_ok(cr_opt_signals("SEGV,WINCH", &m) < 0, "signals: WINCH refused");
	tap_ok(cr_opt_signals("CHLD", &m) < 0 && cr_opt_signals("CONT", &m) < 0 &&
		       cr_opt_signals("TSTP", &m) < 0 && cr_opt_signals("TTIN", &m) < 0 &&
		       cr_opt_signals("TTOU", &m) < 0 && cr_opt_signals("URG", &m) < 0,
	       "signals: CHLD, CONT, TSTP, TTIN, TTOU, URG refused");
	tap_ok(cr_opt_signals("SEGV,USR1,TERM,XCPU", &m) == 0 &&
		       m == (CRASH_SIGMASK(SIGSEGV) | CRASH_SIGMASK(SIGUSR1) |
			     CRASH_SIGMASK(SIGTERM) | CRASH_SIGMASK(SIGXCPU)),
	       "signals: fatal ones accepted");
	return tap_done();
}
