/* SPDX-License-Identifier: MIT */
/*
 * crashme MODE [ARG]: crash in a chosen way, for the demo and the tests.
 * Every crash goes through main -> level1 -> level2 -> level3 -> crash_<mode>,
 * so a report can be checked for those names in order.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef CRASHME_LINKED
#include "crash.h"
#endif

#define NOINLINE __attribute__((noinline))
/* Keeps a call out of tail position, so every level keeps its frame. */
#define KEEP() __asm__ volatile("" ::: "memory")

void crashme_lib_crash(int how);	/* demo/crashlib.c */

typedef void (*fn_t)(void);
static volatile fn_t null_fn;
static volatile int zero;
static const char *mode;
static long deep_n = 50;

NOINLINE static void crash_null(void)
{
	*(volatile int *)(uintptr_t)zero = 1;	/* write to address 0 */
	KEEP();
}

NOINLINE static void crash_read(void)
{
	volatile int *p = (volatile int *)(uintptr_t)0xdead0000ul;
	int v = *p;	/* wild read */

	KEEP();
	(void)v;
}

NOINLINE static void crash_abort(void)
{
	abort();
}

/*
 * Integer division by zero.  x86_64 div traps (SIGFPE, FPE_INTDIV).  aarch64
 * and riscv64 divisions never trap (the result is defined): no SIGFPE, the mode
 * returns.  loongarch64 div.w does not trap either; GCC's default
 * -mcheck-zero-division guards it with `break 7` (BRK_DIVZERO), which Linux
 * turns into SIGFPE/FPE_INTDIV: done here too, clang not emitting it.
 */
NOINLINE static void crash_fpe(void)
{
	volatile int a = 1, b = zero;

#if defined(__loongarch__)
	if (b == 0)
		__asm__ volatile("break 7");
#endif
	a = a / b;
	KEEP();
}

NOINLINE static void crash_ill(void)
{
#if defined(__x86_64__)
	__asm__ volatile("ud2");
#elif defined(__aarch64__)
	__asm__ volatile(".inst 0x00000000");	/* udf #0 */
#elif defined(__riscv)
	__asm__ volatile(".word 0x00000000");	/* all-zero: defined illegal */
#elif defined(__loongarch__)
	__asm__ volatile(".word 0x00000000");
#endif
	KEEP();
}

NOINLINE static void crash_trap(void)
{
#if defined(__x86_64__)
	__asm__ volatile("int3");
#elif defined(__aarch64__)
	__asm__ volatile("brk #0");
#elif defined(__riscv)
	__asm__ volatile("ebreak");
#elif defined(__loongarch__)
	__asm__ volatile("break 0");
#endif
	KEEP();
}

NOINLINE static void crash_bus(void)
{
	char path[] = "/tmp/crashme-bus-XXXXXX";
	int fd = mkstemp(path);
	volatile char *p;

	unlink(path);
	/* A page past the end of the file: SIGBUS (BUS_ADRERR). */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		abort();
	(void)p[0];
	KEEP();
}

/* A write to a string constant in .rodata (SIGSEGV, SEGV_ACCERR). */
NOINLINE static void crash_rodata(void)
{
	static const char ro[] = "read-only";

	*(volatile char *)(uintptr_t)ro = 'R';
	KEEP();
}

/* A call into .bss, which is not executable (SIGSEGV, SEGV_ACCERR, at the pc). */
NOINLINE static void crash_nx(void)
{
	static uint64_t data[4];

	((void (*)(void))(uintptr_t)data)();
	KEEP();
}

/* A read of a page mapped PROT_NONE, as guard pages are (SIGSEGV, SEGV_ACCERR). */
NOINLINE static void crash_guard(void)
{
	volatile char *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		abort();
	(void)p[0];
	KEEP();
}

/* Say so, then wait for a signal from someone else (tests: kill -SEGV). */
NOINLINE static void crash_pause(void)
{
	if (write(1, "ready\n", 6) != 6)
		abort();
	for (;;)
		pause();
}

NOINLINE static void crash_badpc(void)
{
	null_fn();	/* call through a NULL function pointer */
	KEEP();
}

/*
 * Generated code, as a JIT makes it: a function in an anonymous executable
 * page (no module, no symbol, no unwind table) that stores to address 0 and
 * would return.  Little-endian instruction words, per arch.
 */
NOINLINE static void crash_jit(void)
{
#if defined(__x86_64__)
	static const uint8_t code[] = { 0x31, 0xc0, 0xc6, 0x00, 0x00, 0xc3 };	/* xor eax; movb $0,(rax); ret */
#elif defined(__aarch64__)
	static const uint32_t code[] = { 0xd2800000, 0xb900001f, 0xd65f03c0 };	/* mov x0,#0; str wzr,[x0]; ret */
#elif defined(__riscv)
	static const uint32_t code[] = { 0x00002023, 0x00008067 };	/* sw zero,0(zero); ret */
#elif defined(__loongarch__)
	static const uint32_t code[] = { 0x29800000, 0x4c000020 };	/* st.w $zero,$zero,0; jirl $zero,$ra,0 */
#endif
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	memcpy(p, code, sizeof(code));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0)
		return;
	__builtin___clear_cache((char *)p, (char *)p + sizeof(code));
	((void (*)(void))p)();
	KEEP();
}

