/* SPDX-License-Identifier: MIT */
/*
 * The raw system calls (libcrash/sys.h over arch/<host>/syscall.h): exact
 * results, -errno on failure, errno never touched; libc is the oracle.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "../tap.h"
#include "sys.h"

static void pipes(void)
{
	char buf[16];
	int fd[2] = { -1, -1 }, queued = 0;

	tap_is_i64(cr_sys_pipe2(fd, O_CLOEXEC | O_NONBLOCK), 0, "pipe2: 0");
	tap_ok(fd[0] > 2 && fd[1] > 2 && fd[0] != fd[1], "pipe2: two new descriptors");
	tap_is_i64(fcntl(fd[0], F_GETFL) & O_NONBLOCK, O_NONBLOCK, "pipe2: the flags applied");
	tap_is_i64(cr_sys_read(fd[0], buf, sizeof(buf)), -EAGAIN, "read of an empty pipe: -EAGAIN");
	tap_is_i64(cr_sys_write(fd[1], "hello", 5), 5, "write: 5 bytes");
	tap_is_i64(cr_sys_ioctl(fd[0], FIONREAD, &queued), 0, "ioctl FIONREAD: 0");
	tap_is_i64(queued, 5, "ioctl FIONREAD: 5 bytes queued");
	tap_is_i64(cr_sys_ioctl(-1, FIONREAD, &queued), -EBADF, "ioctl FIONREAD of fd -1: -EBADF");
	memset(buf, 0, sizeof(buf));
	tap_is_i64(cr_sys_read(fd[0], buf, sizeof(buf)), 5, "read: the 5 bytes");
	tap_is_str(buf, "hello", "read: what was written");
	tap_is_i64(cr_sys_close(fd[0]), 0, "close: 0");
	tap_is_i64(cr_sys_close(fd[0]), -EBADF, "close again: -EBADF");
	tap_is_i64(cr_sys_write(fd[1], "x", 1), -EPIPE, "write with no reader: -EPIPE");
	tap_is_i64(cr_sys_close(fd[1]), 0, "close the write end");
	tap_is_i64(cr_sys_read(-1, buf, 1), -EBADF, "read of fd -1: -EBADF");
	tap_is_i64(cr_sys_pipe2(fd, 0x7fffffff), -EINVAL, "pipe2 with bad flags: -EINVAL");
}

static void files(void)
{
	char path[] = "/tmp/t-sys-XXXXXX", buf[64], exe[256];
	int tmp = mkstemp(path), fd;
	ssize_t n;

	tap_ok(tmp >= 0 && write(tmp, "0123456789", 10) == 10, "a temporary file of 10 bytes");
	fd = cr_sys_open(path, O_RDONLY | O_CLOEXEC, 0);
	tap_ok(fd >= 0, "open: a descriptor");
	tap_is_i64(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC, "open: O_CLOEXEC applied");
	memset(buf, 0, sizeof(buf));
	tap_is_i64(cr_sys_pread(fd, buf, 4, 3), 4, "pread 4 at 3: 4 bytes");
	tap_is_str(buf, "3456", "pread: the bytes at offset 3");
	tap_is_i64(cr_sys_pread(fd, buf, 4, 8), 2, "pread across the end: short");
	tap_is_i64(cr_sys_pread(fd, buf, 4, 10), 0, "pread at the end: 0");
	tap_is_i64(cr_sys_pread(fd, buf, 4, (uint64_t)-1), -EINVAL, "pread at offset -1: -EINVAL");
	tap_is_i64(cr_sys_read(fd, buf, 3), 3, "read after pread: from offset 0");
	tap_ok(memcmp(buf, "012", 3) == 0, "pread left the file offset alone");
	tap_is_i64(cr_sys_write(fd, "x", 1), -EBADF, "write to a read-only descriptor: -EBADF");
	cr_sys_close(fd);
	fd = cr_sys_open(path, O_WRONLY | O_APPEND | O_CLOEXEC, 0);
	tap_is_i64(cr_sys_write(fd, "ab", 2), 2, "open for appending, write");
	cr_sys_close(fd);
	tap_is_i64(pread(tmp, buf, 2, 10), 2, "the bytes went to the end");
	tap_ok(memcmp(buf, "ab", 2) == 0, "appended");
	unlink(path);
	close(tmp);
	tap_is_i64(cr_sys_open(path, O_RDONLY, 0), -ENOENT, "open of a missing file: -ENOENT");
	fd = cr_sys_openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	tap_ok(fd >= 0, "openat O_CREAT: a new file");
	tap_is_i64(cr_sys_openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL, 0600), -EEXIST,
		   "openat O_CREAT|O_EXCL of an existing file: -EEXIST");
	cr_sys_close(fd);
	unlink(path);

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	memset(buf, 'z', sizeof(buf));
	tap_is_i64(cr_sys_readlink("/proc/self/exe", buf, 4), 4, "readlink into 4 bytes: 4 (cut)");
	tap_ok(buf[4] == 'z', "readlink: no NUL written");
	tap_is_i64(cr_sys_readlink("/proc/self/exe", path, sizeof(path)),
		   n < (ssize_t)sizeof(path) ? n : (ssize_t)sizeof(path), "readlink: libc's length");
	tap_is_i64(cr_sys_readlink("/nonexistent/t-sys", buf, sizeof(buf)), -ENOENT,
		   "readlink of a missing path: -ENOENT");
	tap_is_i64(cr_sys_readlink("/", buf, sizeof(buf)), -EINVAL, "readlink of a directory: -EINVAL");
}

static void ids_and_signals(void)
{
	uint64_t set = CR_SIGBIT(SIGUSR1), old = 0;
	struct timespec ts = { 0, 1000 }, bad = { 0, 2000000000 };
	sigset_t cur, want;
	siginfo_t si;
	char name[17] = { 0 }, libc_name[17] = { 0 };

	tap_is_i64(cr_sys_getpid(), getpid(), "getpid: libc's");
	tap_is_i64(cr_sys_gettid(), (long)syscall(SYS_gettid), "gettid: the kernel's");
	tap_is_i64(CR_SIGBIT(1), 1, "CR_SIGBIT(SIGHUP): bit 0");
	tap_is_u64(CR_SIGBIT(64), 1ull << 63, "CR_SIGBIT(64): bit 63");

	tap_is_i64(cr_sys_sigprocmask(SIG_BLOCK, &set, &old), 0, "rt_sigprocmask SIG_BLOCK: 0");
	sigprocmask(SIG_BLOCK, NULL, &cur);
	tap_ok(sigismember(&cur, SIGUSR1) == 1, "SIGUSR1 blocked, as libc sees it");
	tap_ok(!(old & set), "the old mask: SIGUSR1 was not blocked");
	tap_is_i64(cr_sys_tgkill(cr_sys_getpid(), cr_sys_gettid(), SIGUSR1), 0,
		   "tgkill of this thread: 0");
	sigemptyset(&want);
	sigaddset(&want, SIGUSR1);
	tap_is_i64(sigtimedwait(&want, &si, &ts), SIGUSR1, "the signal was pending for this thread");
	tap_is_i64(cr_sys_sigprocmask(SIG_UNBLOCK, &set, &old), 0, "rt_sigprocmask SIG_UNBLOCK: 0");
	tap_ok((old & set) != 0, "the old mask: SIGUSR1 blocked");
	sigprocmask(SIG_BLOCK, NULL, &cur);
	tap_ok(sigismember(&cur, SIGUSR1) == 0, "SIGUSR1 unblocked, as libc sees it");
	tap_is_i64(cr_sys_sigprocmask(99, &set, NULL), -EINVAL, "rt_sigprocmask how 99: -EINVAL");
	tap_is_i64(cr_sys_tgkill(cr_sys_getpid(), cr_sys_gettid(), 0), 0, "tgkill signal 0: 0");
	tap_is_i64(cr_sys_tgkill(cr_sys_getpid(), cr_sys_gettid(), 65), -EINVAL,
		   "tgkill signal 65: -EINVAL");

	tap_is_i64(cr_sys_nanosleep(&ts, NULL), 0, "nanosleep 1 us: 0");
	tap_is_i64(cr_sys_nanosleep(&bad, NULL), -EINVAL, "nanosleep of 2e9 ns: -EINVAL");

	tap_is_i64(cr_sys_prctl(PR_GET_NAME, (unsigned long)(uintptr_t)name), 0, "PR_GET_NAME: 0");
	prctl(PR_GET_NAME, libc_name);
	tap_is_str(name, libc_name, "PR_GET_NAME: libc's name");
}

static void memory(void)
{
	long r = cr_sys_mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static uint64_t word = 0x0123456789abcdefull;
	uint64_t got = 0, probe = 0;
	struct iovec l = { &got, 8 }, rm = { &word, 8 };
	stack_t ss, libc_ss;
	char *p = (char *)r;

	tap_ok(!cr_sys_failed(r) && r != 0, "mmap: an address");
	p[0] = 1;
	p[8191] = 2;
	tap_ok(p[0] == 1 && p[8191] == 2, "mmap: both pages writable");
	tap_is_i64(cr_sys_mprotect(p, 4096, PROT_NONE), 0, "mprotect: 0");
	tap_is_i64(cr_sys_mprotect(p + 1, 4096, PROT_NONE), -EINVAL, "mprotect unaligned: -EINVAL");
	r = cr_sys_mmap(NULL, 4096, PROT_READ, MAP_ANONYMOUS, -1, 0);
	tap_ok(cr_sys_failed(r), "mmap with neither MAP_PRIVATE nor MAP_SHARED fails");
	tap_is_i64(r, -EINVAL, "mmap with bad flags: -EINVAL");
	tap_ok(cr_sys_failed(-1) && cr_sys_failed(-4095), "cr_sys_failed: -1 and -4095");
	tap_ok(!cr_sys_failed(-4096) && !cr_sys_failed(0) && !cr_sys_failed(0x7f0000000000),
	       "cr_sys_failed: not -4096, 0 or an address");

	l.iov_base = &got;
	l.iov_len = 8;
	rm.iov_base = &word;
	rm.iov_len = 8;
	if (syscall(SYS_process_vm_readv, (long)getpid(), &l, 1UL, &rm, 1UL, 0UL) == 8) {
		got = 0;
		tap_is_i64(cr_sys_process_vm_readv(getpid(), &l, 1, &rm, 1), 8,
			   "process_vm_readv of a word: 8");
		tap_is_u64(got, word, "process_vm_readv: the word");
		l.iov_base = &probe;
		l.iov_len = 1;
		rm.iov_base = p;
		rm.iov_len = 1;
		tap_is_i64(cr_sys_process_vm_readv(getpid(), &l, 1, &rm, 1), -EFAULT,
			   "process_vm_readv of the PROT_NONE page: -EFAULT");
	} else {
		/* qemu-user has no process_vm_readv: the same answer as libc's. */
		tap_is_i64(cr_sys_process_vm_readv(getpid(), &l, 1, &rm, 1), -errno,
			   "process_vm_readv unavailable: libc's -errno");
	}
	tap_is_i64(cr_sys_munmap(p, 8192), 0, "munmap: 0");

	tap_is_i64(cr_sys_sigaltstack(NULL, &ss), 0, "sigaltstack query: 0");
	sigaltstack(NULL, &libc_ss);
	tap_ok(ss.ss_sp == libc_ss.ss_sp && ss.ss_size == libc_ss.ss_size &&
		       ss.ss_flags == libc_ss.ss_flags,
	       "sigaltstack: libc's answer");
	ss.ss_sp = NULL;
	ss.ss_size = 1;
	ss.ss_flags = 0;
	tap_is_i64(cr_sys_sigaltstack(&ss, NULL), -ENOMEM, "sigaltstack of 1 byte: -ENOMEM");
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);	/* the write with no reader: -EPIPE, not death */
	pipes();
	files();
	ids_and_signals();
	errno = 4321;
	cr_sys_close(-1);
	cr_sys_open("/nonexistent/t-sys", O_RDONLY, 0);
	cr_sys_readlink("/", NULL, 0);
	tap_is_i64(errno, 4321, "failed raw calls leave errno alone");
	memory();
	return tap_done();
}
