/* SPDX-License-Identifier: MIT */
/*
 * outhelper MODE [ARGS]: the programs of tests/output/run-output.sh (issue 16),
 * each a situation in which a crash report could make things worse.  Run with
 * and without LD_PRELOAD=libcrash.so; notes go to stderr ("outhelper: ...").
 *
 *   exit                 reach main, say so, exit 0 (start-up must not hang)
 *   fill-segv            fill stderr (a pipe nobody reads) to EAGAIN, then SIGSEGV
 *   daemon DATA          close every descriptor >= 3, 0-2 to /dev/null, write a
 *                        marker to DATA, then SIGSEGV
 *   daemon-dup2 DATA REPORT
 *                        DATA dup2()ed onto libcrash's descriptor (the highest
 *                        open one, which must be REPORT), a marker, then SIGSEGV
 *   winch                send itself SIGWINCH, go on, then SIGSEGV
 *   wait-segv GO READY   say "ready" on the FIFO READY, wait until the FIFO GO is
 *                        readable (everyone released at once), then SIGSEGV
 *   seccomp CALL         trap getpid, openat or write with a seccomp filter
 *                        (SECCOMP_RET_TRAP), then SIGSEGV; exit 77 without seccomp
 *   kill-exec PROG ARGS  a seccomp filter that kills the process on process_vm_readv
 *                        (SECCOMP_RET_KILL_PROCESS, as systemd's SystemCallFilter=
 *                        without SystemCallErrorNumber=), then exec PROG; exit 77
 *                        without seccomp
 *   fdpass SOCK          send SOCK a datagram with no payload and a memfd
 *                        (SCM_RIGHTS), as libcrash does for a long report: a
 *                        probe of the kernel (or emulator) the test runs on
 *
 * outhelper-linked (-DOUTHELPER_LINKED) is linked with libcrash and calls
 * crash_install(NULL) first thing in main, as a daemon that links it would.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#ifdef OUTHELPER_LINKED
#include "crash.h"
#endif

#define MARKER "outhelper data marker\n"

/* Not a constant the compiler can see: the store below really faults. */
static volatile uintptr_t crash_addr;

static void crash(void)
{
	*(volatile int *)crash_addr = 1;
	fprintf(stderr, "outhelper: did not crash\n");
	exit(1);
}

static int fail(const char *what)
{
	fprintf(stderr, "outhelper: %s: %s\n", what, strerror(errno));
	return 2;
}

static int fill_segv(void)
{
	static char buf[4096];
	static const size_t sizes[] = { sizeof(buf), 1 };
	int fl = fcntl(2, F_GETFL);

	/* Non-blocking only while filling: the report then meets a full pipe
	   on a descriptor in blocking mode, as a real stderr would be. */
	if (fl < 0 || fcntl(2, F_SETFL, fl | O_NONBLOCK) < 0)
		return fail("fcntl");
	/* Pages, then bytes: no room left for even one (no POLLOUT either). */
	for (int i = 0; i < 2; i++) {
		for (;;) {
			ssize_t w = write(2, buf, sizes[i]);

			if (w < 0 && errno != EINTR)
				break;
		}
		if (errno != EAGAIN)
			return fail("filling stderr");
	}
	if (fcntl(2, F_SETFL, fl) < 0)
		return fail("fcntl");
	crash();
	return 1;
}

/* Close every descriptor >= 3, as daemons do (close_range may be missing). */
static void close_all(void)
{
	for (int fd = 3; fd < 65536; fd++)
		close(fd);
}

static int daemon_segv(const char *data)
{
	int fd;

	close_all();
	fd = open("/dev/null", O_RDWR);
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		return 3;
	close(fd);
	fd = open(data, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, MARKER, sizeof(MARKER) - 1) != sizeof(MARKER) - 1)
		return 3;
	crash();
	return 1;
}

/* The highest open descriptor (not the directory stream's own), or -1. */
static int highest_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int max = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);

		if (e->d_name[0] != '.' && fd != dirfd(d) && fd > max)
			max = fd;
	}
	closedir(d);
	return max;
}

static int daemon_dup2(const char *data, const char *report)
{
	char link[64], target[PATH_MAX], want[PATH_MAX];
	int high = highest_fd(), fd;
	ssize_t n;

	/* Only a test of libcrash's descriptor if it is that descriptor. */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", high);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0 || !realpath(report, want))
		return fail("readlink");
	target[n] = 0;
	if (strcmp(target, want) != 0) {
		fprintf(stderr, "outhelper: highest fd %d is %s, not the report file %s\n", high,
			target, want);
		return 4;
	}
	fprintf(stderr, "outhelper: libcrash's descriptor is %d\n", high);
	fd = open(data, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dup2(fd, high) != high)
		return fail("dup2");
	close(fd);
	if (write(high, MARKER, sizeof(MARKER) - 1) != sizeof(MARKER) - 1)
		return fail("write");
	crash();
	return 1;
}

static int winch(void)
{
	/* Its default action is to do nothing: no report, the program goes on. */
	if (kill(getpid(), SIGWINCH) < 0)
		return fail("kill");
	fprintf(stderr, "outhelper: after SIGWINCH\n");
	crash();
	return 1;
}