NOINLINE static long recurse(long n)
{
	volatile char pad[1024];

	pad[0] = (char)n;
	if (n == 0)
		crash_null();
	else
		recurse(n - 1);
	KEEP();
	return pad[0];
}

NOINLINE static void crash_overflow(void)
{
	recurse(1L << 40);	/* never reaches 0: the stack runs out first */
	KEEP();
}

NOINLINE static void crash_deep(void)
{
	recurse(deep_n);
	KEEP();
}

/* A frame pointer set to garbage, then a crash: the fp walk must stop cleanly. */
NOINLINE static void crash_wildfp(void)
{
#if defined(__x86_64__)
	__asm__ volatile("movabs $0x00007ffd00000007, %rbp\n\tmovl $1, 0");
#elif defined(__aarch64__)
	__asm__ volatile("movz x29, #7\n\tmovk x29, #0x7ffd, lsl #32\n\tmov x16, #0\n\tstr wzr, [x16]");
#elif defined(__riscv)
	__asm__ volatile("li s0, 0x7ffd00000007\n\tsw zero, 0(zero)");
#elif defined(__loongarch__)
	__asm__ volatile("lu12i.w $fp, 0\n\tori $fp, $fp, 7\n\tlu32i.d $fp, 0x7ffd\n\tst.w $zero, $zero, 0");
#endif
	KEEP();
}

NOINLINE static void crash_lib(void)
{
	crashme_lib_crash(0);
	KEEP();
}

NOINLINE static void crash_dlopen(void)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;

	if (n <= 0)
		abort();
	path[n] = 0;
	slash = strrchr(path, '/');
	strcpy(slash + 1, "libcrashinit.so");
	/* Its constructor crashes: inside dlopen, with the loader's lock held. */
	dlopen(path, RTLD_NOW);
	fprintf(stderr, "dlopen returned: %s\n", dlerror());
	KEEP();
}

static int cmp_crash(const void *a, const void *b)
{
	(void)a;
	(void)b;
	crash_null();
	KEEP();
	return 0;
}

/* A crash in a callback of libc: qsort -> ... -> cmp_crash. */
NOINLINE static void crash_qsort(void)
{
	int v[16] = { 3, 1, 2 };

	qsort(v, 16, sizeof(v[0]), cmp_crash);
	KEEP();
}

static void once_init(void)
{
	crash_null();
	KEEP();
}

/* A crash inside pthread_once's initializer. */
NOINLINE static void crash_once(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, once_init);
	KEEP();
}

NOINLINE static void crash_assert(void)
{
	void (*report)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "crash_report_fd");

	if (report)
		report(2);
	abort();
}

/*
 * The second thread crashes once pthread_create has returned in the first:
 * glibc blocks every signal in the creating thread while it creates one, and
 * a crash in those microseconds finds the main thread with libcrash's
 * capture signal blocked ("not captured: signal blocked" in the report).
 * Waited for at most a second.
 */
static int thread_created;

static void *thread_main(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000 && !__atomic_load_n(&thread_created, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	crash_null();
	return NULL;
}

NOINLINE static void crash_thread(void)
{
	pthread_t t;

	pthread_create(&t, NULL, thread_main, NULL);
	__atomic_store_n(&thread_created, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	KEEP();
}

static pthread_barrier_t race_barrier;

static void *race_main(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&race_barrier);
	crash_null();
	return NULL;
}

/* Two threads crash at once: exactly one report. */
NOINLINE static void crash_race(void)
{
	pthread_t t[2];

	pthread_barrier_init(&race_barrier, NULL, 2);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, race_main, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	KEEP();
}

/*
 * 2,000 mappings more, one page each, readable and not in turn so that
 * none merges with the next: /proc/self/maps longer than the report's
 * 64 KiB copy of it, which then reads the file line by line.
 */
NOINLINE static void crash_maps(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)page * 2000, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED)
		for (int i = 1; i < 2000; i += 2)
			mprotect(p + (size_t)i * (size_t)page, (size_t)page, PROT_NONE);
	crash_null();
	KEEP();
}

