/* SPDX-License-Identifier: MIT */
/*
 * The safe reader.  The kernel validates the source range for us: a bad
 * address is an EFAULT from a system call, never a SIGSEGV in the handler.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "maps.h"
#include "mem.h"
#include "modmem.h"
#include "scratch.h"
#include "str.h"
#include "sys.h"

enum { MEM_VMREADV = 1, MEM_PIPE = 2 };

/* In .data (common.h): the first proof reads it, then sets it; a fresh .bss
   page read then written faults twice (docs/performance.md, issue 20). */
CR_INSTALL_DATA static int mem_method;	/* 0 until cr_mem_init() decides, then set once */
static int probe_pipe[2] = { -1, -1 };
/* The shared pipe: held by another reader, or not made yet (it starts held: a
   reader that finds it so makes a pipe of its own). */
static struct cr_scratch shared_pipe = { probe_pipe, sizeof(probe_pipe), 1 };
static int probe_claimed;	/* a thread has taken on making the shared pipe */

static int read_vm_pid(long pid, uint64_t addr, void *dst, size_t len)
{
	struct iovec local = { dst, len }, remote = { (void *)(uintptr_t)addr, len };
	long n = cr_sys_process_vm_readv((int)pid, &local, 1, &remote, 1);

	return n == (long)len ? 0 : -CR_EFAULT;
}

static int read_vm(uint64_t addr, void *dst, size_t len)
{
	/* The calling thread's id each time: after fork() a cached id would read
	   the parent; any thread's id names the process's memory
	   (process_vm_readv looks the task up by id), and a seccomp filter that
	   refuses getpid does not refuse gettid as well (handler.c). */
	return read_vm_pid(cr_sys_gettid(), addr, dst, len);
}

/* write(2) from addr into a pipe faults softly (EFAULT); read the bytes back. */
static int read_pipe_fds(const int fd[2], uint64_t addr, void *dst, size_t len)
{
	uint8_t *d = dst;

	while (len) {
		size_t chunk = len > 4096 ? 4096 : len;
		long w = cr_sys_write(fd[1], (const void *)(uintptr_t)addr, chunk);

		if (w <= 0)
			return -CR_EFAULT;
		for (long got = 0; got < w;) {
			long r = cr_sys_read(fd[0], d + got, (size_t)(w - got));

			if (r <= 0)
				return -CR_EFAULT;	/* cannot happen: we just wrote w bytes */
			got += r;
		}
		addr += (uint64_t)w;
		d += w;
		len -= (size_t)w;
	}
	return 0;
}

static int read_pipe(uint64_t addr, void *dst, size_t len)
{
	int own[2], *fd, ret;
	size_t size;

	/* The shared pipe, unless another thread (or the code we interrupted) is using it. */
	if ((fd = cr_scratch_get(&shared_pipe, own, sizeof(own), &size)) != own) {
		ret = read_pipe_fds(fd, addr, dst, len);
		cr_scratch_put(&shared_pipe, fd);
		return ret;
	}
	if (cr_sys_pipe2(fd, O_CLOEXEC | O_NONBLOCK) < 0)
		return -CR_EFAULT;
	ret = read_pipe_fds(fd, addr, dst, len);
	cr_sys_close(fd[0]);
	cr_sys_close(fd[1]);
	return ret;
}

static int self_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	int method;

	(void)m;
	if (len == 0)
		return 0;
	if (addr + len < addr)
		return -CR_EFAULT;
	if ((method = __atomic_load_n(&mem_method, __ATOMIC_ACQUIRE)) == 0) {
		cr_mem_init();	/* the first read: AS-safe calls only */
		method = __atomic_load_n(&mem_method, __ATOMIC_ACQUIRE);
	}
	return method == MEM_VMREADV ? read_vm(addr, dst, len) : read_pipe(addr, dst, len);
}

const struct cr_mem cr_mem_self = { .read = self_read };

/*
 * At the first read, not at install: a process that never crashes never pays
 * for the probe's two system calls.  Threads may get here at once (two
 * crashes, or a handler that interrupted a reader): every step is idempotent
 * or claimed by an atomic exchange, and nothing waits.
 */
