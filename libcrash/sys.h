/* SPDX-License-Identifier: MIT */
/*
 * The system calls libcrash makes, typed, without libc: each returns what the
 * kernel returns, a result >= 0 or -errno (mmap: an address, or -errno as
 * cr_sys_failed() tells).  errno is never read or written, so the handler
 * has no errno to save, and libcrash.so imports no wrapper the loader would
 * bind at start-up.  All AS-safe (a system call each, no state).
 *
 * Numbers from <sys/syscall.h> for the host: the asm-generic table that
 * aarch64, riscv64 and loongarch64 use has no open/readlink/pipe, so the
 * *at and pipe2 forms serve every arch.
 */
#ifndef CR_SYS_H
#define CR_SYS_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>

/* The host's cr_syscall6() (arch/<arch>/syscall.h), named by Makefile.am. */
#ifndef CR_ARCH_SYSCALL_H
#error "CR_ARCH_SYSCALL_H names arch/<host>/syscall.h (Makefile.am's AM_CPPFLAGS)"
#endif
#include CR_ARCH_SYSCALL_H

#define CR_SYS0(nr) cr_syscall6(nr, 0, 0, 0, 0, 0, 0)
#define CR_SYS1(nr, a) cr_syscall6(nr, (long)(a), 0, 0, 0, 0, 0)
#define CR_SYS2(nr, a, b) cr_syscall6(nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define CR_SYS3(nr, a, b, c) cr_syscall6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define CR_SYS4(nr, a, b, c, d) \
	cr_syscall6(nr, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

/* A result in -4095..-1 is -errno (the kernel's IS_ERR_VALUE range). */
static inline int cr_sys_failed(long r)
{
	return (unsigned long)r >= -4095ul;
}

static inline long cr_sys_read(int fd, void *buf, size_t len)
{
	return CR_SYS3(SYS_read, fd, buf, len);
}

static inline long cr_sys_write(int fd, const void *buf, size_t len)
{
	return CR_SYS3(SYS_write, fd, buf, len);
}

static inline long cr_sys_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return CR_SYS4(SYS_pread64, fd, buf, len, off);
}

/* len bytes at off, whole (EINTR and short reads go on; at most 64 calls): 0, else -1. */
static inline int cr_sys_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	for (int i = 0; len && i < 64; i++) {
		long r = cr_sys_pread(fd, p, len, off);

		if (r == -EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return len ? -1 : 0;
}

static inline long cr_sys_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return CR_SYS4(SYS_pwrite64, fd, buf, len, off);
}

/* mode: used with O_CREAT only. */
static inline int cr_sys_openat(int dirfd, const char *path, int flags, unsigned mode)
{
	return (int)CR_SYS4(SYS_openat, dirfd, path, flags, mode);
}

static inline int cr_sys_open(const char *path, int flags, unsigned mode)
{
	return cr_sys_openat(AT_FDCWD, path, flags, mode);
}

static inline int cr_sys_close(int fd)
{
	return (int)CR_SYS1(SYS_close, fd);
}

/* Like readlink(2): the length written, no NUL; or -errno. */
static inline long cr_sys_readlink(const char *path, char *buf, size_t cap)
{
	return CR_SYS4(SYS_readlinkat, AT_FDCWD, path, buf, cap);
}

static inline int cr_sys_pipe2(int fd[2], int flags)
{
	return (int)CR_SYS2(SYS_pipe2, fd, flags);
}

static inline int cr_sys_ioctl(int fd, unsigned long req, void *arg)
{
	return (int)CR_SYS3(SYS_ioctl, fd, req, arg);
}

static inline int cr_sys_prctl(int op, unsigned long arg)
{
	return (int)CR_SYS2(SYS_prctl, op, arg);
}

static inline int cr_sys_getpid(void)
{
	return (int)CR_SYS0(SYS_getpid);
}

static inline int cr_sys_gettid(void)
{
	return (int)CR_SYS0(SYS_gettid);
}

/* Never fail (but a seccomp filter may refuse them: < 0 then). */
static inline long cr_sys_getuid(void)
{
	return CR_SYS0(SYS_getuid);
}

static inline long cr_sys_geteuid(void)
{
	return CR_SYS0(SYS_geteuid);
}

static inline int cr_sys_uname(struct utsname *u)
{
	return (int)CR_SYS1(SYS_uname, u);
}

static inline int cr_sys_tgkill(int pid, int tid, int sig)
{
	return (int)CR_SYS3(SYS_tgkill, pid, tid, sig);
}

/*
 * The calling thread signals itself: tkill needs no pid, so it works where a
 * seccomp filter refuses getpid (tgkill's pid guards against another
 * process's thread reusing the tid, which cannot happen to the caller).
 */
static inline int cr_sys_raise(int sig)
{
	return (int)CR_SYS2(SYS_tkill, CR_SYS0(SYS_gettid), sig);
}

static inline int cr_sys_nanosleep(const struct timespec *req, struct timespec *rem)
{
	return (int)CR_SYS2(SYS_nanosleep, req, rem);
}

/* fcntl(2) with an integer argument (F_DUPFD_CLOEXEC, F_GETFL, F_ADD_SEALS). */
static inline int cr_sys_fcntl(int fd, int cmd, long arg)
{
	return (int)CR_SYS3(SYS_fcntl, fd, cmd, arg);
}

static inline int cr_sys_flock(int fd, int op)
{
	return (int)CR_SYS2(SYS_flock, fd, op);
}

