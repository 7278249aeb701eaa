/* SPDX-License-Identifier: MIT */
/*
 * The random cross-check: interrupt a workload at random instructions and, at
 * each sample, unwind the signal's ucontext with our CFI engine and with
 * libunwind (unw_init_local2 + UNW_INIT_SIGNAL_FRAME), comparing the pc and sp
 * of every frame.
 *
 *   sigprof NAME SAMPLES [LIBRARY]
 *
 * LIBRARY: dlopen it and run its xw_run (the workload as dlopen'ed code).
 * ITIMER_PROF ticks with the scheduler (4 ms here): far too coarse for
 * thousands of samples in CI.  A POSIX timer on CLOCK_MONOTONIC delivering
 * SIGPROF to this thread interrupts the busy workload just as randomly, at a
 * jittered period of about 150 us.  Prints TAP and the agreement figure.
 */
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <libunwind.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../tap.h"
#include "arch/scan.h"
#include "context.h"
#include "crash-int.h"
#include "module.h"
#include "sym.h"
#include "unwind.h"
#include "workload.h"

#define MAXF 128
#define MAX_REPORT 12

static volatile long samples, target;
static long frames_cmp, frames_ok, body_short, lu_failed, lu_zero_end, lu_noncall;
static unsigned seed = 12345;

struct mismatch {
	long sample;
	unsigned frame, n_ours, n_lu;
	uint64_t pc0, ours_pc, ours_sp, lu_pc, lu_sp;
	uint8_t stop;
};
static struct mismatch mm[MAX_REPORT];
static int n_mm;

/* The first few mismatching samples in full, both traces, for the log. */
#define MAX_DUMP 2
struct dump {
	uint64_t ours_pc[MAXF], ours_sp[MAXF], lu_pc[MAXF], lu_sp[MAXF];
	unsigned n_ours, n_lu;
};
static struct dump dumps[MAX_DUMP];
static int n_dump;
static struct dump noncall;	/* the first such sample's: libunwind's last frame is the one refused */

static timer_t timer;
static struct cr_maps maps;	/* loaded once the workload is in place */

static int executable(uint64_t pc)
{
	const struct cr_map *m = cr_maps_find(&maps, pc);

	return m && (m->flags & CR_MAP_X);
}

/*
 * libunwind's answer for the start of the function holding pc, kept by pc: the
 * same call sites come back sample after sample, and unw_get_proc_info looks
 * it up anew each time.  Under qemu-user that was 90% of this test's time
 * (aarch64's libunwind searches a module's .debug_frame as well, and finds
 * none: it opens the module's file and /proc/self/maps again for each
 * lookup).  A pc's function never changes here (the one dlopen'd library is
 * never closed), so the kept answer is the one libunwind would give again.
 * 0: libunwind had no answer.  Full or colliding: libunwind is asked.
 */
#define START_SLOTS 4096	/* a power of two */
static struct {
	uint64_t pc, start;
} starts[START_SLOTS];

static uint64_t func_start(unw_cursor_t *c, uint64_t pc)
{
	unsigned h = (unsigned)((pc * 0x9e3779b97f4a7c15ull) >> 52) & (START_SLOTS - 1);
	unw_proc_info_t pi;
	uint64_t start;

	for (unsigned i = 0; i < 8; i++) {
		unsigned k = (h + i) & (START_SLOTS - 1);

		if (starts[k].pc == pc)
			return starts[k].start;
		if (starts[k].pc == 0) {
			start = unw_get_proc_info(c, &pi) < 0 ? 0 : pi.start_ip;
			starts[k].pc = pc;
			starts[k].start = start;
			return start;
		}
	}
	return unw_get_proc_info(c, &pi) < 0 ? 0 : pi.start_ip;
}