int cr_mem_init(void)
{
	static const uint64_t probe = 0x6c69626372617368ull;
	uint64_t got = 0;
	int fd[2], ret = 0;

	if (__atomic_load_n(&mem_method, __ATOMIC_ACQUIRE))
		return 0;
	if (read_vm((uintptr_t)&probe, &got, sizeof(got)) == 0 && got == probe) {
		__atomic_store_n(&mem_method, MEM_VMREADV, __ATOMIC_RELEASE);
		return 0;
	}
	/* One thread makes the shared pipe and then marks it free; the others
	   (and every reader meanwhile) find it busy and use pipes of their own. */
	if (__atomic_exchange_n(&probe_claimed, 1, __ATOMIC_ACQ_REL) == 0) {
		/* If it fails (-errno), the shared pipe stays busy: a pipe per read. */
		if ((ret = cr_sys_pipe2(fd, O_CLOEXEC | O_NONBLOCK)) == 0) {
			probe_pipe[0] = fd[0];
			probe_pipe[1] = fd[1];
			cr_scratch_put(&shared_pipe, probe_pipe);	/* ready: free */
		}
	}
	__atomic_store_n(&mem_method, MEM_PIPE, __ATOMIC_RELEASE);
	return ret;
}

static int buffer_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	if (addr < m->lo || addr > m->hi || len > m->hi - addr)
		return -CR_EFAULT;
	memcpy(dst, m->buf + (addr - m->lo), len);
	return 0;
}

static const void *buffer_view(const struct cr_mem *m, uint64_t addr, size_t len)
{
	return addr >= m->lo && addr + len <= m->hi ? m->buf + (addr - m->lo) : NULL;
}

void cr_mem_buffer(struct cr_mem *m, uint64_t addr, const void *bytes, size_t len)
{
	memset(m, 0, sizeof(*m));
	m->read = buffer_read;
	m->view = buffer_view;
	m->free_views = 1;
	m->buf = bytes;
	m->lo = addr;
	m->hi = addr + len;
}

/*
 * The start rounded down to 64 KiB, a multiple of every page size of the
 * four arches (4, 16 or 64 KiB), but not below the mapping's start (buf,
 * from mmap: page-aligned), where madvise would find no mapping and do
 * nothing.
 */
#define POPULATE_ALIGN (64u << 10)
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14 */
#endif
void cr_mem_populate(const struct cr_mem *m, const void *p, uint64_t len)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(POPULATE_ALIGN - 1), e;

	if (!m->populate || len < CR_POPULATE_MIN || (uintptr_t)p < (uintptr_t)m->buf)
		return;
	if (a < (uintptr_t)m->buf)
		a = (uintptr_t)m->buf;
	if (len > CR_POPULATE_MAX)
		len = CR_POPULATE_MAX;
	e = (uintptr_t)p + (uintptr_t)len;
	if (e <= a)
		return;
	(void)CR_SYS3(SYS_madvise, a, e - a, MADV_POPULATE_READ);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif
void cr_mem_populate_write(void *p, size_t len)
{
	if (len)
		(void)CR_SYS3(SYS_madvise, (uintptr_t)p, len, MADV_POPULATE_WRITE);
}

/*
 * Prove chunk c and the chunks above it, at least `ahead` (CR_PROVE_AHEAD or
 * CR_PROVE_MOD_AHEAD, below) and at least want (at most CR_PROVE_MAX), in one
 * system call: a byte of each, as separate remote iovecs.  The kernel copies
 * them in order and stops at the first that is not readable
 * (process_vm_readv(2): partial transfers at iovec granularity), so the byte
 * count is the number of readable chunks in a row from c.  Returns it (0: c
 * is not readable).  With the pipe fallback (no process_vm_readv:
 * qemu-user), one read per chunk, at least the `want` chunks the read needs.
 */
#define CR_PROVE_AHEAD 16
#define CR_PROVE_MAX 32
/*
 * A module's memory that modmem.c does not claim yet (it learns a module at
 * a question after its first, never in a process's first capture), and
 * anything a first capture reads (ahead_of), is proven as far as the read
 * needs, not CR_PROVE_AHEAD pages on: the kernel pins each page of the call
 * (~0.5 us a page on the test machine, more for file pages not yet mapped).
 * 16 pages of libc's tables cost a first capture 10-15 us, the two one-page
 * proofs it needs ~4 (docs/performance.md, issue 20).
 */
#define CR_PROVE_MOD_AHEAD 1