/*
 * statx(2): loongarch64 has no fstat or newfstatat, so every arch asks this
 * way (fd with an empty path and AT_EMPTY_PATH: the file fd refers to).
 */
static inline int cr_sys_statx(int dirfd, const char *path, int flags, unsigned mask,
			       struct statx *st)
{
	return (int)cr_syscall6(SYS_statx, dirfd, (long)path, flags, mask, (long)st, 0);
}

static inline int cr_sys_clock_gettime(int clock, struct timespec *ts)
{
	return (int)CR_SYS2(SYS_clock_gettime, clock, ts);
}

/* ppoll(2) on one descriptor: > 0 ready, 0 timed out, -errno. */
static inline int cr_sys_poll1(int fd, short events, const struct timespec *timeout)
{
	struct pollfd p = { .fd = fd, .events = events };

	return (int)cr_syscall6(SYS_ppoll, (long)&p, 1, (long)timeout, 0, 8, 0);
}

/* The signals pending for this thread or the process (the kernel's 64-bit set). */
static inline int cr_sys_sigpending(uint64_t *set)
{
	return (int)CR_SYS2(SYS_rt_sigpending, set, sizeof(*set));
}

/* Take a pending signal of set without waiting: its number, or -EAGAIN. */
static inline int cr_sys_sigtake(const uint64_t *set)
{
	static const struct timespec zero = { 0, 0 };

	return (int)CR_SYS4(SYS_rt_sigtimedwait, set, 0, &zero, sizeof(*set));
}

static inline int cr_sys_prlimit(int resource, struct rlimit *old)
{
	return (int)CR_SYS4(SYS_prlimit64, 0, resource, 0, old);
}

static inline int cr_sys_socket(int domain, int type, int proto)
{
	return (int)CR_SYS3(SYS_socket, domain, type, proto);
}

static inline long cr_sys_sendmsg(int fd, const struct msghdr *m, int flags)
{
	return CR_SYS3(SYS_sendmsg, fd, m, flags);
}

static inline int cr_sys_memfd_create(const char *name, unsigned flags)
{
	return (int)CR_SYS2(SYS_memfd_create, name, flags);
}

static inline long cr_sys_writev(int fd, const struct iovec *iov, int n)
{
	return CR_SYS3(SYS_writev, fd, iov, n);
}

static inline int cr_sys_sched_yield(void)
{
	return (int)CR_SYS0(SYS_sched_yield);
}

/*
 * The kernel's sigset: signal n is bit n - 1 of one 64-bit word (_NSIG 64 on
 * all four arches; rt_sigprocmask(2) takes its size, 8, and rejects others).
 */
#define CR_SIGBIT(sig) (1ull << ((sig) - 1))

static inline int cr_sys_sigprocmask(int how, const uint64_t *set, uint64_t *old)
{
	return (int)CR_SYS4(SYS_rt_sigprocmask, how, set, old, sizeof(uint64_t));
}

/*
 * The handler the kernel has for sig now (rt_sigaction(2) with no new
 * action).  The kernel's struct sigaction starts with the handler on every
 * arch; what follows differs (x86_64 and aarch64 have sa_restorer, riscv64
 * and loongarch64 do not), so room for the largest and only the first word
 * read.  0 or -errno.
 */
static inline int cr_sys_sighandler(int sig, uint64_t *handler)
{
	uint64_t k[8];	/* handler, flags, restorer, mask: 32 bytes at most */
	int r = (int)CR_SYS4(SYS_rt_sigaction, sig, 0, k, sizeof(uint64_t));

	if (r == 0)
		*handler = k[0];
	return r;
}

/* glibc's stack_t is the kernel's (uapi asm-generic/signal.h: sp, flags, size). */
static inline int cr_sys_sigaltstack(const stack_t *ss, stack_t *old)
{
	return (int)CR_SYS2(SYS_sigaltstack, ss, old);
}

/* An address, or -errno: test with cr_sys_failed(). */
static inline long cr_sys_mmap(void *addr, size_t len, int prot, int flags, int fd, uint64_t off)
{
	return cr_syscall6(SYS_mmap, (long)addr, (long)len, prot, flags, fd, (long)off);
}

/*
 * Anonymous read-write memory of which only a part is ever written (the
 * inflated sections' room, the DIE walks' records): an address, or -errno.
 * Small pages whatever the system's transparent huge page setting, so
 * that under "always" a first touch does not zero 2 MiB; madvise's failure
 * leaves the mapping as it is.
 */
static inline long cr_sys_mmap_sparse(size_t len)
{
	long a = cr_sys_mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (!cr_sys_failed(a))
		CR_SYS3(SYS_madvise, a, len, MADV_NOHUGEPAGE);
	return a;
}

static inline int cr_sys_mprotect(void *addr, size_t len, int prot)
{
	return (int)CR_SYS3(SYS_mprotect, addr, len, prot);
}

static inline int cr_sys_munmap(void *addr, size_t len)
{
	return (int)CR_SYS2(SYS_munmap, addr, len);
}

/* Bytes copied from pid's remote[] into local[] (partial at iovec granularity), or -errno. */
static inline long cr_sys_process_vm_readv(int pid, const struct iovec *local, unsigned long nl,
					   const struct iovec *remote, unsigned long nr)
{
	return cr_syscall6(SYS_process_vm_readv, pid, (long)local, (long)nl, (long)remote,
			   (long)nr, 0);
}

#endif
