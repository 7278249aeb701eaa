/* SPDX-License-Identifier: MIT */
/* Signal and si_code names. */
#include <signal.h>

#include "../tap.h"
#include "sigdesc.h"

int main(void)
{
	static const struct {
		int sig, code;
		const char *name;
	} codes[] = {
		{ SIGSEGV, SEGV_MAPERR, "SEGV_MAPERR" },   { SIGSEGV, SEGV_ACCERR, "SEGV_ACCERR" },
		{ SIGSEGV, 3, "SEGV_BNDERR" },		   { SIGSEGV, 4, "SEGV_PKUERR" },
		{ SIGSEGV, 9, "SEGV_MTESERR" },		   { SIGBUS, BUS_ADRALN, "BUS_ADRALN" },
		{ SIGBUS, BUS_ADRERR, "BUS_ADRERR" },	   { SIGBUS, BUS_OBJERR, "BUS_OBJERR" },
		{ SIGBUS, 4, "BUS_MCEERR_AR" },		   { SIGFPE, FPE_INTDIV, "FPE_INTDIV" },
		{ SIGFPE, FPE_INTOVF, "FPE_INTOVF" },	   { SIGFPE, FPE_FLTDIV, "FPE_FLTDIV" },
		{ SIGFPE, FPE_FLTINV, "FPE_FLTINV" },	   { SIGFPE, 14, "FPE_FLTUNK" },
		{ SIGILL, ILL_ILLOPC, "ILL_ILLOPC" },	   { SIGILL, ILL_ILLOPN, "ILL_ILLOPN" },
		{ SIGILL, ILL_PRVOPC, "ILL_PRVOPC" },	   { SIGILL, 9, "ILL_BADIADDR" },
		{ SIGTRAP, TRAP_BRKPT, "TRAP_BRKPT" },	   { SIGTRAP, TRAP_TRACE, "TRAP_TRACE" },
		{ SIGTRAP, 4, "TRAP_HWBKPT" },		   { SIGSYS, 1, "SYS_SECCOMP" },
		{ SIGSEGV, SI_USER, "SI_USER" },	   { SIGABRT, SI_TKILL, "SI_TKILL" },
		{ SIGABRT, SI_QUEUE, "SI_QUEUE" },	   { SIGSEGV, SI_KERNEL, "SI_KERNEL" },
		{ SIGALRM, SI_TIMER, "SI_TIMER" },	   { SIGIO, SI_SIGIO, "SI_SIGIO" },
		{ SIGABRT, SI_ASYNCIO, "SI_ASYNCIO" },	   { SIGABRT, SI_MESGQ, "SI_MESGQ" },
	};
	char name[64];

	for (unsigned i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		snprintf(name, sizeof(name), "sig %d code %d", codes[i].sig, codes[i].code);
		tap_is_str(cr_codename(codes[i].sig, codes[i].code), codes[i].name, name);
	}
	tap_ok(cr_codename(SIGSEGV, 99) == NULL, "unknown SEGV code: NULL");
	tap_ok(cr_codename(SIGABRT, 1) == NULL, "positive code of a signal without codes: NULL");
	tap_ok(cr_codename(SIGFPE, 10) == NULL, "hole in the FPE table: NULL");
	tap_ok(cr_codename(SIGSEGV, -100) == NULL, "unknown negative code: NULL");

	tap_is_str(cr_signame(SIGSEGV), "SIGSEGV", "SIGSEGV name");
	tap_is_str(cr_signame(SIGSYS), "SIGSYS", "SIGSYS name");
	tap_is_str(cr_signame(SIGABRT), "SIGABRT", "SIGABRT name");
	tap_ok(cr_signame(0) == NULL && cr_signame(40) == NULL, "no name for 0 and realtime");
	tap_is_i64(cr_sig_from_name("SEGV", 4), SIGSEGV, "SEGV -> 11");
	tap_is_i64(cr_sig_from_name("SIGBUS", 6), SIGBUS, "SIGBUS -> 7");
	tap_is_i64(cr_sig_from_name("SEG", 3), 0, "prefix is not a name");
	tap_is_i64(cr_sig_from_name("SEGVX", 5), 0, "longer is not a name");

	tap_ok(cr_code_has_addr(SIGSEGV, SEGV_MAPERR), "SEGV_MAPERR has an address");
	tap_ok(!cr_code_has_addr(SIGSEGV, SI_USER), "SI_USER has no address");
	tap_ok(!cr_code_has_addr(SIGABRT, SI_TKILL), "SIGABRT has no address");
	tap_ok(cr_code_has_sender(SI_USER) && cr_code_has_sender(SI_TKILL) &&
		       cr_code_has_sender(SI_QUEUE),
	       "sent signals have a sender");
	tap_ok(!cr_code_has_sender(SEGV_MAPERR) && !cr_code_has_sender(SI_KERNEL),
	       "faults have no sender");
	return tap_done();
}