/*
 * Proofs by the signal mask (docs/design.md, "Proofs"): rt_sigprocmask(2)
 * with a `how` that means nothing copies its 8-byte set from the caller's
 * memory first, with the kernel's fault handling (EFAULT, never a signal:
 * an unmapped or PROT_NONE page, a file page past the file's end, an
 * address the process may not touch), and only then rejects the `how`
 * (EINVAL), changing nothing.  So EINVAL says 8 bytes at addr were
 * readable by the calling thread at that moment, as a load would have
 * found them: protection keys included, which process_vm_readv ignores.
 * One system call a page, and the cheapest there is: ~0.25 us here against
 * ~1.3 us and ~0.45 us a page for process_vm_readv (whose first call in a
 * process costs 4-10 us more; a first capture's proofs went from ~15 us to
 * ~3), no gettid, and a page not yet mapped is faulted in as a load does,
 * a file's with the pages around it (docs/performance.md, issue 20).
 *
 * Only where the kernel itself runs the call.  qemu-user emulates it: it
 * checks its own record of the guest's pages, then reads the set from user
 * space, so a file page past the file's end raises SIGBUS there (t-memfast
 * saw it on all three emulated arches).  Decided by three calls: the order
 * above holds (EINVAL for a readable word, EFAULT for the kernel's half),
 * and process_vm_readv with nothing to copy answers 0 (the kernel returns
 * before it looks up the process; qemu-user has no such call: ENOSYS, and
 * a seccomp filter that refuses it says EPERM); else process_vm_readv or
 * the pipe, as before.  The two rt_sigprocmask calls are made by
 * libcrash.so's constructor (preload.c, cr_mem_proof_at_load: at load, not
 * in a process's first capture), process_vm_readv by the first proof: a
 * seccomp filter that kills on process_vm_readv (systemd's
 * SystemCallFilter=~@debug or ~@ipc) would otherwise kill at start-up
 * every preloaded process, crashing or not.  Emulators that share the
 * address space and hand the call to the kernel (box64's table passes
 * rt_sigprocmask through) get the kernel's answer.  Never under valgrind,
 * whose memcheck checks the words a system call reads and would report the
 * proof of a page with undefined bytes (its preload is in LD_PRELOAD).  A
 * proof the call then answers with neither EINVAL nor EFAULT (a seccomp
 * filter installed since) turns the proofs to copying for good (prove).
 */
/* PROOF_ASK: the signal mask answered as the kernel's at load; the first
   proof asks whether the kernel runs the call (process_vm_readv). */
enum { PROOF_UNKNOWN, PROOF_SIGMASK, PROOF_COPY, PROOF_ASK };
#define CR_PROOF_HOW (-1)	/* SIG_BLOCK, SIG_UNBLOCK and SIG_SETMASK are 0-2 */
/* The last page of the address space: the kernel's half on each of our
   arches (x86_64, aarch64 with or without tags, riscv64, loongarch64). */
#define CR_KERNEL_HALF 0xfffffffffffff000ull
/* In .data, one 8-byte word (common.h): the first proof reads it, and the
   decision's readable word is this one. */
CR_INSTALL_DATA static uint64_t proof_method;
/* LD_PRELOAD as the environment had it (cr_mem_env): 0 not seen, 1 seen,
   2 valgrind's preload in it. */
CR_INSTALL_DATA static int proof_env;

static inline int sigmask_readable(uint64_t addr)
{
	return cr_sys_sigprocmask(CR_PROOF_HOW, (const uint64_t *)(uintptr_t)addr, NULL) ==
	       -EINVAL;
}

void cr_mem_env(const char *ld_preload)
{
	int vg = 0;

	for (const char *s = ld_preload; s && *s; s++)
		if (cr_strncmp(s, "/vgpreload_", 11) == 0) {
			vg = 1;
			break;
		}
	__atomic_store_n(&proof_env, 1 + vg, __ATOMIC_RELEASE);
}

/* The decision (above); at_load: its rt_sigprocmask half only, PROOF_ASK
   for the first proof to finish. */
static __attribute__((noinline)) int proof_decide(int at_load)
{
	extern char **environ;
	uint64_t method = __atomic_load_n(&proof_method, __ATOMIC_ACQUIRE);

	if (method == PROOF_UNKNOWN) {
		/* Without libcrash.so's constructor (the unit tests): the
		   environment now.  Its one name here, not cr_env_read: the fuzz
		   targets and anything else that links mem.c without options.c
		   (tests/fuzz/run.sh). */
		if (__atomic_load_n(&proof_env, __ATOMIC_ACQUIRE) == 0) {
			const char *pre = NULL;

			for (char **e = environ; e && *e; e++)
				if (cr_strncmp(*e, "LD_PRELOAD=", 11) == 0) {
					pre = *e + 11;
					break;
				}
			cr_mem_env(pre);
		}
		method = PROOF_COPY;
		if (__atomic_load_n(&proof_env, __ATOMIC_ACQUIRE) == 1 &&
		    sigmask_readable((uintptr_t)&proof_method) &&
		    cr_sys_sigprocmask(CR_PROOF_HOW, (const uint64_t *)(uintptr_t)CR_KERNEL_HALF,
				       NULL) == -EFAULT)
			method = PROOF_ASK;
	}
	if (method == PROOF_ASK && !at_load)
		method = cr_sys_process_vm_readv(0, NULL, 0, NULL, 0) == 0 ? PROOF_SIGMASK
									 : PROOF_COPY;
	__atomic_store_n(&proof_method, method, __ATOMIC_RELEASE);
	return (int)method;
}