/*
 * Whether a caller's pc follows a call instruction, as every return address
 * does: the arch's own decoder (cr_host->call_before, the scan engine's,
 * which takes the function from its start: riscv64 finds instruction
 * boundaries from there), over the function libunwind's FDE gives.  One
 * place where it does not: libgcc's __builtin_eh_return epilogue
 * (_Unwind_RaiseException, _Unwind_Resume), between the store of the landing
 * pad's address over the function's own return-address slot and the final
 * ret.  There the CFI restores the landing pad (the target of a jump, after
 * no call) with an sp short of the landing pad's by the stack adjustment the
 * CFI cannot express.  No CFI unwinder is right beyond that frame: libunwind
 * goes on by reading the dead frames below, which holds no frame to check.
 * 0 where the code before pc is known to end with no call.
 */
static int after_call(unw_cursor_t *c, uint64_t pc)
{
	uint64_t start;

	if (!cr_host->call_before || pc == 0 || (start = func_start(c, pc)) == 0 ||
	    start >= pc || pc - start > 2 * CR_SCAN_MAX_INSNS || !executable(start) ||
	    !executable(pc - 1))
		return 1;	/* cannot look: not refuted */
	return cr_host->call_before((const uint8_t *)(uintptr_t)start, (size_t)(pc - start));
}

static void arm(void)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };

	seed = seed * 1103515245u + 12345u;
	its.it_value.tv_nsec = 50000 + (seed >> 8) % 200000;	/* 50-250 us */
	timer_settime(timer, 0, &its, NULL);
}

static void fill_dump(struct dump *d, const struct cr_trace *t, const uint64_t *lu_pc,
		      const uint64_t *lu_sp, unsigned n_lu)
{
	d->n_ours = t->n;
	d->n_lu = n_lu;
	for (unsigned i = 0; i < t->n; i++) {
		d->ours_pc[i] = t->f[i].pc;
		d->ours_sp[i] = t->f[i].sp;
	}
	memcpy(d->lu_pc, lu_pc, n_lu * sizeof(*lu_pc));
	memcpy(d->lu_sp, lu_sp, n_lu * sizeof(*lu_sp));
}

static void keep_dump(const struct cr_trace *t, const uint64_t *lu_pc, const uint64_t *lu_sp,
		      unsigned n_lu)
{
	if (n_dump < MAX_DUMP)
		fill_dump(&dumps[n_dump++], t, lu_pc, lu_sp, n_lu);
}

