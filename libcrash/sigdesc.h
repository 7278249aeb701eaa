/* SPDX-License-Identifier: MIT */
/* Names of signals and of si_code values (pure tables, AS-safe). */
#ifndef CR_SIGDESC_H
#define CR_SIGDESC_H

/* "SIGSEGV"; realtime signals and unknown numbers: NULL (the caller prints the number). */
const char *cr_signame(int sig);

/* Short name without "SIG" ("SEGV") for option parsing; NULL if unknown. */
int cr_sig_from_name(const char *s, unsigned len);

/*
 * The name of si_code for sig: signal-specific codes when si_code > 0
 * ("SEGV_MAPERR"), the generic ones otherwise ("SI_USER", "SI_TKILL", ...).
 * NULL if unknown.
 */
const char *cr_codename(int sig, int code);

/* Does this si_code come from the kernel for a fault (si_addr is meaningful)? */
int cr_code_has_addr(int sig, int code);

/* Was it sent by a process (kill, tgkill, sigqueue): si_pid/si_uid are meaningful? */
int cr_code_has_sender(int code);

#endif