static int wait_segv(const char *go, const char *ready)
{
	/* Non-blocking open: no writer yet; poll then waits for the release. */
	struct pollfd p = { .fd = open(go, O_RDONLY | O_NONBLOCK), .events = POLLIN };
	int r = open(ready, O_WRONLY);

	if (p.fd < 0 || r < 0)
		return fail("open");
	fprintf(stderr, "outhelper: pid %d\n", (int)getpid());
	if (write(r, "r", 1) != 1)
		return fail("write");
	close(r);
	for (int i = 0; i < 600; i++) {
		if (poll(&p, 1, 100) > 0 && (p.revents & POLLIN))
			crash();
	}
	fprintf(stderr, "outhelper: never released\n");
	return 5;
}

#if defined(__x86_64__)
#define ARCH_NR AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH_NR AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define ARCH_NR AUDIT_ARCH_RISCV64
#elif defined(__loongarch64)
#ifndef AUDIT_ARCH_LOONGARCH64	/* older uapi headers: EM_LOONGARCH, 64-bit, little-endian */
#define AUDIT_ARCH_LOONGARCH64 (258 | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE)
#endif
#define ARCH_NR AUDIT_ARCH_LOONGARCH64
#else
#error "outhelper: unknown arch"
#endif

/* Each arch's own numbers (the generic table of aarch64, riscv64 and loongarch64
   differs from x86_64's). */
static long call_nr(const char *call)
{
	if (strcmp(call, "getpid") == 0)
		return SYS_getpid;
	if (strcmp(call, "openat") == 0)
		return SYS_openat;
	if (strcmp(call, "write") == 0)
		return SYS_write;
	return -1;
}

/* A seccomp filter on this process and what it runs: call nr gets action,
   every other call goes through.  0, or 77 (said so) without seccomp. */
static int filter_call(long nr, unsigned action)
{
	struct sock_filter f[] = {
		/* Another arch's calls (x32, compat) are not the ones named. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH_NR, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0) {
		fprintf(stderr, "outhelper: seccomp unavailable: %s\n", strerror(errno));
		return 77;
	}
	return 0;
}

static int seccomp_segv(const char *call)
{
	long nr = call_nr(call);
	int r;

	if (nr < 0)
		return 2;
	if ((r = filter_call(nr, SECCOMP_RET_TRAP)) != 0)
		return r;
	/* From here on no call that the filter traps: straight to the fault. */
	crash();
	return 1;
}

/* PROG started under a filter that kills on process_vm_readv. */
static int kill_exec(char **argv)
{
	int r = filter_call(SYS_process_vm_readv, SECCOMP_RET_KILL_PROCESS);

	if (r != 0)
		return r;
	execv(argv[0], argv);
	return fail("execv");
}

/* A memfd holding one journal field, passed with an empty payload. */
static int fdpass(const char *path)
{
	static const char field[] = "MESSAGE=fdpass probe\n";
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} c;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct msghdr m = { 0 };
	int fd = (int)syscall(SYS_memfd_create, "probe", 0), sock = socket(AF_UNIX, SOCK_DGRAM, 0);

	if (fd < 0 || sock < 0 || write(fd, field, sizeof(field) - 1) != sizeof(field) - 1)
		return fail("memfd");
	strncpy(sa.sun_path, path, sizeof(sa.sun_path) - 1);
	memset(&c, 0, sizeof(c));
	c.h.cmsg_level = SOL_SOCKET;
	c.h.cmsg_type = SCM_RIGHTS;
	c.h.cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(&c.h), &fd, sizeof(int));
	m.msg_name = &sa;
	m.msg_namelen = sizeof(sa);
	m.msg_control = &c;
	m.msg_controllen = sizeof(c);
	if (sendmsg(sock, &m, 0) < 0)
		return fail("sendmsg");
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

#ifdef OUTHELPER_LINKED
	int r = crash_install(NULL);

	if (r < 0) {
		fprintf(stderr, "outhelper: crash_install: %s\n", strerror(-r));
		return 2;
	}
#endif
	if (strcmp(mode, "exit") == 0) {
		fprintf(stderr, "outhelper: main\n");
		return 0;
	}
	if (strcmp(mode, "fill-segv") == 0)
		return fill_segv();
	if (strcmp(mode, "daemon") == 0 && argc == 3)
		return daemon_segv(argv[2]);
	if (strcmp(mode, "daemon-dup2") == 0 && argc == 4)
		return daemon_dup2(argv[2], argv[3]);
	if (strcmp(mode, "winch") == 0)
		return winch();
	if (strcmp(mode, "wait-segv") == 0 && argc == 4)
		return wait_segv(argv[2], argv[3]);
	if (strcmp(mode, "seccomp") == 0 && argc == 3)
		return seccomp_segv(argv[2]);
	if (strcmp(mode, "kill-exec") == 0 && argc >= 3)
		return kill_exec(argv + 2);
	if (strcmp(mode, "fdpass") == 0 && argc == 3)
		return fdpass(argv[2]);
	fprintf(stderr, "usage: outhelper exit | fill-segv | daemon DATA | daemon-dup2 DATA REPORT |"
			" winch | wait-segv GO READY | seccomp getpid|openat|write | kill-exec PROG ARGS\n");
	return 2;
}