void cr_mem_proof_at_load(void)
{
	if (__atomic_load_n(&proof_method, __ATOMIC_ACQUIRE) == PROOF_UNKNOWN)
		proof_decide(1);
}

int cr_mem_proof_method(int force)
{
	uint64_t method;

	if (force)
		__atomic_store_n(&proof_method, (uint64_t)force, __ATOMIC_RELEASE);
	method = __atomic_load_n(&proof_method, __ATOMIC_ACQUIRE);
	if (method == PROOF_UNKNOWN || method == PROOF_ASK)
		return proof_decide(0);
	return (int)method;
}

/* prove() with the pipe fallback: one read per page (no scatter list). */
static unsigned prove_pipe(uint64_t c, unsigned want)
{
	uint8_t byte;
	unsigned n = 0;

	while (n < want && n < CR_PROVE_AHEAD &&
	       self_read(&cr_mem_self, (c + n) << 12, &byte, 1) == 0)
		n++;
	return n;
}
CR_HOT static unsigned prove(struct cr_mem_fast *f, uint64_t c, unsigned want, unsigned ahead,
			     int mod)
{
	struct iovec local, remote[CR_PROVE_MAX];
	uint8_t bytes[CR_PROVE_MAX];
	unsigned n = 0, k;
	long got;
	int method;

	if (c == 0 || c >= (UINT64_MAX >> 12) - CR_PROVE_MAX)	/* chunk 0 is never mapped */
		return 0;
	if (want > CR_PROVE_MAX)
		want = CR_PROVE_MAX;
	method = (int)__atomic_load_n(&proof_method, __ATOMIC_ACQUIRE);
	if (__builtin_expect(method == PROOF_UNKNOWN || method == PROOF_ASK, 0))
		method = proof_decide(0);
	if (method == PROOF_SIGMASK && (mod || (c >= f->stk_lo && c <= f->stk_next && f->stk_lo))) {
		long r = -EINVAL;

		/* What the read needs, no pages ahead: each is a call of its own.
		   The stack's pages one above the other, from sp's. */
		while (n < want && (r = cr_sys_sigprocmask(CR_PROOF_HOW,
							    (const uint64_t *)(uintptr_t)((c + n) << 12),
							    NULL)) == -EINVAL)
			n++;
		if (r == -EINVAL || r == -EFAULT) {
			if (!mod && c + n > f->stk_next)
				f->stk_next = c + n;
			return n;
		}
		/* Neither answer: the call refused since the decision (a seccomp
		   filter installed after libcrash.so's constructor decided, or
		   after a first capture).  Proofs by copying from now on, this one
		   too. */
		__atomic_store_n(&proof_method, PROOF_COPY, __ATOMIC_RELEASE);
		n = 0;
	}
	/* Method not known yet: this very call is the probe (below). */
	method = __atomic_load_n(&mem_method, __ATOMIC_ACQUIRE);
	if (method != 0 && method != MEM_VMREADV)
		return prove_pipe(c, want);
	if (f->pid == 0)
		f->pid = cr_sys_gettid();	/* as read_vm: any thread's id will do */
	k = want > ahead ? want : ahead;
	for (unsigned i = 0; i < k; i++) {
		remote[i].iov_base = (void *)(uintptr_t)((c + i) << 12);
		remote[i].iov_len = 1;
	}
	local.iov_base = bytes;
	local.iov_len = k;
	got = cr_sys_process_vm_readv((int)f->pid, &local, 1, remote, k);
	if (method == 0) {
		/*
		 * A process's first proof is cr_mem_init's probe as well (one
		 * gettid and one process_vm_readv less for a cold capture): bytes
		 * copied, or EFAULT (the kernel checked the address), and the
		 * system call works; anything else (ENOSYS under qemu-user, EPERM
		 * from a seccomp filter) and cr_mem_init decides, then this proof
		 * is made again the way it chose.
		 */
		if (got > 0 || got == -EFAULT)
			__atomic_store_n(&mem_method, MEM_VMREADV, __ATOMIC_RELEASE);
		else if (cr_mem_init(), __atomic_load_n(&mem_method, __ATOMIC_ACQUIRE) !=
						MEM_VMREADV)
			return prove_pipe(c, want);
	}
	if (got > 0 && got <= (long)k)
		n = (unsigned)got;
	return n;
}

static uint64_t run_end(const struct cr_mem_fast *f, unsigned k)
{
	return f->lo[k] + f->span[k] + 7;
}