static const struct {
	const char *name;
	void (*fn)(void);
	const char *help;
} modes[] = {
	{ "segv", crash_null, "write to NULL (SIGSEGV, SEGV_MAPERR)" },
	{ "read", crash_read, "read from a wild address (SIGSEGV)" },
	{ "abort", crash_abort, "abort() (SIGABRT)" },
	{ "fpe", crash_fpe, "integer divide by zero (SIGFPE, FPE_INTDIV)" },
	{ "ill", crash_ill, "illegal instruction (SIGILL)" },
	{ "trap", crash_trap, "breakpoint instruction (SIGTRAP)" },
	{ "bus", crash_bus, "read past the end of a mapped file (SIGBUS)" },
	{ "badpc", crash_badpc, "call through a NULL function pointer" },
	{ "rodata", crash_rodata, "write to a string constant (SIGSEGV, SEGV_ACCERR)" },
	{ "nx", crash_nx, "call into non-executable data (SIGSEGV, SEGV_ACCERR)" },
	{ "guard", crash_guard, "read of a PROT_NONE page (SIGSEGV, SEGV_ACCERR)" },
	{ "pause", crash_pause, "print ready, then wait for a signal from another process" },
	{ "jit", crash_jit, "crash in generated code (an anonymous executable page)" },
	{ "stack-overflow", crash_overflow, "unbounded recursion" },
	{ "thread", crash_thread, "crash in a second thread" },
	{ "race", crash_race, "two threads crash at once" },
	{ "lib", crash_lib, "crash inside a shared library" },
	{ "dlopen", crash_dlopen, "crash in a library constructor, inside dlopen" },
	{ "qsort", crash_qsort, "crash in a qsort() comparison callback" },
	{ "once", crash_once, "crash in a pthread_once() initializer" },
	{ "deep", crash_deep, "N-deep recursion (ARG, default 50), then a crash" },
	{ "wildfp", crash_wildfp, "garbage frame pointer, then a crash" },
	{ "assert", crash_assert, "crash_report_fd(2), then abort()" },
	{ "maps", crash_maps, "2,000 mappings more, then a write to NULL" },
};

NOINLINE static void level3(void (*fn)(void))
{
	fn();
	KEEP();
}

NOINLINE static void level2(void (*fn)(void))
{
	level3(fn);
	KEEP();
}

NOINLINE static void level1(void (*fn)(void))
{
	level2(fn);
	KEEP();
}

#ifdef CRASHME_LINKED
/* crashme-linked: the application's own SIGSEGV handler, for the chaining test. */
static void app_handler(int sig)
{
	static const char msg[] = "crashme: application handler ran\n";

	(void)sig;
	write(2, msg, sizeof(msg) - 1);
	_exit(42);
}

/* CRASHME_OUTPUT=path: crash_install() with options instead of the environment;
   CRASHME_APP_HANDLER=1: install the application's handler first. */
static void linked_install(void)
{
	struct crash_options o;
	const char *out = getenv("CRASHME_OUTPUT");
	int ret;

	if (getenv("CRASHME_APP_HANDLER"))
		signal(SIGSEGV, app_handler);
	memset(&o, 0, sizeof(o));
	o.fd = out ? -1 : 2;
	o.path = out;
	o.engine = CRASH_ENGINE_AUTO;
	ret = crash_install(&o);
	if (ret < 0) {
		fprintf(stderr, "crash_install: %d\n", ret);
		exit(2);
	}
}
#endif

#if defined(__aarch64__)
/*
 * `crashme pac-active`: exit 0 when paciasp (hint #25, a no-op without
 * FEAT_PAuth) really signs here, 1 when it leaves the pointer as it was: the
 * tests use it to know that a -mbranch-protection build stores signed return
 * addresses on this CPU (qemu-user's default CPU has pointer authentication).
 */
static int pac_active(void)
{
	uint64_t v, p;

	/* A PAC is a keyed hash in the pointer's unused top bits, 7 of them
	   where the top byte is ignored: one pointer in 128 signs to itself
	   (this probe failed so, once).  Sixteen pointers: a CPU that signs
	   leaves all of them unchanged once in 2^112 at most. */
	for (p = 0x400000; p < 0x400000 + 16 * 0x1000; p += 0x1000) {
		__asm__ volatile("mov x17, x30\n\tmov x30, %1\n\thint #25\n\tmov %0, x30\n\t"
				 "mov x30, x17"
				 : "=r"(v)
				 : "r"(p)
				 : "x17", "x30");
		if (v != p)
			return 1;
	}
	return 0;
}
#endif

int main(int argc, char **argv)
{
#if defined(__aarch64__)
	if (argc == 2 && strcmp(argv[1], "pac-active") == 0)
		return pac_active() ? 0 : 1;
#endif
	if (argc < 2) {
		fprintf(stderr, "usage: crashme MODE [ARG]\nmodes:\n");
		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
			fprintf(stderr, "  %-15s %s\n", modes[i].name, modes[i].help);
		return 2;
	}
	mode = argv[1];
	if (argc > 2)
		deep_n = atol(argv[2]);
#ifdef CRASHME_LINKED
	linked_install();
#endif
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(mode, modes[i].name) == 0) {
			level1(modes[i].fn);
			KEEP();
			fprintf(stderr, "crashme: %s did not crash\n", mode);
			return 1;
		}
	}
	fprintf(stderr, "crashme: unknown mode %s\n", mode);
	return 2;
}
