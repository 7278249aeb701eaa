/* SPDX-License-Identifier: MIT */
/*
 * Signal and si_code names.  Numbers from the Linux uapi headers
 * (asm-generic/siginfo.h, asm-generic/signal.h): the same on all four arches.
 */
#include <signal.h>

#include "sigdesc.h"
#include "str.h"

static const char *const signames[32] = {
	[1] = "SIGHUP",	  [2] = "SIGINT",    [3] = "SIGQUIT",	[4] = "SIGILL",	   [5] = "SIGTRAP",
	[6] = "SIGABRT",  [7] = "SIGBUS",    [8] = "SIGFPE",	[9] = "SIGKILL",   [10] = "SIGUSR1",
	[11] = "SIGSEGV", [12] = "SIGUSR2",  [13] = "SIGPIPE",	[14] = "SIGALRM",  [15] = "SIGTERM",
	[16] = "SIGSTKFLT", [17] = "SIGCHLD", [18] = "SIGCONT", [19] = "SIGSTOP",  [20] = "SIGTSTP",
	[21] = "SIGTTIN", [22] = "SIGTTOU",  [23] = "SIGURG",	[24] = "SIGXCPU",  [25] = "SIGXFSZ",
	[26] = "SIGVTALRM", [27] = "SIGPROF", [28] = "SIGWINCH", [29] = "SIGIO",   [30] = "SIGPWR",
	[31] = "SIGSYS",
};

const char *cr_signame(int sig)
{
	return sig > 0 && sig < 32 ? signames[sig] : NULL;
}

int cr_sig_from_name(const char *s, unsigned len)
{
	if (len > 3 && cr_strncmp(s, "SIG", 3) == 0) {
		s += 3;
		len -= 3;
	}
	for (int i = 1; i < 32; i++)
		if (signames[i] && cr_strlen(signames[i] + 3) == len &&
		    cr_strncmp(signames[i] + 3, s, len) == 0)
			return i;
	return 0;
}

static const char *const segv_codes[] = {
	NULL,	       "SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR",  "SEGV_PKUERR", "SEGV_ACCADI",
	"SEGV_ADIDERR", "SEGV_ADIPERR", "SEGV_MTEAERR", "SEGV_MTESERR", "SEGV_CPERR",
};
static const char *const bus_codes[] = {
	NULL, "BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR", "BUS_MCEERR_AR", "BUS_MCEERR_AO",
};
static const char *const fpe_codes[] = {
	NULL,	      "FPE_INTDIV", "FPE_INTOVF", "FPE_FLTDIV", "FPE_FLTOVF", "FPE_FLTUND",
	"FPE_FLTRES", "FPE_FLTINV", "FPE_FLTSUB", NULL,		NULL,	      NULL,
	NULL,	      NULL,	    "FPE_FLTUNK", "FPE_CONDTRAP",
};
static const char *const ill_codes[] = {
	NULL,	      "ILL_ILLOPC", "ILL_ILLOPN", "ILL_ILLADR", "ILL_ILLTRP",
	"ILL_PRVOPC", "ILL_PRVREG", "ILL_COPROC", "ILL_BADSTK", "ILL_BADIADDR",
};
static const char *const trap_codes[] = {
	NULL, "TRAP_BRKPT", "TRAP_TRACE", "TRAP_BRANCH", "TRAP_HWBKPT", "TRAP_UNK", "TRAP_PERF",
};
static const char *const sys_codes[] = { NULL, "SYS_SECCOMP", "SYS_USER_DISPATCH" };

#define PICK(tab, code) ((unsigned)(code) < sizeof(tab) / sizeof(tab[0]) ? tab[code] : NULL)

static const char *generic_code(int code)
{
	switch (code) {
	case 0:
		return "SI_USER";
	case 0x80:
		return "SI_KERNEL";
	case -1:
		return "SI_QUEUE";
	case -2:
		return "SI_TIMER";
	case -3:
		return "SI_MESGQ";
	case -4:
		return "SI_ASYNCIO";
	case -5:
		return "SI_SIGIO";
	case -6:
		return "SI_TKILL";
	case -7:
		return "SI_DETHREAD";
	case -60:
		return "SI_ASYNCNL";
	}
	return NULL;
}

const char *cr_codename(int sig, int code)
{
	if (code <= 0 || code == 0x80)
		return generic_code(code);
	switch (sig) {
	case SIGSEGV:
		return PICK(segv_codes, code);
	case SIGBUS:
		return PICK(bus_codes, code);
	case SIGFPE:
		return PICK(fpe_codes, code);
	case SIGILL:
		return PICK(ill_codes, code);
	case SIGTRAP:
		return PICK(trap_codes, code);
	case SIGSYS:
		return PICK(sys_codes, code);
	}
	return NULL;
}

int cr_code_has_addr(int sig, int code)
{
	if (code <= 0)
		return 0;
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
	       sig == SIGTRAP || sig == SIGSYS;
}

int cr_code_has_sender(int code)
{
	return code == 0 || code == -1 || code == -6;	/* SI_USER, SI_QUEUE, SI_TKILL */
}