/* Make run k the first (it changes places with run 0: walks alternate between two regions). */
CR_HOT static void to_front(struct cr_mem_fast *f, unsigned k)
{
	uint64_t lo = f->lo[k], span = f->span[k];

	f->lo[k] = f->lo[0];
	f->span[k] = f->span[0];
	f->lo[0] = lo;
	f->span[0] = span;
	/* [cfa - W, cfa + 7) inside [lo, lo + span + 7): cfa - (lo + W) <= span - W.  Up to
	   cfa + 7, not cfa: an 8-byte read at any byte of the W below the CFA is inside. */
	f->wlo = lo + CR_FAST_WINDOW;
	f->wspan = span >= CR_FAST_WINDOW ? span + 1 - CR_FAST_WINDOW : 0;
}

/* A new proven run [lo, end) in front, merged with every run it touches. */
CR_HOT static void add_run(struct cr_mem_fast *f, uint64_t lo, uint64_t end)
{
	unsigned k, free_ = CR_FAST_RUNS - 1;

	for (k = 0; k < CR_FAST_RUNS; k++) {
		if (!f->span[k])
			continue;
		if (f->lo[k] <= end && run_end(f, k) >= lo) {
			lo = f->lo[k] < lo ? f->lo[k] : lo;
			end = run_end(f, k) > end ? run_end(f, k) : end;
			f->span[k] = 0;
		}
	}
	for (k = 0; k < CR_FAST_RUNS; k++)
		if (!f->span[k]) {
			free_ = k;
			break;
		}
	f->lo[free_] = lo;
	f->span[free_] = end - lo - 7;
	to_front(f, free_);
}

static int read_runs(struct cr_mem_fast *f, uint64_t addr, void *dst, size_t len, int mods);

/* A module's headers for modmem.c: proven as any other read of f, no module looked up. */
CR_HOT static int headers_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	return read_runs(m->priv, addr, dst, len, 0);
}

/*
 * Module memory proven without a system call (modmem.c; docs/design.md,
 * "Remembered proofs"): the remembered readable range of a loaded module
 * that holds [addr, end), made a run of f.  1; else prove it, 0 with
 * CR_PROVE_AHEAD pages, -1 (a module's memory not claimed) with
 * CR_PROVE_MOD_AHEAD.  A module learned at this question has its headers
 * read through f (its run, its pid); never in a first capture (f->cold).
 */
CR_HOT static int module_run(struct cr_mem_fast *f, uint64_t addr, uint64_t end)
{
	struct cr_mem hdr = { .read = headers_read, .priv = f };
	uint64_t lo = 0, hi = 0;
	int r = cr_modmem_find(addr, end - addr, &lo, &hi, f->cold ? NULL : &hdr);

	/* r < 0: [lo, hi) the pages of the module's .eh_frame_hdr head, read
	   in place by the question (modmem.h): a run too, and 1 if it holds
	   [addr, end), which then needs no proof (a first capture's view of
	   the table there). */
	if (r != 0 && hi > lo) {
		add_run(f, lo, hi);
		if (r < 0 && addr >= lo && end <= hi)
			r = 1;
	}
	return r;
}

/*
 * The pages a proof adds past what a read needs (module_run's answer r).  A
 * first capture's stack proofs too: 16 pages up from sp pass the main
 * stack's top, and the failed page costs the call ~2 us here, more than a
 * second one-page proof where the walk needs one (docs/performance.md).
 */
static inline unsigned ahead_of(const struct cr_mem_fast *f, int r)
{
	return r < 0 || f->cold ? CR_PROVE_MOD_AHEAD : CR_PROVE_AHEAD;
}

/* A read outside run 0: another run, a module's memory (mods), or a proof. */
CR_HOT static int read_runs(struct cr_mem_fast *f, uint64_t addr, void *dst, size_t len, int mods)
{
	uint64_t first = addr >> 12, last;
	unsigned k, n;
	int r = 0;

	if (len == 0)
		return 0;
	if (addr + len < addr || first == 0)	/* chunk 0 is never mapped */
		return -CR_EFAULT;
	last = (addr + len - 1) >> 12;
	if (last - first > 2)	/* long reads: the kernel copies */
		return self_read(&cr_mem_self, addr, dst, len);
	for (k = 0; k < CR_FAST_RUNS; k++)
		if (f->span[k] && addr >= f->lo[k] && addr + len <= run_end(f, k))
			break;
	if (k < CR_FAST_RUNS) {
		to_front(f, k);
	} else if (!mods || (r = module_run(f, addr, addr + len)) <= 0) {
		/* !mods: a module's headers (headers_read), its memory as well */
		n = prove(f, first, (unsigned)(last - first + 1), ahead_of(f, mods ? r : -1),
			  !mods || r < 0);
		if (n < last - first + 1)
			return -CR_EFAULT;
		add_run(f, first << 12, (first + n) << 12);
	}
	if (len == 8)	/* the common read: a word */
		__builtin_memcpy(dst, (const void *)(uintptr_t)addr, 8);
	else if (dst)
		memcpy(dst, (const void *)(uintptr_t)addr, len);
	return 0;
}

