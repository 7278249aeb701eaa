/* SPDX-License-Identifier: MIT */
/* threads.c's parsers: getdents64 records and /proc task status text, on byte arrays. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../tap.h"
#include "crash.h"
#include "out.h"
#include "report.h"
#include "threads.h"

/* One struct linux_dirent64 at buf + at: reclen 8-aligned as the kernel makes it. */
static size_t dirent(uint8_t *buf, size_t at, const char *name, unsigned type)
{
	size_t n = strlen(name), reclen = (19 + n + 1 + 7) & ~(size_t)7;

	memset(buf + at, 0, reclen);
	buf[at] = 0x11;			/* d_ino, anything */
	buf[at + 8] = (uint8_t)(at + reclen);	/* d_off */
	buf[at + 16] = (uint8_t)reclen;
	buf[at + 17] = (uint8_t)(reclen >> 8);
	buf[at + 18] = (uint8_t)type;
	memcpy(buf + at + 19, name, n);
	return at + reclen;
}

static void test_dirent(void)
{
	uint8_t buf[512];
	size_t len = 0, pos = 0, end;
	int tid = 0, r;

	len = dirent(buf, len, ".", 4);
	len = dirent(buf, len, "..", 4);
	len = dirent(buf, len, "4242", 4);
	len = dirent(buf, len, "12a", 4);	/* not a number */
	len = dirent(buf, len, "7", 4);
	len = dirent(buf, len, "99999999999", 4);	/* longer than a pid */
	len = dirent(buf, len, "4194304", 4);
	r = cr_threads_dirent(buf, len, &pos, &tid);
	tap_ok(r == 1 && tid == 4242, "dirent: first tid past . and ..");
	r = cr_threads_dirent(buf, len, &pos, &tid);
	tap_ok(r == 1 && tid == 7, "dirent: a name that is no number passed by");
	r = cr_threads_dirent(buf, len, &pos, &tid);
	tap_ok(r == 1 && tid == 4194304, "dirent: an 11-digit name passed by; 2^22");
	tap_ok(cr_threads_dirent(buf, len, &pos, &tid) == 0 && pos == len, "dirent: end");
	tap_ok(cr_threads_dirent(buf, 0, &(size_t){ 0 }, &tid) == 0, "dirent: empty buffer");

	/* Malformed: every truncation of the buffer inside a record, a
	   reclen past the end, below the header, a name without its NUL. */
	end = dirent(buf, 0, "123", 4);
	for (size_t cut = 1; cut < end; cut++) {
		pos = 0;
		if (cr_threads_dirent(buf, cut, &pos, &tid) != -1) {
			tap_ok(0, "dirent: a truncated record fails");
			break;
		}
		if (cut == end - 1)
			tap_ok(1, "dirent: every truncation of a record fails");
	}
	pos = 0;
	buf[16] = 200;
	tap_ok(cr_threads_dirent(buf, end, &pos, &tid) == -1, "dirent: reclen past the end");
	buf[16] = 12;
	pos = 0;
	tap_ok(cr_threads_dirent(buf, end, &pos, &tid) == -1, "dirent: reclen below the header");
	end = dirent(buf, 0, "1234", 4);	/* reclen 24: name 19..22, NUL at 23 */
	buf[23] = '5';
	pos = 0;
	tap_ok(cr_threads_dirent(buf, end, &pos, &tid) == -1, "dirent: no NUL in the record");
	buf[23] = 0;
	pos = 0;
	tap_ok(cr_threads_dirent(buf, end, &pos, &tid) == 1 && tid == 1234, "dirent: NUL restored");
}

