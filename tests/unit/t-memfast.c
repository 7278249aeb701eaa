/* SPDX-License-Identifier: MIT */
/*
 * cr_mem_fast: proven runs of pages, reads across their edges, unreadable
 * pages; with each way of proving a page the host has (mem.c): the signal
 * mask's (a system call a page) and process_vm_readv's or the pipe's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../tap.h"
#include "mem.h"

static void wild(int method);

static void pass(int method)
{
	/* Five pages: readable, readable, PROT_NONE, readable, unmapped. */
	size_t pg = 4096;
	uint8_t *p = mmap(NULL, 5 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t base = (uintptr_t)p, v = 0;
	struct cr_mem_fast f;

	if (p == MAP_FAILED) {
		tap_ok(0, "mmap");
		return;
	}
	cr_mem_proof_method(method);
	cr_mem_fast_init(&f);
	cr_mem_fast_sp(&f, base + 8);	/* the five pages play the stack above sp */
	for (size_t i = 0; i < 5 * pg; i += 8)
		*(uint64_t *)(p + i) = base + i;
	mprotect(p + 2 * pg, pg, PROT_NONE);
	munmap(p + 4 * pg, pg);

	tap_ok(cr_mem_fast_read64(&f, base + 8, &v) == 0 && v == base + 8, "first read proves");
	tap_is_u64(f.lo[0], base, "run 0 starts at the page");
	/* process_vm_readv proves the run ahead; the signal mask and the pipe
	   fallback (qemu-user has no process_vm_readv) prove what each read
	   needs, a call a page. */
	struct iovec l = { &v, 1 }, r = { p, 1 };
	if (method == 2 &&
	    syscall(SYS_process_vm_readv, (long)getpid(), &l, 1UL, &r, 1UL, 0UL) == 1)
		tap_is_u64(f.span[0] + 7, 2 * pg, "one system call proves both readable pages");
	else
		tap_is_u64(f.span[0] + 7, pg, "the page read, not the next");
	tap_ok(cr_read(&f.m, base + pg - 4, &v, 8) == 0 && v == ((base + pg) << 32 | (base + pg - 8) >> 32),
	       "a read across the page edge proves the next page (every method)");
	tap_is_u64(f.span[0] + 7, 2 * pg, "and the run covers both pages");
	tap_ok(cr_mem_fast_read64(&f, base + pg + 16, &v) == 0 && v == base + pg + 16,
	       "second page read directly");
	tap_ok(cr_read64(&f.m, base + pg - 4, &v) == 0 && v == ((base + pg) << 32 | (base + pg - 8) >> 32),
	       "a read across the page edge inside the run");
	tap_ok(cr_mem_fast_read64(&f, base + 2 * pg, &v) < 0, "PROT_NONE page fails");
	tap_ok(cr_read64(&f.m, base + 2 * pg - 4, &v) < 0, "a read into the PROT_NONE page fails");
	tap_ok(cr_mem_fast_read64(&f, base + 3 * pg + 8, &v) == 0 && v == base + 3 * pg + 8,
	       "the page past it");
	tap_is_u64(f.lo[0], base + 3 * pg, "a run of its own, first");
	tap_is_u64(f.lo[1], base, "the older run second");
	tap_ok(cr_read64(&f.m, base + 3 * pg + pg - 4, &v) < 0, "a read into the unmapped page fails");
	tap_ok(cr_mem_fast_read64(&f, base + 4 * pg, &v) < 0, "unmapped page fails");
	tap_ok(cr_mem_fast_read64(&f, base + 16, &v) == 0 && v == base + 16 && f.lo[0] == base,
	       "the older run comes back to the front");
	/* Run 0 is [base, base + 2 pg): the highest CFA of the window has its
	   last byte read (8 at cfa - 1) at the run's last byte. */
	tap_ok(f.wlo == base + CR_FAST_WINDOW && f.wspan == 2 * pg - CR_FAST_WINDOW - 6 &&
		       f.wlo + f.wspan - 1 + 7 == base + 2 * pg && f.wlo - CR_FAST_WINDOW == base,
	       "window of run 0: [cfa - W, cfa + 7) inside it, to its last byte");
	tap_ok(cr_mem_fast_read64(&f, 0, &v) < 0 && cr_mem_fast_read64(&f, 4088, &v) < 0,
	       "page 0 is never read");
	tap_ok(cr_mem_fast_read64(&f, UINT64_MAX - 3, &v) < 0, "wrap-around fails");
	{
		uint8_t big[3 * 4096];

		tap_ok(cr_read(&f.m, base + 8, big, pg + 8) == 0 && big[0] == (uint8_t)(base + 8),
		       "a long read");
		tap_ok(cr_read(&f.m, base + pg, big, 3 * pg) < 0, "a long read over PROT_NONE");
	}
	/* Eight runs at most: the oldest goes, every read is still right. */
	{
		uint8_t *q = mmap(NULL, 40 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				  -1, 0);
		int ok = q != MAP_FAILED;

		for (int i = 0; ok && i < 40; i += 2)	/* odd pages PROT_NONE: separate runs */
			ok = mprotect(q + (i + 1) * pg, pg, PROT_NONE) == 0;
		for (int i = 0; ok && i < 40; i += 2) {
			*(uint64_t *)(q + i * pg) = (uint64_t)i;
			ok = cr_mem_fast_read64(&f, (uintptr_t)q + i * pg, &v) == 0 &&
			     v == (uint64_t)i && cr_mem_fast_read64(&f, (uintptr_t)q + (i + 1) * pg, &v) < 0;
		}
		for (int i = 38; ok && i >= 0; i -= 2)
			ok = cr_mem_fast_read64(&f, (uintptr_t)q + i * pg, &v) == 0 && v == (uint64_t)i;
		tap_ok(ok, "20 runs through 8 slots");
	}
	/* Views of many pages: proven CR_PROVE_MAX to a call, a hole fails them. */
	{
		size_t n = 48;
		uint8_t *q = mmap(NULL, (n + 2) * pg, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint64_t a = (uintptr_t)q + pg + 100;
		struct cr_mem_fast g;

		if (q == MAP_FAILED) {
			tap_ok(0, "mmap for the view tests");
		} else {
			cr_mem_fast_init(&g);
			tap_ok(cr_mem_view(&g.m, a, 40 * pg) == (const void *)(uintptr_t)a,
			       "a view of 41 pages, in place");
			tap_ok(cr_mem_view(&g.m, a + 8 * pg, pg) == (const void *)(uintptr_t)(a + 8 * pg),
			       "inside it: no new proof needed");
			tap_ok(cr_mem_view(&g.m, a, CR_VIEW_PAGES * pg) == NULL,
			       "more than CR_VIEW_PAGES pages: no view");
			mprotect(q + 30 * pg, pg, PROT_NONE);
			cr_mem_fast_init(&g);
			tap_ok(cr_mem_view(&g.m, a, 40 * pg) == NULL, "a PROT_NONE page inside: no view");
			tap_ok(cr_mem_view(&g.m, a, 28 * pg) == (const void *)(uintptr_t)a,
			       "the pages before it: a view");
			munmap(q, (n + 2) * pg);
		}
	}
	munmap(p, 4 * pg);
	wild(method);
}

static int vm_readv_works(void)
{
	uint64_t v = 0;
	struct iovec l = { &v, 1 }, r = { &v, 1 };

	return syscall(SYS_process_vm_readv, (long)getpid(), &l, 1UL, &r, 1UL, 0UL) == 1;
}

/* The [vvar] mapping's start (VM_IO | VM_PFNMAP: readable, but no pages to pin), or 0. */
static uint64_t vvar(void)
{
	FILE *fp = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long lo = 0, hi;

	while (fp && fgets(line, sizeof(line), fp))
		if (strstr(line, "[vvar]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			break;
	if (fp)
		fclose(fp);
	return lo;
}

/*
 * A page of neither the stack above sp nor a module: proven as before
 * (process_vm_readv, many pages ahead), whatever the method; so device
 * memory, which process_vm_readv refuses, is never read ([vvar] stands in:
 * the signal mask's proof would take it).
 */
static void wild(int method)
{
	size_t pg = 4096;
	/* Four pages between two PROT_NONE ones: a run of exactly four. */
	uint8_t *q = mmap(NULL, 6 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t v, dev = vvar(), stack;
	struct cr_mem_fast f;
	int vmr = vm_readv_works();

	if (q == MAP_FAILED) {
		tap_ok(0, "mmap for the wild reads");
		return;
	}
	mprotect(q, pg, PROT_NONE);
	mprotect(q + 5 * pg, pg, PROT_NONE);
	q += pg;
	memset(q, 7, 4 * pg);
	cr_mem_proof_method(method);
	cr_mem_fast_init(&f);
	cr_mem_fast_sp(&f, (uintptr_t)&stack);
	tap_ok(cr_mem_fast_read64(&f, (uintptr_t)q + 8, &v) == 0 && v == 0x0707070707070707ull,
	       "a page far from sp: read");
	if (vmr)
		tap_is_u64(f.span[0] + 7, 4 * pg, "... proven by process_vm_readv, the pages ahead too");
	else
		printf("ok %d # SKIP no process_vm_readv: the pipe proves a page at a time\n", ++tap_n);
	if (dev && vmr)
		tap_ok(cr_mem_fast_read64(&f, dev, &v) < 0,
		       "device memory ([vvar], VM_PFNMAP): never proven, never read");
	else
		printf("ok %d # SKIP no [vvar], or no process_vm_readv (the pipe reads it)\n", ++tap_n);
	munmap(q - pg, 6 * pg);
}

/*
 * A file mapped past its end: the page past it raises SIGBUS when read.
 * Its proof must fail, and the file's own page must not.
 */
static void past_eof(void)
{
	char path[] = "/tmp/t-memfast.XXXXXX";
	int fd = mkstemp(path);
	uint8_t *p;
	uint64_t v;
	struct cr_mem_fast f;

	if (fd < 0 || ftruncate(fd, 4096) != 0) {
		tap_ok(0, "a file of one page");
		return;
	}
	unlink(path);
	p = mmap(NULL, 2 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		tap_ok(0, "the file mapped");
		return;
	}
	cr_mem_fast_init(&f);
	tap_ok(cr_mem_fast_read64(&f, (uintptr_t)p + 4096 + 8, &v) < 0,
	       "a file's page past its end (SIGBUS if read): not proven");
	tap_ok(cr_mem_fast_read64(&f, (uintptr_t)p + 8, &v) == 0 && v == 0,
	       "the file's own page: proven");
	munmap(p, 2 * 4096);
}

/*
 * Refused with EPERM, other calls allowed: 1, rt_sigprocmask with the
 * proofs' `how` (-1); 2, process_vm_readv; 3, process_vm_readv kills the
 * process (SIGSYS), as systemd's SystemCallFilter= does.
 */
static int deny(int what)
{
	struct sock_filter sigmask[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffu, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter vmreadv[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter *code = what == 1 ? sigmask : vmreadv;
	size_t n = what == 1 ? sizeof(sigmask) / sizeof(sigmask[0]) : sizeof(vmreadv) / sizeof(vmreadv[0]);
	struct sock_fprog prog = { (unsigned short)n, code };

	if (what == 3)
		vmreadv[2].k = SECCOMP_RET_KILL_PROCESS;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/*
 * The decision, in a child that has made no proof yet: exit 1 + the method
 * chosen, with valgrind's preload named (vg) or a call refused (deny's what);
 * 0 if the child could not set that up.
 */
static int decided(int vg, int refuse)
{
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (vg)
			cr_mem_env("/usr/libexec/valgrind/vgpreload_core-amd64-linux.so:x.so");
		else
			cr_mem_env(getenv("LD_PRELOAD"));
		if (refuse && deny(refuse) < 0)
			_exit(0);
		_exit(1 + cr_mem_proof_method(0));
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/*
 * The decision's half at load (libcrash.so's constructor), in a child that
 * has made no proof yet: refuse (deny's what) installed before it (kill,
 * 3) or after it (2), then the decision finished as the first proof
 * would, unless refuse is 3.  Exit 1 + the method, 9 after the half alone,
 * 0 if the child could not set that up; killed by SIGSYS: -2.
 */
static int at_load(int refuse)
{
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		cr_mem_env(getenv("LD_PRELOAD"));
		if (refuse == 3 && deny(3) < 0)
			_exit(0);
		cr_mem_proof_at_load();
		if (refuse == 3)
			_exit(9);
		if (refuse && deny(refuse) < 0)
			_exit(0);
		_exit(1 + cr_mem_proof_method(0));
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS)
		return -2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * The proofs' call refused after the decision (a sandbox's seccomp filter
 * installed after libcrash.so's constructor decided, or after a first
 * capture): the first proof it refuses turns the proofs to copying, and
 * the read is made.  In a child: exit 1 + the method after the read, 10 if
 * the read failed, 0 if the signal mask was not the method or no filter
 * could be set.
 */
static uint64_t later_word = 0x5ecc0aa7ull;

static int refused_later(void)
{
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct cr_mem_fast f;
		uint64_t v = 0;

		cr_mem_env(getenv("LD_PRELOAD"));
		if (cr_mem_proof_method(0) != 1 || deny(1) < 0)
			_exit(0);
		cr_mem_fast_init(&f);
		if (cr_mem_fast_read64(&f, (uintptr_t)&later_word, &v) != 0 || v != later_word)
			_exit(10);
		_exit(1 + cr_mem_proof_method(0));
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	int native, d;

	if (sysconf(_SC_PAGESIZE) != 4096) {
		printf("1..0 # SKIP needs 4 KiB pages\n");
		return 0;
	}
	d = decided(0, 0);
	tap_ok(d == 2 || d == 3, "a method decided");
	native = d - 1;
	if (native == 1)
		printf("# proofs by the signal mask\n");
	else
		printf("# proofs by process_vm_readv or the pipe (not the signal mask here)\n");
	tap_is_i64(decided(1, 0), 3, "valgrind's preload in LD_PRELOAD: not the signal mask");
	d = decided(0, 1);
	if (d == 0)
		printf("ok %d # SKIP no seccomp filter\n", ++tap_n);
	else
		tap_is_i64(d, 3, "the probe's rt_sigprocmask refused: not the signal mask");
	d = decided(0, 2);
	if (d == 0)
		printf("ok %d # SKIP no seccomp filter\n", ++tap_n);
	else
		tap_is_i64(d, 3, "process_vm_readv refused (no telling the kernel runs the call): not the signal mask");
	tap_is_i64(at_load(0), native + 1,
		   "decided half at load, half at the first proof: the same method");
	d = at_load(3);
	if (d == 0)
		printf("ok %d # SKIP no seccomp filter\n", ++tap_n);
	else
		tap_is_i64(d, 9, "at load under a filter that kills on process_vm_readv: no such call, alive");
	d = at_load(2);
	if (d == 0)
		printf("ok %d # SKIP no seccomp filter\n", ++tap_n);
	else
		tap_is_i64(d, 3, "process_vm_readv refused after load, at the first proof: not the signal mask");
	d = refused_later();
	if (d == 0)
		printf("ok %d # SKIP not the signal mask here, or no seccomp filter\n", ++tap_n);
	else
		tap_is_i64(d, 3, "the proofs' call refused after the decision: read, by copying from then on");
	pass(native);
	past_eof();
	if (native == 1) {
		printf("# and with process_vm_readv or the pipe\n");
		pass(2);
		past_eof();
	}
	printf("1..%d\n", tap_n);
	return tap_fail != 0;
}