CR_HOT static int fast_read_slow(struct cr_mem_fast *f, uint64_t addr, void *dst, size_t len)
{
	return read_runs(f, addr, dst, len, 1);
}

CR_HOT int cr_mem_fast_slow64(struct cr_mem_fast *f, uint64_t addr, uint64_t *v)
{
	return fast_read_slow(f, addr, v, 8);
}

CR_HOT static int fast_read(const struct cr_mem *m, uint64_t addr, void *dst, size_t len)
{
	struct cr_mem_fast *f = m->priv;
	uint64_t size = f->span[0] + 7;	/* of run 0, if span[0] is not 0 */

	/* Any read inside run 0 (the decoders read a few bytes at a time). */
	if (f->span[0] && len <= size && addr - f->lo[0] <= size - len) {
		if (len == 8)
			__builtin_memcpy(dst, (const void *)(uintptr_t)addr, 8);
		else
			memcpy(dst, (const void *)(uintptr_t)addr, len);
		return 0;
	}
	return fast_read_slow(f, addr, dst, len);
}

/* [addr, end) inside one of f's proven runs (the caller checks end > addr). */
CR_HOT static int in_runs(const struct cr_mem_fast *f, uint64_t addr, uint64_t end)
{
	for (unsigned k = 0; k < CR_FAST_RUNS; k++)
		if (f->span[k] && addr >= f->lo[k] && end <= run_end(f, k))
			return 1;
	return 0;
}

/* The end of the proven run that holds addr (its chunks end there), 0: none. */
CR_HOT static uint64_t covered_to(const struct cr_mem_fast *f, uint64_t addr)
{
	for (unsigned k = 0; k < CR_FAST_RUNS; k++)
		if (f->span[k] && addr - f->lo[k] < f->span[k] + 7)
			return run_end(f, k);
	return 0;
}

/* cr_mem_view's proofs: the chunks of [addr, addr + len) not yet proven. */
CR_HOT static __attribute__((noinline)) const void *view_prove(struct cr_mem_fast *f,
								uint64_t addr, size_t len)
{
	uint64_t c, a, e, first = addr >> 12, last = (addr + len - 1) >> 12;
	unsigned n, k;
	int r;

	if (last - first >= CR_VIEW_PAGES)
		return NULL;
	/* As many chunks in a system call as it takes. */
	for (c = first, k = 0; c <= last && k < CR_VIEW_PAGES; k++) {
		a = c == first ? addr : c << 12;
		r = 0;
		if ((e = covered_to(f, a)) != 0 ||
		    ((r = module_run(f, a, (c + 1) << 12)) > 0 && (e = covered_to(f, a)) != 0)) {
			c = e >> 12;	/* runs are whole chunks: e is past c */
			continue;
		}
		n = prove(f, c, (unsigned)(last - c + 1), ahead_of(f, r), r < 0);
		if (n == 0)
			return NULL;
		add_run(f, c << 12, (c + n) << 12);
		c += n;
	}
	return c > last ? (const void *)(uintptr_t)addr : NULL;
}

CR_HOT static const void *fast_view(const struct cr_mem *m, uint64_t addr, size_t len)
{
	struct cr_mem_fast *f = m->priv;

	if (in_runs(f, addr, addr + len))
		return (const void *)(uintptr_t)addr;
	return view_prove(f, addr, len);
}

CR_HOT const void *cr_mem_view_free(const struct cr_mem *m, uint64_t addr, size_t len)
{
	struct cr_mem_fast *f = m->priv;

	if (len == 0 || addr + len < addr)
		return NULL;
	if (m->free_views)
		return cr_mem_view(m, addr, len);
	if (m->view != fast_view)
		return NULL;
	if (in_runs(f, addr, addr + len) ||
	    (module_run(f, addr, addr + len) > 0 && in_runs(f, addr, addr + len)))
		return (const void *)(uintptr_t)addr;
	return NULL;
}

CR_HOT void cr_mem_fast_init(struct cr_mem_fast *f)
{
	memset(f, 0, sizeof(*f));
	f->m.read = fast_read;
	f->m.view = fast_view;
	f->m.priv = f;
}

CR_HOT void cr_mem_fast_sp(struct cr_mem_fast *f, uint64_t sp)
{
	f->stk_lo = f->stk_next = sp >> 12;
}