static void test_status(void)
{
	static const char st[] = "Name:\tworker 3\n"
				 "Umask:\t0022\n"
				 "State:\tS (sleeping)\n"
				 "Tgid:\t100\n"
				 "SigQ:\t0/63419\n"
				 "SigPnd:\t0000000000000000\n"
				 "ShdPnd:\t0000000000000000\n"
				 "SigBlk:\t0800000000000001\n"
				 "SigIgn:\t0000000000001000\n"
				 "SigCgt:\t0000000180000000\n";
	char state = 0, buf[512];
	uint64_t blk = 0;
	char *p;

	tap_ok(cr_threads_status(st, sizeof(st) - 1, &state, &blk) == 0 && state == 'S' &&
		       blk == 0x0800000000000001ull,
	       "status: state and SigBlk");
	/* The name line may hold "State:": only a line's start counts. */
	strcpy(buf, "Name:\tState: X\nState:\tt (tracing stop)\nSigBlk:\t0000000000000000\n");
	tap_ok(cr_threads_status(buf, strlen(buf), &state, &blk) == 0 && state == 't' && blk == 0,
	       "status: a field's name inside another line's value is not the field");
	strcpy(buf, st);
	p = strstr(buf, "SigBlk");
	p[7] = 'x';
	tap_ok(cr_threads_status(buf, strlen(buf), &state, &blk) == -1, "status: SigBlk not hex");
	tap_ok(cr_threads_status(st, (size_t)(strstr(st, "SigBlk") - st) + 20, &state, &blk) == -1,
	       "status: SigBlk cut short");
	tap_ok(cr_threads_status(st, (size_t)(strstr(st, "State") - st) + 3, &state, &blk) == -1,
	       "status: no State line");
	tap_ok(cr_threads_status(st, (size_t)(strstr(st, "SigBlk") - st), &state, &blk) == -1,
	       "status: no SigBlk line");
	strcpy(buf, "State:\t\nSigBlk:\t0000000000000000\n");
	tap_ok(cr_threads_status(buf, strlen(buf), &state, &blk) == -1, "status: empty State");
	for (size_t cut = 0; cut < sizeof(st) - 1; cut++) {
		int r = cr_threads_status(st, cut, &state, &blk);
		size_t need = (size_t)(strstr(st, "SigBlk") - st) + 8 + 16;

		if ((r == 0) != (cut >= need)) {
			tap_ok(0, "status: every truncation");
			return;
		}
	}
	tap_ok(1, "status: every truncation fails until SigBlk's 16 digits are in");
	tap_is_str(cr_thread_state_text(CR_THREAD_BLOCKED), "signal blocked", "state text");
	tap_is_str(cr_thread_state_text(99), "?", "state text out of range");
}

/* The text of threads that were not captured (no walk): exact lines. */
static void test_print(void)
{
	static struct cr_threads ts;
	static char text[4096];
	struct cr_crash c;
	struct cr_out o;
	static const char want[] =
		"\nother threads: 5 (0 captured, 3 not captured, 2 over the limit of 64)\n"
		"--- --- --- --- --- --- --- --- --- --- --- --- --- --- --- ---\n"
		"pid: 100, tid: 101, name: worker\n"
		"not captured: signal blocked\n"
		"--- --- --- --- --- --- --- --- --- --- --- --- --- --- --- ---\n"
		"pid: 100, tid: 102, name: ?\n"
		"not captured: exiting\n"
		"--- --- --- --- --- --- --- --- --- --- --- --- --- --- --- ---\n"
		"pid: 100, tid: 103, name: io\n"
		"not captured: timed out\n";

	memset(&c, 0, sizeof(c));
	c.engine = CRASH_ENGINE_AUTO;
	ts.pid = 100;
	ts.n = 3;
	ts.more = 2;
	ts.t[0] = (struct cr_thread){ .tid = 101, .state = CR_THREAD_BLOCKED, .name = "worker" };
	ts.t[1] = (struct cr_thread){ .tid = 102, .state = CR_THREAD_EXITING };
	ts.t[2] = (struct cr_thread){ .tid = 103, .state = CR_THREAD_TIMEOUT, .name = "io" };
	c.threads = &ts;
	cr_out_mem(&o, text, sizeof(text));
	cr_report_threads(&o, &c, NULL);
	cr_out_drain(&o);
	tap_is_str(text, want, "print: count line, separators, headers, reasons");

	ts.err = -EBUSY;	/* another report holds the capture */
	ts.n = ts.more = 0;
	cr_out_mem(&o, text, sizeof(text));
	cr_report_threads(&o, &c, NULL);
	cr_out_drain(&o);
	tap_is_str(text, "\nother threads: ? (another report is capturing them)\n", "print: busy");

	c.threads = NULL;	/* CRASH_THREADS=crashing */
	cr_out_mem(&o, text, sizeof(text));
	cr_report_threads(&o, &c, NULL);
	cr_out_drain(&o);
	tap_is_str(text, "", "print: nothing without a capture");
}

int main(void)
{
	test_dirent();
	test_status();
	test_print();
	return tap_done();
}