static void on_prof(int sig, siginfo_t *si, void *uc)
{
	static uint64_t lu_pc[MAXF], lu_sp[MAXF];
	static struct cr_frame f[MAXF];
	/* The trampolines by their bytes first, then CFI. */
	static const struct cr_policy sig_cfi = { "sig-cfi", 0, 3,
						  { CR_STEP_SIG, CR_STEP_STUB, CR_STEP_CFI } };
	struct cr_trace t = { .f = f, .max = MAXF };
	struct cr_regs regs;
	struct cr_walk w;
	struct cr_mem_fast ms;
	unw_cursor_t c;
	unsigned n_lu = 0, i;
	int ret = 0, lu_end = 0, exact = 1;	/* frame 0's pc is exact */

	(void)sig;
	(void)si;
	if (samples >= target)
		return;
	cr_regs_from_ucontext(uc, &regs);
	/* As the crash handler does (report.c): pages proven once, then read directly. */
	cr_walk_live(&w, &maps, regs.r[cr_host->sp], 1);
	cr_mem_fast_init(&ms);
	cr_mem_fast_sp(&ms, regs.r[cr_host->sp]);
	w.mem = &ms.m;
	cr_unwind(&w, &regs, &sig_cfi, &t);

	if (unw_init_local2(&c, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME) == 0) {
		do {
			unw_word_t ip, sp;

			unw_get_reg(&c, UNW_REG_IP, &ip);
			unw_get_reg(&c, UNW_REG_SP, &sp);
			if (n_lu && ip == lu_pc[n_lu - 1] && sp == lu_sp[n_lu - 1]) {
				/* The same frame again: no progress, libunwind
				   would loop (seen on riscv64 at ld.so's
				   _dl_runtime_resolve).  We stop there ("loop"). */
				ret = -1;
				break;
			}
			if (!executable(ip)) {
				/* No frame: libunwind stepped onto a return address
				   that is not code (0, or garbage read in the middle
				   of an epilogue whose CFI is transiently wrong) and
				   would go on by guessing.  We stop there too
				   ("bad return address"). */
				ret = -1;
				break;
			}
			if (!exact && !after_call(&c, ip)) {
				/* No return address: the eh_return window
				   (after_call).  We stop there ("no call site"). */
				if (!lu_noncall++) {	/* n_lu < MAXF: room for it */
					fill_dump(&noncall, &t, lu_pc, lu_sp, n_lu);
					noncall.lu_pc[n_lu] = ip;
					noncall.lu_sp[n_lu] = sp;
					noncall.n_lu = n_lu + 1;
				}
				ret = -1;
				break;
			}
			exact = unw_is_signal_frame(&c) > 0;
			lu_pc[n_lu] = ip;
			lu_sp[n_lu] = sp;
			n_lu++;
		} while (n_lu < MAXF && (ret = unw_step(&c)) > 0);
		lu_end = ret == 0;	/* libunwind reached the outermost frame */
	}
	if (ret < 0)
		lu_failed++;	/* compare the frames it did find */
	/* Every frame libunwind found must be ours, the same. */
	for (i = 0; i < n_lu; i++) {
		frames_cmp++;
		if (i < t.n && f[i].pc == lu_pc[i] && f[i].sp == lu_sp[i]) {
			frames_ok++;
			continue;
		}
		if (n_mm < MAX_REPORT)
			mm[n_mm++] = (struct mismatch){ samples, i, t.n, n_lu, f[0].pc,
							i < t.n ? f[i].pc : 0, i < t.n ? f[i].sp : 0,
							lu_pc[i], lu_sp[i], t.stop };
		keep_dump(&t, lu_pc, lu_sp, n_lu);
		frames_cmp += n_lu - i - 1;	/* the rest of this sample counts as missed */
		break;
	}
	/*
	 * Where libunwind completed, we must complete too, with no extra frame.
	 * Except one way to "complete": libunwind also ends a trace when a
	 * return address it restored is 0, where the CFI did not mark the
	 * return address undefined (aarch64, in libgcc while it installs a
	 * landing pad's registers over its own save slots).  We say "bad return
	 * address 0" after the same frames: counted apart, not as complete.
	 */
	if (i == n_lu && lu_end && t.n == n_lu && t.stop == CR_STOP_BADPC && t.stop_addr == 0)
		lu_zero_end++;
	else if (i == n_lu && lu_end && n_lu < MAXF &&
		 (t.n != n_lu || t.stop != CR_STOP_COMPLETE)) {
		body_short++;
		if (n_mm < MAX_REPORT)
			mm[n_mm++] = (struct mismatch){ samples, n_lu, t.n, n_lu, f[0].pc, 0, 0, 0,
							0, t.stop };
		keep_dump(&t, lu_pc, lu_sp, n_lu);
	}
	samples++;
	arm();
}

static const char *name_of(uint64_t pc, char *buf, size_t cap)
{
	struct cr_module mod;
	struct cr_sym s;

	if (cr_module_find(&cr_mem_self, pc, &mod) < 0)
		snprintf(buf, cap, "%#lx", (unsigned long)pc);
	else if (cr_sym_find(&cr_mem_self, &mod, pc, &s) == 0)
		snprintf(buf, cap, "%s+%lu", s.name, (unsigned long)(pc - s.start));
	else	/* no symbol: the module's file name and the offset */
		snprintf(buf, cap, "%.64s+%#lx",
			 strrchr(mod.path, '/') ? strrchr(mod.path, '/') + 1 : mod.path,
			 (unsigned long)(pc - mod.bias));
	return buf;
}