/*
 * Remembered proofs (docs/design.md): the main thread's stack, the kernel's
 * [stack] mapping, which is never unmapped and only grows down (its top is
 * fixed at exec), so [main_lo, main_hi) stays readable once seen, in every
 * thread and in a child forked from any of them; main_lo only decreases.
 * main_state serialises the askers: 0 not asked, 1 asking, 2 asked, 3 the
 * kernel cannot say (no PROCMAP_QUERY: before Linux 6.11, or qemu-user):
 * never asked again.
 */
/* In .data (common.h): a first capture reads them before it writes
   main_asks, and a fresh .bss page read first faults twice (the zero page,
   then the copy), ~5 us here (docs/performance.md, issue 20). */
CR_INSTALL_DATA static uint64_t main_lo, main_hi;
CR_INSTALL_DATA static int main_state;
CR_INSTALL_DATA static unsigned main_asks;	/* captures that could have asked (the first does not) */
/* The main stack grows at most RLIMIT_STACK below its top: a sp further
   down is in another mapping, and asking would only cost three system calls. */
#define CR_MAIN_STACK_MAX (256ull << 20)

/*
 * The calling thread's own stack (cr_mem_own_mark, docs/design.md): its
 * state and the low end of the kernel's mapping that holds the record
 * itself, above a PROT_NONE guard.  Initial-exec thread-local storage: a
 * load at a fixed offset from the thread pointer (no __tls_get_addr, which
 * may allocate), and glibc zeroes it for every new thread, on a fresh block
 * or on one reused from its cache, so a record never outlives its thread.
 * Where it lies is the proof's top: glibc puts a thread's static TLS at the
 * top of its stack block, above every frame (variant II, x86_64: below the
 * TCB; variant I, aarch64, riscv64 and loongarch64: above it, the TCB above
 * the stack).
 */
enum { OWN_NONE, OWN_MARKED, OWN_SEEN, OWN_ASKING, OWN_KNOWN, OWN_NEVER };
struct own_stack {
	uint64_t lo;
	int state;	/* OWN_*: written by the thread alone (and its handlers) */
};
static __thread __attribute__((tls_model("initial-exec"))) struct own_stack own;

void cr_mem_own_mark(void)
{
	if (own.state == OWN_NONE)
		own.state = OWN_MARKED;
}

void cr_mem_stacks_reset(void)
{
	own.state = OWN_NONE;
	own.lo = 0;
	__atomic_store_n(&main_hi, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&main_lo, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&main_state, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&main_asks, 0, __ATOMIC_RELEASE);
}

/*
 * The mapping that covers addr (not the next one), and its name into name
 * (cap bytes; NULL: not asked).  0 or -1.
 */
static int vma_at(int fd, uint64_t addr, struct cr_procmap_query *q, char *name, size_t cap)
{
	memset(q, 0, sizeof(*q));
	q->size = sizeof(*q);
	q->query_addr = addr;
	if (name) {
		memset(name, 0, cap);	/* what valgrind cannot know the kernel wrote */
		q->vma_name_size = (uint32_t)cap;
		q->vma_name_addr = (uintptr_t)name;
	}
	if (cr_sys_ioctl(fd, CR_PROCMAP_QUERY, q) != 0 || addr < q->vma_start ||
	    addr >= q->vma_end)
		return -1;
	return 0;
}

/* The [stack] mapping if addr is in it (the name is the kernel's: the
   mapping that holds the process's initial stack pointer).  0 or -1. */
static int stack_vma(int fd, uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	struct cr_procmap_query q;
	char name[16];

	if (vma_at(fd, addr, &q, name, sizeof(name)) != 0 || q.vma_name_size != 8 ||
	    !cr_memeq(name, "[stack]", 8) || !(q.vma_flags & CR_MAP_R) ||
	    q.vma_end - q.vma_start < 4096)
		return -1;
	*lo = q.vma_start;
	*hi = q.vma_end;
	return 0;
}

/* Ask the kernel for the [stack] mapping, at sp (or where environ points,
   which is on it until the program replaces the array). */
static void main_stack_ask(uint64_t sp)
{
	extern char **environ;
	uint64_t lo, hi;
	int fd, state = __atomic_load_n(&main_state, __ATOMIC_ACQUIRE);

	if ((state != 0 && state != 2) ||
	    !__atomic_compare_exchange_n(&main_state, &state, 1, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return;	/* known to be unknowable, or another thread is asking */
	fd = cr_sys_open("/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0) {
		__atomic_store_n(&main_state, 3, __ATOMIC_RELEASE);
		return;
	}
	if (stack_vma(fd, sp, &lo, &hi) == 0 ||
	    (state == 0 && stack_vma(fd, (uintptr_t)environ, &lo, &hi) == 0)) {
		uint64_t old = __atomic_load_n(&main_hi, __ATOMIC_ACQUIRE);

		/* The top never moves; a lower start is the stack grown. */
		if (old == 0 || old == hi) {
			if (old == 0 || lo < __atomic_load_n(&main_lo, __ATOMIC_ACQUIRE))
				__atomic_store_n(&main_lo, lo, __ATOMIC_RELEASE);
			__atomic_store_n(&main_hi, hi, __ATOMIC_RELEASE);
		}
		state = 2;
	} else {
		/* First time: no query (old kernel) or the name is not there.
		   A later sp below a known stack that is not in it: stop asking. */
		state = 3;
	}
	cr_sys_close(fd);
	__atomic_store_n(&main_state, state, __ATOMIC_RELEASE);
}

#define CR_VMA_SHARED 8	/* PROCMAP_QUERY_VMA_SHARED */

/*
 * Ask the kernel for the thread's own stack: the mapping at `top` (the
 * record's own address, in glibc's block above every frame) must be
 * private, anonymous, readable and writable, and sit right on a PROT_NONE
 * mapping (glibc's guard page: nothing merges across it, so the mapping
 * starts where the block's usable part starts; below it, with no guard,
 * it might have merged with a neighbour the program unmaps).  Its start is
 * the record's low end.  Once per thread: the state says what came of it.
 */
static void own_stack_ask(uint64_t top)
{
	struct cr_procmap_query q;
	uint64_t lo;
	int fd, state = OWN_NEVER;

	own.state = OWN_ASKING;	/* a handler's capture meanwhile: not now */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	fd = cr_sys_open("/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);
	if (fd >= 0) {
		if (vma_at(fd, top, &q, NULL, 0) == 0 &&
		    (q.vma_flags & (CR_MAP_R | CR_MAP_W | CR_VMA_SHARED)) == (CR_MAP_R | CR_MAP_W) &&
		    q.inode == 0 && q.dev_major == 0 && (lo = q.vma_start) > 4096 &&
		    top - lo >= 4096 && vma_at(fd, lo - 1, &q, NULL, 0) == 0 && q.vma_end == lo &&
		    !(q.vma_flags & (CR_MAP_R | CR_MAP_W | CR_MAP_X))) {
			own.lo = lo;
			state = OWN_KNOWN;
		}
		cr_sys_close(fd);
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* lo before the state that says it is there */
	own.state = state;
}

/*
 * The thread's own stack as run 0 if sp is on it: [sp's page, top), the
 * part between the frames in use and the record (docs/design.md).  Not at
 * the thread's first capture (opening /proc/self/maps costs more than a
 * capture's own proofs): the second asks.  1 if the run is there.
 */
CR_HOT static int own_stack_run(struct cr_mem_fast *f, uint64_t sp)
{
	uint64_t top = (uintptr_t)&own, lo;
	int state = own.state;

	if (__builtin_expect(state != OWN_KNOWN, 0)) {
		if (state == OWN_MARKED)
			own.state = OWN_SEEN;
		if (state != OWN_SEEN)
			return 0;
		own_stack_ask(top);
		if (own.state != OWN_KNOWN)
			return 0;
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	lo = own.lo;
	if (sp - lo >= top - lo || top - sp < 8)
		return 0;	/* an alternate or coroutine stack, elsewhere */
	sp &= ~4095ull;
	f->lo[0] = sp;
	f->span[0] = top - sp - 7;
	to_front(f, 0);
	return 1;
}

CR_HOT void cr_mem_fast_stacks(struct cr_mem_fast *f, uint64_t sp)
{
	uint64_t lo = __atomic_load_n(&main_lo, __ATOMIC_ACQUIRE);
	uint64_t hi = __atomic_load_n(&main_hi, __ATOMIC_ACQUIRE);
	int mine = own_stack_run(f, sp);

	cr_mem_fast_sp(f, sp);
	/* Not at a process's first capture: opening /proc/self/maps costs more
	   (20-45 us on the test machine) than a cold capture's own proofs; the
	   second capture asks, and the ones after it make no system call. */
	if (__builtin_expect(hi == 0 || (sp < lo && hi - sp < CR_MAIN_STACK_MAX), 0) && !mine &&
	    __atomic_fetch_add(&main_asks, 1, __ATOMIC_RELAXED) > 0) {
		main_stack_ask(sp);
		lo = __atomic_load_n(&main_lo, __ATOMIC_ACQUIRE);
		hi = __atomic_load_n(&main_hi, __ATOMIC_ACQUIRE);
	}
	if (hi) {
		/* main_lo is read first: a lower value stored since is also proven.
		   Behind the thread's own stack if that is where the capture is. */
		f->lo[mine] = lo;
		f->span[mine] = hi - lo - 7;
		if (!mine)
			to_front(f, 0);
	}
}