int main(int argc, char **argv)
{
#ifdef XW_DLOPEN
	unsigned long (*run)(unsigned long) = NULL;
#else
	unsigned long (*run)(unsigned long) = xw_run;
#endif
	struct sigevent sev;
	struct sigaction sa;
	char name[160], a[192], b[192], z[192];

	if (argc < 3) {
		fprintf(stderr, "usage: sigprof NAME SAMPLES [LIBRARY]\n");
		return 2;
	}
	target = atol(argv[2]);
	if (argc > 3) {
		void *h = dlopen(argv[3], RTLD_NOW);

		if (!h || !(run = (unsigned long (*)(unsigned long))dlsym(h, "xw_run"))) {
			printf("not ok 1 - dlopen %s: %s\n1..1\n", argv[3], dlerror());
			return 1;
		}
	}
	crash_install(&(struct crash_options){ .fd = 2, .signals = CRASH_SIGMASK(SIGSEGV) });
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_prof;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGPROF, &sa, NULL);
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGPROF;
	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer) < 0) {
		perror("timer_create");
		return 1;
	}
	if (cr_maps_load(&maps) <= 0) {
		printf("not ok 1 - /proc/self/maps\n1..1\n");
		return 1;
	}
	arm();
	/* Bounded: at most 120 s of work, in slices. */
	for (int slice = 0; slice < 12000 && samples < target; slice++)
		run(200);
	timer_delete(timer);

	snprintf(name, sizeof(name), "%s: %ld samples (wanted %ld)", argv[1], samples, target);
	tap_ok(samples >= target, name);
	snprintf(name, sizeof(name), "%s: cfi agrees with libunwind on %ld/%ld frames (pc and sp)",
		 argv[1], frames_ok, frames_cmp);
	tap_ok(frames_ok == frames_cmp && frames_cmp > 0, name);
	snprintf(name, sizeof(name), "%s: complete wherever libunwind is", argv[1]);
	tap_ok(body_short == 0, name);
	for (int i = 0; i < n_mm; i++)
		printf("#   sample %ld at %s: frame %u ours %s sp %#lx, libunwind %s sp %#lx "
		       "(ours %u frames, stop %u; libunwind %u)\n",
		       mm[i].sample, name_of(mm[i].pc0, z, sizeof(z)), mm[i].frame,
		       name_of(mm[i].ours_pc, a, sizeof(a)), (unsigned long)mm[i].ours_sp,
		       name_of(mm[i].lu_pc, b, sizeof(b)), (unsigned long)mm[i].lu_sp,
		       mm[i].n_ours, mm[i].stop, mm[i].n_lu);
	for (int d = 0; d < n_dump + (lu_noncall > 0); d++) {
		const struct dump *p = d < n_dump ? &dumps[d] : &noncall;
		unsigned n = p->n_ours > p->n_lu ? p->n_ours : p->n_lu;

		if (d < n_dump)
			printf("#   mismatch %d in full (ours | libunwind):\n", d + 1);
		else
			printf("#   the first pc after no call in full (ours | libunwind, "
			       "its last frame the one refused):\n");
		for (unsigned i = 0; i < n; i++) {
			printf("#     %2u %-40s %#14lx | %-40s %#14lx\n", i,
			       i < p->n_ours ? name_of(p->ours_pc[i], a, sizeof(a)) : "-",
			       i < p->n_ours ? (unsigned long)p->ours_sp[i] : 0UL,
			       i < p->n_lu ? name_of(p->lu_pc[i], b, sizeof(b)) : "-",
			       i < p->n_lu ? (unsigned long)p->lu_sp[i] : 0UL);
		}
	}
	printf("# agreement %s: %.4f%% of %ld frames in %ld samples; libunwind failed in %ld, "
	       "ended on a zero return address in %ld, stepped to a pc after no call in %ld\n",
	       argv[1], frames_cmp ? 100.0 * (double)frames_ok / (double)frames_cmp : 0.0,
	       frames_cmp, samples, lu_failed, lu_zero_end, lu_noncall);
	return tap_done();
}
